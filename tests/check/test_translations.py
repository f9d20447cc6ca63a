"""A translation kept in step (issue 19): structure, numbers, links and examples checked, staleness
stamped by ``rulespy translations stamp`` and reported as a warning (RS070-RS074)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulespy.book.sections import STAMP, section_hash
from rulespy.check.findings import WARNINGS
from rulespy.check.runner import CheckOptions, check_tree
from rulespy.check.translations import StampError, stamp
from rulespy.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def edition(tmp_path: Path) -> Path:
    """A copy of the clean translated fixture (English and Russian in step, every section stamped)."""
    shutil.copytree(FIXTURES / "translated", tmp_path / "repo")
    return tmp_path / "repo"


def _codes(root: Path) -> list[tuple[str, int, str]]:
    return [(f.path, f.line, f.code) for f in check_tree(root, CheckOptions(use_cache=False))]


def test_stale_translation_changing_one_english_section_makes_exactly_its_translation_stale(
    edition: Path,
) -> None:
    english = edition / "core" / "damage.md"
    english.write_text(english.read_text().replace("at most the wounds", "at most all the wounds"))
    stale = check_tree(edition, CheckOptions(use_cache=False))
    assert [(f.path, f.code) for f in stale] == [("ru/core/damage.md", "RS074")]
    assert "core/damage.md#target-limit" in stale[0].message
    # its subsection-free neighbours (#damage-page above, #armour below) keep their stamps: still fresh
    assert stale[0].line == 7


def test_stale_translation_is_fresh_again_once_stamped(edition: Path) -> None:
    english = edition / "core" / "damage.md"
    english.write_text(english.read_text().replace("at most the wounds", "at most all the wounds"))
    assert stamp(edition, "ru/core/damage.md#target-limit") == ["target-limit"]
    assert _codes(edition) == []
    assert stamp(edition, "ru/core/damage.md") == []  # every stamp already current: nothing rewritten


def test_stale_translation_unstamped_section_is_a_warning_naming_the_command(edition: Path) -> None:
    page = edition / "ru" / "index.md"
    page.write_text("\n".join(line for line in page.read_text().split("\n") if not STAMP.match(line)))
    [finding] = check_tree(edition, CheckOptions(use_cache=False))
    assert finding.code == "RS074" and "rulespy translations stamp ru/index.md#home" in finding.message


def test_stamp_inserts_one_line_under_each_heading_with_the_english_sections_hash(edition: Path) -> None:
    page = edition / "ru" / "core" / "damage.md"
    bare = "\n".join(line for line in page.read_text().split("\n") if not STAMP.match(line))
    page.write_text(bare)
    assert stamp(edition, "ru/core/damage.md") == ["damage-page", "target-limit", "armour"]
    lines = page.read_text().split("\n")
    heading = lines.index("## Armour {#armour}".replace("Armour", "Броня"))
    english = (edition / "core" / "damage.md").read_text().split("\n")
    start = english.index("## Armour {#armour}")
    expected = section_hash(english[start:])
    assert lines[heading + 1] == f"<!-- translates: core/damage.md#armour sha256:{expected} -->"


def test_stamp_refuses_what_is_not_a_translation_and_writes_nothing(edition: Path) -> None:
    before = (edition / "ru" / "core" / "damage.md").read_bytes()
    for target, says in [
        ("core/damage.md", "not a translated page"),
        ("ru/core/missing.md", "no such translated page"),
        ("ru/core/damage.md#nowhere", "no section #nowhere"),
    ]:
        with pytest.raises(StampError, match=says):
            stamp(edition, target)
    assert (edition / "ru" / "core" / "damage.md").read_bytes() == before


def test_stamp_command_exits_2_with_a_located_message(
    edition: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["translations", "stamp", "--root", str(edition), "ru/core/nothing.md"]) == 2
    assert "ru/core/nothing.md:1: no such translated page" in capsys.readouterr().err


def test_stale_translation_is_a_warning_that_warnings_ok_lets_pass(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert WARNINGS == {"RS074"}
    root = str(FIXTURES / "RS074")
    assert main(["check", root, "--no-cache"]) == 1
    out = capsys.readouterr().out
    assert "RS074 warning: stale translation" in out and "1 finding (1 warning)" in out
    assert main(["check", root, "--no-cache", "--warnings-ok"]) == 0
    assert "RS074" in capsys.readouterr().out  # still listed
    assert main(["check", str(FIXTURES / "RS073"), "--no-cache", "--warnings-ok"]) == 1  # errors still fail
    capsys.readouterr()
    main(["check", root, "--no-cache", "--format", "json"])
    assert json.loads(capsys.readouterr().out)["findings"][0]["severity"] == "warning"
    main(["check", root, "--no-cache", "--format", "github"])
    assert capsys.readouterr().out.startswith("::warning file=ru/core/damage.md,line=21")


def test_translation_structure_page_missing_and_page_extra(edition: Path) -> None:
    (edition / "ru" / "core" / "damage.md").rename(edition / "ru" / "core" / "wounds.md")
    assert ("core/damage.md", 1, "RS070") in _codes(edition)
    assert ("ru/core/wounds.md", 1, "RS070") in _codes(edition)


def test_translation_structure_extra_section_and_order(edition: Path) -> None:
    page = edition / "ru" / "core" / "damage.md"
    text = page.read_text()
    armour = text.index("## Броня")
    limit = text.index("## Предел цели")
    swapped = text[:limit] + text[armour:].rstrip("\n") + "\n\n" + text[limit:armour]
    page.write_text(swapped + "\n## Лишнее {#extra}\n\nНет такого раздела.\n")
    codes = [(code, line) for path, line, code in _codes(edition) if path == "ru/core/damage.md"]
    assert [c for c, _ in codes].count("RS070") == 2  # one for the order, one for #extra


def test_translated_example_differs_when_a_fence_is_missing_or_moved(edition: Path) -> None:
    page = edition / "ru" / "core" / "damage.md"
    text = page.read_text()
    fence = "```{.python}\nassert min(3 - 1, 5) == 2\n```\n"
    page.write_text(text.replace(fence, ""))
    assert ("ru/core/damage.md", 1, "RS073") in _codes(edition)
    page.write_text(text.replace(fence, "") + "\n" + fence)  # the same code, in #armour
    assert [code for _, _, code in _codes(edition)] == ["RS073"]


def test_translated_rule_file_headings_need_ids_and_concepts_are_owned_by_the_mirror(edition: Path) -> None:
    # RS050 holds a translated rule file like its English twin; RS013 reads the Russian names (ru:)
    (edition / "concepts.yml").write_text(
        "owners:\n  core/damage.md:\n"
        "    - {concept: Target Limit, anchor: target-limit, ru: [Предел цели, предела цели]}\n"
    )
    page = edition / "ru" / "index.md"
    page.write_text(page.read_text() + "\n## Без якоря\n\n## Предел цели {#limit-here}\n\nНет ссылки.\n")
    core = edition / "ru" / "core" / "damage.md"
    core.write_text(core.read_text() + "\n### Без якоря\n")
    found = {(path, code) for path, _, code in _codes(edition)}
    assert ("ru/core/damage.md", "RS050") in found and ("ru/index.md", "RS050") not in found
    [restated] = [f for f in check_tree(edition, CheckOptions(use_cache=False)) if f.code == "RS013"]
    assert restated.path == "ru/index.md" and "ru/core/damage.md#target-limit" in restated.message


def test_retired_term_is_allowed_in_the_translated_mirror_of_its_explaining_section(edition: Path) -> None:
    (edition / "concepts.yml").write_text(
        "owners:\n  core/damage.md:\n    - {concept: Armour, anchor: armour}\n"
        "retired:\n  - {term: old armour, current: armour, explained_in: core/damage.md#armour}\n"
    )
    english = edition / "core" / "damage.md"
    english.write_text(english.read_text() + "\nOld armour is the former name.\n")
    stamp(edition, "ru/core/damage.md#armour")
    page = edition / "ru" / "core" / "damage.md"
    page.write_text(page.read_text() + "\nРаньше броню называли old armour.\n")
    assert _codes(edition) == []
    page.write_text(page.read_text().replace("## Броня", "Ещё old armour.\n\n## Броня"))
    assert _codes(edition) == [("ru/core/damage.md", 20, "RS031")]  # outside #armour


def test_a_russian_name_given_to_two_concepts_has_two_owners(edition: Path) -> None:
    (edition / "concepts.yml").write_text(
        "owners:\n  core/damage.md:\n"
        "    - {concept: Target Limit, anchor: target-limit, ru: [Предел цели]}\n"
        "    - {concept: Armour, anchor: armour, ru: [Броня, предел цели]}\n"
    )
    [twice] = check_tree(edition, CheckOptions(use_cache=False))
    assert (twice.path, twice.line, twice.code) == ("concepts.yml", 4, "RS010")
    assert "ru name 'предел цели'" in twice.message and "Target Limit" in twice.message


def test_an_empty_russian_name_list_stops_the_check_with_its_line(edition: Path) -> None:
    from rulespy.check.findings import CheckError

    (edition / "concepts.yml").write_text(
        "owners:\n  core/damage.md:\n    - {concept: Armour, anchor: armour, ru: []}\n"
    )
    with pytest.raises(CheckError) as raised:
        check_tree(edition, CheckOptions(use_cache=False))
    assert raised.value.located() == "concepts.yml:3: ru must list at least the name"


def test_stamp_command_stamps_every_page_of_a_folder(
    edition: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for page in (edition / "ru").rglob("*.md"):
        page.write_text("\n".join(line for line in page.read_text().split("\n") if not STAMP.match(line)))
    assert len(check_tree(edition, CheckOptions(use_cache=False))) == 4  # four unstamped sections
    assert main(["translations", "stamp", "--root", str(edition), "ru"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "ru/core/damage.md: #damage-page, #target-limit, #armour",
        "ru/index.md: #home",
    ]
    assert _codes(edition) == []
