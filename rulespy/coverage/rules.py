"""The rule files as coverage reads them: sections with explicit ids, the worked examples, the registry.

Rule files are the markdown files under the rule folders (``check: rule_dirs``; ``core/``,
``sequences/``, ``timing/`` and ``commands/``). A rule section is the rule book's ``Section``
(``rulespy.book.sections``) of level 2 or more (``## Target Limit {#target-limit}``); the level-1
heading names the file and is not a section.

Examples are the worked examples ``rulespy.check.examples`` defines ("executed by the test suite"). An
example exercises the section it sits in and every section enclosing it, plus any
``# exercises: PATH#ANCHOR`` comment line inside the fence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from rulespy.book.book import Book, page_of
from rulespy.book.sections import Section
from rulespy.check.examples import WorkedExample
from rulespy.check.findings import CheckError
from rulespy.check.registry import REGISTRY, Concept
from rulespy.check.slugs import split_attr_list

_MARKER_RE = re.compile(r"^\s*#\s*exercises:\s*(.+?)\s*$", re.IGNORECASE)


class CoverageError(CheckError):
    """Coverage cannot run (bad path, unreadable registry or rule file): exit status 2."""


@dataclass(frozen=True)
class Example:
    """One executed python fence (``worked``, as ``rulespy.check.examples`` defines it) and the sections it
    sits in; ``code`` is what the test suite runs (the fences it continues, then its own)."""

    path: str
    worked: WorkedExample = field(repr=False)
    sections: tuple[str, ...]
    markers: tuple[str, ...]

    @property
    def line(self) -> int:
        return self.worked.line

    @property
    def content(self) -> str:
        return self.worked.content

    @property
    def code(self) -> str:
        return self.worked.code

    @property
    def name(self) -> str:
        return f"{self.path}:{self.line}"

    def marker_target(self, marker: str) -> str:
        """The ``PATH#ANCHOR`` an ``# exercises:`` marker names (``#anchor`` alone: in this file)."""
        return f"{self.path}{marker}" if marker.startswith("#") else marker


@dataclass(frozen=True)
class RuleFile:
    path: str
    title_anchor: str | None
    sections: tuple[Section, ...]
    examples: tuple[Example, ...]

    def anchors(self) -> set[str]:
        ids = {s.anchor for s in self.sections}
        if self.title_anchor:
            ids.add(self.title_anchor)
        return ids


def heading_id(inline: str) -> tuple[str, str | None]:
    """The heading text without its attribute list, and its explicit ``#id`` if any (as the site reads
    it: ``rulespy.check.slugs.split_attr_list``)."""
    text, ident = split_attr_list(inline)
    return text.strip(), ident


def parse_rule_file(path: str, text: str) -> RuleFile:
    """Sections (the rule book's ``Section``, level 2 or more) and worked examples of one rule file;
    ``path`` is repository-relative. Read from the book's one parse of the text (``rulespy.book``)."""
    page = page_of(path, path, text)
    title = next((s.anchor for s in page.sections if s.level == 1), None)
    sections = tuple(s for s in page.sections if s.level >= 2)
    examples: list[Example] = []
    for example in page.examples:
        markers = tuple(m.group(1) for m in map(_MARKER_RE.match, example.content.splitlines()) if m)
        here = tuple(s.anchor for s in sections if s.line <= example.line < s.outer_end)
        examples.append(Example(path, example, here, markers))
    return RuleFile(path, title, sections, tuple(examples))


def _read(root: Path, relative: str) -> str:
    try:
        return (root / relative).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        line = (root / relative).read_bytes()[: error.start].count(b"\n") + 1
        raise CoverageError("not UTF-8 text", relative, line) from None
    except OSError as error:
        raise CoverageError(f"cannot read: {error.strerror or error}", relative, 1) from None


def rule_paths(root: Path) -> list[str]:
    """Every rule file, repository-relative with ``/``, sorted: the rule book's (``Book.rule_paths``:
    the ``check: rule_dirs`` folders, listed by the checker's walk), so a symlink resolving outside the
    repository (RS043) is never read, run or published."""
    return any_book(root).rule_paths()


def any_book(root: Path) -> Book:
    """The book of ``root``; with the default rule folders and no concepts when ``concepts.yml`` cannot be
    read (an old release's tree, read by What changed, which opens each tree's book once with it)."""
    try:
        try:
            return Book.open(root)
        except CheckError:  # concepts.yml unreadable (an old release's tree): the default rule folders
            return Book.without_registry(root)
    except CheckError as error:
        raise CoverageError(error.message, error.path, error.line) from None


def open_book(root: Path) -> Book:
    """The rule book coverage reports on, ``concepts.yml`` read once (``Book.open``): its rule files
    (``load_rule_files(root, book)``) and its concepts (``book.concepts``). ``CoverageError`` with the
    registry's file and line when there is no ``concepts.yml`` or it cannot be read."""
    if not (root / REGISTRY).is_file():
        raise CoverageError("no concepts.yml: is this the rules repository?", REGISTRY, 1)
    try:
        return Book.open(root)
    except CheckError as error:
        raise CoverageError(error.message, error.path or REGISTRY, error.line) from None


#: The home page: not a rule file, but a worked example written there runs under pytest (``testpaths``)
#: and is measured like any other, so coverage reads it when it holds one.
HOME = "index.md"


def load_rule_files(root: Path, book: Book | None = None) -> dict[str, RuleFile]:
    """Every rule file of ``book`` (opened here when not given), and the home page when it holds a
    worked example."""
    paths = (book or any_book(root)).rule_paths()
    files = {path: parse_rule_file(path, _read(root, path)) for path in paths}
    home = root / HOME
    if home.is_file() and not home.is_symlink():
        parsed = parse_rule_file(HOME, _read(root, HOME))
        if parsed.examples:
            files = {HOME: parsed, **files}
    return files


def load_concepts(root: Path) -> tuple[Concept, ...]:
    """The owned concepts of ``concepts.yml`` (``open_book(root).concepts``)."""
    return open_book(root).concepts
