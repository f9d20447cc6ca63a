"""Weapon traits are one table, ``rulespy.core.ranged_weapons.TRAITS``: core/ranged_weapons.md."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from rulespy.core.ranged_weapons import TRAITS, Weapon
from rulespy.errors import InvalidInput
from rulespy.scenario import parse_scenario

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
