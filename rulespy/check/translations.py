"""Translations held in step with the English rules (finding codes RS070-RS074).

A translation is a folder named after its language at the repository root (``ru/``, ``LANGUAGES`` in
``rulespy.check.registry``) that mirrors the English pages file for file: ``ru/core/damage.md``
translates ``core/damage.md`` and keeps its explicit section ids, so ``core/damage.md#target-limit`` and
``ru/core/damage.md#target-limit`` are the same rule. The pages expected in a translation are the
English home page (``index.md``) and every rule file; once a translation folder exists, each of them
must be translated.

Each translated section (a heading with an explicit ``{#id}``) carries, on a line of its own under the
heading, the **stamp** of the English section it translates, written by
``rulespy translations stamp ru/core/damage.md[#id]`` and never by hand::

    ## Предел цели {#target-limit}
    <!-- translates: core/damage.md#target-limit sha256:0123456789ab -->

The hash is ``section_hash`` of the English section (``rulespy.book.sections``: its heading line and
every line up to the next heading with an explicit id; a subsection with an id is a section of its own),
trailing spaces ignored. Changing one English section therefore makes exactly its translation stale.

The checks, for each translated page and its English twin:

- RS070: a page of the English edition with no translation, a translated page with no English twin, a
  section (explicit id) missing from the translation or only in it, or the sections in another order;
- RS071: a number in a table of a section that differs from the same table of the English section
  (numbers compared in reading order; ``1,5`` and ``1.5`` are the same number), a section with
  another count of tables, or a section whose prose (paragraphs, list items, headings: words and inline
  code, not link addresses or fenced code) holds other numbers than the English prose (compared as a
  collection, since a translation may reorder a sentence or split a paragraph);
- RS072: a link in a translation to an English page whose translation exists;
- RS073: a python fence (worked example or ``notest`` listing) that is not byte for byte its English
  twin, in the same order and the same section;
- RS074 (a warning): a section whose stamp is missing, names another section, or holds the hash of an
  older English text;
- RS076: in a language that writes a decimal comma (``DECIMAL_COMMA``: Russian), a number written with a
  decimal point in the words of a paragraph, list item, heading or table cell (``11.5"`` where Russian
  writes ``11,5"``). Inline code, fenced code and link addresses keep the point: they are scenario values
  and code, byte for byte the English.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulespy.book.sections import Section, stale_reason
from rulespy.check.files import LANGUAGES, NOT_PAGES, Layout, Tree
from rulespy.check.findings import Finding
from rulespy.errors import BookError

if TYPE_CHECKING:
    from rulespy.book.book import Book, Page
    from rulespy.check.cache import DocumentCache

#: The translations whose prose writes a decimal comma (RS076).
DECIMAL_COMMA = frozenset({"ru"})
_DECIMAL_POINT = re.compile(r"(?<![\w.,])\d+\.\d+(?![\w.])")
#: What keeps its point: inline code spans and link addresses (replaced by spaces, lines kept).
_KEPT = re.compile(r"(`+)(?:(?!\1).)+?\1|\]\([^)\s]*(?:\s+\"[^\"]*\")?\)|<[^>\n]*>", re.DOTALL)
#: A number standing alone (``6``, ``1.5``, ``1,5``, ``12"``), or an English plural of one (``5s``).
_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)?(?=s?(?!\w))")


def language_of(path: str) -> str | None:
    """The language whose folder holds ``path`` (``ru/core/damage.md`` -> ``ru``), ``None`` for English."""
    first = path.split("/", 1)[0]
    return first if first in LANGUAGES and "/" in path else None


def english_twin(path: str) -> str:
    """``ru/core/damage.md`` -> ``core/damage.md`` (an English path is returned as it is)."""
    return path.split("/", 1)[1] if language_of(path) else path


def is_translated_page(path: str, layout: Layout) -> bool:
    """Whether an English page belongs in every translation: the pages at the root (the home page, the
    questions at the table, the page for rule writers) and the rule files."""
    if not path.endswith(".md"):
        return False
    return ("/" not in path and path not in NOT_PAGES) or path.split("/", 1)[0] in layout.rule_dirs


def render_stamp(english: str, anchor: str, digest: str) -> str:
    return f"<!-- translates: {english}#{anchor} sha256:{digest} -->"


def read_page(book: Book, path: str, data: bytes | None = None) -> Page | None:
    """The rule book's page at repository path ``path`` (``book``: the repository's English edition, which
    holds the translations' folders too; ``data``: the page's content when already read): its text, its
    document and its sections (``rulespy.book``), parsed once for every reader. ``None`` when it is not
    UTF-8 text, too large or could not be read whole (RS040, RS042, RS044 already say so)."""
    from rulespy.book.book import readable

    if data is None:
        page = book.page(path)
    else:
        text = readable(data, book.layout.max_bytes)
        page = None if text is None else book.page(path, text)
    return None if page is None or page.document.problems else page


def findings(
    root: Path,
    layout: Layout | None = None,
    book: Book | None = None,
    keys: dict[str, bytes] | None = None,
    cache: DocumentCache | None = None,
) -> Iterator[Finding]:
    """Every translation finding of the repository at ``root``.

    ``book``: the run's rule book, its walk and its pages (else the tree is walked here); ``keys``: the
    content hash of each walked markdown file (``b""`` when it cannot be read), known without reading
    it (``stamps.py``); ``cache``: where each translated page's findings are remembered (``Pairs``).
    Without ``keys`` or an enabled cache, every page is compared afresh."""
    if book is None:
        from rulespy.book.book import Book

        book = Book(Path(root), None, None, Tree(Path(root), layout or Layout()).walk())
    tree = book.tree
    pairs = Pairs(book, keys, cache)
    for language in LANGUAGES:
        translated = [p for p in tree.markdown if p.startswith(language + "/")]
        if not translated:
            continue
        present = set(translated)
        for english in tree.markdown:
            if is_translated_page(english, tree.layout) and f"{language}/{english}" not in present:
                message = f"no {language} translation: {language}/{english} is missing"
                yield Finding(english, 1, 1, "RS070", message)
        for path in translated:
            english = english_twin(path)
            if english not in tree.files:
                yield Finding(path, 1, 1, "RS070", f"translates no English page: {english} does not exist")
                continue
            yield from pairs.findings(path, english)
    pairs.save()


#: (content hash of the translated page, of its English twin, ((dependency, answer), ...), findings)
PairResult = tuple[bytes, bytes, tuple[tuple[tuple[str, str], Any], ...], tuple[Finding, ...]]


class Pairs:
    """The findings of each translated page against its twin, remembered like the per-file results of
    ``incremental.py``: reused while both pages' content hashes are the same and every answer the
    comparison asked the tree (``Tree.kind`` of a link's translated mirror, recorded as it ran) is the
    same now; otherwise both pages are read and compared again. Kept in ``NAME.translations.pickle``
    under the run's salt (the checker's code, the layout and the parser's terms)."""

    def __init__(self, book: Book, keys: dict[str, bytes] | None, cache: DocumentCache | None) -> None:
        self.book, self.tree, self.keys = book, book.tree, keys or {}
        self.cache = cache if cache is not None and cache.enabled and keys is not None else None
        self.old: dict[str, PairResult] = {}
        if self.cache is not None:
            stored = self.cache.load_blob(self.cache.translations_file, "translations")
            if stored is not None and len(stored) == 1 and isinstance(stored[0], dict):
                self.old = stored[0]
        self.new: dict[str, PairResult] = {}

    def findings(self, path: str, english: str) -> tuple[Finding, ...]:
        keys = (self.keys.get(path, b""), self.keys.get(english, b""))
        old = self.old.get(path)
        if old is not None and all(keys) and old[:2] == keys and self._still(old[2]):
            self.new[path] = old
            return old[3]
        data = (self.tree.read(path), self.tree.read(english))
        page, twin = read_page(self.book, path, data[0]), read_page(self.book, english, data[1])
        if page is None or twin is None:
            return ()
        seen: dict[tuple[str, str], Any] = {}
        self.tree.seen = seen
        try:
            found = tuple(compare(self.tree, page, twin))
        finally:
            self.tree.seen = None
        if self.cache is not None:
            from rulespy.check.cache import digest

            assert data[0] is not None and data[1] is not None  # both pages were read
            # under the hashes of what was read and compared, whatever hashes the run started with
            self.new[path] = (digest(data[0]), digest(data[1]), tuple(seen.items()), found)
        return found

    def _still(self, dependencies: tuple[tuple[tuple[str, str], Any], ...]) -> bool:
        for (kind, argument), answer in dependencies:
            if kind != "k" or self.tree.kind(argument) != answer:
                return False
        return True

    def save(self) -> None:
        if self.cache is not None and self.new != self.old:
            self.cache.save_blob(self.cache.translations_file, "translations", (self.new,))


def compare(tree: Tree, page: Page, twin: Page) -> Iterator[Finding]:
    """The findings of translated ``page`` against its English ``twin``."""
    ours, theirs = page.sections, twin.sections
    english = {s.anchor: s for s in theirs}
    translated = {s.anchor: s for s in ours}
    for section in theirs:
        if section.anchor not in translated:
            message = f"section #{section.anchor} of {twin.path} (line {section.line}) is missing here"
            yield Finding(page.path, 1, 1, "RS070", message)
    for section in ours:
        if section.anchor not in english:
            message = f"section #{section.anchor} is not in {twin.path}: a translation adds no section"
            yield Finding(page.path, section.line, 1, "RS070", message)
    common_ours = [s for s in ours if s.anchor in english]
    common_theirs = [s.anchor for s in theirs if s.anchor in translated]
    for section, expected in zip(common_ours, common_theirs, strict=True):
        if section.anchor != expected:
            message = f"section #{section.anchor} stands where {twin.path} has #{expected}: keep the order"
            yield Finding(page.path, section.line, 1, "RS070", message)
            break
    for section in common_ours:
        yield from _tables(page, section, twin, english[section.anchor])
        yield from _staleness(page, section, twin.path, english[section.anchor])
    yield from _fences(page, twin)
    yield from _links(tree, page)
    if language_of(page.path) in DECIMAL_COMMA:
        yield from _decimal_points(page)


def _decimal_points(page: Page) -> Iterator[Finding]:
    """RS076: each ``11.5`` in the words of the page (see the module docstring)."""
    tokens = page.tokens  # the page's one parse
    for index, token in enumerate(tokens):
        if token.type != "inline" or token.map is None:
            continue
        if tokens[index - 1].type not in ("paragraph_open", "heading_open", "th_open", "td_open"):
            continue
        words = _KEPT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), token.content)
        for match in _DECIMAL_POINT.finditer(words):
            line = token.map[0] + 1 + words.count("\n", 0, match.start())
            number = match.group(0)
            message = f"decimal point in Russian text: write {number.replace('.', ',')}, not {number}"
            yield Finding(page.path, line, 1, "RS076", message)


def _staleness(page: Page, section: Section, english_path: str, original: Section) -> Iterator[Finding]:
    command = f"rulespy translations stamp {page.path}#{section.anchor}"
    reason = stale_reason(section, english_path, original)  # the one rule the site's notice follows too
    if reason is None:
        return
    if section.stamp is None:
        message = (
            f"warning: section #{section.anchor} has no stamp of the English text it translates: {command}"
        )
        yield Finding(page.path, section.line, 1, "RS074", message)
        return
    path, anchor, digest, line = section.stamp
    if (path, anchor) != (english_path, section.anchor):
        message = (
            f"warning: the stamp names {path}#{anchor}, but this section translates "
            f"{english_path}#{section.anchor}"
        )
        yield Finding(page.path, line, 1, "RS074", message)
    elif digest != original.hash:
        message = (
            f"warning: stale translation: {english_path}#{section.anchor} changed since it was translated "
            f"(sha256:{digest}, now sha256:{original.hash}); bring it up to date, then {command}"
        )
        yield Finding(page.path, line, 1, "RS074", message)


Numbers = list[list[tuple[int, str]]]
Blocks = list[tuple[int, list[str]]]


def _section_numbers(page: Page, section: Section) -> tuple[Numbers, Blocks]:
    """The numbers of ``section`` of ``page``, written with a full stop for the decimal mark: each table's
    as (line, number) in reading order, and each prose block's (a paragraph, a list item's paragraph, a
    heading) as (line, numbers), in the order of the blocks. Prose numbers are read from the words and
    inline code only: link addresses, HTML (the stamp) and fenced code are left out. Read from the page's
    one token stream: the blocks that start within the section's own text (a heading ends every block)."""
    starts = [(t.map[0] if t.map is not None else -1) for t in page.tokens]
    first = next((i for i, s in enumerate(starts) if s >= section.line - 1), len(starts))
    last = next((i for i, s in enumerate(starts) if i >= first and s >= section.end - 1), len(starts))
    tokens = page.tokens[first:last]
    tables: Numbers = []
    prose: Blocks = []
    row_line = section.line
    for index, token in enumerate(tokens):
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open" and token.map is not None:
            row_line = token.map[0] + 1
        elif token.type != "inline":
            continue
        elif tables and tokens[index - 1].type in ("th_open", "td_open"):
            tables[-1].extend((row_line, n) for n in _numbers(token.content))
        elif tokens[index - 1].type in ("paragraph_open", "heading_open") and token.map is not None:
            words = " ".join(c.content for c in token.children or () if c.type in ("text", "code_inline"))
            prose.append((token.map[0] + 1, _numbers(words)))
    return tables, prose


def _numbers(text: str) -> list[str]:
    return [match.group(0).replace(",", ".") for match in _NUMBER.finditer(text)]


def _tables(page: Page, section: Section, twin: Page, original: Section) -> Iterator[Finding]:
    ours, prose = _section_numbers(page, section)
    theirs, expected_prose = _section_numbers(twin, original)
    yield from _prose(page, section, twin, prose, expected_prose)
    if len(ours) != len(theirs):
        message = f"section #{section.anchor} has {len(ours)} table(s), {twin.path} has {len(theirs)}"
        yield Finding(page.path, section.line, 1, "RS071", message)
        return
    for number, (table, expected) in enumerate(zip(ours, theirs, strict=True), start=1):
        for index in range(max(len(table), len(expected))):
            mine = table[index] if index < len(table) else (table[-1][0] if table else section.line, "")
            other = expected[index] if index < len(expected) else (original.line, "")
            if mine[1] != other[1]:
                message = (
                    f"table {number} of #{section.anchor}: number {index + 1} is {mine[1] or 'missing'}, "
                    f"{twin.path} line {other[0]} has {other[1] or 'no more numbers'}"
                    " (write numbers as digits)"
                )
                yield Finding(page.path, mine[0], 1, "RS071", message)
                break


def _prose(page: Page, section: Section, twin: Page, ours: Blocks, theirs: Blocks) -> Iterator[Finding]:
    """RS071 for prose: the numbers of the section's words, compared as one collection (a translation
    may reorder a sentence, or split or join its paragraphs), reported at the first paragraph whose
    numbers differ from its English twin's when the paragraphs pair up, else at the heading."""
    mine = Counter(n for _, block in ours for n in block)
    other = Counter(n for _, block in theirs for n in block)
    if mine == other:
        return
    line, where = section.line, ""
    if len(ours) == len(theirs):
        for (at, block), (twin_at, twin_block) in zip(ours, theirs, strict=True):
            if Counter(block) != Counter(twin_block):
                line, where = at, f" line {twin_at}"
                break
    said = []
    if mine - other:
        said.append(f"{', '.join(sorted((mine - other).elements()))} not in the English")
    if other - mine:
        said.append(f"{', '.join(sorted((other - mine).elements()))} of the English missing")
    message = (
        f"the prose of #{section.anchor} has other numbers than {twin.path}{where}: {'; '.join(said)}"
        " (write numbers as digits; 1,5 is 1.5)"
    )
    yield Finding(page.path, line, 1, "RS071", message)


def _python_fences(page: Page) -> list[tuple[int, str, str, str]]:
    """(line, section id, info, content) of each python fence of the page, in order."""
    from rulespy.check.examples import PYTHON, fence_info

    section_at = [(s.line, s.anchor) for s in page.sections]
    found = []
    for token in page.tokens:
        if token.type != "fence" or token.map is None or fence_info(token.info)[0] not in PYTHON:
            continue
        line = token.map[0] + 1
        anchor = next((a for start, a in reversed(section_at) if start <= line), "")
        found.append((line, anchor, token.info.strip(), token.content))
    return found


def _fences(page: Page, twin: Page) -> Iterator[Finding]:
    ours, theirs = _python_fences(page), _python_fences(twin)
    for index in range(max(len(ours), len(theirs))):
        if index >= len(ours):
            line, anchor = theirs[index][:2]
            message = f"python fence {index + 1} of {twin.path} (line {line}, #{anchor}) is missing here"
            yield Finding(page.path, 1, 1, "RS073", message)
            return
        if index >= len(theirs):
            message = (
                f"python fence {index + 1} has no twin in {twin.path}: examples are translated, not added"
            )
            yield Finding(page.path, ours[index][0], 1, "RS073", message)
            return
        (line, anchor, info, content), (other_line, other_anchor, other_info, other_content) = (
            ours[index],
            theirs[index],
        )
        if (info, content) != (other_info, other_content):
            message = (
                f"python fence {index + 1} differs from its twin at {twin.path} line {other_line}: "
                "copy the code byte for byte, only the prose around it is translated"
            )
            yield Finding(page.path, line, 1, "RS073", message)
        elif anchor != other_anchor:
            message = (
                f"python fence {index + 1} sits in #{anchor}, its twin in #{other_anchor} of {twin.path}"
            )
            yield Finding(page.path, line, 1, "RS073", message)


def _links(tree: Tree, page: Page) -> Iterator[Finding]:
    from rulespy.book.links import resolve

    language = language_of(page.path)
    for link in page.document.links:
        target = resolve(page.path, link.target)
        if (
            target.path is None
            or target.external
            or not target.path.endswith(".md")
            or language_of(target.path)
        ):
            continue
        mirror = f"{language}/{target.path}"
        if tree.kind(mirror) == "file":
            message = (
                f"links to the English page {target.path}; its translation {mirror} exists: link to that"
            )
            yield Finding(page.path, link.line, link.column, "RS072", message)


class StampError(BookError):
    """What ``stamp`` cannot do, as ``PATH:LINE: message``."""


def stamp(root: Path, target: str) -> list[str]:
    """Write the stamps of translated page ``target`` (``ru/core/damage.md``, or ``...#id`` for one
    section): under each heading, the hash of its English section now. Returns the ids stamped anew.

    Stamping says "this section translates the English text as it is now": stamp a section after
    bringing its translation up to date, the whole page only when all of it is."""
    root = Path(root)
    path, _, only = target.strip().removeprefix("./").partition("#")
    language = language_of(path)
    if language is None or not path.endswith(".md"):
        raise StampError(f"{path}:1: not a translated page (expected {'|'.join(LANGUAGES)}/PATH.md)")
    from rulespy.check.atomic import WriteError, locked_file

    full = root / path
    try:  # read, stamp and write under the page's lock: a concurrent stamp waits, then reads this one's
        with locked_file(full) if full.is_file() and not full.is_symlink() else contextlib.nullcontext():
            return _stamp(root, path, only)
    except WriteError as error:
        raise StampError(f"{path}:1: cannot write: {error.reason}; the page is unchanged") from None


def _stamp(root: Path, path: str, only: str) -> list[str]:
    """``stamp`` of ``path`` (section ``only``, or all), its lock held."""
    from rulespy.book.book import Book
    from rulespy.check.atomic import write_atomic

    book = Book.without_registry(root)  # the default layout: a stamp reads no concepts.yml
    english = english_twin(path)
    page, twin = (read_page(book, p) if p in book.tree.files else None for p in (path, english))
    if page is None:
        raise StampError(f"{path}:1: no such translated page (or not UTF-8 text)")
    if twin is None:
        raise StampError(f"{path}:1: its English twin {english} does not exist (or is not UTF-8 text)")
    originals = {s.anchor: s for s in twin.sections}
    chosen = [s for s in page.sections if s.anchor in originals and (not only or s.anchor == only)]
    if only and not chosen:
        raise StampError(f"{path}:1: no section #{only} here that {english} also has")
    lines = page.text.split("\n")
    stamped: list[str] = []
    for section in reversed(chosen):  # bottom up, so that earlier line numbers hold
        line = render_stamp(english, section.anchor, originals[section.anchor].hash)
        if section.stamp is not None:
            index = section.stamp[3] - 1
            if lines[index] == line:
                continue
            lines[index] = line
        else:
            lines.insert(section.line, line)
        stamped.append(section.anchor)
    if stamped:
        write_atomic(root / path, "\n".join(lines).encode("utf-8"))
    return list(reversed(stamped))
