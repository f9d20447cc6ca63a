"""``rulespy render`` on small trees written here: deterministic and incremental output, and input it
must refuse or keep out (outside symlinks, two files for one URL, non-UTF-8 files, hostile scenarios)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulespy.render.build import build
from rulespy.render.stage import RenderError, render

ROOT = Path(__file__).resolve().parents[2]
SECRET = "OUTSIDE-SECRET-7f3a"

EXAMPLE = '''# Cover {#cover}

Some rules. See core/melee.md.

```{.python}
from rulespy.scenario import parse_scenario

parse_scenario("""
%s
""")
```
'''
GOOD = """weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - {id: gun, side: blue, models: [{id: g1, at: [0, 0], leader: true, weapons: [rifle]}]}
  - {id: foes, side: red, models: [{id: f1, at: [10, 0]}]}
attack: {unit: gun, command: shoot, targets: [{unit: foes, mark: f1}]}
dice: [4]"""


def tree(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "core").mkdir(parents=True)
    (repo / "index.md").write_text("# Home {#home}\n\nThe rules: core/cover.md and core/melee.md.\n")
    (repo / "core" / "cover.md").write_text(EXAMPLE % GOOD)
    (repo / "core" / "melee.md").write_text("# Melee {#melee}\n\nSee core/cover.md.\n")
    shutil.copy(ROOT / "mkdocs.yml", repo / "mkdocs.yml")
    return repo


def test_two_renders_are_byte_identical_and_the_second_rewrites_nothing(tmp_path: Path) -> None:
    repo = tree(tmp_path)
    first = render(repo, tmp_path / "a", tmp_path / "a.yml")
    render(repo, tmp_path / "b", tmp_path / "b.yml")
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert files and all(
        (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files
    )
    assert "core/cover.md" in first.written and "glossary.md" in first.written
    again = render(repo, tmp_path / "a", tmp_path / "a.yml")
    assert again.rendered == [] and again.written == []


def test_one_changed_file_renders_only_what_depends_on_it(tmp_path: Path) -> None:
    repo = tree(tmp_path)
    render(repo, tmp_path / "out", tmp_path / "nav.yml")
    (repo / "core" / "cover.md").write_text((repo / "core" / "cover.md").read_text() + "\nMore.\n")
    report = render(repo, tmp_path / "out", tmp_path / "nav.yml")
    assert report.rendered == ["core/cover.md"]
    assert "More." in (tmp_path / "out" / "core" / "cover.md").read_text()


def test_an_example_board_is_drawn_and_the_mention_linked(tmp_path: Path) -> None:
    repo = tree(tmp_path)
    render(repo, tmp_path / "out", tmp_path / "nav.yml")
    page = (tmp_path / "out" / "core" / "cover.md").read_text()
    assert '<figure class="vs-board"><svg' in page and "See [core/melee.md](melee.md)." in page


@pytest.mark.parametrize(
    ("scenario", "why"),
    [
        (GOOD.replace("at: [10, 0]", "at: [.inf, 0]"), "scenario refused by the loader"),
        (GOOD.replace("at: [10, 0]", "at: [1.0e+7, 0]"), "scenario refused by the loader"),
        (GOOD.replace("at: [10, 0]", "at: [5000, 0]"), "wider than"),
        ("units: &a [*a]\nattack: {}", "scenario refused by the loader"),
        ("units: " + "[" * 5000 + "]" * 5000 + "\nattack: {}", "scenario refused by the loader"),
        (GOOD.replace("at: [10, 0]", "at: [" + "4" * 4000 + ", 0]"), "scenario refused by the loader"),
    ],
)
def test_a_hostile_example_scenario_draws_nothing_and_is_named_in_a_warning(
    tmp_path: Path, scenario: str, why: str
) -> None:
    repo = tree(tmp_path)
    (repo / "core" / "cover.md").write_text(EXAMPLE % scenario)
    report = render(repo, tmp_path / "out", tmp_path / "nav.yml")
    assert any(w.startswith("core/cover.md:5:") and why in w for w in report.warnings), report.warnings
    assert "<svg" not in (tmp_path / "out" / "core" / "cover.md").read_text()


def test_load_scenario_of_a_file_outside_the_repository_is_never_read(tmp_path: Path) -> None:
    repo = tree(tmp_path)
    (tmp_path / "secret.yaml").write_text(GOOD.replace("gun", SECRET))
    code = '```{.python}\nfrom rulespy.scenario import load_scenario\nload_scenario("../secret.yaml")\n```\n'
    (repo / "core" / "cover.md").write_text("# Cover {#cover}\n\n" + code)
    report = render(repo, tmp_path / "out", tmp_path / "nav.yml")
    assert any("outside the repository" in w for w in report.warnings)
    assert SECRET not in (tmp_path / "out" / "core" / "cover.md").read_text()


@pytest.mark.parametrize(
    "data",
    [
        "# Caf\u00e9\n".encode("latin-1"),
        "# Rules\n".encode("utf-16"),
        "# Rules\n".encode("utf-16-le"),
        b"\x00\xff\x10",
    ],
    ids=["latin-1", "utf-16-bom", "utf-16-no-bom", "binary"],
)
def test_a_rule_file_that_is_not_utf8_text_is_named_never_a_traceback(tmp_path: Path, data: bytes) -> None:
    repo = tree(tmp_path)
    (repo / "core" / "odd.md").write_bytes(data)
    with pytest.raises(RenderError) as refused:
        render(repo, tmp_path / "out", tmp_path / "nav.yml")
    assert refused.value.problems[0].startswith("core/odd.md:")
    done = subprocess.run(
        [str(Path(sys.executable).parent / "rulespy"), "render", str(repo), "--out", str(tmp_path / "o")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "core/odd.md:" in done.stderr and "Traceback" not in done.stderr


def test_two_files_publishing_to_one_url_are_refused(tmp_path: Path) -> None:
    repo = tree(tmp_path)
    (repo / "core" / "cover").mkdir()
    (repo / "core" / "cover" / "index.md").write_text("# Other {#other}\n")
    with pytest.raises(RenderError) as refused:
        render(repo, tmp_path / "out", tmp_path / "nav.yml")
    assert refused.value.problems == [
        "core/cover/index.md:1: publishes to the same URL /core/cover/ as core/cover.md: rename one of them"
    ]


@pytest.mark.parametrize("generator", ["mkdocs", "zensical"])
def test_rule_files_and_folders_linked_from_outside_never_reach_the_site(
    tmp_path: Path, generator: str
) -> None:
    repo = tree(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"# Secret {{#secret}}\n\n{SECRET}\n")
    os.symlink(outside / "secret.md", repo / "core" / "notes.md")
    os.symlink(outside, repo / "core" / "root")
    report = render(repo)
    assert sorted(w.split(":")[0] for w in report.warnings) == ["core/notes.md", "core/root"]
    done = build(generator, repo, repo / "site")
    assert done.returncode == 0, done.stderr
    leaked = [p for p in (repo / "site").rglob("*") if p.is_file() and SECRET.encode() in p.read_bytes()]
    assert leaked == []


def test_render_and_build_of_a_folder_that_does_not_exist_say_so_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``rulespy render`` and ``python -m rulespy.render.build`` on a missing folder: one line naming it,
    exit 2 (the render used to answer "internal error: CheckError", the build a traceback)."""
    from rulespy.cli import main
    from rulespy.render import build

    missing = tmp_path / "nowhere"
    assert main(["render", str(missing)]) == 2
    said = capsys.readouterr().err
    assert said.startswith(f"rulespy render: {missing}") and "internal error" not in said
    assert build.main(["mkdocs", "--root", str(missing)]) == 2
    assert capsys.readouterr().err == f"python -m rulespy.render.build: {missing}: no such folder\n"
