"""The printable rulebook (rulespy/render/pdf.py), read back with pypdf: every rule heading of every page
is in it, in navigation order, and every internal link lands on a page of the book; in both languages,
no test code, a contents list whose page numbers are where the pages start, "see p. N" that says the
page printed, no link but into the book or to the published site, and every board's models."""

from __future__ import annotations

import io
import re
import unicodedata
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from markdown_it import MarkdownIt
from pypdf import PdfReader

from rulespy.check.slugs import split_attr_list
from rulespy.render.book import book_id
from rulespy.render.pages import RULEBOOK
from rulespy.render.pdf import Rulebook, destination_pages, mkdocs_config, nav_pages, published_site
from rulespy.render.pdf import rulebook as book_of
from rulespy.render.stage import NAV, OUT

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(300)


class Printed:
    """What the module reads of each language's rulebook, each read once for all its tests: pypdf's text
    of every page (about 13 s of CPU for a book of 220 pages: before, the English book's was extracted
    twice), the pages each destination printed on, and the book ``rulespy.render.pdf.rulebook`` makes of
    the staged pages (about 2 s; before, made again by three tests)."""

    def __init__(self, rulebooks: Path) -> None:
        self.rulebooks = rulebooks
        self.found: dict[str | None, tuple[bytes, PdfReader, list[str]]] = {}
        self.books: dict[str | None, Rulebook] = {}
        self.landed: dict[str | None, dict[str, int]] = {}

    def read(self, language: str | None) -> tuple[bytes, PdfReader, list[str]]:
        """(the PDF's bytes, its reader, the text of each of its pages)."""
        if language not in self.found:
            data = (self.rulebooks / (language or "") / RULEBOOK).read_bytes()
            reader = PdfReader(io.BytesIO(data))
            self.found[language] = data, reader, [page.extract_text() for page in reader.pages]
        return self.found[language]

    def book(self, language: str | None) -> Rulebook:
        if language not in self.books:
            self.books[language] = book_of(ROOT, language)
        return self.books[language]

    def destinations(self, language: str | None) -> dict[str, int]:
        if language not in self.landed:
            self.landed[language] = destination_pages(self.read(language)[0])
        return self.landed[language]


@pytest.fixture(scope="module")
def read(rulebooks: Path) -> Printed:
    return Printed(rulebooks)


@pytest.fixture(scope="module")
def rulebook(read: Printed) -> PdfReader:
    """The English rulebook ``print_rulebook`` printed for the session (``conftest.py``)."""
    return read.read(None)[1]


@pytest.fixture(scope="module")
def texts(read: Printed) -> list[str]:
    """The text of each page of the English rulebook (extracted once for the module)."""
    return read.read(None)[2]


def _flat(text: str) -> str:
    """Whitespace collapsed and ligatures (the PDF's \ufb01 for "fi") spelled out."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _headings() -> list[str]:
    """Every level 1 and 2 heading of the staged pages, in navigation order, as a reader sees it."""
    order = nav_pages(yaml.safe_load((ROOT / NAV).read_text(encoding="utf-8"))["nav"])
    found: list[str] = []
    for _, path, _ in order:
        tokens = MarkdownIt("commonmark").parse((ROOT / OUT / path).read_text(encoding="utf-8"))
        for token, inline in zip(tokens, tokens[1:], strict=False):
            if token.type == "heading_open" and token.tag in ("h1", "h2"):
                found.append(_flat(re.sub(r"[`*_]", "", split_attr_list(inline.content)[0])))
    return found


def test_every_rule_heading_is_in_the_rulebook_in_navigation_order(texts: list[str]) -> None:
    text = _flat(" ".join(texts))
    headings = _headings()
    assert len(headings) > 40
    position = text.index("Contents")
    missing = []
    for heading in headings:
        found = text.find(heading, position)
        if found < 0:
            missing.append(heading)
        else:
            position = found + len(heading)
    assert not missing, f"not found in order: {missing[:5]}"


def test_the_rulebook_has_a_cover_contents_and_the_glossary(texts: list[str]) -> None:
    assert "VoidSiege Rules" in texts[0]
    assert "Contents" in texts[1]
    assert any("Glossary" in text for text in texts[2:])  # a page of its own, after the contents


def test_every_internal_link_of_the_rulebook_lands_on_one_of_its_pages(rulebook: PdfReader) -> None:
    named = rulebook.named_destinations
    pages = {id(page.indirect_reference.get_object()) for page in rulebook.pages}  # type: ignore[union-attr]
    internal = unresolved = 0
    for page in rulebook.pages:
        for annotation in page.get("/Annots") or ():
            link = annotation.get_object()
            if link.get("/Subtype") != "/Link" or "/Dest" not in link:
                continue
            internal += 1
            dest = link["/Dest"]
            name = str(dest)
            target = named.get(name) if name in named else None
            if target is None or id(target.page.get_object()) not in pages:
                unresolved += 1
    assert internal > 100  # mentions, concepts, contents, Referenced by
    assert unresolved == 0


LANGUAGES = (None, "ru")


@pytest.fixture(scope="module", params=LANGUAGES, ids=("en", "ru"))
def printed(request: pytest.FixtureRequest, read: Printed) -> tuple[str | None, bytes, list[str]]:
    """(language, the PDF's bytes, the text of each of its pages) of each language's rulebook."""
    language = request.param
    data, _, pages = read.read(language)
    return language, data, pages


def test_the_rulebook_prints_no_test_code(printed: tuple[str | None, bytes, list[str]]) -> None:
    _, _, pages = printed
    text = "\n".join(pages)
    for code in ("assert ", "import ", "rulespy.", "executable check", "исполняемая проверка"):
        assert code not in text, f"{code!r} is printed: {text[max(0, text.find(code) - 200) :][:300]!r}"
    assert text.count("What happens") + text.count("Что происходит") > 40  # each worked example's outcome


def test_the_contents_give_the_page_each_page_starts_on(
    printed: tuple[str | None, bytes, list[str]], read: Printed
) -> None:
    language, _, pages = printed
    book = read.book(language)
    landed = read.destinations(language)
    contents = _flat(pages[1])
    assert len(book.pages) > 20
    for _, path, title, _ in book.pages:
        number = landed[book_id(path, None)]
        assert re.search(rf"{re.escape(_flat(title))}\W*{number}\b", contents), (title, number)
        heading = book.book.titles.get(path, title)  # the page's own heading (the navigation may say "Home")
        assert _flat(heading) in _flat(pages[number - 1]), f"{heading} is not on p. {number}"
        assert f"\n{number}\n" in f"\n{pages[number - 1]}\n", f"p. {number} does not print its number"


def test_every_see_page_says_the_page_its_section_printed_on(
    printed: tuple[str | None, bytes, list[str]], read: Printed
) -> None:
    language, _, pages = printed
    book = read.book(language)  # its pages are made already: the numbers change only what html() writes
    book.book.numbers = dict(read.destinations(language))  # where each destination printed
    expected = Counter(re.findall(r'class="vs-see"[^>]*> \(([^)]*)\)<', book.html()))
    printed_see = Counter(re.findall(r"(?:see p\.|см\. с\.) \d+", _flat(" ".join(pages))))
    assert sum(expected.values()) > 100
    assert printed_see == expected


def test_every_link_leads_into_the_book_or_to_the_published_site(
    printed: tuple[str | None, bytes, list[str]], read: Printed
) -> None:
    language, _, _ = printed
    site = published_site(mkdocs_config(ROOT), language)
    assert site is not None
    reader = read.read(language)[1]
    outside = []
    for page in reader.pages:
        for annotation in page.get("/Annots") or ():
            action = annotation.get_object().get("/A") or {}
            if "/URI" in action:
                outside.append(str(action["/URI"]))
    assert outside  # the scenario files and the Judge page are on the site
    for uri in outside:
        parts = urlsplit(uri)
        assert parts.scheme in ("http", "https", "mailto"), uri
        assert uri.startswith(site) or parts.netloc not in ("", "localhost", "127.0.0.1"), uri


_LABEL = re.compile(r'class="vs-label">([^<]+)<')


def test_every_board_prints_all_its_models(
    printed: tuple[str | None, bytes, list[str]], read: Printed
) -> None:
    """Each model's label of each board of a page is printed among that page's PDF pages."""
    language, _, pages = printed
    book = read.book(language)
    landed = read.destinations(language)
    starts = [landed[book_id(path, None)] for _, path, _, _ in book.pages] + [len(pages) + 1]
    boards = 0
    for (_, path, _, body), start, end in zip(book.pages, starts, starts[1:], strict=False):
        text = _flat(" ".join(pages[start - 1 : end - 1]))
        for board in re.findall(r"<svg.*?</svg>", body, flags=re.S):
            boards += 1
            for label in _LABEL.findall(board):
                assert _flat(label) in text, f"{path}: model {label} of a board is not printed"
    assert boards > 40
