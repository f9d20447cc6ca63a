"""Firefight, Initiative and Removal Timing: timing/firefight.md."""

from __future__ import annotations

from rulespy.scenario import parse_scenario
from rulespy.sequences.shooting_sequence import resolve

DUEL = """
weapons:
  rifle: {range: 24, dice: 2, lock: 4, damage: 1}
units:
  - id: blue
    side: blue
    models:
      - {id: b1, at: [0, 0], leader: true, weapons: [rifle]}
      - {id: b2, at: [0, 2], weapons: [rifle]}
  - id: red
    side: red
    models:
      - {id: r1, at: [10, 0], leader: true, weapons: [rifle]}
      - {id: r2, at: [10, 2], weapons: [rifle]}
attack: {unit: blue, command: shoot, targets: [{unit: red, mark: r1}]}
response: {command: snap_fire, mark: b1}
"""


def test_firefight_order_initiative_criticals_remove_models_before_they_fire() -> None:
    """blue rolls 6, 6 with b1 (two Critical Locks: r1 then r2 die at once), 1, 1 with b2; red has no one
    left to fire, so no red dice are rolled."""
    result = resolve(parse_scenario(DUEL + "dice: [6, 6, 1, 1]\n"))
    assert result.removed == {"r1": "immediate", "r2": "immediate"}
    reply = result.attacks[1]
    assert not reply.initiative and not reply.targets[0].fired


def test_firefight_order_normal_hits_do_not_stop_the_reply() -> None:
    """blue's normal successes leave r1 and r2 at 0 wounds but still in play: both fire back at -1."""
    dice = [5, 5, 1, 1] + [6, 1, 5, 1]
    result = resolve(parse_scenario(DUEL + f"dice: {dice}\n"))
    assert result.attacks[1].targets[0].fired
    locks = result.attacks[1].targets[0].locks
    assert [(r.roll.natural, r.roll.modified, r.roll.success) for r in locks] == [
        (6, 5, True),
        (1, 0, False),
        (5, 4, True),
        (1, 0, False),
    ]
    # red's 6 is a Critical Lock: b1 (marked) dies at once; red's 5 at -1 is a success on b2
    assert result.removed == {
        "b1": "immediate",
        "r1": "end_of_firefight",
        "r2": "end_of_firefight",
        "b2": "end_of_firefight",
    }


def test_firefight_initiative_belongs_to_the_unit_whose_command_started_it() -> None:
    result = resolve(parse_scenario(DUEL + "dice: [1, 1, 1, 1, 1, 1, 1, 1]\n"))
    assert [a.initiative for a in result.attacks] == [True, False]
    assert result.attacks[1].command == "snap_fire"


def test_removal_timing_outside_a_firefight_is_end_of_attack() -> None:
    text = DUEL.replace("response: {command: snap_fire, mark: b1}\n", "") + "dice: [4, 1, 1, 1]\n"
    result = resolve(parse_scenario(text))
    assert result.removed == {"r1": "end_of_attack"}


SPLIT_DUEL = """
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - id: blue
    side: blue
    models:
      - {id: b1, at: [0, 0], leader: true, weapons: [rifle]}
      - {id: b2, at: [0, 2], weapons: [rifle]}
  - id: red
    side: red
    models: [{id: r1, at: [10, 0], leader: true, weapons: [rifle]}]
  - id: walker
    side: red
    models: [{id: w1, at: [10, 8]}, {id: w2, at: [10, 10]}]
attack:
  unit: blue
  command: shoot
  targets: [{unit: red, mark: r1, models: [b1]}, {unit: walker, mark: w1, models: [b2]}]
response: {command: snap_fire, mark: b1}
"""


def test_r4_firefight_normal_casualties_of_every_split_target_leave_at_its_end() -> None:
    """The walker, the second target, never fired back; its normal casualty still waits for the end of the
    firefight (step 4), like those of the unit that answered."""
    result = resolve(parse_scenario(SPLIT_DUEL + "dice: [1, 2, 4, 4, 5]\n"))
    assert result.removed == {"r1": "end_of_firefight", "w1": "end_of_firefight", "b1": "end_of_firefight"}


def test_r4_firefight_critical_casualties_of_a_later_split_target_still_leave_at_once() -> None:
    result = resolve(parse_scenario(SPLIT_DUEL + "dice: [1, 2, 2, 6, 1]\n"))
    assert result.removed == {"w1": "immediate"}
