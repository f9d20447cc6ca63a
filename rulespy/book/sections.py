"""The one definition of a rule section, its stamp and its staleness.

**A section** is a heading carrying an explicit id (``## Target Limit {#target-limit}``; the level-1
heading's id names the whole file). Its **own text** runs from its heading line to the line before the
next heading that carries an explicit id: a heading without an id cannot be linked to, so it is a
subtitle of the section it stands in. Its **extent with its subsections** runs to the next heading of
any kind whose level is the same or higher (``Section.outer_end``: where the checker looks for the
links an owner's section makes). Its **parents** are the sections of level 2 or more whose extent holds
it (the file's title section holds every other one and is not counted). Its **first paragraph** is the
first paragraph under its heading before any other heading (the concept preview and the glossary
line); when that paragraph ends in a colon, the list or table after it is part of it.

**Its hash** (``section_hash``) is the first ``HASH_LENGTH`` hex digits of the SHA-256 of its own text,
stamp lines and trailing spaces left out. **A stamp** is the line a translated section carries under its
heading, ``<!-- translates: core/damage.md#damage sha256:HEX -->``, written by ``rulespy translations
stamp``. **A translated section is stale** (``stale_reason``) when it has no stamp, when the stamp names
another section, or when the hash differs from the English section's now; ``rulespy check`` (RS074),
``rulespy translations stale`` and the site's notice all ask this one function.

Every reader (``rulespy check``, coverage, What changed, the site) takes sections from here.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from rulespy.check.slugs import split_attr_list

if TYPE_CHECKING:
    from markdown_it.token import Token

#: ``<!-- translates: PATH#ID sha256:HEX -->``: the English section a translated section translates.
STAMP = re.compile(
    r"^\s*<!--\s*translates:\s*(?P<path>[^\s#]+)#(?P<anchor>\S+)\s+sha256:(?P<hash>[0-9a-f]+)\s*-->\s*$"
)
HASH_LENGTH = 12
_FAR = 1 << 30


class Head(NamedTuple):
    """A heading as sections are cut from it: level, 1-based line, explicit id (or ``None``), title."""

    level: int
    line: int
    anchor: str | None
    title: str


class Stamp(NamedTuple):
    """A section's stamp: the English section it translates, the hash it was stamped with, its line."""

    path: str
    anchor: str
    hash: str
    line: int


@dataclass(frozen=True)
class Section:
    """One section (see the module docstring). ``line`` is its heading's 1-based line; ``end`` the first
    line after its own text, ``outer_end`` the first line after it with its subsections; ``lines`` its
    own text (its heading line first)."""

    path: str
    anchor: str
    title: str
    level: int
    line: int
    end: int
    outer_end: int
    parents: tuple[str, ...]
    lines: tuple[str, ...]
    stamp: Stamp | None
    paragraph: str | None = None

    @property
    def ref(self) -> str:
        return f"{self.path}#{self.anchor}"

    @property
    def hash(self) -> str:
        return section_hash(self.lines)


def section_hash(lines: Iterable[str]) -> str:
    """The first ``HASH_LENGTH`` hex digits of the SHA-256 of a section's text: its lines without trailing
    spaces and without stamp lines, blank lines at either end left out."""
    kept = [line.rstrip() for line in lines if not STAMP.match(line)]
    text = "\n".join(kept).strip("\n")
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:HASH_LENGTH]


def outer_end(levels: Sequence[tuple[int, int]], index: int, last_line: int = _FAR) -> int:
    """First line after heading ``index`` of ``levels`` ((level, line) of every heading, in order) with
    its subsections: the line of the next heading of the same or a higher level."""
    level = levels[index][0]
    for other, line in levels[index + 1 :]:
        if other <= level:
            return line
    return last_line


def stale_reason(section: Section, english_path: str, original: Section) -> str | None:
    """Why translated ``section`` is stale against ``original`` (the English section of the same id in
    ``english_path``): ``"unstamped"``, ``"wrong-stamp"`` (it names another section), ``"changed"`` (the
    English text changed since it was stamped), or ``None`` when it is up to date."""
    if section.stamp is None:
        return "unstamped"
    if (section.stamp.path, section.stamp.anchor) != (english_path, section.anchor):
        return "wrong-stamp"
    return "changed" if section.stamp.hash != original.hash else None


def cut(
    path: str, lines: Sequence[str], heads: Sequence[Head], paragraphs: dict[str, str] | None = None
) -> tuple[Section, ...]:
    """The sections of a page: ``lines`` its text split at ``\\n``, ``heads`` every heading in order."""
    explicit = [i for i, head in enumerate(heads) if head.anchor is not None]
    levels = [(head.level, head.line) for head in heads]
    ends = [heads[i].line for i in explicit[1:]] + ([len(lines) + 1] if explicit else [])
    found: list[Section] = []
    stack: list[Section] = []
    paragraphs = paragraphs or {}
    for index, end in zip(explicit, ends, strict=True):
        head = heads[index]
        anchor = head.anchor or ""
        stack = [s for s in stack if s.outer_end > head.line and s.level > 1]
        body = tuple(lines[head.line - 1 : end - 1])
        stamp = None
        for offset, line in enumerate(body[1:], start=1):
            match = STAMP.match(line)
            if match:
                stamp = Stamp(match["path"], match["anchor"], match["hash"], head.line + offset)
                break
        section = Section(
            path,
            anchor,
            head.title,
            head.level,
            head.line,
            end,
            outer_end(levels, index, len(lines) + 1),
            tuple(s.anchor for s in stack),
            body,
            stamp,
            paragraphs.get(anchor),
        )
        found.append(section)
        stack.append(section)
    return tuple(found)


def heads_of(tokens: Sequence[Token]) -> list[Head]:
    """Every heading of a token stream: its title is the heading's source text without its attribute
    list (``split_attr_list``, as the site's ``attr_list`` reads it)."""
    heads: list[Head] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            title, ident = split_attr_list(tokens[index + 1].content)
            heads.append(Head(int(token.tag[1:]), token.map[0] + 1, ident, title.strip()))
    return heads


def _plain(inline: Token) -> str:
    """An inline token's text as a reader sees it: no markup, links reduced to their text."""
    parts: list[str] = []
    for child in inline.children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    text = re.sub(r"\s+", " ", "".join(parts)).strip()
    return re.sub(r"\s*\{:?[^}]*\}$", "", text)  # a paragraph's own attr_list


def first_paragraphs(tokens: Sequence[Token]) -> dict[str, str]:
    """For each heading with an explicit id: the plain text of the first paragraph under it, whole. A
    paragraph that ends in a colon introduces what follows it, so the list or table right after it is
    part of it (Cover's "a model is in no cover, Light cover or Heavy cover:" and its modifiers)."""
    found: dict[str, str] = {}
    current: str | None = None
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            current = split_attr_list(tokens[index + 1].content)[1]
        elif token.type == "paragraph_open" and current is not None and current not in found:
            text = _plain(tokens[index + 1])
            if text:
                found[current] = _with_what_follows(text, tokens, index + 3)
    return found


def _with_what_follows(text: str, tokens: Sequence[Token], after: int) -> str:
    """``text``, and when it ends in a colon the list or table starting at ``tokens[after]``: list items
    joined by semicolons, table rows as "first cell: the other cells" (the header row left out: the
    text before the colon says what the columns are)."""
    if not text.endswith(":") or after >= len(tokens):
        return text
    start = tokens[after]
    if start.type not in ("bullet_list_open", "ordered_list_open", "table_open"):
        return text
    closing = start.type.replace("_open", "_close")
    items: list[str] = []
    row: list[str] = []
    for token in tokens[after + 1 :]:
        if token.type == closing and token.level == start.level:
            break
        if start.type == "table_open":
            if token.type == "inline":
                row.append(_plain(token))
            elif token.type == "tr_close":
                items.append(f"{row[0]}: {', '.join(row[1:])}" if len(row) > 1 else "".join(row))
                row = []
        elif token.type == "inline" and token.level == start.level + 3:  # an item's own paragraph
            items.append(_plain(token))
    if start.type == "table_open":
        items = items[1:]
    items = [item.rstrip(".;") for item in items if item]
    return f"{text} {'; '.join(items)}." if items else text
