"""Weapon traits are one table, ``rulespy.core.ranged_weapons.TRAITS``: core/ranged_weapons.md."""

from __future__ import annotations

import re
from dataclasses import fields
from fractions import Fraction
from pathlib import Path

import pytest

from rulespy.core.ranged_weapons import TRAITS, Weapon
from rulespy.errors import InvalidInput
from rulespy.odds.exact import final_states
from rulespy.scenario import parse_scenario
from rulespy.sequences.records import Fires
from rulespy.sequences.resolution import resolve
from rulespy.sequences.shooting_sequence import ShootingSequence

RULES = Path(__file__).resolve().parents[2] / "core" / "ranged_weapons.md"

SCENARIO = """
weapons:
  gun: {range: 24, dice: 1, lock: 4, damage: 1, traits: [TRAITS]}
units:
  - {id: a, side: blue, models: [{id: a1, at: [0, 0], weapons: [gun]}]}
  - {id: b, side: red, models: [{id: b1, at: [10, 0]}]}
attack: {unit: a, command: shoot, targets: [{unit: b, mark: b1}]}
dice: [4]
"""


def _weapon(traits: str) -> Weapon:
    return parse_scenario(SCENARIO.replace("TRAITS", traits)).battlefield.weapons[0]


def test_weapon_traits_sentence_lists_the_table() -> None:
    text = RULES.read_text(encoding="utf-8")
    sentence = text[text.index("They are written in lower case in a profile:") :].split(".")[0]
    assert re.findall(r"`([^`]+)`", sentence) == [t.written for t in TRAITS]


def test_weapon_traits_each_cite_a_heading_of_the_weapon_traits_section() -> None:
    text = RULES.read_text(encoding="utf-8")
    section = text[text.index("{#weapon-traits}") :]
    anchors = re.findall(r"^### .* \{#([\w-]+)\}$", section, re.MULTILINE)
    assert sorted(t.rule.removeprefix("core/ranged_weapons.md#") for t in TRAITS) == sorted(anchors)


def test_weapon_traits_each_set_a_weapon_field() -> None:
    names = {f.name for f in fields(Weapon)}
    assert all(t.field in names for t in TRAITS)
    assert len({t.field for t in TRAITS}) == len(TRAITS)


def test_weapon_traits_read_and_written_back_through_the_table() -> None:
    written = "assault, heavy, pinning, precise, critical 5, minimum range 2.5"
    weapon = _weapon(written)
    assert (weapon.assault, weapon.heavy, weapon.pinning, weapon.precise) == (True, True, True, True)
    assert (weapon.critical, weapon.minimum_range) == (5, 2.5)
    assert weapon.traits == tuple(written.split(", "))
    assert _weapon("").traits == ()


@pytest.mark.parametrize(
    ("traits", "message"),
    [
        ("critical 7", "must be from 2 to 6, not 7"),
        ("critical 1", "must be from 2 to 6, not 1"),
        ("critical", "unknown trait 'critical'"),
        ("flamer", "known traits: assault, heavy, pinning, precise, critical N, minimum range N"),
        ("heavy, heavy", "has the trait 'heavy' more than once"),
        ("critical 5, critical 4", "more than once"),
    ],
)
def test_weapon_traits_refuse_what_the_table_does_not_allow(traits: str, message: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        _weapon(traits)
    assert message in refused.value.message


def test_weapon_profile_dice_at_is_the_one_count_the_sequence_the_odds_and_the_limit_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A trait that adds dice changes Weapon.dice_at alone: with three dice more at every target, the
    # sequence rolls and records them and the exact odds still sum to 1 (their dice bound covers them).
    monkeypatch.setattr(Weapon, "dice_at", lambda self, models: self.dice + 3)
    scenario = parse_scenario(SCENARIO.replace("TRAITS", "").replace("[4]", "[4, 1, 1, 1]"))
    result = resolve(scenario)
    assert [lock.roll.natural for lock in result.attacks[0].targets[0].locks] == [4, 1, 1, 1]
    assert [record.dice for record in result.trace if isinstance(record, Fires)] == [4]
    ends = final_states(ShootingSequence(scenario))
    assert sum(ends.values()) == 1
    assert sum(p for state, p in ends.items() if not state.casualties) == Fraction(1, 16)  # all four fail


def test_weapon_profile_dice_limit_counts_dice_at_the_largest_unit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Weapon, "dice_at", lambda self, models: self.dice + 10_000 * models)
    with pytest.raises(InvalidInput) as refused:
        parse_scenario(SCENARIO.replace("TRAITS", ""))
    assert "Target Lock dice in all" in refused.value.message
