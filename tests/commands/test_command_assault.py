"""Assault: commands/command_assault.md."""

import pytest

from rulespy.account import trace
from rulespy.errors import IllegalDeclaration
from rulespy.play import play as play_text


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


# --- ruling R3: an Assault whose unit may not shoot is still legal; it rolls nothing ---

RAID = """
weapons:
  carbine: {range: 18, dice: 2, lock: 4, damage: 1, traits: [assault]}
  stubber: {range: 24, dice: 3, lock: 4, damage: 1, traits: [heavy]}
units:
  - id: raiders
    side: red
    status: STATUS
    models:
      - {id: x1, at: [0, 0], LEADER weapons: [carbine]}
      - {id: x2, at: [0, 2], weapons: [stubber]}
  - id: rangers
    side: SIDE
    models: [{id: r1, at: [9, 0]}, {id: r2, at: [30, 2]}]
EXTRA
attack: {unit: raiders, command: assault, targets: [{unit: rangers, mark: MARK}]}
RESPONSE
dice: DICE
"""


def raid(
    extra: str = "",
    mark: str = "r1",
    leader: bool = True,
    dice: str = "[]",
    side: str = "blue",
    status: str = "[]",
    response: str = "",
) -> str:
    return (
        RAID.replace("EXTRA", extra)
        .replace("MARK", mark)
        .replace("LEADER", "leader: true," if leader else "")
        .replace("DICE", dice)
        .replace("SIDE", side)
        .replace("STATUS", status)
        .replace("RESPONSE", response)
    )


def _no_shooting(text: str, rule: str) -> None:
    result = play_text(text)
    (target,) = result.attacks[0].targets
    assert not target.fired and target.locks == () and result.removed == {}
    assert result.to_json()["legal"] is True
    assert any(e.rule == rule and e.text.startswith("nothing is fired at the rangers") for e in trace(result))
    assert any("goes ahead without shooting" in line.text for line in trace(result))
    assert any(e.rule == "core/melee.md#melee" for e in result.trace)  # melee follows


def test_r3_assault_shoots_when_it_may() -> None:
    result = play_text(raid(dice="[4, 4]"))
    assert result.attacks[0].targets[0].fired and result.removed == {"r1": "end_of_attack"}


def test_r3_assault_with_no_assault_weapon_in_range_goes_ahead_without_shooting() -> None:
    far = "  - id: far\n    side: blue\n    models: [{id: f1, at: [0, 30]}]\n"
    text = (
        raid(far).replace("targets: [{unit: rangers", "targets: [{unit: far").replace("mark: r1", "mark: f1")
    )
    result = play_text(text)
    assert not result.attacks[0].targets[0].fired and result.to_json()["legal"] is True


def test_r3_leaderless_assault_at_a_unit_that_is_not_the_closest_candidate_rolls_nothing() -> None:
    closer = "  - id: drones\n    side: blue\n    models: [{id: d1, at: [-5, 1]}]\n"
    _no_shooting(raid(closer, leader=False), "core/target_selection.md#unit-without-a-leader")


def test_r3_assault_at_an_unseen_unit_rolls_nothing() -> None:
    wall = "terrain:\n  - {kind: blocking, polygon: [[3, -3], [4, -3], [4, 40], [3, 40]]}\n"
    _no_shooting(raid(wall), "core/target_selection.md#unit-with-a-leader")


def test_r3_assault_whose_mark_no_firing_weapon_reaches_rolls_nothing() -> None:
    _no_shooting(raid(mark="r2"), "core/target_selection.md#marked-model")  # r2: 30" off, carbine 18"


def test_r3_assault_at_a_unit_engaged_with_another_friendly_unit_rolls_nothing() -> None:
    friends = "  - id: friends\n    side: red\n    models: [{id: y1, at: [10.5, 0]}]\n"
    _no_shooting(raid(friends), "core/shooting.md#target-legality")


@pytest.mark.parametrize("status", ["shaken", "fleeing"])
def test_r3_shaken_or_fleeing_unit_may_not_assault(status: str) -> None:
    with pytest.raises(IllegalDeclaration) as error:
        play_text(raid(status=f"[{status}]"))
    assert error.value.rule == f"core/statuses.md#{status}"


def test_r3_assault_on_a_friendly_unit_is_refused() -> None:
    with pytest.raises(IllegalDeclaration) as error:
        play_text(raid(side="red"))
    assert error.value.rule == "core/shooting.md#target-legality"


def test_r3_snap_fire_cannot_answer_an_assault_that_does_not_shoot() -> None:
    armed = raid(mark="r2", response="response: {command: snap_fire, mark: x1}").replace(
        "{id: r1, at: [9, 0]}", "{id: r1, at: [9, 0], leader: true, weapons: [carbine]}"
    )
    with pytest.raises(IllegalDeclaration) as error:
        play_text(armed)
    assert error.value.rule == "commands/command_snap_fire.md#snap-fire"
    answered = armed.replace("mark: r2", "mark: r1").replace("dice: []", "dice: [1, 1, 1, 1]")
    assert len(play_text(answered).attacks) == 2  # when the Assault shoots, Snap Fire may answer it
