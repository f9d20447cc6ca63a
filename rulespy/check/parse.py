"""Read one markdown file into a frozen ``Document`` with markdown-it-py, not regular expressions.

Only tokens the parser produces count: a link inside a fenced or indented code block is code, not a
link. Positions are 1-based line and column in the original file (front matter included).

Mentions (the exact rule): inside prose or inline code, a run ``DIR/.../NAME.md`` of at least one folder
and a ``.md`` file name, each part made of letters, digits, ``_``, ``-`` or ``.`` (not starting with
``.``), not preceded by ``/``, ``.``, ``:`` or a word character and not followed by ``/`` or a word
character, is a mention of that path read from the repository root; a directly following ``#anchor``
is checked too. ``./x.md``, ``../x.md``, bare ``x.md`` and URLs are never mentions.
"""

from __future__ import annotations

import gc
import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import normalizeReference
from markdown_it.token import Token

from rulespy.book import markdown
from rulespy.book.markdown import MAX_NESTING
from rulespy.check import budget
from rulespy.check.doc import Claim, Document, Heading, Link, Mention, TermUse
from rulespy.check.examples import is_worked_example, unfollowed_rebindings
from rulespy.check.files import MAX_BYTES
from rulespy.check.markup import unsafe_address, unsafe_attr_lists, unsafe_html
from rulespy.check.slugs import page_anchors, split_attr_list

MENTION_RE = re.compile(
    r"(?<![\w/.:\-])((?:[A-Za-z0-9_][\w.\-]*/)+[A-Za-z0-9_][\w.\-]*\.md)(?:#([\w\-]+(?:[.:][\w\-]+)*))?(?![\w/])"
)
_NOT_NAMES = frozenset({"it", "this", "that", "which", "what", "everything", "each", "all", "who"})
_CLAIM_RE = re.compile(r"\bis\s+owned\s+by\s+", re.IGNORECASE)
_FRONT_MATTER_RE = re.compile(r"^-{3}[ \t]*\n(.*?\n)?(?:\.{3}|-{3})[ \t]*(?:\n|$)", re.DOTALL)
_DEFINITION_RE = re.compile(r"^ {0,3}\[((?:[^\]\\]|\\.)+)\]:")
_HTML_TAG_RE = re.compile(r"<([A-Za-z][\w-]*)(\s[^>]*)?>")
_HTML_ID_RE = re.compile(r"""(?<![\w-])(id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))""", re.IGNORECASE)
_COMMENT_RE = re.compile(r"<!--.*?-->", re.DOTALL)
_CLAIM_NAME_CHARS = 120
"""A claimed concept name is read from at most this many characters before ``is owned by``."""
_CLAIM_STRIP = frozenset(" \t\n\"'*“”‘’:")
_CAPITALISED_TAIL_RE = re.compile(r"(?<![\w'])([A-Z][\w\-']*(?:\s+[A-Z][\w\-']*)*)$")


@dataclass(frozen=True, slots=True)
class Terms:
    """Registry words the parser looks for: retired terms and concept names/aliases (all lower-case)."""

    retired: tuple[str, ...] = ()
    concepts: tuple[str, ...] = ()
    #: (language, variant): words that must not name a concept on that language's pages (``*``: a stem)
    forbidden: tuple[tuple[str, str], ...] = ()


NO_TERMS = Terms()


def _positioned(rule: Callable[..., bool], kinds: tuple[str, ...]) -> Callable[..., bool]:
    """Wrap an inline rule so that the token it makes remembers where in the inline source it began."""

    def wrapped(state: Any, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        found = bool(rule(state, silent))
        if found and not silent:
            for token in state.tokens[count:]:
                if token.type in kinds:
                    token.meta["offset"] = start
                    token.meta["ref"] = state.src[state.pos - 1 : state.pos] != ")"
                    break
        return found

    return wrapped


@lru_cache(maxsize=1)
def markdown_parser() -> MarkdownIt:
    """The shared parser: CommonMark with raw HTML and tables, link/image/code tokens carrying offsets.

    Inline parsing refuses a paragraph over the budget (``budget.check_inline``), emphasis fragments
    are joined in linear time (``budget.fragments_join``), and inline content without markup becomes its
    text token directly (``_inline_blocks``).
    """
    return build_parser()


def build_parser(shortcut: bool = True) -> MarkdownIt:
    """A new ``markdown_parser()``; ``shortcut=False`` keeps the configuration's own core ``inline`` rule."""
    md = markdown.build()  # the book's one configuration, with the checker's positioned rules added
    rules = {rule.name: rule.fn for rule in md.inline.ruler.__rules__}
    md.inline.ruler.at("link", _positioned(rules["link"], ("link_open",)))
    md.inline.ruler.at("image", _positioned(rules["image"], ("image",)))
    md.inline.ruler.at("backticks", _positioned(rules["backticks"], ("code_inline",)))
    md.inline.ruler.at("html_inline", _positioned(rules["html_inline"], ("html_inline",)))
    md.inline.ruler2.at("fragments_join", budget.fragments_join)
    if shortcut:
        md.core.ruler.at("inline", _inline_blocks)
    return md


#: a character that can start an inline rule of the parser (``text`` consumes everything else): newline,
#: escape, code span, emphasis, link, image, autolink or raw HTML, entity
_INLINE_MARKUP = re.compile(r"[\n\\`*_\[\]!<&]")


def _inline_blocks(state: Any) -> None:
    """markdown-it's core ``inline`` rule, with a shortcut: the inline parse of a heading, table cell or
    paragraph without any character that starts an inline rule is one ``text`` token of its whole content
    (markdown-it's own text rule gathers exactly that), so it is made directly. Most table cells and
    headings of a rule file are such; ``tests/check/test_parse_shortcut.py`` compares both ways."""
    md, env = state.md, state.env
    search = _INLINE_MARKUP.search
    for token in state.tokens:
        if token.type == "inline":
            if token.children is None:
                token.children = []
            content = token.content
            if search(content) is not None:
                markdown.parse_inline(md, token, env)
            elif content:
                text = Token("text", "", 0)
                text.content = content
                token.children.append(text)


_WORD_GAP_RE = re.compile(r"[^\w'\-]+")


_prepared: tuple[Terms, re.Pattern[str] | None, frozenset[str], int] | None = None


def _prepare(terms: Terms) -> tuple[re.Pattern[str] | None, frozenset[str], int]:
    """The retired-term regex, the set of concept names and the longest name's length of ``terms``,
    made once for the same ``Terms`` object (hashing its thousands of names for every claim cost a tenth
    of a cold check)."""
    global _prepared
    prepared = _prepared  # read once: another thread may replace it with another Terms' answer
    if prepared is None or prepared[0] is not terms:
        names = frozenset(terms.concepts)
        prepared = _prepared = (terms, _term_regex(terms.retired), names, max(map(len, names), default=0))
    return prepared[1:]


@lru_cache(maxsize=8)
def _term_regex(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    if not terms:
        return None
    parts = [r"\s+".join(map(re.escape, t.split())) for t in terms if t.strip()]
    parts.sort(key=len, reverse=True)
    return re.compile(r"(?<!\w)(" + "|".join(parts) + r")(?!\w)", re.IGNORECASE) if parts else None


@lru_cache(maxsize=256)
def forbidden_regex(variants: tuple[str, ...]) -> re.Pattern[str] | None:
    """One regex for the forbidden variants of a language (``Terms.forbidden``): each word in either
    case, ``е`` standing for ``ё`` too, a word ending in ``*`` any word it begins; the longest variant
    tried first."""
    parts = []
    for variant in sorted(variants, key=len, reverse=True):
        words = []
        for word in variant.split():
            stem = word.endswith("*")
            pattern = re.sub("[её]", "[её]", re.escape(word.rstrip("*")))
            words.append(pattern + (r"\w*" if stem else ""))
        if words:
            parts.append(r"\s+".join(words))
    return re.compile(r"(?<!\w)(?:" + "|".join(parts) + r")(?!\w)", re.IGNORECASE) if parts else None


def _is_footnote(content: str, offset: int) -> bool:
    """``[^1]`` is a footnote (Python-Markdown ``footnotes``, GitHub), never a link to check."""
    return offset >= 0 and content.startswith("[^", offset)


def parse_bytes(path: str, data: bytes, terms: Terms = NO_TERMS, max_bytes: int = MAX_BYTES) -> Document:
    """``parse_markdown`` on raw bytes: non-UTF-8 and oversized files become a finding, never an error."""
    if len(data) > max_bytes:
        message = f"file is larger than the {max_bytes // 1024} KiB limit; not checked"
        return Document(path, problems=((1, 1, "RS042", message),))
    nul = data.find(b"\0")
    if nul >= 0:  # valid UTF-8, but text never holds NUL: UTF-16 without a byte order mark, or binary
        line = data.count(b"\n", 0, nul) + 1
        column = nul - (data.rfind(b"\n", 0, nul) + 1) + 1
        return Document(path, problems=((line, column, "RS040", "not UTF-8 text: NUL byte (UTF-16?)"),))
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        byte = data[error.start : error.start + 1].hex()
        return Document(path, problems=((line, column, "RS040", f"not UTF-8 (byte 0x{byte})"),))
    return parse_markdown(path, text, terms)


def _strip_front_matter(text: str) -> tuple[str, list[tuple[int, int, str, str]]]:
    """Blank out a leading ``---`` YAML block (keeping line numbers); report it when it is not YAML."""
    m = _FRONT_MATTER_RE.match(text)
    if m is None:
        return text, []
    import yaml  # only files with front matter need it

    problems: list[tuple[int, int, str, str]] = []
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's when present
    try:
        data = yaml.load(m.group(1) or "", Loader=loader)  # noqa: S506 - a safe loader
        if data is not None and not isinstance(data, dict):
            problems.append((1, 1, "RS041", "front matter is not a YAML mapping"))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        reason = getattr(error, "problem", None) or "invalid YAML"
        problems.append((line, 1, "RS041", f"front matter is not valid YAML: {reason}"))
    return "\n" * m.group(0).count("\n") + text[m.end() :], problems


class _Block:
    """Maps offsets inside one inline token's content back to file line and column."""

    __slots__ = ("content", "first_line", "lines", "_starts", "_prefix")

    def __init__(self, content: str, first_line: int, lines: list[str]) -> None:
        self.content, self.first_line, self.lines = content, first_line, lines
        self._starts: list[int] | None = None
        self._prefix: dict[int, int] = {}

    def position(self, offset: int) -> tuple[int, int]:
        if offset < 0:
            return self.first_line + 1, 1
        if self._starts is None:
            rows = self.content.split("\n")  # each row's start offset; not a char-by-char scan (slow)
            self._starts = list(accumulate((len(row) + 1 for row in rows[:-1]), initial=0))
        row = bisect_right(self._starts, offset) - 1
        column = offset - self._starts[row]
        line = self.first_line + row
        if row not in self._prefix:
            source = self.lines[line] if line < len(self.lines) else ""
            piece = self.content[self._starts[row] : self._starts[row] + 24].split("\n")[0]
            found = source.find(piece) if piece else -1
            self._prefix[row] = max(found, 0)
        return line + 1, self._prefix[row] + column + 1


def _site_tokens(text: str, tokens: list[Token]) -> list[Token] | None:
    """The tokens of a page as the site reads it: ``tokens`` (its CommonMark parse) when it has no
    admonition, else its parse with admonitions; ``None`` when that parse is over the budget."""
    if "!!!" not in text and "???" not in text:
        return tokens
    try:
        return markdown.site_tokens(text)
    except budget.TooComplex:
        return None


def _admonition_markup(path: str, tokens: list[Token], known: set[int]) -> list[tuple[int, int, str, str]]:
    """RS080 and RS081 inside admonitions and collapsible blocks (``tokens``: the page as the site reads
    it), at the line of the block or paragraph that holds them (lines already reported left out)."""
    found: list[tuple[int, int, str, str]] = []
    depth = 0
    for token in tokens:
        if token.type in ("admonition_open", "admonition_close"):
            depth += 1 if token.type == "admonition_open" else -1
            continue
        if not depth or token.map is None or token.map[0] + 1 in known:
            continue
        line = token.map[0] + 1
        pieces: list[tuple[str, str | None]] = [(token.content, None)] if token.type == "html_block" else []
        for child in token.children or () if token.type == "inline" else ():
            if child.type == "html_inline":
                pieces.append((child.content, None))
            elif child.type in ("link_open", "image"):
                pieces.append(("", str(child.attrs.get("src" if child.type == "image" else "href", ""))))
        for html, address in pieces:
            for _, _, code, message in unsafe_html(html, path) if address is None else ():
                found.append((line, 1, code, message))
            why = None if address is None else unsafe_address(address, path, raw_html=False)
            if why is not None:
                found.append((line, 1, "RS081", f"link to {address!r}: {why}"))
    return sorted(set(found))


def _block_place(first_line: int) -> Callable[[int, int], tuple[int, int]]:
    """Where ``(row, column)`` (0-based) of an HTML block at 0-based ``first_line`` is in the file."""
    return lambda row, column: (first_line + row + 1, column + 1)


def _inline_place(block: _Block, html: str, start: int) -> Callable[[int, int], tuple[int, int]]:
    """Where ``(row, column)`` (0-based) of inline HTML ``html``, at offset ``start`` of ``block``, is."""

    def place(row: int, column: int) -> tuple[int, int]:
        if start < 0:
            return block.position(-1)
        return block.position(start + sum(len(r) + 1 for r in html.split("\n")[:row]) + column)

    return place


class _Reader:
    """One pass over the token stream, collecting everything a ``Document`` holds."""

    def __init__(self, path: str, lines: list[str], terms: Terms) -> None:
        self.path, self.lines, self.terms = path, lines, terms
        self.headings: list[tuple[str, str | None, int, int]] = []
        self.links: list[Link] = []
        self.mentions: list[Mention] = []
        self.term_uses: list[TermUse] = []
        self.claims: list[Claim] = []
        self.html_ids: list[str] = []
        self.code_lines: set[int] = set()
        self.problems: list[tuple[int, int, str, str]] = []  # raw HTML outside the allowed set
        self.term_re, self.names, self.longest = _prepare(terms)
        self.forbidden_uses: list[TermUse] = []
        language = path.split("/", 1)[0] if "/" in path else ""
        self.forbidden = tuple(v for lang, v in terms.forbidden if lang == language)
        self.forbidden_re = forbidden_regex(self.forbidden)

    def html(self, content: str, at: Callable[[int, int], tuple[int, int]]) -> None:
        """Anchors raw HTML makes: any element's ``id``, and ``name`` on ``<a>`` (comments ignored); and
        each tag, attribute or address outside the allowed set (RS080, RS081; ``markup.py``), placed in
        the file by ``at(row, column)`` (0-based, within ``content``)."""
        for row, column, code, message in unsafe_html(content, self.path):
            self.problems.append((*at(row, column), code, message))
        lowered = content.lower()
        if "id" in lowered or "name" in lowered:  # attribute names are case-insensitive in HTML
            for tag in _HTML_TAG_RE.finditer(_COMMENT_RE.sub("", content)):
                for m in _HTML_ID_RE.finditer(tag.group(2) or ""):
                    if m.group(1).lower() == "id" or tag.group(1).lower() == "a":
                        self.html_ids.append(m.group(2) or m.group(3) or m.group(4) or "")

    def _attr_lists(self, text: str, content: str, block: _Block, at: int) -> None:
        """RS080 for an attribute list in ``text`` (found at offset ``at`` of ``content``) that sets an
        attribute beyond ids, classes, ``title`` and ``lang`` (``markup.unsafe_attr_lists``)."""
        for offset, message in unsafe_attr_lists(text):
            line, column = block.position(at + offset)
            self.problems.append((line, column, "RS080", message))

    def inline(self, token: Token, first_line: int) -> tuple[str, _Block]:
        """Plain text of an inline token (what the site's toc sees), recording links and prose facts."""
        content = token.content
        block = _Block(content, first_line, self.lines)
        children = token.children
        if children and len(children) == 1 and children[0].type == "text":  # no markup (most cells)
            text = children[0].content
            if "=" in text and "{" in text:
                self._attr_lists(text, content, block, 0)
            if text:
                self._prose(text, [(0, content.find(text))], block, {})
            return text, block
        plain: list[str] = []
        size = 0
        pieces: list[tuple[int, int]] = []  # (plain offset, content offset or -1)
        link_starts: dict[int, str] = {}
        cursor = 0
        for child in token.children or ():
            kind = child.type
            if kind == "text" or kind == "code_inline":
                text = child.content
                if not text:
                    continue
                start = child.meta.get("offset", cursor) if kind == "code_inline" else cursor
                at = content.find(text, start)
                if kind == "text" and "=" in text and "{" in text:
                    self._attr_lists(text, content, block, max(at, 0))
                if at >= 0:
                    cursor = at + len(text)
                pieces.append((size, at))
                plain.append(text)
                size += len(text)
            elif kind == "softbreak" or kind == "hardbreak":
                nl = content.find("\n", cursor)
                if nl >= 0:
                    cursor = nl + 1
                pieces.append((size, nl))
                plain.append("\n")
                size += 1
            elif kind == "link_open" or kind == "image":
                offset = child.meta.get("offset", -1)
                target = str(child.attrs.get("src" if kind == "image" else "href", ""))
                if kind == "link_open":
                    link_starts[size] = target
                    if offset >= 0:
                        cursor = offset + 1
                if not child.meta.get("ref") and not _is_footnote(content, offset):
                    line, column = block.position(offset)
                    self.links.append(Link(target, line, column, "image" if kind == "image" else "link"))
            elif kind == "html_inline":
                self.html(child.content, _inline_place(block, child.content, child.meta.get("offset", -1)))
        text = "".join(plain)
        if text:
            self._prose(text, pieces, block, link_starts)
        return text, block

    def _locate(self, pieces: list[tuple[int, int]], block: _Block, at: int) -> tuple[int, int]:
        index = bisect_right(pieces, (at, 1 << 60)) - 1
        start, offset = pieces[index] if index >= 0 else (0, -1)
        return block.position(offset + (at - start) if offset >= 0 else -1)

    def _prose(self, text: str, pieces: list[tuple[int, int]], block: _Block, links: dict[int, str]) -> None:
        if ".md" in text:
            for m in MENTION_RE.finditer(text):
                line, column = self._locate(pieces, block, m.start())
                self.mentions.append(Mention(m.group(1), m.group(2), line, column))
        if self.term_re is not None:
            for m in self.term_re.finditer(text):
                line, column = self._locate(pieces, block, m.start())
                self.term_uses.append(TermUse(" ".join(m.group(1).lower().split()), line, column))
        if self.forbidden_re is not None:
            for m in self.forbidden_re.finditer(text):
                line, column = self._locate(pieces, block, m.start())
                self.forbidden_uses.append(TermUse(" ".join(m.group(0).split()), line, column))
        if "owned" in text:
            for m in _CLAIM_RE.finditer(text):
                self._claim(text, m, pieces, block, links)

    def _claim(
        self, text: str, m: re.Match[str], pieces: list[tuple[int, int]], block: _Block, links: dict[int, str]
    ) -> None:
        owner, is_link = None, False
        for at in range(m.end(), min(m.end() + 3, len(text) + 1)):
            if at in links:
                owner, is_link = links[at], True
                break
        if owner is None:
            mention = MENTION_RE.match(text, m.end())
            if mention is None:
                return  # a claim names its owner as a path or a link; anything else is just prose
            owner = mention.group(1)
        end = m.start()  # the name ends here, quotes, stars, colons and spaces before the claim left out
        while end > 0 and text[end - 1] in _CLAIM_STRIP:
            end -= 1
        window = max(end - _CLAIM_NAME_CHARS, 0)  # never the whole text before each claim: linear time
        concept = ""
        if self.names:
            names = self.names
            ending = " ".join(text[window:end].split())  # the longest registered name that ends it wins
            # only word starts with at most ``longest`` characters after them can begin a name (lower
            # case never shortens a text)
            first = len(ending) - self.longest
            starts = [0] if first <= 0 else []
            starts += [m.end() for m in _WORD_GAP_RE.finditer(ending, max(first - 1, 0))]
            for start in starts:
                if ending[start:].lower() in names:
                    concept = ending[start:]
                    break
        if not concept:
            tail = _CAPITALISED_TAIL_RE.search(text, window, end)
            if tail is None or tail.group(1).lower() in _NOT_NAMES:
                return  # "it is owned by ...": no concept name, so not a claim to check
            concept = tail.group(1)
        line, column = self._locate(pieces, block, max(end - len(concept), 0))
        self.claims.append(Claim(concept, owner, is_link, line, column))

    def definitions(self, references: dict[str, dict[str, str]]) -> None:
        """Reference definitions ``[label]: dest``, reported on their own line (used or not)."""
        pending = {k: ref.get("href", "") for k, ref in references.items() if not k.startswith("^")}
        for number, line in enumerate(self.lines):
            if not pending:
                break
            if number in self.code_lines or "]:" not in line:
                continue
            m = _DEFINITION_RE.match(line)
            if m is None:
                continue
            label = normalizeReference(m.group(1))
            if label in pending:
                self.links.append(Link(pending.pop(label), number + 1, line.index("[") + 1, "definition"))
        for href in pending.values():  # definitions inside quotes or lists: position unknown, line 1
            self.links.append(Link(href, 1, 1, "definition"))


def parse_markdown(path: str, text: str, terms: Terms = NO_TERMS) -> Document:
    """Parse ``text`` (the content of repository file ``path``) into a ``Document``."""
    return parse_markdown_tokens(path, text, terms)[0]


def parse_markdown_tokens(
    path: str, text: str, terms: Terms = NO_TERMS
) -> tuple[Document, list[Token], list[Token] | None]:
    """``parse_markdown``, the token stream the ``Document`` was read from (empty when the file was
    refused as too complex to parse: RS044), and the page's tokens as the site reads it (``_site_tokens``:
    the same stream unless it has admonitions; ``None`` when those are over the budget). ``rulespy.book``
    keeps them, so no reader parses again."""
    text, problems = _strip_front_matter(text) if text.startswith("---") else (text, [])
    lines = text.split("\n")
    reader = _Reader(path, lines, terms)
    env: dict[str, Any] = {}
    collecting = gc.isenabled()
    gc.disable()  # the parser makes a token tree and no cycles; collecting while it grows cost 30%
    try:
        budget.check_definitions(lines)
        tokens = markdown.parse(markdown_parser(), text, env)
    except budget.TooComplex as error:
        return Document(path, problems=((error.line, 1, "RS044", error.message),)), [], []
    finally:
        if collecting:
            gc.enable()
    heading_level = 0
    last_line = 0
    deepest = 0
    for token in tokens:
        kind = token.type
        if token.map is not None:
            last_line = token.map[0]
        if token.level >= MAX_NESTING - 1 and not deepest:
            deepest = last_line + 1
        if kind == "inline":
            plain, _ = reader.inline(token, last_line)
            if heading_level:
                title, explicit = split_attr_list(plain)
                reader.headings.append((title.strip(), explicit, heading_level, last_line + 1))
                heading_level = 0
        elif kind == "heading_open":
            heading_level = int(token.tag[1:])
        elif kind == "fence" or kind == "code_block":
            if token.map is not None:
                reader.code_lines.update(range(token.map[0], token.map[1]))
                if kind == "fence" and is_worked_example(token.info):
                    for line, name in unfollowed_rebindings(token.content):
                        message = (
                            f"the example rebinds {name!r}, which held its scenario, in a way the site "
                            "cannot follow: its board, summary and Try it would show the old scenario; "
                            "give the new scenario a name of its own"
                        )
                        reader.problems.append((token.map[0] + 1 + line, 1, "RS085", message))
        elif kind == "html_block":
            first = last_line
            reader.html(token.content, _block_place(first))
    if env.get("references"):
        reader.definitions(env["references"])
    unsafe = reader.problems
    site = _site_tokens(text, tokens)
    if site is not None and site is not tokens and ("<" in text or ":" in text):
        unsafe += _admonition_markup(path, site, {line for line, _, _, _ in unsafe})
    for link in reader.links:
        why = unsafe_address(link.target, path, raw_html=False)
        if why is not None:
            unsafe.append((link.line, link.column, "RS081", f"{link.kind} to {link.target!r}: {why}"))
    if deepest:
        message = f"nested {MAX_NESTING - 1} or more levels deep (lists, quotes): links there are not checked"
        problems.append((deepest, 1, "RS006", message))
    anchors = page_anchors([(t, e) for t, e, _, _ in reader.headings])
    headings = tuple(
        Heading(t, level, anchor, line, 1, e is not None)
        for (t, e, level, line), anchor in zip(reader.headings, anchors, strict=True)
    )
    anchor_lines: dict[str, int] = {}
    for heading in headings:
        anchor_lines.setdefault(heading.anchor, heading.line)
    for html_id in reader.html_ids:
        anchor_lines.setdefault(html_id, 0)
    document = Document(
        path,
        headings=headings,
        html_ids=tuple(reader.html_ids),
        links=tuple(reader.links),
        mentions=tuple(reader.mentions),
        term_uses=tuple(reader.term_uses),
        forbidden_uses=tuple(reader.forbidden_uses),
        claims=tuple(reader.claims),
        problems=tuple(problems),
        anchors=anchor_lines,
        unsafe=tuple(sorted(unsafe)),
    )
    return document, tokens, site
