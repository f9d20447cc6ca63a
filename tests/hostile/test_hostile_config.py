"""A hostile ``mkdocs.yml`` (issue 29): each class that would run code, read the build machine or publish
outside files is a finding of ``rulespy check`` at its line, and the site build refuses to start a
generator on it; ``build/`` and ``site/`` symlinked out of the repository are refused before anything
is written or deleted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulespy.check.runner import CheckOptions, check_tree
from rulespy.cli import main
from rulespy.render.build import GENERATORS, UnsafeBuild, build, refuse_unsafe
from tests.check.helpers import write

from . import cases

HOME = "# Home\n\nThe rules.\n"
ROOT = Path(__file__).resolve().parents[2]


def _found(root: Path) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.code) for f in check_tree(root, CheckOptions(use_cache=False))]


@pytest.mark.parametrize("generator", GENERATORS)
@pytest.mark.parametrize("name", sorted(cases.UNSAFE_CONFIG))
def test_unsafe_configuration_is_found_and_the_build_refuses_it(
    name: str, generator: str, tmp_path: Path
) -> None:
    line, code = cases.UNSAFE_CONFIG[name]
    root = write(tmp_path / "repo", {"index.md": HOME, "mkdocs.yml": cases.config_with(line)})
    assert ("mkdocs.yml", cases.CONFIG_LINE, code) in _found(root)
    with pytest.raises(UnsafeBuild, match=f"mkdocs.yml:{cases.CONFIG_LINE}:[0-9]+: {code} "):
        build(generator, root, root / "site")  # refused before the generator starts
    assert not (root / "site").exists() and not (root / "build").exists()


def test_an_inherited_file_is_checked_at_its_own_lines(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "index.md": HOME,
            "mkdocs.yml": "INHERIT: config/base.yml\nsite_name: Hostile\n",
            "config/base.yml": "nav: [index.md]\nhooks:\n  - config/evil.py\n",
        },
    )
    assert _found(root) == [("config/base.yml", 2, "RS082")]


def test_the_repository_configuration_is_clean_and_passes() -> None:
    refuse_unsafe(ROOT, ROOT / "site")  # raises when make site on main would stop


def test_a_python_tag_is_never_constructed_by_the_check(tmp_path: Path) -> None:
    # composing, not loading: the tag would run `touch` if it were ever constructed
    planted = tmp_path / "ran"
    line = f"x: !!python/object/apply:os.system ['touch {planted}']"
    root = write(tmp_path / "repo", {"index.md": HOME, "mkdocs.yml": cases.config_with(line)})
    assert main(["check", str(root), "--no-cache"]) == 1
    assert not planted.exists()


# --- build/ and site/ as symlinks out of the repository ---------------------------------------------


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A folder outside the repository, with a file that must survive."""
    folder = tmp_path / "home"
    folder.mkdir()
    (folder / "precious.txt").write_text("keep\n", encoding="utf-8")
    return folder


def _site_step(module: str, root: Path) -> subprocess.CompletedProcess[str]:
    """``make site``'s step ``module`` (the site build or the editions build) with mkdocs, into ``site``."""
    command = [sys.executable, "-m", module, "mkdocs", "--root", str(root), "--site-dir", str(root / "site")]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def _repo(tmp_path: Path) -> Path:
    return write(tmp_path / "repo", {"index.md": HOME, "mkdocs.yml": (ROOT / "mkdocs.yml").read_text()})


@pytest.mark.parametrize("folder", ["build", "site", "build/pages", "site/assets"])
def test_an_output_folder_linked_out_of_the_repository_is_refused_and_nothing_is_removed(
    folder: str, tmp_path: Path, victim: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path)
    (root / folder).parent.mkdir(parents=True, exist_ok=True)
    (root / folder).symlink_to(victim, target_is_directory=True)
    found = _found(root)
    assert (folder, 1, "RS045") in found
    assert main(["render", str(root)]) == (2 if folder.startswith("build") else 0)
    done = _site_step("rulespy.render.build", root)
    assert done.returncode == 2 and f"{folder} -> {victim}" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in victim.iterdir()) == ["precious.txt"]  # nothing written or deleted


def test_the_editions_build_refuses_a_linked_site_folder(tmp_path: Path, victim: Path) -> None:
    root = _repo(tmp_path)
    (root / "site").symlink_to(victim, target_is_directory=True)
    done = _site_step("rulespy.editions.site", root)
    assert done.returncode == 2 and "site -> " in done.stderr
    assert sorted(p.name for p in victim.iterdir()) == ["precious.txt"]


def test_a_symlink_that_stays_inside_is_no_finding(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (root / "elsewhere").mkdir()
    (root / "site").symlink_to(root / "elsewhere", target_is_directory=True)
    assert [f for f in _found(root) if f[2] == "RS045"] == []
