"""Links added to a page's markdown: rule-file mentions and concept links with their owner's preview.

The output is plain markdown that any Material-compatible generator builds: a mention of
``core/damage.md`` becomes ``[core/damage.md](damage.md)``, a concept becomes
``[Target Limit](damage.md#target-limit "preview"){ .vs-concept }`` (Material's ``content.tooltips``
shows the title; ``attr_list`` adds the class). The generators then resolve and validate these links
exactly like hand-written ones.

Where text may be linked is decided by markdown-it (the rule book's one configuration, as the site
reads a page: with the ``admon`` plugin for ``!!!`` blocks), never by a hand-written scanner: each
stretch of source consumed by a code span, link, image, autolink, raw HTML, entity or escape is noted
on its inline token (``rulespy.book.markdown.opaque``), and only text outside those stretches is
linked. A rule page is linked from the tokens the book already holds (``Page.site_tokens``), never
parsed again: ``link_page``; generated markdown (the glossary) is parsed once: ``link_markdown``.
Headings, fences and attribute lists are never touched. Rules kept from the site's first version: a
concept is linked at its first mention in each section (the book's ``Section``: a heading with an id,
to the next one), not in the section that defines it, and not in a section that already links it.
"""

from __future__ import annotations

import posixpath
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from markdown_it.token import Token

from rulespy.book import markdown as book_markdown
from rulespy.book.book import Page
from rulespy.book.links import resolve
from rulespy.book.sections import cut, heads_of
from rulespy.check.files import RULE_DIRS

from .registry import Concept


#: a mention of a rule file in the rule folders ``folders`` (the book's ``check: rule_dirs``)
def mention_pattern(folders: Iterable[str]) -> re.Pattern[str]:
    alternation = "|".join(re.escape(folder) for folder in folders)
    return re.compile(rf"(?<![\w/.-])((?:{alternation})/[\w-]+\.md)(#[\w-]+)?(?![\w/-])")


MENTION = mention_pattern(RULE_DIRS)
_ATTR_LIST = re.compile(r"\{:?[^{}\n]*\}")

Edit = tuple[int, int, int, str]  # line, start column, end column, replacement


@dataclass
class PageContext:
    """What the linker needs to know about the page being rendered."""

    src_uri: str  # the page's path from the repository root, e.g. core/shooting.md
    files: frozenset[str]  # every page of the site, by the same kind of path
    concepts: tuple[Concept, ...] = ()
    tooltip: Callable[[Concept], str] = lambda concept: concept.name
    rule_dirs: tuple[str, ...] = RULE_DIRS  # whose files' mentions are linked (``check: rule_dirs``)

    @property
    def mention(self) -> re.Pattern[str]:
        return MENTION if self.rule_dirs == RULE_DIRS else mention_pattern(self.rule_dirs)

    def href(self, target: str) -> str:
        """A link from this page to ``target`` (``path.md`` or ``path.md#anchor``), as markdown writes it."""
        path, _, anchor = target.partition("#")
        if path == self.src_uri:
            return f"#{anchor}" if anchor else posixpath.basename(path)
        rel = posixpath.relpath(path, posixpath.dirname(self.src_uri) or ".")
        return f"{rel}#{anchor}" if anchor else rel

    def resolve(self, href: str) -> str | None:
        """The repository path (with ``#anchor``) that ``href`` on this page points at, by the rule book's
        one link resolution (``rulespy.book.links``: ``/core/x.md`` from the root, a ``?query`` ignored);
        ``None`` for an external link or one out of the repository."""
        return resolve(self.src_uri, href).ref


class _Concepts:
    """Finds concept names in text (case as the registry writes them, longest spelling first)."""

    def __init__(self, concepts: Iterable[Concept]) -> None:
        self.by_spelling: dict[str, Concept] = {}
        for concept in concepts:
            for spelling in concept.names:
                self.by_spelling.setdefault(spelling, concept)
        names = sorted(self.by_spelling, key=len, reverse=True)
        alternation = "|".join(re.escape(n) for n in names)
        self.pattern = re.compile(rf"(?<![\w'-])({alternation})(s?)(?![\w'-])") if names else None
        self.by_target = {c.target: c for c in self.by_spelling.values()}


def _title(text: str) -> str:
    """A link title as markdown writes it, in double quotes (those inside written as ``&quot;``)."""
    return " ".join(text.split()).replace('"', "&quot;")


def _escape_label(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]")


class _Page:
    def __init__(self, page: PageContext) -> None:
        self.page = page
        self.mention = page.mention
        self.concepts = _Concepts(page.concepts)
        self.section: str | None = None
        self.linked: set[str] = set()
        self.edits: list[Edit] = []

    def note_link(self, href: str) -> None:
        target = self.page.resolve(href)  # None: external, or out of the repository
        concept = self.concepts.by_target.get(target) if target is not None else None
        if concept is not None:
            self.linked.add(concept.target)

    def concept_link(self, text: str, concept: Concept) -> str | None:
        defining = concept.file == self.page.src_uri and self.section == concept.anchor
        if defining or concept.target in self.linked or concept.file not in self.page.files:
            return None
        self.linked.add(concept.target)
        href = self.page.href(concept.target)
        return f'[{_escape_label(text)}]({href} "{_title(self.page.tooltip(concept))}"){{ .vs-concept }}'

    def inline(self, content: str, spans: list[tuple[str, int, int]], links: list[str]) -> list[Edit]:
        """Edits to ``content`` (columns in ``content``; line 0), in source order."""
        mention = self.mention
        opaque = sorted((start, end, name) for name, start, end in spans)
        opaque += [(m.start(), m.end(), "attrs") for m in _ATTR_LIST.finditer(content)]
        opaque.sort()
        blocked = bytearray(len(content) + 1)
        for start, end, _ in opaque:
            blocked[start:end] = b"\x01" * (end - start)
        found: list[tuple[int, int, str | Concept | tuple[str, str]]] = []
        in_label = bytearray(len(content) + 1)  # inside a link's or an image's own markup
        for start, end, name in opaque:
            if name in ("link", "image"):
                in_label[start:end] = b"\x01" * (end - start)
        for start, end, name in opaque:
            if name == "link":
                found.append((start, start, ("link", "")))
            elif name == "backticks" and not in_label[start]:
                code = content[start:end].strip("`").strip()
                whole = mention.fullmatch(code)
                if whole is not None and whole.group(1) in self.page.files:
                    found.append((start, end, ("code", code)))
        for match in mention.finditer(content):
            if not any(blocked[match.start() : match.end()]) and match.group(1) in self.page.files:
                found.append((match.start(), match.end(), ("mention", match.group(0))))
        # mentions and code spans never overlap each other: marked once, a concept is looked up in time
        # linear in its own length (a paragraph of 40,000 mentions took minutes when each concept match
        # was compared with every mention)
        for s, e, _ in found:
            blocked[s:e] = b"\x01" * (e - s)
        if self.concepts.pattern is not None:
            for match in self.concepts.pattern.finditer(content):
                s, e = match.start(), match.end()
                if any(blocked[s:e]):
                    continue
                found.append((s, e, self.concepts.by_spelling[match.group(1)]))
        found.sort(key=lambda item: (item[0], item[1]))
        link_targets = iter(links)
        edits: list[Edit] = []
        for start, end, what in found:
            if isinstance(what, Concept):
                replacement = self.concept_link(content[start:end], what)
                if replacement is not None:
                    edits.append((0, start, end, replacement))
            elif what[0] == "link":
                self.note_link(next(link_targets, ""))
            elif what[0] == "code":
                edits.append((0, start, end, f"[{content[start:end]}]({self.page.href(what[1])})"))
            else:
                edits.append((0, start, end, f"[{what[1]}]({self.page.href(what[1])})"))
        return edits


def _place(content: str, lines: list[str], first: int, edits: list[Edit]) -> list[Edit] | None:
    """Map columns of an inline token's ``content`` to the source lines it came from (``None``: cannot)."""
    offsets: list[tuple[int, int, int]] = []  # content offset where the line starts, source line, column
    position = 0
    for number, part in enumerate(content.split("\n")):
        index = first + number
        if index >= len(lines):
            return None
        source = lines[index]
        column = source.rfind(part) if part else len(source)
        if column < 0 or source[column:].rstrip() != part.rstrip():
            return None
        offsets.append((position, index, column))
        position += len(part) + 1
    parts = content.split("\n")
    starts = [offset for offset, _, _ in offsets]
    placed: list[Edit] = []
    for _, start, end, text in edits:  # each found by bisection: linear in the edits, not quadratic
        line_start, index, column = offsets[bisect_right(starts, start) - 1]
        if end > line_start + len(parts[index - first]):
            continue  # a match across a line break: leave it alone
        placed.append((index, column + start - line_start, column + end - line_start, text))
    return placed


def link_markdown(markdown: str, page: PageContext) -> str:
    """Generated ``markdown`` (the glossary) with its mentions and concepts linked; everything else byte
    for byte unchanged. Parsed once, as the site reads it."""
    return _linked(markdown, book_markdown.site_tokens(markdown), page)


def link_page(book_page: Page, page: PageContext, shown: tuple[int, Sequence[str]] = (0, ())) -> str:
    """The rule book's page ``book_page`` with its mentions and concepts linked, from the tokens the book
    holds (``Page.site_tokens``; a page whose admonitions are over the parse budget is parsed here, and
    refused by the budget as every reader refuses it). ``shown``: the links the site places before line
    ``shown[0]`` (0-based) of the linked page (its header of owned concepts), which count as read there:
    a concept the header links is not linked again in that section."""
    tokens = book_page.site_tokens
    if tokens is None:
        tokens = tuple(book_markdown.site_tokens(book_page.text))
    return _linked(book_page.text, tokens, page, shown)


def _linked(
    markdown: str, tokens: Sequence[Token], page: PageContext, shown: tuple[int, Sequence[str]] = (0, ())
) -> str:
    """``markdown`` linked from its ``tokens`` (see ``link_page``)."""
    lines = markdown.split("\n")
    state = _Page(page)
    edits: list[Edit] = []
    row_cursor: dict[int, int] = {}
    # the book's sections of the page, each (first line, anchor), as the site reads the page
    starts = [(s.line - 1, s.anchor) for s in cut(page.src_uri, lines, heads_of(tokens))]
    upcoming = iter(starts)
    following = next(upcoming, None)
    header_line, header_links = shown
    noted = not header_links
    for index, token in enumerate(tokens):
        if token.map is not None:
            if not noted and token.map[0] >= header_line:
                for href in header_links:
                    state.note_link(href)
                noted = True
            while following is not None and following[0] <= token.map[0]:
                state.section, state.linked = following[1], set()
                following = next(upcoming, None)
        if (
            token.type != "inline"
            or index == 0
            or tokens[index - 1].type
            in (
                "heading_open",
                "admonition_title_open",
            )
        ):
            continue
        spans = list(book_markdown.opaque(token))
        links = [c.attrGet("href") or "" for c in _children(token) if c.type == "link_open"]
        found = state.inline(token.content, spans, [str(h) for h in links])
        if token.map is None:
            continue
        if tokens[index - 1].type in ("th_open", "td_open"):
            # cells are found left to right in their row; one that cannot be found ends the row's edits
            row = token.map[0]
            column = lines[row].find(token.content, row_cursor.get(row, 0)) if token.content else -1
            row_cursor[row] = column + len(token.content) if column >= 0 else len(lines[row]) + 1
            if column >= 0:
                edits += [(row, column + s, column + e, t) for _, s, e, t in found]
            continue
        if not found:
            continue
        placed = _place(token.content, lines, token.map[0], found)
        edits += placed or []
    by_line: dict[int, list[tuple[int, int, str]]] = {}
    for line, start, end, text in edits:
        by_line.setdefault(line, []).append((start, end, text))
    for line, line_edits in by_line.items():  # each line rebuilt once, whatever its edits
        source, pieces, cursor = lines[line], [], 0
        for start, end, text in sorted(line_edits):
            pieces += [source[cursor:start], text]
            cursor = end
        lines[line] = "".join([*pieces, source[cursor:]])
    return "\n".join(lines)


def _children(token: Token) -> list[Token]:
    return list(token.children or ())
