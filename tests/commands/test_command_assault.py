"""Assault: commands/command_assault.md."""

import pytest

from rulespy.errors import IllegalDeclaration


def test_assault_fires_only_assault_weapons_and_stops_before_melee(play) -> None:  # type: ignore[no-untyped-def]
    result = play("assault", [6])
    assert [r.roll.weapon for r in result.attacks[0].targets[0].locks] == ["pistol"]
    assert any(e.rule == "core/melee.md#melee" for e in result.trace)


def test_assault_cannot_split_its_fire(play) -> None:  # type: ignore[no-untyped-def]
    more = "  - id: more\n    side: red\n    models: [{id: m1, at: [8, 8]}]\n"
    split = "{unit: foes, mark: f1, models: [s1]}, {unit: more, mark: m1, models: [s2]}"
    with pytest.raises(IllegalDeclaration) as error:
        play("assault", [1], more, split)
    assert error.value.rule.startswith("commands/command_assault.md")
