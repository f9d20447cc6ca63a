"""Planting one fault in a copy of the real repository makes the checker report it at that path and line.

Compared with the copy's findings before planting, so the test holds while the rules are being written.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulespy.check.runner import CheckOptions, check_tree

REPO = Path(__file__).resolve().parents[2]
Findings = set[tuple[str, int, str]]
COPIED = ("index.md", "concepts.yml", "mkdocs.yml", "core", "sequences", "timing", "commands", "rulespy")

pytestmark = pytest.mark.skipif(not (REPO / "core" / "damage.md").is_file(), reason="no rule files yet")


def _copied(root: Path) -> Path:
    root.mkdir()
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.is_file():
            shutil.copy2(source, root / name)
    return root


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    return _copied(tmp_path / "repo")


@pytest.fixture(scope="module")
def before(tmp_path_factory: pytest.TempPathFactory) -> Findings:
    """The findings of an unchanged copy, checked once for the module (every copy holds the same files,
    and a finding names its path relative to the copy): each test checks only its planted copy."""
    return _findings(_copied(tmp_path_factory.mktemp("pristine") / "repo"))


def _findings(root: Path) -> set[tuple[str, int, str]]:
    return {(f.path, f.line, f.code) for f in check_tree(root, CheckOptions(use_cache=False))}


def _append(root: Path, name: str, text: str) -> int:
    path = root / name
    before = path.read_text(encoding="utf-8")
    path.write_text(before.rstrip("\n") + "\n\n" + text + "\n", encoding="utf-8")
    return before.rstrip("\n").count("\n") + 3


PLANTS = {
    "broken link": ("core/cover.md", "See [nothing](no_such_rule.md).", "RS001"),
    "broken anchor": ("core/cover.md", "See [nothing](damage.md#no-such-anchor).", "RS003"),
    "broken mention": ("core/cover.md", "As `core/no_such_rule.md` says.", "RS004"),
    "wrong ownership claim": ("core/cover.md", "Target Limit is owned by `core/cover.md`.", "RS012"),
    "link out of the repository": ("core/cover.md", "See [outside](../../outside.md).", "RS002"),
    "retired term": ("core/cover.md", "A unit may make a reaction to shooting.", "RS031"),
}


@pytest.mark.parametrize("kind", sorted(PLANTS))
def test_a_planted_fault_is_reported_at_its_line(
    copy: Path, before: Findings, kind: str
) -> None:
    name, text, code = PLANTS[kind]
    line = _append(copy, name, text)
    assert _findings(copy) - before == {(name, line, code)}


def test_a_restated_concept_is_reported(copy: Path, before: Findings) -> None:
    section = "## Target Limit {#cover-target-limit}\n\nOnly one model per success."
    line = _append(copy, "core/cover.md", section)
    assert _findings(copy) - before == {("core/cover.md", line, "RS013")}


def test_an_orphan_page_and_a_non_utf8_file_are_reported(copy: Path, before: Findings) -> None:
    (copy / "core" / "orphan.md").write_text("# Orphan {#orphan}\n", encoding="utf-8")
    (copy / "core" / "latin.md").write_bytes(b"# Latin {#latin}\n\nCaf\xe9\n")
    _append(copy, "index.md", "[latin](core/latin.md)")
    assert _findings(copy) - before == {("core/orphan.md", 1, "RS020"), ("core/latin.md", 3, "RS040")}


def test_a_link_in_a_code_block_is_never_reported(copy: Path, before: Findings) -> None:
    _append(copy, "core/cover.md", "```\n[nothing](no_such_rule.md)\n```\n\n    [nothing](no_such_rule.md)")
    assert _findings(copy) == before
