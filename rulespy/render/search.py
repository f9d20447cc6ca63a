"""Search words: what players type, indexed as words of the section that answers them.

Each concept of ``concepts.yml`` brings to its owner's section, in each edition, its other names
(``aliases``; on a translated page its forms in that language, and its English name) and the players'
own phrasings kept beside it (``asked`` in English, ``asked_ru`` in Russian: "within 1 inch of an
enemy", "overwatch", "overkill"). They are written at the end of the section as one hidden block
(``<div class="vs-search-words" hidden>``): both generators' search index the text of every element of
a section, the reader never sees it, and a screen reader skips it as well. At the end, not under the
heading, so that the start of the section's own text stays what a search result quotes.

The words are escaped: concepts.yml is input like any other.
"""

from __future__ import annotations

import html
import os
import re
import shutil
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING

from rulespy.errors import BookError

from .registry import Concept

if TYPE_CHECKING:
    from rulespy.book.book import Book

CLASS = "vs-search-words"
_HEADING = re.compile(r"^#{1,6}\s")
_ANCHOR = re.compile(r"\{[^}]*#([A-Za-z0-9_-]+)[\s}]")
_FENCE = re.compile(r"^(`{3,}|~{3,})")


def words(concept: Concept, language: str | None) -> list[str]:
    """The search words ``concept`` adds to its owner's section in edition ``language``: each once."""
    found = [*concept.names_in(language)[1:], *concept.asked_in(language)]
    if language is not None:
        found += concept.names  # a player who knows the English term finds it on the Russian site too
    shown = concept.name_in(language).lower()
    seen: set[str] = {shown}
    kept = []
    for word in found:
        if word.lower() not in seen:
            seen.add(word.lower())
            kept.append(word)
    return kept


def with_search_words(page: str, path: str, concepts: Sequence[Concept], language: str | None) -> str:
    """``page`` (the rendered markdown of rule file ``path``) with each owned concept's search words at
    the end of its section, before the next heading of any level (Material and Zensical cut a page into
    search entries at every heading). Headings inside fenced code are not headings."""
    wanted: dict[str, list[str]] = {}
    for concept in concepts:
        if concept.file == path:
            found = words(concept, language)
            if found:
                wanted.setdefault(concept.anchor, []).extend(found)
    if not wanted:
        return page
    lines = page.split("\n")
    out: list[str] = []
    current: str | None = None
    fence: str | None = None

    def close() -> None:
        if current in wanted:
            text = html.escape(" · ".join(wanted[current]), quote=True)
            out.extend(["", f'<div class="{CLASS}" hidden>{text}</div>', ""])

    for line in lines:
        mark = _FENCE.match(line)
        if fence is None and mark:
            fence = mark.group(1)[0] * 3
        elif fence is not None and line.startswith(fence):
            fence = None
        elif fence is None and _HEADING.match(line):
            close()
            anchor = _ANCHOR.search(line)
            current = anchor.group(1) if anchor else None
        out.append(line)
    close()
    return "\n".join(out)


# --- The site's search index: every section of the built site a document of its own (Pagefind) --------

SKIPPED_TAGS = frozenset({"svg", "script", "style", "pre", "nav", "button", "form", "template"})
#: elements of a built page whose text is not the rules' text: the permalink mark, the edition line,
#: "Defined on this page", a board drawn as text, Try it, a worked example's code
SKIPPED_CLASSES = frozenset(
    {
        "headerlink",
        "vs-language",
        "vs-edition",
        "abstract",
        "vs-board-text",
        "vs-try",
        "vs-referenced-by",
        "highlight",
        "vs-odds",
        "vs-changed",
    }
)
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


@dataclass
class Section:
    """One section of a built page, as the search indexes it: the part of the page from its heading to
    the next heading (``anchor`` None: the page's top, from its title to the first heading)."""

    page: str  # the page's address below the edition's root: "core/damage/"
    anchor: str | None
    title: str
    page_title: str
    text: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.page + (f"#{self.anchor}" if self.anchor else "")


class _Sections(HTMLParser):
    """Cuts the article of a built page (Material's and Zensical's ``<article class="md-content__inner">``)
    into sections at each heading whose id is one of ``anchors``, the rule book's sections of the page
    (``rulespy.book.sections``: a heading without an explicit id is a subtitle of its section, its words
    part of it); at every heading with an id when ``anchors`` is ``None`` (a page the book does not
    hold). The hidden search words go to their section's ``words``."""

    def __init__(self, page: str, anchors: Collection[str] | None = None) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.anchors = anchors
        self.sections: list[Section] = []
        self.depth = 0  # inside <article>: its element depth; 0 outside
        self.skip_at: int | None = None  # the depth of the element whose text is left out
        self.words_at: int | None = None
        self.heading: tuple[int, str | None, list[str]] | None = None
        self.page_title = ""
        self.dropping = False  # inside a section left out whole

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = set((found.get("class") or "").split())
        if self.depth == 0:
            if tag == "article" and "md-content__inner" in classes:
                self.depth = 1
            return
        if tag in _VOID:
            return
        self.depth += 1
        if self.skip_at is not None or self.words_at is not None:
            return
        heading = re.fullmatch(r"h[1-6]", tag) is not None
        code = tag == "details" and "example" in classes  # a worked example's "Executable check"
        if tag in SKIPPED_TAGS or classes & SKIPPED_CLASSES or code:
            self.skip_at = self.depth
            self.dropping = self.dropping or heading  # "Referenced by": left out up to the next heading
        elif CLASS in classes:
            self.words_at = self.depth
        elif heading:
            self.heading = (self.depth, found.get("id"), [])

    def handle_endtag(self, tag: str) -> None:
        if self.depth == 0 or tag in _VOID:
            return
        if self.heading is not None and self.heading[0] == self.depth:
            _, anchor, parts = self.heading
            title = " ".join("".join(parts).split())
            self.heading = None
            if anchor or not self.sections:
                self.dropping = False
            if not self.sections:
                self.page_title = title
                self.sections.append(Section(self.page, None, title, title))
            elif anchor and (self.anchors is None or anchor in self.anchors):
                self.sections.append(Section(self.page, anchor, title, self.page_title))
            elif self.anchors is not None and not self.dropping:  # a subtitle: its words are its section's
                self.sections[-1].text.append(title)
        if self.skip_at == self.depth:
            self.skip_at = None
        if self.words_at == self.depth:
            self.words_at = None
        self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.depth == 0 or self.skip_at is not None or self.dropping:
            return
        if self.heading is not None:
            self.heading[2].append(data)
        elif self.sections and self.words_at is not None:
            self.sections[-1].words.extend(w.strip() for w in data.split("·") if w.strip())
        elif self.sections:
            self.sections[-1].text.append(data)


def sections(html_text: str, page: str, anchors: Collection[str] | None = None) -> list[Section]:
    """The sections of built page ``html_text`` at address ``page`` (its top first); ``anchors``: the
    ids of the rule book's sections of its source page (``source_sections``), where sections start."""
    parser = _Sections(page, anchors)
    parser.feed(html_text)
    parser.close()
    return parser.sections


def document(section: Section, language: str) -> str:
    """``section`` as the small HTML page Pagefind indexes: its title (Pagefind weighs a heading above
    the text), its text, the page it is on (shown under the result, "Page: Damage and Casualties") and
    its concepts' other names and players' phrasings, weighed like its title; last, so that a result
    quotes the section's own words first."""
    esc = html.escape
    words = " · ".join(section.words)
    text = " ".join(" ".join(section.text).split())
    page = "" if section.anchor is None else section.page_title
    key = esc(PAGE_META.get(language, PAGE_META["en"]), quote=True)
    return (
        f'<html lang="{language}"><head><title>{esc(section.title)}</title></head><body>'
        f"<h1>{esc(section.title)}</h1><p>{esc(text)}</p>"
        + (f'<p data-pagefind-meta="{key}" data-pagefind-weight="{PAGE_WEIGHT}">{esc(page)}</p>' * bool(page))
        + (f'<p data-pagefind-weight="{WORDS_WEIGHT}">{esc(words)}</p>' if words else "")
        + "</body></html>"
    )


#: the name under which a result shows the page its section is on, in each edition's language
PAGE_META = {"en": "Page", "ru": "Страница"}
#: Pagefind's weight of a section's search words: its title's (a heading weighs 7; the text 1). Measured
#: with the table questions (bench/README.md, "Search at the table"): 7 answers two more than 3 or 5,
#: and 10 no more than 7. The page's title, shown under each result, weighs half a word of the text.
WORDS_WEIGHT = 7.0
PAGE_WEIGHT = 0.5
PACKAGE = Path(__file__).resolve().parent / "search"
INSTALL = Path("build") / "search"
SCRIPT = "build-index.mjs"
BUNDLE = "pagefind"  # the search bundle's folder in each edition: pagefind.js, its index and UI
#: what Pagefind writes that the site never loads (its other two UIs, its highlighter)
UNUSED = ("pagefind-component-ui.*", "pagefind-modular-ui.*", "pagefind-highlight.js")
#: pages of an edition that are not searched: the 404 page, and the theme's own search page
LEFT_OUT = ("404.html", "search/index.html")
#: pages about other pages: the home page (its most asked questions), Questions at the table, the
#: glossary (each owner's first paragraph again) and What changed (old and new words of sections). Each
#: is searched by its title and opening words only, so that a search leads to the rule itself, not to a
#: page that quotes or links it.
POINTERS = ("", "questions/", "glossary/", "changes/", "rule-writers/")


def _book(root: Path, language: str | None) -> Book | None:
    """The edition's rule book (``None`` when ``concepts.yml`` cannot be read: every heading with an id
    then starts a section, as the render has already said what is wrong)."""
    from rulespy.book.book import Book
    from rulespy.check.findings import CheckError

    try:
        return Book.open(root, language)
    except CheckError:
        return None


class SearchError(BookError):
    """The search index cannot be written (npm or node missing, Pagefind failed)."""

    def __init__(self, message: str, *, no_npm: bool = False) -> None:
        super().__init__(message)
        self.no_npm = no_npm


def edition_pages(edition: Path, others: Sequence[str]) -> list[Path]:
    """The built pages of the edition at ``edition``, without the folders of ``others`` (the other
    editions inside it: ``ru/``, ``v1.0/``) and the pages of ``LEFT_OUT``."""
    found = []
    for path in sorted(edition.rglob("index.html")):
        relative = path.relative_to(edition).as_posix()
        if relative.split("/")[0] in others or relative in LEFT_OUT or relative.startswith(BUNDLE + "/"):
            continue
        found.append(path)
    return found


def source_sections(book: Book | None, page: str) -> set[str] | None:
    """The ids of the rule book's sections of the page built at address ``page`` (``core/damage/`` from
    ``core/damage.md`` or ``core/damage/index.md``, the home page from ``index.md``); ``None`` when
    ``book`` holds no such page (a page the build made: the Judge page, What changed)."""
    if book is None:
        return None
    for source in (f"{page[:-1]}.md", f"{page}index.md") if page else ("index.md",):
        if source in book.tree.files:
            found = book.page(source)
            return None if found is None else {s.anchor for s in found.sections}
    return None


def documents(
    edition: Path, others: Sequence[str], language: str, book: Book | None = None
) -> list[dict[str, str]]:
    """Every section of the edition at ``edition`` as ``{url, html}``: its address from the edition's
    root (``core/damage/#target-limit``) and the small page Pagefind indexes (``document``). ``book``:
    the edition's rule book, whose sections say where each document starts and ends."""
    found = []
    for path in edition_pages(edition, others):
        page = path.parent.relative_to(edition).as_posix()
        page = "" if page == "." else page + "/"
        for section in sections(path.read_text(encoding="utf-8"), page, source_sections(book, page)):
            if page in POINTERS and section.anchor is not None:
                continue
            found.append({"url": "/" + section.url, "html": document(section, language)})
    return found


def publish(root: Path, site_dir: Path, languages: Sequence[str]) -> list[str]:
    """Index each edition of ``site_dir`` (English at its root, each of ``languages`` in its folder) into
    its ``pagefind/`` folder, by Pagefind (npm, locked in ``rulespy/render/search/``), and say so."""
    import json
    import subprocess
    import tempfile

    from .offline import OfflineError, npm_ci

    try:
        modules = npm_ci(PACKAGE, root / INSTALL, Path("pagefind") / "lib" / "index.js")
    except OfflineError as error:
        raise SearchError(str(error), no_npm=error.no_npm) from error
    node = shutil.which("node")
    if node is None:
        raise SearchError("the search index needs Node.js, which is not installed", no_npm=True)
    script = (root / INSTALL / SCRIPT).resolve()  # beside node_modules: an ES module finds its imports there
    shutil.copyfile(PACKAGE / SCRIPT, script)
    said = []
    others = [*languages, *(p.name for p in site_dir.glob("v[0-9]*") if p.is_dir())]
    for language in (None, *languages):
        edition = site_dir / language if language else site_dir
        output = edition / BUNDLE
        shutil.rmtree(output, ignore_errors=True)
        job = {
            "language": language or "en",
            "output": str(output.resolve()),
            "documents": documents(
                edition, others if language is None else [], language or "en", _book(root, language)
            ),
        }
        with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8", delete=False) as file:
            json.dump(job, file, ensure_ascii=False)
        try:
            done = subprocess.run(
                [node, str(script), file.name],
                cwd=modules.parent,
                capture_output=True,
                text=True,
                check=False,
            )
        finally:
            os.unlink(file.name)
        if done.returncode != 0:
            detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            raise SearchError(f"Pagefind failed on {edition}: {detail[0]}")
        count = json.loads(done.stdout.strip().splitlines()[-1])["count"]
        for unused in UNUSED:  # Pagefind's other UIs: the site uses its default one
            for path in output.glob(unused):
                path.unlink()
        said.append(f"Search: {count} sections of {edition} indexed by Pagefind into {output}.")
    return said
