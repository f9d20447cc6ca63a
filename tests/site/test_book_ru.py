"""The Russian rulebook's "What happens": the engine's account in Russian (``rulespy resolve --lang ru``),
each rule it cites linked by the Russian section's title."""

from __future__ import annotations

import re
from pathlib import Path

from rulespy.render.book import Book, BookPage
from rulespy.render.languages import words
from rulespy.render.web import encode
from tests.site.test_book import SCENARIO


def _book(tmp_path: Path) -> Book:
    book = Book(frozenset({"core/damage.md"}), tmp_path, None, words("ru"), language="ru")
    book.titles.update({"core/damage.md#damage": "Урон", "commands/command_shoot.md#shoot": "«Стрельба»"})
    return book


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_what_happens_is_the_russian_account(tmp_path: Path) -> None:
    html = BookPage(_book(tmp_path), "core/damage.md").rewrite(
        f'<div class="vs-try" data-scenario="{encode(SCENARIO)}"></div>'
    )
    text = _text(html)
    assert "w1 теряет 3 раны" in text and "отряд gun объявляет приказ «Стрельба»" in text
    assert '<a class="vs-rule" href="#core-damage--damage">Урон</a>' in html
    assert ".md#" not in text  # "(см. «Стрельба», commands/...)" prints as one link, by its title
    assert "loses" not in text and "declares" not in text


def test_a_russian_refusal_is_russian(tmp_path: Path) -> None:
    friendly = SCENARIO.replace("side: red", "side: blue")
    html = BookPage(_book(tmp_path), "core/damage.md").rewrite(
        f'<div class="vs-try" data-scenario="{encode(friendly)}"></div>'
    )
    assert "это дружественный отряд" in _text(html) and "friendly unit" not in _text(html)


def test_the_english_book_is_unchanged(tmp_path: Path) -> None:
    book = Book(frozenset({"core/damage.md"}), tmp_path, None, words(None))
    html = BookPage(book, "core/damage.md").rewrite(
        f'<div class="vs-try" data-scenario="{encode(SCENARIO)}"></div>'
    )
    assert "w1 loses 3 wounds" in _text(html)
