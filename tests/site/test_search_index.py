"""The site's search index (``rulespy/render/search.py``): every section of a built page one Pagefind
document, cut at each heading with an id (with the rule book: each of its sections), its hidden search
words weighed like its title, the text a reader does not read as rules left out (permalink marks, the
edition line, boards as text, code), the pages that point at other pages searched by their opening
words only, and hostile text escaped.

The index itself (Pagefind run on the built site) is exercised by ``test_search_questions.py``."""

from __future__ import annotations

from pathlib import Path

from rulespy.render.search import POINTERS, WORDS_WEIGHT, document, documents, edition_pages, sections

PAGE = """<html><body><nav><a>Home</a></nav>
<article class="md-content__inner md-typeset">
<p class="vs-language"><a>Русский</a></p>
<h1 id="damage-and-casualties">Damage and Casualties<a class="headerlink" href="#x">&para;</a></h1>
<p><small class="vs-edition">Edition v1.0.0 of 2026-11-30</small></p>
<div class="admonition abstract"><p>Defined on this page</p></div>
<p>This file says how many wounds a hit takes off.</p>
<h2 id="target-limit">Target Limit<a class="headerlink" href="#target-limit">&para;</a></h2>
<p><small class="vs-changed"><a>changed since v1.0</a></small></p>
<p>Whatever that model cannot absorb is <strong>lost</strong>.<br>Never carried over.</p>
<svg><text>Alpha 1</text></svg>
<details class="vs-board-text"><summary>The board as text</summary><p>alpha at (0, 0)</p></details>
<details class="example"><summary>Executable check (run by the test suite)</summary>
<div class="highlight"><pre><code>assert outcome.removed == 1</code></pre></div></details>
<div class="vs-search-words" hidden>overkill · excess damage · wasted &lt;b&gt;</div>
<h3>A heading without an id</h3><p>Still the target limit's text.</p>
<h2 class="vs-referenced-by" id="referenced-by">Referenced by</h2>
<p>Allocation</p>
</article><footer>Made with Material</footer></body></html>"""


def test_a_page_is_cut_into_its_top_and_each_section_with_an_id() -> None:
    found = sections(PAGE, "core/damage/")
    assert [(s.url, s.title) for s in found] == [
        ("core/damage/", "Damage and Casualties"),
        ("core/damage/#target-limit", "Target Limit"),
    ]
    top, limit = found
    assert " ".join(" ".join(top.text).split()) == "This file says how many wounds a hit takes off."
    text = " ".join(" ".join(limit.text).split())
    assert text.startswith("Whatever that model cannot absorb is lost . Never carried over.")
    assert "Still the target limit's text." in text  # a heading without an id stays in its section
    for left_out in (
        "¶",
        "changed",
        "Alpha 1",
        "alpha at",
        "assert",
        "Executable",
        "Edition",
        "Defined",
        "Русский",
    ):
        assert left_out not in text + " ".join(top.text), left_out
    assert limit.words == ["overkill", "excess damage", "wasted <b>"]
    assert limit.page_title == "Damage and Casualties"
    assert "Allocation" not in text  # "Referenced by" and its list: the linker's, not the rules' text


def test_a_section_document_weighs_its_words_like_its_title_and_escapes_them() -> None:
    limit = sections(PAGE, "core/damage/")[1]
    page = document(limit, "en")
    assert page.startswith('<html lang="en">')
    assert "<h1>Target Limit</h1>" in page
    assert f'<p data-pagefind-weight="{WORDS_WEIGHT}">overkill · excess damage · wasted &lt;b&gt;</p>' in page
    assert '<p data-pagefind-meta="Page" data-pagefind-weight="0.5">Damage and Casualties</p>' in page
    assert page.index("Whatever that model") < page.index("overkill")  # a result quotes the text first
    assert 'data-pagefind-meta="Страница"' in document(limit, "ru")
    assert "<b>" not in page


def test_an_edition_indexes_its_own_pages_and_only_the_opening_of_pages_about_pages(tmp_path: Path) -> None:
    for page in ("", "core/damage/", "questions/", "ru/core/damage/", "v1.0/core/damage/", "search/"):
        (tmp_path / page).mkdir(parents=True, exist_ok=True)
        (tmp_path / page / "index.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "404.html").write_text(PAGE, encoding="utf-8")
    pages = [p.relative_to(tmp_path).as_posix() for p in edition_pages(tmp_path, ["ru", "v1.0"])]
    assert pages == ["core/damage/index.html", "index.html", "questions/index.html"]
    urls = [d["url"] for d in documents(tmp_path, ["ru", "v1.0"], "en")]
    assert urls == ["/core/damage/", "/core/damage/#target-limit", "/", "/questions/"]
    assert {"", "questions/"} <= set(POINTERS)


def test_hostile_markup_is_bounded_text_never_markup(tmp_path: Path) -> None:
    evil = '<article class="md-content__inner"><h1 id="x">T</h1>' + "<div>" * 5000 + "</p><script>x</script>"
    found = sections(evil + "&lt;script&gt;alert(1)&lt;/script&gt;", "p/")
    assert len(found) == 1
    assert "<script>" not in document(found[0], "en")


def test_the_rule_book_s_sections_say_where_each_document_starts_and_ends(tmp_path: Path) -> None:
    """A heading the generator gave an id but the rule book does not count as a section (written without
    an explicit id: a subtitle, ``rulespy.book.sections``) stays in its section, its words part of it."""
    from rulespy.book.book import Book

    built = PAGE.replace("<h3>A heading without an id</h3>", '<h3 id="a-subtitle">A Subtitle</h3>')
    assert [s.anchor for s in sections(built, "core/damage/")] == [None, "target-limit", "a-subtitle"]
    repo, site = tmp_path / "repo", tmp_path / "site"
    (repo / "core").mkdir(parents=True)
    (repo / "core" / "damage.md").write_text(
        "# Damage and Casualties {#damage-and-casualties}\n\n## Target Limit {#target-limit}\n\n"
        "Whatever that model cannot absorb is lost.\n\n### A Subtitle\n\nStill the target limit's text.\n",
        encoding="utf-8",
    )
    (site / "core" / "damage").mkdir(parents=True)
    (site / "core" / "damage" / "index.html").write_text(built, encoding="utf-8")
    found = documents(site, [], "en", Book.open(repo))
    assert [d["url"] for d in found] == ["/core/damage/", "/core/damage/#target-limit"]
    assert "A Subtitle Still the target limit&#x27;s text." in found[1]["html"]
