"""What the Python code says about the rules: ``Rule:`` citations in ``rulespy`` and the unit tests.

A citation is a docstring line ``Rule: PATH#ANCHOR`` (module, class or function docstring, read with
``ast``), the same convention ``rulespy check`` verifies (RS051). A unit test names a rule section when
its function name contains the anchor's words (``test_target_limit_caps_wounds`` names ``#target-limit``:
the anchor with ``-`` read as ``_``, bounded by ``_`` or the ends of the name) or when its docstring has a
``Rule:`` line. Of two anchors found at overlapping places in one name, the longer wins, so
``test_critical_damage_kills`` names ``#critical-damage`` and not ``#damage``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rulespy.check.checks_code import docstring_citations

_DOCUMENTED = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True)
class Citation:
    """``qualname`` (module, class or function) in ``path`` at ``line`` cites ``target`` (``PATH#ANCHOR``)."""

    qualname: str
    path: str
    line: int
    target: str


@dataclass(frozen=True)
class UnitTest:
    """A test function: pytest's node id, and the rules its docstring cites."""

    nodeid: str
    name: str
    path: str
    line: int
    cites: tuple[str, ...]


def _walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, ast.AST]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, _DOCUMENTED):
            name = f"{prefix}.{child.name}"
            yield name, child
            yield from _walk(child, name)
        elif not isinstance(child, ast.Lambda):
            yield from _walk(child, prefix)


def _parse(root: Path, file: Path) -> ast.Module | None:
    try:
        return ast.parse(file.read_text(encoding="utf-8"), filename=str(file))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError):
        return None  # the linters report it


def _python_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*.py") if p.is_file() and "__pycache__" not in p.parts)


def citations(root: Path, package: str = "rulespy") -> list[Citation]:
    """Every ``Rule:`` citation in the package's modules, classes and functions, in file order."""
    found: list[Citation] = []
    for file in _python_files(root / package):
        tree = _parse(root, file)
        if tree is None:
            continue
        relative = file.relative_to(root).as_posix()
        module = relative[:-3].replace("/", ".").removesuffix(".__init__")
        for line, target in docstring_citations(tree):
            found.append(Citation(module, relative, line, target))
        for name, node in _walk(tree, module):
            for line, target in docstring_citations(node):
                found.append(Citation(name, relative, line, target))
    return found


def unit_tests(root: Path, folder: str = "tests") -> list[UnitTest]:
    """Every ``test_*`` function (module level or in a ``Test*`` class) under ``folder``."""
    found: list[UnitTest] = []
    for file in _python_files(root / folder):
        if not file.name.startswith("test_"):
            continue
        tree = _parse(root, file)
        if tree is None:
            continue
        relative = file.relative_to(root).as_posix()
        for qual, node in _walk(tree, ""):
            parts = qual.lstrip(".").split(".")
            if not parts[-1].startswith("test") or not isinstance(
                node, ast.FunctionDef | ast.AsyncFunctionDef
            ):
                continue
            if len(parts) > 2 or (len(parts) == 2 and not parts[0].startswith("Test")):
                continue
            cites = tuple(target for _, target in docstring_citations(node))
            found.append(
                UnitTest(
                    f"{relative}::{'::'.join(parts)}", parts[-1], relative, getattr(node, "lineno", 1), cites
                )
            )
    return found


@dataclass(frozen=True)
class AnchorIndex:
    """Anchors by their words as a test name writes them (``target-limit`` under ``target_limit``), and
    the most words any has."""

    by_words: dict[str, list[str]]
    longest: int


def anchor_index(anchors: set[str]) -> AnchorIndex:
    """The index ``anchors_named`` looks names up in; build it once for all the tests."""
    by_words: dict[str, list[str]] = {}
    for anchor in anchors:
        if anchor:
            by_words.setdefault(anchor.replace("-", "_"), []).append(anchor)
    return AnchorIndex(by_words, max((key.count("_") + 1 for key in by_words), default=0))


def anchors_named(test_name: str, index: AnchorIndex) -> set[str]:
    """The anchors whose words a test's name contains (longest wins where two overlap).

    Only runs of whole ``_``-separated words of the name are looked up, so a name costs its words times
    the longest anchor's words, whatever the number of anchors.
    """
    longest = index.longest
    words = test_name.split("_")
    starts = [0]
    for word in words:
        starts.append(starts[-1] + len(word) + 1)
    hits: list[tuple[int, int, str]] = []
    last_end: dict[str, int] = {}
    for i in range(len(words)):
        for j in range(i + 1, min(len(words), i + longest) + 1):
            start, end = starts[i], starts[j] - 1
            for anchor in index.by_words.get(test_name[start:end], ()):
                if start > last_end.get(anchor, -1):  # each anchor's occurrences do not overlap
                    hits.append((start, end, anchor))
                    last_end[anchor] = end
    kept = set()
    for start, end, anchor in hits:
        if not any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in hits):
            kept.add(anchor)
    return kept


def named_anchors(test_name: str, anchors: set[str]) -> set[str]:
    """The anchors whose words a test's name contains (longest wins where two overlap)."""
    return anchors_named(test_name, anchor_index(anchors))
