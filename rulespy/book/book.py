"""The rule book, read once: ``Book.open(root, language=None)``.

A ``Book`` is one edition of the rules (English at the repository root, a translation in ``ru/``): the
tree of files (walked once, by the checker's walk, with the rule folders of the ``check: rule_dirs``
setting of ``concepts.yml``), its concepts (``concepts.yml`` read once), and its pages, each parsed once
into a frozen ``Page``: headings, sections (``rulespy.book.sections``), links with their resolved
targets (``rulespy.book.links``), mentions, worked examples and tables, the link graph, the translation
twins.

The one cache: a page is parsed once per process for each (repository path, text, terms), within
``CACHE_TEXT``; a second book of the same tree (the English twin of a translated page, the What changed
page's working tree) finds it parsed. ``rulespy check`` is a reader too: ``Book.walked`` is its walk (the
registry read only when something must be checked), its per-file checks parse each changed page through
``Book.document`` with the registry's words (``terms``), and its translation pass compares the book's
pages and sections (``rulespy.check.translations``), so a page both passes read is parsed once.
``markdown.parses()`` counts the parses, so a test asserts a render parses each text about once.

>>> book = Book.open(Path("."))                       # doctest: +SKIP
>>> book.page("core/damage.md").section("target-limit").title   # doctest: +SKIP
'Target Limit'
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulespy.book.links import Target, resolve
from rulespy.book.sections import Section, cut, first_paragraphs, heads_of
from rulespy.check.doc import Document
from rulespy.check.files import LANGUAGES, Layout, Tree
from rulespy.check.registry import Concept, Registry, load_registry

if TYPE_CHECKING:
    from markdown_it.token import Token

    from rulespy.check.examples import WorkedExample
    from rulespy.check.graph import LinkGraph
    from rulespy.check.parse import Terms

#: How much text (characters) the parsed pages the process keeps may hold: a page's tokens take about 25
#: times its text, so this keeps about 100 MB. Both editions of the rules (0.6 MB) fit many times over;
#: the least recently used page goes first.
CACHE_TEXT = 4 << 20


#: (repository path, text, the terms' key: ``""`` for none)
_Key = tuple[str, str, str]
#: a page's parse: the checker's ``Document``, its tokens, its tokens as the site reads it (``None``: over
#: the parse budget)
_Parsed = tuple[Document, tuple["Token", ...], tuple["Token", ...] | None]


class _Cache:
    """The parsed pages, by (repository path, text, terms' key), least recently used first, and how much
    text they hold (one object, so the two never disagree)."""

    def __init__(self) -> None:
        self.pages: OrderedDict[_Key, _Parsed] = OrderedDict()
        self.text = 0

    def get(self, key: _Key) -> _Parsed | None:
        found = self.pages.get(key)
        if found is not None:
            self.pages.move_to_end(key)
        return found

    def put(self, key: _Key, value: _Parsed) -> None:
        self.pages[key] = value
        self.text += len(key[1])
        while self.text > CACHE_TEXT and len(self.pages) > 1:
            (_, old, _), _ = self.pages.popitem(last=False)
            self.text -= len(old)


_CACHE = _Cache()


def forget_pages() -> None:
    """Empty the process's parsed pages, as a new process starts (``bench/bench_check.py``'s cold runs:
    in one process, a second check of the same texts finds every page parsed)."""
    _CACHE.pages.clear()
    _CACHE.text = 0


def parse_page(path: str, text: str, terms: Terms | None = None, keep: bool = True) -> _Parsed:
    """The checker's ``Document`` of ``text`` (repository file ``path``; ``terms``: the registry words it
    looks for, none by default), the token stream it was read from, and the page's tokens as the site
    reads it (the same stream unless the page has admonitions, which are parsed once more: ``None`` when
    that parse is over the budget): one parse (``rulespy.book.markdown``), remembered for the process
    (``CACHE_TEXT``) unless ``keep`` is false (no other reader of the process will ask for it: its tokens
    are then left to be freed at once)."""
    from rulespy.check.parse import NO_TERMS, parse_markdown_tokens

    key = (path, text, terms_key(terms))
    found = _CACHE.get(key)
    if found is None:
        document, tokens, site = parse_markdown_tokens(path, text, terms or NO_TERMS)
        shared = tuple(tokens)
        found = (document, shared, shared if site is tokens else None if site is None else tuple(site))
        if keep:
            _CACHE.put(key, found)
    return found


def terms_key(terms: Terms | None) -> str:
    """What tells two ``Terms`` apart in the cache (a digest of their words; ``""`` for none), made once
    for the same object."""
    if terms is None or not (terms.retired or terms.concepts or terms.forbidden):
        return ""
    known = _TERMS_KEY
    if known and known[0] is terms:
        return known[1]
    key = hashlib.sha256(repr(terms).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    _TERMS_KEY[:] = [terms, key]
    return key


_TERMS_KEY: list[Any] = []


def page_of(path: str, source: str, text: str, terms: Terms | None = None) -> Page:
    """The ``Page`` of ``text`` at edition path ``path``, repository path ``source`` (parsed once)."""
    text = text.replace("\r\n", "\n")
    document, tokens, site = parse_page(source, text, terms)
    return Page(path, source, text, document, tokens, site)


def readable(data: bytes, max_bytes: int) -> str | None:
    """The text of a page's bytes (a leading byte order mark dropped), or ``None`` when they are no page:
    larger than ``max_bytes``, holding a NUL byte (UTF-16 without a byte order mark, binary) or not
    UTF-8. The checker reports those (RS042, RS040: ``rulespy.check.parse.parse_bytes``) and no reader
    reads them."""
    if len(data) > max_bytes or b"\0" in data:
        return None
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None


@dataclass(frozen=True, eq=False)
class Page:
    """One page of an edition: ``path`` inside the edition (``core/damage.md``), ``source`` inside the
    repository (``ru/core/damage.md``), its text (``\\r\\n`` read as ``\\n``) and what it holds:
    ``tokens`` its CommonMark parse, which the checker and the sections read, and ``site_tokens`` the
    page as the site's generators read it, admonitions included (the same tuple when it has none;
    ``None`` when that reading is over the parse budget), which the site's linker links."""

    path: str
    source: str
    text: str
    document: Document = field(repr=False)
    tokens: tuple[Token, ...] = field(repr=False)
    site_tokens: tuple[Token, ...] | None = field(repr=False)

    @cached_property
    def lines(self) -> tuple[str, ...]:
        return tuple(self.text.split("\n"))

    @property
    def headings(self) -> tuple[Any, ...]:
        return self.document.headings

    @cached_property
    def sections(self) -> tuple[Section, ...]:
        """Every section, in order (``rulespy.book.sections``), with its first paragraph."""
        return cut(self.source, self.lines, heads_of(self.tokens), first_paragraphs(self.tokens))

    def section(self, anchor: str) -> Section | None:
        return next((s for s in self.sections if s.anchor == anchor), None)

    @cached_property
    def links(self) -> tuple[tuple[Any, Target], ...]:
        """Each link as written, with its target resolved from this page (``rulespy.book.links``)."""
        return tuple((link, resolve(self.path, link.target)) for link in self.document.links)

    @property
    def mentions(self) -> tuple[Any, ...]:
        return self.document.mentions

    @cached_property
    def examples(self) -> tuple[WorkedExample, ...]:
        """Its worked examples (``rulespy.check.examples``), found in the page's one token stream."""
        from rulespy.check.examples import worked_examples  # markdown-it: a check from stamps has none

        return tuple(worked_examples(self.text, self.tokens))

    @cached_property
    def tables(self) -> tuple[tuple[int, tuple[tuple[str, ...], ...]], ...]:
        """Each pipe table: its first line and its rows of cell source text (the header row first)."""
        found: list[tuple[int, tuple[tuple[str, ...], ...]]] = []
        rows: list[tuple[str, ...]] = []
        row: list[str] = []
        line = 0
        for token in self.tokens:
            if token.type == "table_open":
                rows, line = [], (token.map or [0])[0] + 1
            elif token.type in ("th_open", "td_open"):
                row.append("")
            elif token.type == "inline" and row:
                row[-1] = token.content
            elif token.type == "tr_close":
                rows.append(tuple(row))
                row = []
            elif token.type == "table_close":
                found.append((line, tuple(rows)))
        return tuple(found)


class Book:
    """One edition of the rule book (see the module docstring). Open it with ``Book.open``."""

    def __init__(
        self,
        root: Path,
        language: str | None,
        registry: Registry | None,
        tree: Tree,
        terms: Terms | None = None,
    ) -> None:
        """``registry``: ``concepts.yml`` read (``None``: read on first use); ``tree``: the edition's walk;
        ``terms``: the registry words its pages' documents note (``rulespy check``'s), none by default."""
        self.root = root
        self.language = language
        self._registry = registry
        self.layout: Layout = tree.layout
        self.tree = tree
        self.terms = terms
        self._pages: dict[str, Page | None] = {}

    @property
    def registry(self) -> Registry:
        """``concepts.yml`` (``CheckError`` with its file and line when it cannot be read), read once."""
        if self._registry is None:
            self._registry = load_registry(self.root)
        return self._registry

    @classmethod
    def walked(cls, root: Path, layout: Layout, registry: Registry | None = None) -> Book:
        """The English edition of the repository at ``root`` as ``rulespy check`` reads it: the tree walked
        once with ``layout`` (the ``check:`` setting, or one given), ``concepts.yml`` read only when
        asked (``registry``: already read). The checker's findings for a tree it remembers come from its
        stamps without reading the registry at all."""
        return cls(Path(root), None, registry, Tree(Path(root), layout).walk())

    def with_terms(self, terms: Terms) -> Book:
        """This book (the same walk and registry) whose pages note the registry words ``terms``."""
        return Book(self.root, self.language, self._registry, self.tree, terms)

    @classmethod
    def open(cls, root: Path, language: str | None = None) -> Book:
        """The edition ``language`` (``None``: English) of the repository at ``root``. ``concepts.yml`` is
        read here (``CheckError`` with its file and line when it cannot be) and the tree walked once."""
        root = Path(root)
        registry = load_registry(root)
        edition = root / language if language else root
        return cls(root, language, registry, Tree(edition, registry.layout).walk())

    def translation(self, language: str) -> Book:
        """The edition ``language`` of this English book's repository, read with this book's
        ``concepts.yml`` (not read again) and with this book as its ``english``: only the translation's
        folder is walked."""
        assert self.language is None, "a translation of the English edition"
        found = Book(self.root, language, self._registry, Tree(self.root / language, self.layout).walk())
        found.__dict__["english"] = self  # the ``english`` cached property, already at hand
        return found

    @classmethod
    def without_registry(cls, root: Path, language: str | None = None) -> Book:
        """The edition read with the default layout and no concepts (``concepts.yml`` cannot be read:
        the caller reports why)."""
        root = Path(root)
        edition = root / language if language else root
        return cls(root, language, Registry(), Tree(edition, Layout()).walk())

    @property
    def edition(self) -> Path:
        return self.root / self.language if self.language else self.root

    @property
    def concepts(self) -> tuple[Concept, ...]:
        """The owned concepts of ``concepts.yml``, in registry order (read once, by ``open``)."""
        return self.registry.concepts

    @property
    def rule_dirs(self) -> tuple[str, ...]:
        """The rule folders: the ``check: rule_dirs`` setting (``core``, ``sequences``, ``timing``,
        ``commands`` by default), the one list every reader uses."""
        return self.layout.rule_dirs

    def is_rule_file(self, path: str) -> bool:
        """A markdown file inside a rule folder (``core/damage.md``, read inside this edition)."""
        return path.endswith(".md") and "/" in path and path.split("/", 1)[0] in self.rule_dirs

    def rule_paths(self) -> list[str]:
        """Every rule file of the edition, sorted (the checker's walk: never a symlink out of it)."""
        return [path for path in self.tree.markdown if self.is_rule_file(path)]

    def source(self, path: str) -> str:
        """The repository path of edition path ``path`` (``core/x.md`` -> ``ru/core/x.md``)."""
        return f"{self.language}/{path}" if self.language else path

    def page(self, path: str, text: str | None = None) -> Page | None:
        """The page at edition path ``path`` (``text``: its content when the caller already read it), or
        ``None`` when it cannot be read as UTF-8 text within the size limit."""
        if text is None and path in self._pages:
            return self._pages[path]
        if text is None:
            data = self.tree.read(path)
            text = None if data is None else readable(data, self.layout.max_bytes)
        found = None if text is None else page_of(path, self.source(path), text, self.terms)
        self._pages[path] = found
        return found

    def document(self, path: str, data: bytes, keep: bool = True) -> Document:
        """The checker's ``Document`` of page ``path`` whose content is ``data``: the page's (parsed once,
        with the book's ``terms``), or, for bytes that are no page (``readable``), the finding that says
        why (RS040, RS042). ``keep``: remember the page for the readers after this one (``rulespy
        check`` keeps them when its translation pass will compare them); a page not kept is not held in
        memory, where its tokens (25 times its text) slowed every collection of a cold check by a third."""
        text = readable(data, self.layout.max_bytes)
        if text is None:
            from rulespy.check.parse import NO_TERMS, parse_bytes

            return parse_bytes(path, data, self.terms or NO_TERMS, self.layout.max_bytes)
        if keep:
            page = self.page(path, text)
            assert page is not None  # readable text is a page
            return page.document
        return parse_page(self.source(path), text.replace("\r\n", "\n"), self.terms, keep=False)[0]

    def pages(self) -> Iterator[Page]:
        """Every markdown page of the edition that could be read, in path order."""
        for path in self.tree.markdown:
            page = self.page(path)
            if page is not None:
                yield page

    def twin(self, path: str) -> Page | None:
        """The English page a translated page translates (the same edition path at the root)."""
        if self.language is None:
            return self.page(path)
        return self.english.page(path)

    @cached_property
    def english(self) -> Book:
        """The English edition beside a translation (this book itself for English)."""
        if self.language is None:
            return self
        return Book(self.root, None, self._registry, Tree(self.root, self.layout).walk(), self.terms)

    def translations(self) -> tuple[str, ...]:
        """The languages with a translated home page (``ru``)."""
        return tuple(lang for lang in LANGUAGES if (self.root / lang / "index.md").is_file())

    @cached_property
    def graph(self) -> LinkGraph:
        """The link graph of the edition (``rulespy.check.graph``), from the pages already parsed."""
        from rulespy.check.graph import LinkGraph
        from rulespy.check.parse import parse_bytes

        documents: dict[str, Document] = {}
        for path in self.tree.markdown:
            page = self.page(path)
            if page is not None:
                documents[path] = page.document
            else:  # not UTF-8, too large: the checker's own finding stands in its place
                data = self.tree.read(path) or b""
                documents[path] = parse_bytes(path, data, max_bytes=self.layout.max_bytes)
        return LinkGraph(self.tree, documents)
