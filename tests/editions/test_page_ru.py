"""The Russian "What changed" page (issue 28): generated in Russian from the same summary as the English
page, its sections titled and word-diffed as the Russian pages word them, its figures with the decimal
comma; on the repository made in the test (heavy cover -2 at v1.0.0, -1 at v1.1.0, its Russian section
left as it was)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulespy.editions.page import Changes, changes
from rulespy.render.stage import render_all
from tests.coverage.conftest import _git

from .conftest import at


@pytest.fixture(scope="module")
def page(editions: Path) -> Changes:
    _git(editions, "checkout", "-q", at(editions, "v1.1.0"))
    return changes(editions)


def _english_words(text: str) -> list[str]:
    """The English words of a Russian page's markdown outside code, link targets, ids, paths, commits and
    the scenario's unit pairs (``shooters->dug_in``)."""
    text = re.sub(r"`[^`]*`|<br>|\([0-9a-f]{12}\)|\S+->\S+", " ", text)
    text = re.sub(r"\]\([^)]*\)|\{#[^}]*\}", " ", text)
    text = re.sub(r"\S*[/#]\S*", " ", text)
    return [w for w in re.findall(r"[A-Za-z][A-Za-z']+", text) if w not in {"rulespy", "DATE"}]


def test_the_russian_page_is_russian(page: Changes) -> None:
    russian = page.text_in("ru")
    assert russian.startswith("# Что изменилось {#what-changed}\n")
    assert "\n## v1.1.0 от 2026-12-01 (после v1.0.0) {#v1-1-0}\n" in russian
    assert "\n## v1.0.0 от 2026-11-30 {#v1-0-0}\n\nПервое издание.\n" in russian
    assert _english_words(russian) == []


def test_a_section_is_titled_as_the_russian_page_titles_it(page: Changes) -> None:
    russian = page.text_in("ru")
    heading = "#### [core/cover.md#heavy-cover](core/cover.md#heavy-cover): Тяжёлое укрытие (изменён)"
    assert heading in russian
    # the English words changed; the Russian section did not: the page says so instead of an English diff
    assert "Перевод этого раздела пока не изменился" in russian and "~~-2~~" not in russian


def test_outcomes_and_odds_read_in_russian(page: Changes) -> None:
    russian = page.text_in("ru")
    assert "| d1 потеря: нет -> в конце атаки<br>d1 раны: 1 -> 0<br>" in russian
    assert "| d1 становится потерей | 16,7% | 33,3% | +16,7 п. п. |" in russian
    assert "| ожидаемые потери | 0,17 | 0,33 | +0,17 |" in russian


def test_the_english_page_is_the_english_text(page: Changes) -> None:
    assert page.text_in(None) == page.text == page.texts["en"]
    assert "modifier of ~~-2~~ **-1** to every Target Lock roll" in page.text
    assert "| d1 becomes a casualty | 16.7% | 33.3% | +16.7 pts |" in page.text


def test_the_russian_edition_stages_the_russian_page(editions: Path) -> None:
    _git(editions, "checkout", "-q", at(editions, "v1.1.0"))
    render_all(editions)
    staged = (editions / "build" / "ru" / "pages" / "changes.md").read_text(encoding="utf-8")
    assert "# Что изменилось {#what-changed}" in staged
    nav = (editions / "build" / "ru" / "nav.yml").read_text(encoding="utf-8")
    assert "Что изменилось: changes.md" in nav and "(англ.)" not in nav
