"""The printable rulebook: every staged page in navigation order, printed to PDF by headless Chromium.

``print_rulebook(root, site_dir)`` writes ``site_dir/voidsiege-rules.pdf`` from ``build/pages`` and
``build/nav.yml`` (so ``rulespy render`` runs first). One HTML document is made with Python-Markdown and
the very extensions ``mkdocs.yml`` lists, plus a tree processor of this module that makes every page's
ids unique in the book (``core/damage.md#target-limit`` becomes ``#core-damage--target-limit``) and
turns links between pages into links inside the document, which Chromium keeps as links in the PDF.
Then Debian's Chromium (the browser test's) prints it: a cover, a contents list, each page, the
glossary. ``assets/print.css`` keeps boards, tables rows and examples whole across page breaks and
prints in black and white (sides told apart by fill, not colour); the folded executable code stays
folded. Deterministic input; the PDF itself carries Chromium's creation date.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import markdown
import yaml
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from .currency import PREFIX as EDITION_LINE
from .judge import PAGE as JUDGE_PAGE
from .languages import words
from .linker import resolve_href
from .pages import RULEBOOK
from .stage import NAV, OUT

CHROMIUM = Path("/usr/bin/chromium")
PRINT_CSS = Path(__file__).resolve().parent / "assets" / "print.css"
SECONDS = 120


class PdfError(Exception):
    """The rulebook could not be printed; the message says why."""


def page_key(path: str) -> str:
    """The id prefix of a page in the book: ``core/damage.md`` -> ``core-damage``."""
    return re.sub(r"[^\w-]+", "-", path.removesuffix(".md")).strip("-") or "index"


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


class _BookLinks(Treeprocessor):
    """Ids prefixed by the page's key; links to other pages made into links inside the book."""

    def __init__(self, md: markdown.Markdown, pages: set[str]) -> None:
        super().__init__(md)
        self.pages = pages
        self.path = ""

    def run(self, root: ET.Element) -> None:
        key = page_key(self.path)
        for element in root.iter():
            if element.get("id"):
                element.set("id", f"{key}--{element.get('id')}")
            href = element.get("href") if element.tag == "a" else None
            if href is None or "://" in href:
                continue
            full, _, anchor = resolve_href(self.path, href).partition("#")
            if full in self.pages:
                element.set("href", f"#{page_key(full)}--{anchor}" if anchor else f"#page-{page_key(full)}")
            else:
                element.attrib.pop("href")  # a file that is not in the book (a scenario file): plain text


class _BookExtension(Extension):
    def __init__(self, pages: set[str]) -> None:
        super().__init__()
        self.pages = pages
        self.processor: _BookLinks | None = None

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        self.processor = _BookLinks(md, self.pages)
        md.treeprocessors.register(self.processor, "vs_book_links", 1)


def _extensions(root: Path) -> tuple[list[str], dict[str, Any]]:
    """mkdocs.yml's markdown_extensions (names and options), without permalinks (no pilcrows in print)."""
    try:
        config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise PdfError(f"mkdocs.yml cannot be read: {error}") from None
    if not isinstance(config, dict):
        raise PdfError("mkdocs.yml is not a mapping")
    names: list[str] = []
    options: dict[str, Any] = {}
    for entry in config.get("markdown_extensions") or ():
        name, value = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
        names.append(name)
        if isinstance(value, dict):
            options[name] = dict(value)
    options.setdefault("toc", {})["permalink"] = False
    return names, options


def book_html(root: Path, language: str | None = None) -> str:
    """The whole rulebook as one HTML document (cover, contents, pages in navigation order); with
    ``language``, the translation staged in ``build/<language>/``."""
    staged = root / "build" / language / "pages" if language else root / OUT
    nav_path = root / "build" / language / "nav.yml" if language else root / NAV
    said = words(language)
    if not nav_path.is_file():
        raise PdfError(f"{nav_path} is missing: run `rulespy render` first")
    order = nav_pages((yaml.safe_load(nav_path.read_text(encoding="utf-8")) or {}).get("nav"))
    names, options = _extensions(root)
    book = _BookExtension({path for _, path, _ in order})
    md = markdown.Markdown(extensions=[*names, book], extension_configs=options)
    sections: list[str] = []
    contents: list[str] = []
    current: str | None = None
    cover_line = ""
    for section, path, title in order:
        md.reset()
        assert book.processor is not None
        book.processor.path = path
        text = (staged / path).read_text(encoding="utf-8")
        # the language switcher leads to the other site, not to a page of this book; the edition line is
        # said once, on the cover (the home page's, its links resolved from there)
        lines = [line for line in text.split("\n") if not line.startswith('<p class="vs-language">')]
        edition = [line for line in lines if line.startswith(EDITION_LINE)]
        if edition and not cover_line:
            cover_line = md.convert(edition[0])
            md.reset()
        body = md.convert("\n".join(line for line in lines if not line.startswith(EDITION_LINE)))
        heading = title or next(
            (t["name"] for t in getattr(md, "toc_tokens", []) if t.get("level") == 1), path
        )
        if section != current:
            if current is not None:
                contents.append("</ol></li>")
            contents.append(f"<li>{escape(section)}<ol>" if section else "<li><ol>")
            current = section
        contents.append(f'<li><a href="#page-{page_key(path)}">{escape(str(heading))}</a></li>')
        sections.append(f'<section class="vs-page" id="page-{page_key(path)}">\n{body}\n</section>')
    contents.append("</ol></li>")
    # the site's board styles first, then the print overrides (black and white)
    board_css = (staged / "assets" / "voidsiege.css").read_text(encoding="utf-8")
    css = board_css + PRINT_CSS.read_text(encoding="utf-8")
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{language or "en"}"><head><meta charset="utf-8"><title>{said["title"]}</title>',
            f"<style>{css}</style></head><body>",
            f'<section class="vs-cover"><h1 class="vs-cover-title">{said["title"]}</h1>',
            f"<p>{said['cover']}</p>",
            f"<p>{said['cover-2']}</p>{cover_line}</section>",
            f'<nav class="vs-contents"><h1>{said["contents"]}</h1><ol>',
            *contents,
            "</ol></nav>",
            *sections,
            "</body></html>",
        ]
    )


def print_rulebook(
    root: Path, site_dir: Path, chromium: Path = CHROMIUM, language: str | None = None
) -> Path:
    """Print the rulebook of the rendered pages of ``root`` to ``site_dir/voidsiege-rules.pdf`` (with
    ``language``: the translation's, to ``site_dir/<language>/voidsiege-rules.pdf``)."""
    if not chromium.exists():
        raise PdfError(f"needs {chromium}: apt-get install chromium")
    html = book_html(root, language)
    target = Path(site_dir) / (language or "") / RULEBOOK
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="vs-rulebook-") as work:
        source = Path(work) / "rulebook.html"
        source.write_text(html, encoding="utf-8")
        printed = Path(work) / RULEBOOK
        command = [
            str(chromium),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            f"--user-data-dir={Path(work) / 'profile'}",
            "--no-pdf-header-footer",
            "--generate-pdf-document-outline",
            f"--print-to-pdf={printed}",
            source.as_uri(),
        ]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=SECONDS, check=False, env={**os.environ}
            )
        except subprocess.TimeoutExpired:
            raise PdfError(f"Chromium did not print within {SECONDS} s") from None
        if done.returncode != 0 or not printed.is_file():
            raise PdfError(f"Chromium could not print the rulebook: {done.stderr.strip()[-500:]}")
        shutil.move(printed, target)
    return target
