"""What the checker reads from one markdown file: frozen data, produced by ``parse.py``, cached by content.

Named tuples rather than dataclasses: thousands of them are loaded from the cache on every run, and
named tuples unpickle several times faster.
"""

from __future__ import annotations

from typing import NamedTuple


class Heading(NamedTuple):
    """A heading: its plain text (without ``{#id}``), level 1-6, site anchor, position, explicit id or not."""

    text: str
    level: int
    anchor: str
    line: int
    column: int
    explicit: bool


class Link(NamedTuple):
    """A link destination as written; ``kind`` is ``link``, ``image`` or ``definition`` (``[x]: dest``)."""

    target: str
    line: int
    column: int
    kind: str


class Mention(NamedTuple):
    """A rule-file path written as text or inline code (``core/damage.md``, maybe ``#anchor``)."""

    path: str
    fragment: str | None
    line: int
    column: int


class TermUse(NamedTuple):
    """A use of a retired term (the registry's spelling, lower-case) in prose."""

    term: str
    line: int
    column: int


class Claim(NamedTuple):
    """A sentence ``X is owned by F``: ``concept`` as matched, ``owner`` as written (link target or path)."""

    concept: str
    owner: str
    owner_is_link: bool
    line: int
    column: int


class Document(NamedTuple):
    """Everything the checks need from one markdown file. ``problems`` are (line, column, code, message)
    of a file that could not be read as a whole (its anchors are then not trusted); ``unsafe`` the same
    for markup a page must not publish (RS080, RS081), in a file read all the same."""

    path: str
    headings: tuple[Heading, ...] = ()
    html_ids: tuple[str, ...] = ()
    links: tuple[Link, ...] = ()
    mentions: tuple[Mention, ...] = ()
    term_uses: tuple[TermUse, ...] = ()
    #: uses of a word that must not name a concept on this page (``Terms.forbidden``), as registered
    forbidden_uses: tuple[TermUse, ...] = ()
    claims: tuple[Claim, ...] = ()
    problems: tuple[tuple[int, int, str, str], ...] = ()
    anchors: dict[str, int] = {}  # never mutated; parse_markdown always gives its own
    unsafe: tuple[tuple[int, int, str, str], ...] = ()

    def section_end(self, index: int, last_line: int = 1 << 30) -> int:
        """First line after the section opened by ``headings[index]`` (subsections included): the rule
        book's ``Section.outer_end`` (``rulespy.book.sections``)."""
        from rulespy.book.sections import outer_end

        return outer_end([(h.level, h.line) for h in self.headings], index, last_line)
