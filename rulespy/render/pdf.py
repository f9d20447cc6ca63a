"""The printable rulebook: every staged page in navigation order, printed to PDF by headless Chromium.

``print_rulebook(root, site_dir)`` writes ``site_dir/voidsiege-rules.pdf`` from ``build/pages`` and
``build/nav.yml`` (so ``rulespy render`` runs first). Each page is converted by Python-Markdown with the
very extensions ``mkdocs.yml`` lists, then made fit for print by ``rulespy.render.book``: ids unique in
the whole book, links inside the book or to the published site (never a ``file://`` path), "see p. N"
after a link inside the book, no test code (a worked example prints as its setup, board, dice and
"What happens", the engine's account). The pages are put together in one HTML document: a cover, a
contents list with page numbers, each page, the glossary.

``rulespy.render.printer`` prints it: headless Chromium, driven over the DevTools protocol, loads it
from a loopback server of the staged site, with scripts off and every other request refused, so markup
that slipped through the checker can print nothing from the build machine or the network. The book is
printed again until its page numbers stand still (the pages each destination landed on are read back
from the PDF with pypdf). ``assets/print.css`` numbers the pages (``@page`` margin boxes), keeps boards,
table rows and examples whole across page breaks and prints in black and white (sides told apart by
fill, not colour). The PDF itself carries Chromium's creation date.
"""

from __future__ import annotations

import html
import io
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit
from xml.sax.saxutils import escape

import markdown
import yaml

from rulespy.check.examples import worked_examples
from rulespy.errors import BookError

from .book import Book, BookPage, book_id, page_key
from .currency import PREFIX as EDITION_LINE
from .judge import PAGE as JUDGE_PAGE
from .languages import words
from .pages import RULEBOOK
from .printer import Printer, PrintError
from .stage import NAV, OUT

__all__ = [
    "CHROMIUM",
    "PdfError",
    "book_html",
    "nav_pages",
    "page_key",
    "print_rulebook",
    "print_rulebooks",
    "rulebook",
]

CHROMIUM = Path("/usr/bin/chromium")
PRINT_CSS = Path(__file__).resolve().parent / "assets" / "print.css"
SECONDS = 120
"""The longest one print of the book may take."""
PASSES = 4
"""The most prints of one book: the placeholders', then until the page numbers stand still."""


#: The raw HTML lines of a staged page that are not for print (``stage.py`` and ``pages.py`` write them).
# the edition line (rulespy/render/currency.py) is said once, on the cover, not under every page's title
_NOT_PRINTED = ('<p class="vs-language">', '<p class="vs-rulebook">', EDITION_LINE)


class PdfError(BookError):
    """The rulebook could not be printed; the message says why."""


def nav_pages(nav: Any) -> list[tuple[str | None, str, str | None]]:
    """(section, page path, title or None) of the book's pages in navigation order: every page of the
    navigation but the Judge page, which is interactive and has nothing to print."""
    found: list[tuple[str | None, str, str | None]] = []

    def walk(items: Any, section: str | None) -> None:
        for item in items or ():
            if isinstance(item, str):
                found.append((section, item, None))
            elif isinstance(item, dict):
                for title, value in item.items():
                    if isinstance(value, str):
                        found.append((section, value, str(title)))
                    else:
                        walk(value, str(title))

    walk(nav, None)
    return [entry for entry in found if entry[1] != JUDGE_PAGE]


def mkdocs_config(root: Path) -> dict[str, Any]:
    """mkdocs.yml, read by the safe loader (a tag that would run code or read the environment fails)."""
    try:
        config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise PdfError(f"mkdocs.yml cannot be read: {error}") from None
    if not isinstance(config, dict):
        raise PdfError("mkdocs.yml is not a mapping")
    return config


def _extensions(config: dict[str, Any]) -> tuple[list[str], dict[str, Any]]:
    """mkdocs.yml's markdown_extensions (names and options), without permalinks (no pilcrows in print)."""
    names: list[str] = []
    options: dict[str, Any] = {}
    for entry in config.get("markdown_extensions") or ():
        name, value = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
        names.append(str(name))
        if isinstance(value, dict):
            options[str(name)] = dict(value)
    options.setdefault("toc", {})["permalink"] = False
    return names, options


def published_site(config: dict[str, Any], language: str | None) -> str | None:
    """The address the edition is published at, from mkdocs.yml's ``site_url`` (the translation's under
    ``LANGUAGE/``), ending in ``/``; None when ``site_url`` is not an http(s) address."""
    url = config.get("site_url")
    if not isinstance(url, str) or urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc:
        return None
    base = url if url.endswith("/") else url + "/"
    return urljoin(base, f"{language}/") if language else base


def _titles(tokens: list[dict[str, Any]], path: str, into: dict[str, str]) -> None:
    """Each heading of Python-Markdown's ``toc_tokens`` as ``path#id`` -> its text (the first level 1
    heading also as ``path``)."""
    for token in tokens:
        into.setdefault(f"{path}#{token['id']}", html.unescape(str(token["name"])))
        if token.get("level") == 1:
            into.setdefault(path, html.unescape(str(token["name"])))
        _titles(token.get("children") or [], path, into)


@dataclass
class Rulebook:
    """A language's book before printing: each page's HTML as Python-Markdown made it, and the book."""

    language: str | None
    staged: Path
    pages: list[tuple[str | None, str, str, str]]  # (section, path, title, HTML)
    book: Book
    css: str
    cover: tuple[str, str] | None = None  # (path, HTML) of the first page's edition line, for the cover

    def html(self) -> str:
        """The whole rulebook as one HTML document, with the page numbers ``book.numbers`` holds."""
        said = self.book.said
        contents: list[str] = []
        sections: list[str] = []
        current: str | None = None
        for section, path, title, body in self.pages:
            if section != current and current is not None:
                contents.append("</ol></li>")
            if section != current and section is not None:
                contents.append(f'<li class="vs-toc-section">{escape(section)}<ol>')
            current = section
            dest = book_id(path, None)
            number = self.book.numbers.get(dest, "")
            contents.append(
                f'<li class="vs-toc-entry"><a href="#{dest}">{escape(title)}</a>'
                f'<span class="vs-toc-page" data-dest="{dest}">{number}</span></li>'
            )
            page = BookPage(self.book, path).rewrite(body)
            sections.append(f'<section class="vs-page" id="{dest}">\n{page}\n</section>')
        if current is not None:
            contents.append("</ol></li>")
        edition = BookPage(self.book, self.cover[0]).rewrite(self.cover[1]) if self.cover else ""
        return "\n".join(
            [
                "<!DOCTYPE html>",
                f'<html lang="{self.language or "en"}"><head><meta charset="utf-8">',
                f"<title>{said['title']}</title>",
                f"<style>{self.css}</style></head><body>",
                f'<section class="vs-cover"><h1 class="vs-cover-title">{said["title"]}</h1>',
                f"<p>{said['cover']}</p>",
                f"<p>{said['cover-2']}</p>{edition}</section>",
                f'<nav class="vs-contents"><h1>{said["contents"]}</h1><ol>',
                *contents,
                "</ol></nav>",
                *sections,
                "</body></html>",
            ]
        )


def rulebook(root: Path, language: str | None = None) -> Rulebook:
    """The rulebook of the pages staged in ``build/pages`` (with ``language``, ``build/<language>/``),
    every page converted by Python-Markdown with the extensions ``mkdocs.yml`` lists."""
    staged = root / "build" / language / "pages" if language else root / OUT
    nav_path = root / "build" / language / "nav.yml" if language else root / NAV
    if not nav_path.is_file():
        raise PdfError(f"{nav_path} is missing: run `rulespy render` first")
    try:
        nav = yaml.safe_load(nav_path.read_text(encoding="utf-8")) or {}
        order = nav_pages(nav.get("nav") if isinstance(nav, dict) else None)
        config = mkdocs_config(root)
        names, options = _extensions(config)
        md = markdown.Markdown(extensions=names, extension_configs=options)
        book = Book(
            frozenset(p for _, p, _ in order),
            staged,
            published_site(config, language),
            words(language),
            language=language or "en",
        )
        pages: list[tuple[str | None, str, str, str]] = []
        cover: tuple[str, str] | None = None
        for section, path, title in order:
            md.reset()
            text = (staged / path).read_text(encoding="utf-8")
            line = next((line for line in text.split("\n") if line.startswith(EDITION_LINE)), None)
            if line is not None and cover is None:
                cover = (path, md.convert(line))
                md.reset()
            body = md.convert(_printable(text))
            _titles(getattr(md, "toc_tokens", []), path, book.titles)
            pages.append((section, path, title or book.titles.get(path, path), body))
        # the site's board styles first, then the print overrides (black and white)
        css = (staged / "assets" / "voidsiege.css").read_text(encoding="utf-8") + PRINT_CSS.read_text(
            encoding="utf-8"
        )
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise PdfError(f"the staged pages cannot be read: {error}") from None
    return Rulebook(language, staged, pages, book, css, cover)


def _printable(text: str) -> str:
    """A staged page without what is not for print: its worked examples' code (test code: an example
    drawn as a board prints it, with "What happens", from its Example block), the language switcher
    (it leads to the other site, not to a page of this book) and the home page's link to this very PDF."""
    lines = text.split("\n")
    for example in reversed(worked_examples(text)):
        del lines[example.line - 1 : example.end]
    return "\n".join(line for line in lines if not line.startswith(_NOT_PRINTED))


def book_html(root: Path, language: str | None = None) -> str:
    """The whole rulebook as one HTML document (cover, contents, pages in navigation order), before its
    page numbers are known."""
    return rulebook(root, language).html()


def destination_pages(pdf: bytes) -> dict[str, int]:
    """The page (1 for the cover) each named destination of a printed PDF lands on: Chromium names a
    destination after the id of the element an internal link leads to."""
    from pypdf import PdfReader  # the site's dependency, not the engine's

    reader = PdfReader(io.BytesIO(pdf))
    found: dict[str, int] = {}
    for name, destination in reader.named_destinations.items():
        number = reader.get_destination_page_number(destination)
        if number is not None and number >= 0:
            found[str(name).lstrip("/")] = number + 1
    return found


def print_rulebook(
    root: Path, site_dir: Path, chromium: Path = CHROMIUM, language: str | None = None
) -> Path:
    """Print the rulebook of the rendered pages of ``root`` to ``site_dir/voidsiege-rules.pdf`` (with
    ``language``: the translation's, to ``site_dir/<language>/voidsiege-rules.pdf``).

    The book is printed until its page numbers stand still: first with placeholders, then with the pages
    the contents' entries and every "see p. N" landed on, again until a print puts every numbered
    destination where the previous one did (at most ``PASSES`` prints)."""
    return print_rulebooks(root, site_dir, [language], chromium)[0]


def print_rulebooks(
    root: Path, site_dir: Path, languages: list[str | None], chromium: Path = CHROMIUM
) -> list[Path]:
    """``print_rulebook`` for each of ``languages`` (None: English), one after the other by one
    Chromium (a start of it is about half a second of CPU); the PDFs written, in that order."""
    if not chromium.exists():
        raise PdfError(f"needs {chromium}: apt-get install chromium")
    books = [rulebook(root, language) for language in languages]
    written: list[Path] = []
    try:
        with Printer(chromium, books[0].staged, SECONDS) as printer:
            for book in books:
                printer.serve(book.staged)  # each language's book is served from its own staged pages
                written.append(_print(printer, book, Path(site_dir) / (book.language or "") / RULEBOOK))
    except PrintError as error:
        raise PdfError(str(error)) from None
    return written


def _print(printer: Printer, book: Rulebook, target: Path) -> Path:
    """Print ``book`` until its page numbers stand still, then write it to ``target``."""
    printer.refused.clear()
    for attempt in range(PASSES):
        pdf = printer.print(book.html())
        landed = destination_pages(pdf)
        if attempt and all(landed.get(d) == n for d, n in book.book.numbers.items()):
            break
        book.book.numbers = landed
    else:
        raise PdfError(f"the page numbers did not settle in {PASSES} prints")
    refused = sorted(set(printer.refused))
    if refused:  # markup the checker should have refused: say what it asked for
        shown = ", ".join(refused[:5]) + (f" and {len(refused) - 5} more" if len(refused) > 5 else "")
        print(f"{target}: the printer refused what is not in the staged site: {shown}", file=sys.stderr)
    temporary = target.with_name(f".{target.name}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(pdf)
        os.replace(temporary, target)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise PdfError(f"{target}: cannot be written: {error.strerror or error}") from None
    return target
