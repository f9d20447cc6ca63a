"""One Russian term for one concept (issue 28, item 3): ``ru_forbidden`` in ``concepts.yml`` lists the words
that must not stand for a concept on a Russian page, and RS075 reports each use with the term to write."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulespy.check.findings import CheckError
from rulespy.check.parse import forbidden_regex
from rulespy.check.registry import load_registry
from rulespy.check.runner import CheckOptions, check_tree

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]


def _found(variants: tuple[str, ...], text: str) -> list[str]:
    pattern = forbidden_regex(variants)
    assert pattern is not None
    return [m.group(0) for m in pattern.finditer(text)]


def test_forbidden_term_a_stem_covers_every_case_and_only_word_starts() -> None:
    text = "законная цель, Законной цели, незаконно, беззаконие"
    assert _found(("законн*",), text) == ["законная", "Законной"]


def test_forbidden_term_words_span_a_line_break_and_e_stands_for_yo() -> None:
    assert _found(("критическ* попадани*",), "два критических\nпопадания") == ["критических\nпопадания"]
    assert _found(("тяжелое оружие",), "Тяжёлое оружие и тяжелое оружие") == [
        "Тяжёлое оружие",
        "тяжелое оружие",
    ]
    assert _found(("«огонь»",), "«Огонь» и «Огонь прикрытия»") == ["«Огонь»"]  # the closing quote counts


def test_forbidden_term_reported_only_on_pages_of_its_language(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "RS075", root)
    english = root / "core/damage.md"  # English words are never Russian variants, whatever they say
    english.write_text(english.read_text(encoding="utf-8") + "\nкритическое попадание\n", encoding="utf-8")
    found = [(f.path, f.line, f.code) for f in check_tree(root, CheckOptions(use_cache=False))]
    assert ("ru/core/damage.md", 10, "RS075") in found
    assert not [f for f in found if f[0] == "core/damage.md" and f[2] == "RS075"]


def test_forbidden_term_that_matches_a_chosen_name_is_refused_in_the_registry(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "RS075", root)
    registry = root / "concepts.yml"
    registry.write_text(
        registry.read_text(encoding="utf-8").replace("законн*", "критическ*"), encoding="utf-8"
    )
    found = [f for f in check_tree(root, CheckOptions(use_cache=False)) if f.path == "concepts.yml"]
    assert [(f.line, f.code) for f in found] == [(3, "RS075")]
    assert "'критическ*' matches 'Критический захват'" in found[0].message


def test_forbidden_term_needs_the_term_to_write_instead(tmp_path: Path) -> None:
    (tmp_path / "concepts.yml").write_text(
        "owners:\n  core/a.md:\n    - {concept: A, anchor: a,\n       ru_forbidden: [законн*]}\n",
        encoding="utf-8",
    )
    with pytest.raises(CheckError) as error:
        load_registry(tmp_path)
    assert "ru_forbidden needs ru" in str(error.value) and error.value.line == 4


def test_forbidden_term_the_settled_clashes_are_data() -> None:
    """The clashes issue 28 names are settled in concepts.yml (the allocation tier «на открытом месте» is
    ruling R13's, not here)."""
    forbidden = {c.name: dict(c.forbidden).get("ru", ()) for c in load_registry(REPO).concepts}
    assert "законн*" in forbidden["Target Legality"]
    assert "критическ* попадани*" in forbidden["Critical Lock"]
    assert "«Огонь»" in forbidden["Shoot"]
    assert "ограничени* ближнего боя" in forbidden["Engagement Restriction"]
    assert "допустим* модел*" in forbidden["Valid Model"]
    assert "потерянн* успех*" in forbidden["Lost Successes"]
