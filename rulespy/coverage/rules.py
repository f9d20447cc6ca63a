"""The rule files as coverage reads them: sections with explicit ids, the worked examples, the registry.

Rule files are the markdown files under ``core/``, ``sequences/``, ``timing/`` and ``commands/``. A rule
section is a heading of level 2 or more carrying an explicit id (``## Target Limit {#target-limit}``); the
level-1 heading names the file and is not a section.

Examples are found exactly as pytest-markdown-docs finds them, so that "example" means "executed by the
test suite": a CommonMark fence (markdown-it-py) whose superfences info names ``python``, ``py`` or
``python3`` and does not say ``notest``; a ``continuation`` fence runs after the fences before it. An
example exercises the section it sits in and every section enclosing it, plus any
``# exercises: PATH#ANCHOR`` comment line inside the fence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt

from rulespy.check.files import RULE_DIRS
from rulespy.check.findings import CheckError
from rulespy.check.registry import REGISTRY, Concept, load_registry
from rulespy.check.slugs import split_attr_list

_MARKER_RE = re.compile(r"^\s*#\s*exercises:\s*(.+?)\s*$", re.IGNORECASE)
_PYTHON = ("python", "py", "python3")


class CoverageError(CheckError):
    """Coverage cannot run (bad path, unreadable registry or rule file): exit status 2."""


@dataclass(frozen=True)
class Section:
    """A heading with an explicit id. ``parents`` are the ids of the sections enclosing it."""

    path: str
    anchor: str
    title: str
    level: int
    line: int
    parents: tuple[str, ...]

    @property
    def ref(self) -> str:
        return f"{self.path}#{self.anchor}"


@dataclass(frozen=True)
class Example:
    """One executed python fence: ``content`` is its own code; ``previous`` is the example it continues
    (a ``continuation`` fence), whose code runs first, as pytest runs it (``code``).

    Only the link is kept, never the joined code, so a file of thousands of continuation fences costs
    memory in proportion to its size, not to its square."""

    path: str
    line: int
    content: str
    sections: tuple[str, ...]
    markers: tuple[str, ...]
    previous: Example | None = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def code(self) -> str:
        """What the test suite runs for this example: the fences it continues, then its own."""
        chain: list[str] = []
        example: Example | None = self
        while example is not None:
            chain.append(example.content)
            example = example.previous
        return "".join(reversed(chain))


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


def _fence_info(info: str) -> tuple[str | None, set[str]]:
    """The language and options of a fence, read as pytest-markdown-docs reads superfences."""
    info = info.strip()
    parts = info.strip("{}").split() if info.startswith("{") else info.split()
    dotted = next((p for p in parts if p.startswith(".")), None) if info.startswith("{") else None
    if dotted is not None:
        parts.remove(dotted)
        parts.insert(0, dotted[1:])
    return (parts[0] if parts else None), set(parts[1:])


def parse_rule_file(path: str, text: str) -> RuleFile:
    """Sections and examples of one rule file; ``path`` is repository-relative."""
    tokens = MarkdownIt("commonmark").parse(text)
    sections: list[Section] = []
    examples: list[Example] = []
    stack: list[Section] = []
    title: str | None = None
    previous: Example | None = None
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            level = int(token.tag[1:])
            shown, ident = heading_id(tokens[index + 1].content)
            stack = [s for s in stack if s.level < level]
            if ident is None:
                continue
            if level == 1:
                title = title or ident
                continue
            section = Section(path, ident, shown, level, token.map[0] + 1, tuple(s.anchor for s in stack))
            sections.append(section)
            stack.append(section)
        elif token.type == "fence" and token.map:
            lang, options = _fence_info(token.info)
            if lang not in _PYTHON or "notest" in options:
                continue
            if "continuation" not in options:
                previous = None
            markers = tuple(m.group(1) for m in map(_MARKER_RE.match, token.content.splitlines()) if m)
            here = tuple(s.anchor for s in stack)
            previous = Example(path, token.map[0] + 1, token.content, here, markers, previous)
            examples.append(previous)
    return RuleFile(path, title, tuple(sections), tuple(examples))


def _read(root: Path, relative: str) -> str:
    try:
        return (root / relative).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        line = (root / relative).read_bytes()[: error.start].count(b"\n") + 1
        raise CoverageError("not UTF-8 text", relative, line) from None
    except OSError as error:
        raise CoverageError(f"cannot read: {error.strerror or error}", relative, 1) from None


def rule_paths(root: Path) -> list[str]:
    """Every rule file, repository-relative with ``/``, sorted."""
    found: list[str] = []
    for folder in RULE_DIRS:
        if (root / folder).is_dir():
            found.extend(p.relative_to(root).as_posix() for p in (root / folder).rglob("*.md") if p.is_file())
    return sorted(found)


def load_rule_files(root: Path) -> dict[str, RuleFile]:
    return {path: parse_rule_file(path, _read(root, path)) for path in rule_paths(root)}


def load_concepts(root: Path) -> tuple[Concept, ...]:
    """The owned concepts of ``concepts.yml``, read by the checker's registry reader."""
    if not (root / REGISTRY).is_file():
        raise CoverageError("no concepts.yml: is this the rules repository?", REGISTRY, 1)
    try:
        return load_registry(root).concepts
    except CheckError as error:
        raise CoverageError(error.message, error.path or REGISTRY, error.line) from None
