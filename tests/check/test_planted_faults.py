"""Planting one fault in a copy of the real repository makes the checker report it at that path and line.

Compared with the copy's findings before planting, so the test holds while the rules are being written.

One copy serves the module: it is checked once in full (``pristine``), then each test plants its fault
in it, checks it again with the cache that full check left (so only the planted file and what depends on
it is checked again, as ``rulespy check`` does on a contributor's machine) and puts the copy back, so
that every test sees the unchanged copy. The cold path, a full check without a cache, is held to the
same findings by ``test_every_fault_planted_at_once_is_reported_by_a_check_without_a_cache`` (all the
faults in a fresh copy) and, file by file, by ``tests/check/test_incremental.py``.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
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


def _findings(root: Path, options: CheckOptions) -> Findings:
    return {(f.path, f.line, f.code) for f in check_tree(root, options)}


@dataclass
class Copy:
    """The module's copy of the repository, its check cache, and what a test changed in it."""

    root: Path
    options: CheckOptions
    before: Findings = field(default_factory=set)
    saved: dict[Path, bytes | None] = field(default_factory=dict)

    def write(self, name: str, data: bytes) -> None:
        path = self.root / name
        if path not in self.saved:
            self.saved[path] = path.read_bytes() if path.exists() else None
        path.write_bytes(data)

    def append(self, name: str, text: str) -> int:
        """Append ``text`` as a paragraph of its own; the line it starts on."""
        before = (self.root / name).read_text(encoding="utf-8").rstrip("\n")
        self.write(name, (before + "\n\n" + text + "\n").encode("utf-8"))
        return before.count("\n") + 3

    def findings(self) -> Findings:
        return _findings(self.root, self.options)

    def restore(self) -> None:
        for path, data in self.saved.items():
            if data is None:
                path.unlink()
            else:
                path.write_bytes(data)
        self.saved.clear()


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Copy:
    """The copy, checked once in full into its own cache (every test sees it unchanged)."""
    folder = tmp_path_factory.mktemp("planted")
    copy = Copy(_copied(folder / "repo"), CheckOptions(cache_dir=folder / "cache"))
    copy.before = copy.findings()
    return copy


@pytest.fixture()
def copy(pristine: Copy) -> Iterator[Copy]:
    yield pristine
    pristine.restore()
    assert pristine.findings() == pristine.before, "the copy was not put back"


PLANTS = {
    "broken link": ("core/cover.md", "See [nothing](no_such_rule.md).", "RS001"),
    "broken anchor": ("core/cover.md", "See [nothing](damage.md#no-such-anchor).", "RS003"),
    "broken mention": ("core/cover.md", "As `core/no_such_rule.md` says.", "RS004"),
    "wrong ownership claim": ("core/cover.md", "Target Limit is owned by `core/cover.md`.", "RS012"),
    "link out of the repository": ("core/cover.md", "See [outside](../../outside.md).", "RS002"),
    "retired term": ("core/cover.md", "A unit may make a reaction to shooting.", "RS031"),
}
RESTATED = "## Target Limit {#cover-target-limit}\n\nOnly one model per success."


@pytest.mark.parametrize("kind", sorted(PLANTS))
def test_a_planted_fault_is_reported_at_its_line(copy: Copy, kind: str) -> None:
    name, text, code = PLANTS[kind]
    line = copy.append(name, text)
    assert copy.findings() - copy.before == {(name, line, code)}


def test_a_restated_concept_is_reported(copy: Copy) -> None:
    line = copy.append("core/cover.md", RESTATED)
    assert copy.findings() - copy.before == {("core/cover.md", line, "RS013")}


def test_an_orphan_page_and_a_non_utf8_file_are_reported(copy: Copy) -> None:
    copy.write("core/orphan.md", b"# Orphan {#orphan}\n")
    copy.write("core/latin.md", b"# Latin {#latin}\n\nCaf\xe9\n")
    copy.append("index.md", "[latin](core/latin.md)")
    assert copy.findings() - copy.before == {("core/orphan.md", 1, "RS020"), ("core/latin.md", 3, "RS040")}


def test_a_link_in_a_code_block_is_never_reported(copy: Copy) -> None:
    copy.append("core/cover.md", "```\n[nothing](no_such_rule.md)\n```\n\n    [nothing](no_such_rule.md)")
    assert copy.findings() == copy.before


def test_every_fault_planted_at_once_is_reported_by_a_check_without_a_cache(
    pristine: Copy, tmp_path: Path
) -> None:
    """The cold path: a fresh copy with every planted fault above, checked with ``use_cache=False``
    (``--no-cache``), reports each of them and nothing else new."""
    cold = Copy(_copied(tmp_path / "repo"), CheckOptions(use_cache=False))
    expected: Findings = set()
    for name, text, code in PLANTS.values():
        expected.add((name, cold.append(name, text), code))
    line = cold.append("core/cover.md", RESTATED)
    expected.add(("core/cover.md", line, "RS013"))
    cold.write("core/orphan.md", b"# Orphan {#orphan}\n")
    cold.write("core/latin.md", b"# Latin {#latin}\n\nCaf\xe9\n")
    cold.append("index.md", "[latin](core/latin.md)")
    expected |= {("core/orphan.md", 1, "RS020"), ("core/latin.md", 3, "RS040")}
    cold.append("core/cover.md", "```\n[nothing](no_such_rule.md)\n```\n\n    [nothing](no_such_rule.md)")
    assert cold.findings() - pristine.before == expected
