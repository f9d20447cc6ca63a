"""Search words (``rulespy/render/search.py``): each concept's aliases and players' phrasings at the end
of its owner's section, hidden, escaped, never inside a code fence; ``asked:`` read from concepts.yml."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespy.check.findings import CheckError
from rulespy.check.registry import Concept, load_registry
from rulespy.render.search import with_search_words, words

COVER = Concept(
    "Cover",
    "core/cover.md",
    "cover",
    ("Covers",),
    translated=(("ru", ("Укрытие", "укрытия")),),
    asked=(("", ("cover save", "in cover")), ("ru", ("в укрытии",))),
)
PAGE = (
    "# Cover {#cover-rules}\n\nIntro.\n\n## Cover {#cover}\n\nText.\n\n"
    "```{.python}\n# a comment, not a heading\nx = 1\n```\n\nMore.\n\n"
    "## Light Cover {#light-cover}\n\nOther.\n"
)


def test_the_words_of_a_section_go_at_its_end_before_the_next_heading() -> None:
    page = with_search_words(PAGE, "core/cover.md", [COVER], None)
    before, after = page.split("## Light Cover", 1)
    hidden = '<div class="vs-search-words" hidden>Covers · cover save · in cover</div>'
    assert before.rstrip().endswith(hidden)
    assert "# a comment, not a heading\nx = 1\n```\n\nMore." in before  # the fence is untouched
    assert "vs-search-words" not in after


def test_a_translated_page_gets_its_own_forms_phrasings_and_the_english_names() -> None:
    assert words(COVER, "ru") == ["укрытия", "в укрытии", "Cover", "Covers"]
    page = with_search_words(PAGE, "core/cover.md", [COVER], "ru")
    assert "укрытия · в укрытии · Cover · Covers</div>" in page


def test_search_words_are_escaped_html() -> None:
    hostile = Concept("Cover", "core/cover.md", "cover", asked=(("", ('<script>alert("x")</script>',)),))
    page = with_search_words(PAGE, "core/cover.md", [hostile], None)
    assert "<script>" not in page and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_a_page_owning_nothing_is_unchanged() -> None:
    assert with_search_words(PAGE, "core/damage.md", [COVER], None) == PAGE


def test_concepts_yml_asked_and_asked_ru_are_read(tmp_path: Path) -> None:
    (tmp_path / "concepts.yml").write_text(
        "owners:\n  core/cover.md:\n    - {concept: Cover, anchor: cover, ru: [Укрытие],\n"
        "       asked: [cover save, \"in cover\"], asked_ru: [в укрытии]}\n",
        encoding="utf-8",
    )
    (concept,) = load_registry(tmp_path).concepts
    assert concept.asked_in(None) == ("cover save", "in cover")
    assert concept.asked_in("ru") == ("в укрытии",)


def test_asked_that_is_not_a_list_is_refused_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "concepts.yml").write_text(
        "owners:\n  core/cover.md:\n    - concept: Cover\n      anchor: cover\n      asked: cover save\n",
        encoding="utf-8",
    )
    with pytest.raises(CheckError) as refused:
        load_registry(tmp_path)
    assert refused.value.line == 5 and "asked" in refused.value.message
