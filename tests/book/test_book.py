"""The rule book read once (``rulespy.book``): its sections, its one link resolution, its parse cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespy.book import markdown
from rulespy.book.book import Book, page_of
from rulespy.book.links import resolve
from rulespy.book.sections import section_hash, stale_reason

REPO = Path(__file__).resolve().parents[2]

PAGE = """# Damage {#damage}

Intro text.

## Target Limit {#target-limit}
<!-- translates: core/damage.md#target-limit sha256:000000000000 -->

A target limit caps the casualties:

- one per hit;
- never more.

### A subtitle

Still the target limit.

## Wounds {#wounds}

Wounds are lost.
"""


def test_a_section_runs_to_the_next_heading_with_an_id() -> None:
    page = page_of("core/damage.md", "core/damage.md", PAGE)
    title, limit, wounds = page.sections
    assert [s.anchor for s in page.sections] == ["damage", "target-limit", "wounds"]
    assert (limit.line, limit.end, limit.outer_end) == (5, 17, 17)
    assert limit.lines[-2] == "Still the target limit."  # the subtitle without an id belongs to it
    assert (title.level, title.parents, wounds.parents) == (1, (), ())
    assert limit.paragraph == "A target limit caps the casualties: one per hit; never more."
    assert limit.stamp is not None and (limit.stamp.path, limit.stamp.hash, limit.stamp.line) == (
        "core/damage.md",
        "000000000000",
        6,
    )


def test_subsections_have_their_parents() -> None:
    page = page_of("core/x.md", "core/x.md", "# X {#x}\n\n## A {#a}\n\n### B {#b}\n\n## C {#c}\n")
    assert [(s.anchor, s.parents, s.outer_end) for s in page.sections] == [
        ("x", (), 9),
        ("a", (), 7),
        ("b", ("a",), 7),
        ("c", (), 9),
    ]


def test_a_page_without_ids_has_no_sections() -> None:
    assert page_of("index.md", "index.md", "# Home\n\nThe rules.\n").sections == ()


def test_the_hash_ignores_stamps_and_trailing_spaces() -> None:
    assert section_hash(["## A {#a}", "<!-- translates: a.md#a sha256:1 -->", "text  "]) == section_hash(
        ["## A {#a}", "text", ""]
    )
    assert section_hash(["## A {#a}", "text"]) != section_hash(["## A {#a}", "other"])


def test_staleness_is_one_rule_for_check_and_site() -> None:
    english = page_of("core/d.md", "core/d.md", "## A {#a}\n\nText.\n").sections[0]
    stamp = f"<!-- translates: core/d.md#a sha256:{english.hash} -->"
    fresh = page_of("core/d.md", "ru/core/d.md", f"## А {{#a}}\n{stamp}\n\nТекст.\n").sections[0]
    other = page_of("core/d.md", "ru/core/d.md", f"## А {{#a}}\n{stamp.replace('#a', '#b')}\n").sections[0]
    bare = page_of("core/d.md", "ru/core/d.md", "## А {#a}\n\nТекст.\n").sections[0]
    old = page_of("core/d.md", "ru/core/d.md", "## А {#a}\n<!-- translates: core/d.md#a sha256:abc -->\n")
    assert stale_reason(fresh, "core/d.md", english) is None
    assert stale_reason(other, "core/d.md", english) == "wrong-stamp"
    assert stale_reason(bare, "core/d.md", english) == "unstamped"
    assert stale_reason(old.sections[0], "core/d.md", english) == "changed"


def test_one_link_resolution_reads_root_paths_and_drops_queries() -> None:
    assert resolve("core/shooting.md", "/core/damage.md#target-limit").ref == "core/damage.md#target-limit"
    assert resolve("core/shooting.md", "damage.md?x=1#target-limit").ref == "core/damage.md#target-limit"
    assert resolve("core/shooting.md", "../../x.md").escapes
    assert resolve("core/shooting.md", "mailto:a@b.c").ref is None


def test_a_page_holds_its_links_resolved_its_mentions_and_tables() -> None:
    text = "# S {#s}\n\nSee [it](/core/damage.md?x#armour) and core/cover.md.\n\n"
    text += "| a | b |\n|---|---|\n| 1 | `2` |\n"
    page = page_of("core/s.md", "core/s.md", text)
    ((link, target),) = page.links
    assert (link.target, link.line, target.ref) == ("/core/damage.md?x#armour", 3, "core/damage.md#armour")
    assert [(m.path, m.line) for m in page.mentions] == [("core/cover.md", 3)]
    assert page.tables == ((5, (("a", "b"), ("1", "`2`"))),)


def test_a_page_is_parsed_once_per_text() -> None:
    before = markdown.parses()
    first = page_of("core/once.md", "core/once.md", "# Once {#once}\n\nText about once-only parsing.\n")
    again = page_of("core/once.md", "core/once.md", "# Once {#once}\n\nText about once-only parsing.\n")
    assert markdown.parses() == before + 1
    assert first.tokens is again.tokens
    page_of("core/once.md", "core/once.md", "# Once {#once}\n\nChanged.\n")
    assert markdown.parses() == before + 2


def test_the_book_of_this_repository() -> None:
    book = Book.open(REPO)
    assert book.rule_dirs == ("core", "sequences", "timing", "commands")
    assert "core/damage.md" in book.rule_paths() and "index.md" not in book.rule_paths()
    damage = book.page("core/damage.md")
    assert damage is not None and damage.section("target-limit") is not None
    assert damage.examples and damage.tables
    assert "core/damage.md" in book.graph.links_from("core/shooting.md")
    assert {c.file for c in book.concepts} <= set(book.tree.markdown)


def test_a_translation_finds_its_english_twin_and_stamps() -> None:
    ru = Book.open(REPO, "ru")
    page, twin = ru.page("core/damage.md"), ru.twin("core/damage.md")
    assert page is not None and twin is not None and page.source == "ru/core/damage.md"
    english = {s.anchor: s for s in twin.sections}
    assert all(stale_reason(s, "core/damage.md", english[s.anchor]) is None for s in page.sections)


def test_the_rule_folders_come_from_the_check_setting(tmp_path: Path) -> None:
    (tmp_path / "concepts.yml").write_text("check:\n  rule_dirs: [rules]\n", encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "core").mkdir()
    (tmp_path / "rules" / "a.md").write_text("# A {#a}\n", encoding="utf-8")
    (tmp_path / "core" / "b.md").write_text("# B {#b}\n", encoding="utf-8")
    assert Book.open(tmp_path).rule_paths() == ["rules/a.md"]


def test_the_site_notice_marks_the_sections_rs074_warns_about(tmp_path: Path) -> None:
    from rulespy.check.translations import findings
    from rulespy.render.languages import stale_notices

    english_text = "# D {#d}\n\nText.\n\n## A {#a}\n\nA text.\n\n## B {#b}\n\nB text.\n"
    english = page_of("core/d.md", "core/d.md", english_text)
    d, a, _ = english.sections
    # #d up to date, #a stamped with another section's path (wrong stamp), #b without a stamp
    ru_text = (
        f"# Д {{#d}}\n<!-- translates: core/d.md#d sha256:{d.hash} -->\n\nТекст.\n\n"
        f"## А {{#a}}\n<!-- translates: core/x.md#a sha256:{a.hash} -->\n\nТекст А.\n\n"
        "## Б {#b}\n\nТекст Б.\n"
    )
    translated = page_of("core/d.md", "ru/core/d.md", ru_text)
    noticed = stale_notices(ru_text, "core/d.md", translated, english, "ru")
    assert noticed.count("!!! warning") == 2
    for root_file, text in (("core/d.md", english_text), ("ru/core/d.md", ru_text), ("ru/index.md", "# И\n")):
        (tmp_path / root_file).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / root_file).write_text(text, encoding="utf-8")
    (tmp_path / "index.md").write_text("# Home\n", encoding="utf-8")
    warned = {f.line for f in findings(tmp_path) if f.code == "RS074" and f.path == "ru/core/d.md"}
    assert warned == {7, 11}  # the wrong stamp's line, the unstamped heading
    lines = noticed.split("\n")
    headings = [i for i, line in enumerate(lines) if line.startswith("## ")]
    assert all(lines[i + 2].startswith("!!! warning") for i in headings)


def test_the_cache_keeps_a_bounded_amount_of_text(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulespy.book import book

    monkeypatch.setattr(book, "CACHE_TEXT", 1000)
    for number in range(20):
        page_of(f"core/c{number}.md", f"core/c{number}.md", f"# C {{#c}}\n\n{'word ' * 40}{number}\n")
    assert book._CACHE.text == sum(len(text) for _, text, _ in book._CACHE.pages) <= 1000
    assert ("core/c19.md", f"# C {{#c}}\n\n{'word ' * 40}19\n", "") in book._CACHE.pages  # the newest is kept
    assert len(book._CACHE.pages) < 20
