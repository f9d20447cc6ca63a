"""Covering Fire: commands/command_covering_fire.md."""

import pytest

from rulespy.errors import IllegalDeclaration


def test_covering_fire_shoots_at_minus_1_and_pins_the_models_it_hits(play) -> None:  # type: ignore[no-untyped-def]
    result = play("covering_fire", [5, 1, 5])
    locks = [r.roll for r in result.attacks[0].targets[0].locks]
    assert [(r.weapon, r.modified) for r in locks] == [("rifle", 4), ("pistol", 0), ("cannon", 4)]
    assert result.status("f1") == ("pinned",)
    assert result.status("f2") == ("pinned",)


def test_covering_fire_cannot_be_answered_with_snap_fire(play) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalDeclaration) as error:
        play("covering_fire", [1, 1, 1], "response: {command: snap_fire, mark: s1}\n")
    assert error.value.rule == "commands/command_covering_fire.md#covering-fire"
