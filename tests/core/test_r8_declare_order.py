"""R8: a declaration that breaks several conditions is refused naming the first, in the order of the numbered
list of core/shooting.md#target-legality, which is the engine's ``DECLARE_CHECKS`` item for item.

The page's list is read with markdown-it-py (English and Russian); each item must link every rule its check
can name. Then one declaration breaking each pair of neighbouring checks proves the engine asks the earlier
one first, so the list is the order the engine really follows.
"""

from __future__ import annotations

import posixpath
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from rulespy.core.shooting import DECLARE_CHECKS
from rulespy.play import refused

ROOT = Path(__file__).resolve().parents[2]


def _items(page: str) -> list[list[str]]:
    """The links (as repository ``PATH#ANCHOR``) of each top-level item of the section's numbered list."""
    text = (ROOT / page).read_text(encoding="utf-8")
    start = text.index("{#target-legality}")
    section = text[start : text.index("\n## ", start)]
    tokens = MarkdownIt("commonmark").parse(section)
    items: list[list[str]] = []
    depth = 0
    in_ordered = False
    for token in tokens:
        if token.type == "ordered_list_open" and depth == 0:
            in_ordered = True
        elif token.type == "ordered_list_close" and depth == 0:
            break
        if not in_ordered:
            continue
        if token.type == "list_item_open":
            depth += 1
            if depth == 1:
                items.append([])
        elif token.type == "list_item_close":
            depth -= 1
        elif token.type == "inline" and items:
            for child in token.children or ():
                if child.type == "link_open":
                    href = str(child.attrGet("href") or "")
                    path, _, anchor = href.partition("#")
                    own = "core/shooting.md"
                    target = posixpath.normpath(posixpath.join("core", path)) if path else own
                    items[-1].append(f"{target}#{anchor}")
    return items


@pytest.mark.parametrize("page", ["core/shooting.md", "ru/core/shooting.md"])
def test_r8_the_page_lists_the_engines_checks_in_order(page: str) -> None:
    items = _items(page)
    assert len(items) == len(DECLARE_CHECKS), items
    for number, (links, check) in enumerate(zip(items, DECLARE_CHECKS, strict=True), start=1):
        missing = [rule for rule in check.rules if rule not in links]
        assert not missing, f"item {number} of {page} does not link {missing}"


def test_r8_the_test_reader_finds_a_link_left_out() -> None:
    """The reader above is not vacuous: it reads the eight items and their links."""
    items = _items("core/shooting.md")
    assert "core/statuses.md#shaken" in items[0] and "core/statuses.md#shaken" not in items[1]


WEAPONS = """
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
  carbine: {range: 12, dice: 1, lock: 4, damage: 1, traits: [assault]}
"""
# A leaderless unit of two riflemen, the declaring unit of several checks below.
MILITIA = """
  - id: militia
    side: blue
    models: [{id: m1, at: [0, 0], weapons: [rifle]}, {id: m2, at: [0, 2], weapons: [rifle]}]
"""
WALL = "terrain:\n  - {kind: blocking, polygon: [[4, -3], [5, -3], [5, 3], [4, 3]]}\n"


def _rule(text: str) -> str:
    return refused(WEAPONS + text).rule


def test_r8_check_1_shaken_before_fleeing_and_before_split_fire() -> None:
    """Checks 1 and 2: a Shaken and Fleeing unit without a leader that declares two targets is Shaken."""
    assert (
        _rule("""
units:
  - id: militia
    side: blue
    status: [shaken, fleeing]
    models: [{id: m1, at: [0, 0], weapons: [rifle]}, {id: m2, at: [0, 2], weapons: [rifle]}]
  - {id: a, side: red, models: [{id: a1, at: [10, 0]}]}
  - {id: b, side: red, models: [{id: b1, at: [10, 4]}]}
attack:
  unit: militia
  command: shoot
  targets: [{unit: a, mark: a1, models: [m1]}, {unit: b, mark: b1, models: [m2]}]
""")
        == "core/statuses.md#shaken"
    )


def test_r8_check_2_the_command_before_the_leader_before_swarm() -> None:
    """Inside check 2: an Assault by a leaderless Swarm at two units names the Assault first."""
    assert (
        _rule("""
units:
  - id: gaunts
    side: red
    traits: [swarm]
    models: [{id: g1, at: [0, 0], weapons: [carbine]}, {id: g2, at: [0, 2], weapons: [carbine]}]
  - {id: a, side: blue, models: [{id: a1, at: [8, 0]}]}
  - {id: b, side: blue, models: [{id: b1, at: [8, 4]}]}
attack:
  unit: gaunts
  command: assault
  targets: [{unit: a, mark: a1, models: [g1]}, {unit: b, mark: b1, models: [g2]}]
""")
        == "commands/command_assault.md#assault"
    )


def test_r8_check_2_before_check_3() -> None:
    """A leaderless unit splitting its fire at a friendly unit and an enemy: Leader's Split Fire."""
    assert (
        _rule(
            "units:"
            + MILITIA
            + """  - {id: allies, side: blue, models: [{id: a1, at: [10, 0]}]}
  - {id: b, side: red, models: [{id: b1, at: [10, 4]}]}
attack:
  unit: militia
  command: shoot
  targets: [{unit: allies, mark: a1, models: [m1]}, {unit: b, mark: b1, models: [m2]}]
"""
        )
        == "core/target_selection.md#leaders-split-fire"
    )


def test_r8_check_3_before_check_4() -> None:
    """A friendly unit the leader cannot see: Target Legality, not the leader's sight."""
    assert _rule(
        """
units:
  - {id: squad, side: blue, models: [{id: s1, at: [0, 0], leader: true, weapons: [rifle]}]}
  - {id: allies, side: blue, models: [{id: a1, at: [10, 0]}]}
"""
        + WALL
        + "attack: {unit: squad, command: shoot, targets: [{unit: allies, mark: a1}]}\n"
    ) == ("core/shooting.md#target-legality")


def test_r8_check_4_before_check_5() -> None:
    """An enemy the leader cannot see and no weapon reaches: the leader's sight is named."""
    assert _rule(
        """
units:
  - {id: squad, side: blue, models: [{id: s1, at: [0, 0], leader: true, weapons: [carbine]}]}
  - {id: far, side: red, models: [{id: f1, at: [30, 0]}]}
"""
        + WALL
        + "attack: {unit: squad, command: shoot, targets: [{unit: far, mark: f1}]}\n"
    ) == ("core/target_selection.md#unit-with-a-leader")


def test_r8_check_5_before_check_6() -> None:
    """A leaderless unit declaring a far unit out of every weapon's range while a closer candidate exists."""
    assert (
        _rule(
            "units:"
            + MILITIA
            + """  - {id: near, side: red, models: [{id: n1, at: [10, 0]}]}
  - {id: far, side: red, models: [{id: f1, at: [40, 0]}]}
attack: {unit: militia, command: shoot, targets: [{unit: far, mark: f1}]}
"""
        )
        == "core/shooting.md#which-weapons-fire"
    )


def test_r8_check_6_before_check_7() -> None:
    """A leaderless unit declaring a farther unit, marking a model no militia sees: the closest candidate."""
    assert _rule(
        "units:"
        + MILITIA
        + """  - {id: near, side: red, models: [{id: n1, at: [-8, 0]}]}
  - {id: far, side: red, models: [{id: f1, at: [15, 0]}, {id: f2, at: [15, 20]}]}
"""
        + WALL
        + "attack: {unit: militia, command: shoot, targets: [{unit: far, mark: f1}]}\n"
    ) == ("core/target_selection.md#unit-without-a-leader")


def test_r8_check_7_before_check_8() -> None:
    """An attack whose mark its leader cannot see, answered by a Shaken unit's Snap Fire: the mark."""
    assert (
        _rule(
            """
units:
  - {id: squad, side: blue, models: [{id: s1, at: [0, 0], leader: true, weapons: [rifle]}]}
  - id: raiders
    side: red
    status: [shaken]
    models: [{id: x1, at: [15, 0], leader: true, weapons: [rifle]}, {id: x2, at: [15, 20], weapons: [rifle]}]
"""
            + WALL
            + """attack: {unit: squad, command: shoot, targets: [{unit: raiders, mark: x1}]}
response: {command: snap_fire, mark: s1}
"""
        )
        == "core/target_selection.md#marked-model"
    )


def test_r8_all_checks_of_the_first_target_before_the_second() -> None:
    """Target 1 breaks check 7 and target 2 check 3: target 1's Marked Model is named."""
    assert (
        _rule(
            """
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, weapons: [rifle]}
      - {id: s2, at: [0, 20], weapons: [rifle]}
  - {id: raiders, side: red, models: [{id: x1, at: [15, 0]}, {id: x2, at: [15, 20]}]}
  - {id: allies, side: blue, models: [{id: a1, at: [0, 30]}]}
"""
            + WALL
            + """attack:
  unit: squad
  command: shoot
  targets: [{unit: raiders, mark: x1, models: [s1]}, {unit: allies, mark: a1, models: [s2]}]
"""
        )
        == "core/target_selection.md#marked-model"
    )
