"""One ``rulespy render`` parses each text about once (work counted, never seconds).

Counted by ``rulespy.book.markdown.parses()``, which every parse of the book's one configuration goes
through: each markdown file of the tree once (the book's ``Page``, which the checker's findings, the
link graph, the worked examples, the previews, the stale notices, What changed and the site's linker all
read), a second read of a page with admonitions (``!!!``), whose content the checker and the linker look
at as the site reads it, and the generated glossary once. Before the book, the English and Russian
render parsed 106 texts 269 times; with the book, the English render parsed 83 texts, 24 of them each
page's generated markdown, which the linker parsed again: it now links the book's tokens (59).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from rulespy.book import markdown
from rulespy.book.book import Book
from rulespy.check import files, registry
from rulespy.render.stage import render
from tests.calls import recorded

ROOT = Path(__file__).resolve().parents[2]


def _counted(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], int, list[Path], list[str]]:
    """The book's markdown texts, how many hold admonitions, and the lists the tree's walks and the
    config reads are recorded in from now on."""
    texts = Book.open(ROOT).tree.markdown
    with_admonitions = sum(1 for path in texts if "!!!" in (ROOT / path).read_text(encoding="utf-8"))
    walks = recorded(monkeypatch, files.Tree, "walk", lambda tree: tree.root)
    reads = recorded(monkeypatch, registry, "read_config", lambda root, name: name)
    return list(texts), with_admonitions, walks, reads


def test_a_render_parses_each_text_about_once_and_walks_the_tree_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rulespy.book.book import forget_pages

    texts, with_admonitions, walks, reads = _counted(monkeypatch)
    (ROOT / "build").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=ROOT / "build") as folder:
        forget_pages()  # as a new process starts: a page an earlier test of this process parsed counts too
        before = markdown.parses()
        report = render(ROOT, out=Path(folder) / "pages", nav_file=Path(folder) / "nav.yml", unreleased=False)
        parses = markdown.parses() - before
    assert len(report.rendered) >= 20
    # every file once, the admonition reads, the glossary once: no rendered page is parsed again
    assert len(texts) <= parses <= len(texts) + with_admonitions + 1
    assert walks == [ROOT]  # the edition's tree, walked once
    assert reads == ["concepts.yml"]  # and concepts.yml read once


def test_a_cold_check_parses_each_text_about_once_and_walks_the_tree_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """``rulespy check --no-cache`` reads the book: each markdown file parsed once (the checks and the
    translation pass share the page), a page with admonitions once more (its markup read as the site
    reads it), the tree walked once, ``concepts.yml`` read once. Before, the translation pass parsed
    both pages of each pair again, and each page's decimal points, fences and sections' numbers once
    more: 454 parses of 51 texts."""
    from rulespy.book.book import forget_pages
    from rulespy.check.runner import CheckOptions, run_check

    texts, with_admonitions, walks, reads = _counted(monkeypatch)
    monkeypatch.setenv("RULESPY_CHECK_JOBS", "1")  # every parse in this process, where it is counted
    forget_pages()  # as a new process starts
    before = markdown.parses()
    report = run_check(ROOT, CheckOptions(use_cache=False, cache_dir=tmp_path))
    parses = markdown.parses() - before
    assert report.findings == ()
    assert len(texts) <= parses <= len(texts) + with_admonitions
    assert walks == [ROOT]
    assert reads.count("concepts.yml") == 1


def test_the_linker_links_a_book_page_without_parsing_it() -> None:
    """A rule page is linked from the tokens the book holds (``Page.site_tokens``: the page with its
    admonitions as the site reads it), where it once was parsed a second time; the glossary, which no
    file holds, is parsed once."""
    from rulespy.render.linker import PageContext, link_markdown, link_page

    book = Book.open(ROOT)
    site = frozenset(book.tree.markdown)
    pages = [book.page(path) for path in ("core/damage.md", "core/target_lock.md")]
    assert pages[1] is not None and pages[1].site_tokens is not pages[1].tokens  # it has admonitions
    before = markdown.parses()
    for page in pages:
        assert page is not None
        linked = link_page(page, PageContext(page.path, site, book.concepts))
        assert "{ .vs-concept }" in linked and linked != page.text  # linked, from the book's tokens
    assert markdown.parses() == before
    glossary = link_markdown("Target Limit.", PageContext("glossary.md", site, book.concepts))
    assert glossary.startswith("[Target Limit](core/damage.md#target-limit")
    assert markdown.parses() == before + 1
