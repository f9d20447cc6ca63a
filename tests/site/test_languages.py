"""The Russian edition on the site (issue 19): its own site at /ru/, Russian concept names, tooltips
and glossary, a notice on a stale section, a switcher to the same page and section of the other
edition, Russian search, and a rulebook in each language; built with mkdocs-material and Zensical.

The staging checks render a bilingual tree of their own: the checker's clean translated fixture
(``tests/check/fixtures/translated``: ``core/damage.md`` and its stamped translation
``ru/core/damage.md``) with this repository's ``mkdocs.yml`` and a small concepts.yml, copied into a
temporary folder, so that a test can make a translation stale and the words checked are the fixture's,
not the translators' (and so does the Russian rulebook's, whose switcher must not be printed: the
repository's own home page names English in its prose). The built site and its browser checks are the
repository's own, built once per run for every site test (``built`` and ``base_url`` of
``conftest.py``): they read its ``core/damage`` page in both languages (the Armour and Target Limit
sections, whose ids never change) rather than build the fixture again with each generator.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest

from rulespy.render.stage import render_all
from tests.browser import click, loaded, require_browser, search, wait

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "check" / "fixtures" / "translated"
CONCEPTS = """\
owners:
  core/damage.md:
    - {concept: Target Limit, anchor: target-limit, ru: [Предел цели, предела цели]}
    - {concept: Armour, anchor: armour, ru: [Броня, брони, броню]}
"""

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def bilingual(tmp_path: Path) -> Path:
    """The fixture tree, staged by the tests themselves (``render_all``: no npm install is needed)."""
    root = tmp_path / "rules"
    shutil.copytree(FIXTURE, root)
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    (root / "concepts.yml").write_text(CONCEPTS, encoding="utf-8")
    index = root / "ru" / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\nМодель теряет раны до предела цели.\n", "utf-8")
    return root


def _staged(root: Path, path: str) -> str:
    return (root / "build" / path).read_text(encoding="utf-8")


def test_the_russian_pages_name_concepts_in_russian_and_link_to_their_russian_owner(bilingual: Path) -> None:
    render_all(bilingual)
    page = _staged(bilingual, "ru/pages/core/damage.md")
    assert '!!! abstract "Определено на этой странице"' in page
    assert "[Предел цели](#target-limit), [Броня](#armour)" in page
    assert "## Ссылаются сюда {#referenced-by" in page
    home = _staged(bilingual, "ru/pages/index.md")
    # the form written in the sentence is linked, its tooltip the Russian owner's first paragraph
    assert (
        '[предела цели](core/damage.md#target-limit "Предел цели: '
        'Модель теряет не больше ран, чем у неё осталось."){ .vs-concept }' in home
    )
    glossary = _staged(bilingual, "ru/pages/glossary.md")
    assert glossary.startswith('<p class="vs-language" data-vs-current-rules="текущие правила">')
    assert "# Глоссарий {#glossary}" in glossary
    assert "**[Предел цели](core/damage.md#target-limit)**: Модель теряет не больше ран" in glossary
    nav = _staged(bilingual, "ru/nav.yml")
    assert "Главная: index.md" in nav and "Основные правила:" in nav and "Глоссарий: glossary.md" in nav
    assert "- Урон: core/damage.md" in nav  # titled by its Russian heading, not by its file name
    english = _staged(bilingual, "pages/core/damage.md")
    assert 'Defined on this page' in english and "Определено" not in english


def test_every_page_has_a_switcher_to_its_twin_in_the_other_edition(bilingual: Path) -> None:
    render_all(bilingual)
    to_russian = 'href="/ru/core/damage/" data-vs-href="../../ru/core/damage/" hreflang="ru"'
    to_english = 'href="/core/damage/" data-vs-href="../../../core/damage/" hreflang="en"'
    assert to_russian in _staged(bilingual, "pages/core/damage.md").split("\n")[0]
    assert to_english in _staged(bilingual, "ru/pages/core/damage.md").split("\n")[0]
    assert 'data-vs-href="ru/" hreflang="ru"' in _staged(bilingual, "pages/index.md")
    assert 'data-vs-href="../" hreflang="en"' in _staged(bilingual, "ru/pages/index.md")


def test_stale_translation_a_changed_english_section_puts_a_notice_on_exactly_its_translation(
    bilingual: Path,
) -> None:
    render_all(bilingual)
    assert "Перевод отстаёт" not in _staged(bilingual, "ru/pages/core/damage.md")
    english = bilingual / "core" / "damage.md"
    english.write_text(english.read_text(encoding="utf-8").replace("each hit's", "every hit's"), "utf-8")
    render_all(bilingual)
    page = _staged(bilingual, "ru/pages/core/damage.md")
    assert page.count("Перевод отстаёт") == 1
    notice = page.index("Перевод отстаёт")
    assert page.rindex("## ", 0, notice) == page.index("## Броня {#armour}")
    assert 'href="/core/damage/#armour" data-vs-href="../../../core/damage/#armour"' in page[notice:]


def test_both_editions_build_strictly_with_russian_search(built: Path) -> None:
    russian = (built / "ru" / "core" / "damage" / "index.html").read_text(encoding="utf-8")
    assert 'lang="ru"' in russian and 'id="target-limit"' in russian and 'id="armour"' in russian
    if not (built / "search.json").is_file():  # mkdocs (Zensical writes search.json)
        import json

        index = built / "ru" / "search" / "search_index.json"
        assert json.loads(index.read_text(encoding="utf-8"))["config"]["lang"] == ["ru", "en"]


# --- in a real browser --------------------------------------------------------------------------------


def test_switching_language_on_a_rule_page_lands_on_the_same_section(
    browser: Any, base_url: str
) -> None:
    from selenium.webdriver.common.by import By

    # the link beside a section's heading leads to that section of the other edition
    english = urljoin(base_url, "core/damage/#armour")
    browser.get(english)

    def clicked(d: Any) -> bool:  # found afresh: the script adds the link once the page is drawn
        section = d.find_element(By.CSS_SELECTOR, "#armour a.vs-section-language")
        d.execute_script("arguments[0].scrollIntoView({block: 'center'});", section)
        section.click()
        return True

    wait(browser, clicked)
    russian = urljoin(base_url, "ru/core/damage/#armour")
    wait(browser, lambda d: loaded(d, russian))  # the whole page, not only its address
    assert browser.find_element(By.ID, "armour").text.startswith("Броня")
    # the page's switcher carries the section being read (the URL's #id), and leads back
    browser.get(urljoin(base_url, "ru/core/damage/#target-limit"))
    click(browser, "a.vs-language-link")  # as clicked, without scrolling the page
    wait(browser, lambda d: loaded(d, urljoin(base_url, "core/damage/#target-limit")))
    assert browser.find_element(By.ID, "target-limit").text.startswith("Target Limit")


def test_the_russian_search_finds_a_russian_word(browser: Any, base_url: str) -> None:
    browser.get(urljoin(base_url, "ru/"))
    assert search(browser, "броня", "/ru/core/damage/")  # the page writes "Броня"


def test_the_rulebook_is_printed_in_russian_too(bilingual: Path) -> None:
    from pypdf import PdfReader

    from rulespy.render.pdf import CHROMIUM, print_rulebooks

    if not CHROMIUM.exists():
        require_browser()
    render_all(bilingual)
    site = bilingual / "site"
    english, russian = print_rulebooks(bilingual, site, [None, "ru"])  # by one Chromium
    assert russian == site / "ru" / "voidsiege-rules.pdf" and english == site / "voidsiege-rules.pdf"
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(russian).pages)
    for words in ("Правила VoidSiege", "Содержание", "Предел цели", "Броня", "Глоссарий"):
        assert words in text, words
    assert "English" not in text  # the switcher leads to the other site, not into the book
