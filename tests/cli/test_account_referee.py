"""The account of ``rulespy resolve`` tells an attack as a referee would: each line under the step it
belongs to, a success passed over or lost with the reason, and nothing that did not happen.

Each test is named after the rule the lines report; the scenarios are the independent reader's
(``/work/reader/out/scenarios``, numbered as in their report), trimmed to what the test needs.
"""

from __future__ import annotations

import re

from rulespy.account import Line, render, steps, trace
from rulespy.scenario import parse_scenario
from rulespy.sequences.resolution import resolve

# Reader 01: the mark w1 is beyond the carbine's 12", so the carbine success (first in Dice Order) goes by
# the key to w2; the lance success goes to w1.
MARK_OUT_OF_REACH = """
weapons:
  carbine: {range: 12, dice: 1, lock: 4, damage: 1}
  lance: {range: 36, dice: 1, lock: 4, damage: 1}
units:
  - id: rangers
    side: blue
    models:
      - {id: r1, at: [0, 0], leader: true, weapons: [carbine]}
      - {id: r2, at: [0, 2], weapons: [lance]}
  - id: walkers
    side: red
    models: [{id: w1, at: [21, 0], wounds: 2}, {id: w2, at: [10, 0]}]
attack: {unit: rangers, command: shoot, targets: [{unit: walkers, mark: w1}]}
dice: [4, 4]
"""

# The three-rifle example of core/allocation.md#allocation: the third hit lands on s1, already at 0.
THREE_RIFLES = """
weapons:
  rifle: {range: 24, dice: 3, lock: 4, damage: 1}
units:
  - id: squad
    side: blue
    models: [{id: r1, at: [0, 0], leader: true, weapons: [rifle]}]
  - id: scouts
    side: red
    models: [{id: s1, at: [10, 0]}, {id: s2, at: [10, 2]}]
attack: {unit: squad, command: shoot, targets: [{unit: scouts, mark: s1}]}
dice: [4, 5, 4]
"""

# Reader 19: a split with lists, answered by Snap Fire; the walker's Critical Lock is resolved first.
SPLIT_FIREFIGHT = """
weapons:
  carbine: {range: 18, dice: 1, lock: 4, damage: 1}
  smg: {range: 12, dice: 1, lock: 4, damage: 1}
units:
  - id: rangers
    side: blue
    models:
      - {id: r1, at: [0, 0], leader: true, weapons: [carbine]}
      - {id: r2, at: [0, 2], weapons: [carbine]}
  - id: raiders
    side: red
    models: [{id: x1, at: [10, 0], leader: true, weapons: [smg]}]
  - id: walker
    side: red
    models: [{id: w1, at: [10, 8]}]
attack:
  unit: rangers
  command: shoot
  targets: [{unit: raiders, mark: x1, models: [r1]}, {unit: walker, mark: w1, models: [r2]}]
response: {command: snap_fire, mark: r1}
dice: [2, 2, 4, 6, 5]
"""

# Reader 64: the lance's success is lost: t1 is within its minimum range, t2 beyond its range.
LANCE_LOST = """
weapons:
  carbine: {range: 12, dice: 1, lock: 4, damage: 1}
  lance: {range: 8, dice: 1, lock: 4, damage: 1, traits: [minimum range 6]}
units:
  - id: lancers
    side: blue
    models: [{id: l1, at: [0, 0], leader: true, weapons: [carbine, lance]}]
  - id: team
    side: red
    models: [{id: t1, at: [4, 0]}, {id: t2, at: [11, 0]}]
attack: {unit: lancers, command: shoot, targets: [{unit: team, mark: t1}]}
dice: [4, 4]
"""

# Reader 14: the raiders' leader sees no ranger through the wall: the Assault goes ahead without shooting.
ASSAULT_UNSEEN = """
weapons:
  carbine: {range: 18, dice: 1, lock: 4, damage: 1, traits: [assault]}
units:
  - id: raiders
    side: red
    models:
      - {id: x1, at: [0, 0], leader: true, weapons: [carbine]}
      - {id: x2, at: [0, 8], weapons: [carbine]}
  - id: rangers
    side: blue
    models: [{id: r1, at: [10, 0]}, {id: r2, at: [10, 2]}]
terrain:
  - {kind: blocking, polygon: [[4, -1], [5, -1], [5, 3], [4, 3]]}
attack: {unit: raiders, command: assault, targets: [{unit: rangers, mark: r2}]}
dice: []
"""

# Reader 62: s3 is listed at neither target of the split.
SPLIT_ONE_LEFT_OUT = """
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, weapons: [rifle]}
      - {id: s2, at: [0, 2], weapons: [rifle]}
      - {id: s3, at: [0, 4], weapons: [rifle]}
  - id: raiders
    side: red
    models: [{id: x1, at: [10, 0]}]
  - id: drones
    side: red
    models: [{id: d1, at: [10, 6]}]
attack:
  unit: squad
  command: shoot
  targets:
    - {unit: raiders, mark: x1, models: [s1]}
    - {unit: drones, mark: d1, models: [s2]}
dice: [3, 3, 4, 4]
"""


def _account(text: str) -> str:
    scenario = parse_scenario(text, "<test>")
    return render(scenario, resolve(scenario))


def _steps(text: str) -> dict[str, list[str]]:
    """The step-by-step account as {heading: its lines}, each line as its trace text and its rule."""
    found = steps(resolve(parse_scenario(text, "<test>")))
    return {heading.text if heading else "": [_said(line) for line in lines] for heading, lines in found}


def _said(line: Line) -> str:
    return f"{line.text}  [{line.rule}]"


def _step(steps: dict[str, list[str]], start: str) -> list[str]:
    """The lines of the step whose heading starts with ``start``; a step that opens a heading with no lines
    of its own (``The rangers resolve their Critical Locks``) is its first line, and its lines follow."""
    found = [lines for heading, lines in steps.items() if heading.startswith(start)]
    found += [lines[1:] for lines in steps.values() if lines and lines[0].startswith(start)]
    (lines,) = found
    return lines


def test_allocation_damage_only_after_every_success_of_the_round_has_a_model() -> None:
    """core/allocation.md#allocation step 4: the round's hits first, then one damage line per hit giving
    the wounds actually lost, never a line that the next one contradicts."""
    lines = _step(_steps(THREE_RIFLES), "3 other successes at the scouts")
    assert [line.split(":")[0] for line in lines[:3]] == [
        "the rifle success goes to s1",
        "the rifle success goes to s2",
        "the rifle success goes to s1",
    ]
    assert [line.split("  [")[0] for line in lines[3:]] == [
        "s1 loses 1 wound",
        "s2 loses 1 wound",
        "s1 loses 0 wounds of the 1 inflicted",
        "s1 had 0 wounds left; the wound is lost, never passed on",
    ]
    assert "suffers" not in _account(THREE_RIFLES)


def test_critical_damage_line_gives_the_wounds_lost_and_target_limit_the_rest() -> None:
    """core/critical_damage.md#critical-damage and core/damage.md#target-limit: 2 wounds on a 1-wound
    model read as 1 lost, the other lost, never passed on."""
    lines = _step(_steps(SPLIT_FIREFIGHT), "1 Critical Lock at the walker")
    assert lines[1:3] == [
        "w1 loses 1 wound of the 2 inflicted, ignoring armour  [core/critical_damage.md#critical-damage]",
        "w1 had 1 wound left; the other wound is lost, never passed on  [core/damage.md#target-limit]",
    ]


def test_target_unit_cover_is_told_under_its_own_target_lock_step() -> None:
    """core/cover.md#target-unit-cover: the cover is found once per target at step 4, so each cover line
    sits under that target's Target Lock heading, and none under the declaration or a critical round."""
    steps = _steps(SPLIT_FIREFIGHT)
    for shooter, target, mark in (
        ("rangers", "raiders", "x1"),
        ("rangers", "walker", "w1"),
        ("raiders", "rangers", "r1"),
    ):
        lines = _step(steps, f"the {shooter} roll 1 Target Lock die at the {target}")
        assert any(f"from the marked model {mark}: none" in line for line in lines), lines
    covers = [h for h, lines in steps.items() if any("cover from the marked model" in x for x in lines)]
    assert all("Target Lock die" in heading for heading in covers), covers


def test_dice_order_each_die_is_told_under_the_target_it_was_rolled_at() -> None:
    """sequences/shooting_sequence.md#step-target-lock: every die of a split is rolled first, but each
    result is told under its own target."""
    steps = _steps(SPLIT_FIREFIGHT)
    raiders = _step(steps, "the rangers roll 1 Target Lock die at the raiders")
    walker = _step(steps, "the rangers roll 1 Target Lock die at the walker")
    assert any(line.startswith("r1 fires carbine: natural 4") for line in raiders)
    assert any(line.startswith("r2 fires carbine: natural 6") for line in walker)
    assert not any(line.startswith("r1 fires carbine: natural") for line in walker)


def test_allocation_a_marked_model_passed_over_is_explained() -> None:
    """core/allocation.md#allocation: only the round's first success is offered to the Marked Model; when
    it is not valid for it, the account says so and why."""
    lines = _step(_steps(MARK_OUT_OF_REACH), "2 other successes at the walkers")
    assert lines[0].startswith(
        "the carbine success goes to w2: the only valid model; the Marked Model w1 is not valid for it: "
        "w1 is beyond the carbine's range of 12\" from r1"
    )


def test_lost_successes_say_why_no_model_is_valid() -> None:
    """core/allocation.md#lost-successes: the account says that a success was lost and why."""
    lines = _step(_steps(LANCE_LOST), "2 other successes at the team")
    assert (
        "a lance success is lost: no model of the target unit is valid for it: t1 is within the lance's "
        'minimum range 6" of l1, t2 is beyond the lance\'s range of 8" from l1  '
        "[core/allocation.md#lost-successes]"
    ) in lines


def test_assault_that_does_not_shoot_makes_no_shooting_attack() -> None:
    """commands/command_assault.md#assault: no removal step and no attack "with the Initiative"; the JSON
    trace still has one line a record, worded truthfully."""
    account = _account(ASSAULT_UNSEEN)
    assert "leave play together" not in account and "with the Initiative" not in account
    assert "Assault by the raiders: no shooting attack  [commands/command_assault.md#assault]" in account
    scenario = parse_scenario(ASSAULT_UNSEEN, "<test>")
    removal = [line for line in trace(resolve(scenario)) if line.rule.endswith("#step-removal")]
    assert [line.text for line in removal] == ["no shooting attack was made, so no casualty leaves play"]


def test_split_target_declaration_shows_each_targets_weapons() -> None:
    """core/shooting.md#split-target rule 1: the declaration says which weapons fire at each target."""
    (heading,) = [h for h in _steps(SPLIT_FIREFIGHT) if h.startswith("the rangers declare")]
    assert heading.startswith(
        "the rangers declare Shoot at the raiders with r1's carbine (marking x1); the walker with r2's "
        "carbine (marking w1)"
    )


def test_split_target_weapon_declared_against_no_target_does_not_fire() -> None:
    """core/shooting.md#split-target: a weapon the lists give to no target does not fire, as if held."""
    lines = _step(_steps(SPLIT_ONE_LEFT_OUT), "the squad declares Shoot")
    undeclared = [line for line in lines if line.endswith("[core/shooting.md#split-target]")]
    said = "s3's rifle does not fire: declared against no target  [core/shooting.md#split-target]"
    assert undeclared == [said]


def test_firefight_reply_criticals_says_when_there_are_none() -> None:
    """timing/firefight.md#firefight-reply-criticals: a unit with no Critical Lock does not "resolve its
    Critical Locks"."""
    steps = _steps(SPLIT_FIREFIGHT)
    said = [line.split("  [")[0] for lines in steps.values() for line in lines]
    assert "the raiders have no Critical Lock to resolve" in said
    assert "the raiders have no Critical Lock to resolve" not in steps  # a line, never a heading alone
    assert any(h.startswith("the rangers resolve their Critical Locks") for h in steps)


def test_allocation_marked_model_line_cites_the_owner_of_the_allocation_steps() -> None:
    """core/allocation.md#allocation step 2 gives the first success to the Marked Model."""
    lines = _step(_steps(THREE_RIFLES), "3 other successes at the scouts")
    assert lines[0] == (
        "the rifle success goes to s1: the first success of the round goes to the Marked Model  "
        "[core/allocation.md#allocation]"
    )


def test_shooting_resolution_is_what_each_target_heading_of_the_outcome_cites() -> None:
    """core/shooting.md#shooting-resolution: the Target N heading reports that target's resolution."""
    outcome = _account(SPLIT_FIREFIGHT).split("\nOutcome\n", 1)[1]
    headings = re.findall(r"Target \d: the \w+  \[(.*?)\]", outcome)
    assert headings == ["core/shooting.md#shooting-resolution"] * 3
