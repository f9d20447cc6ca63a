"""Edge cases of the rulings R9 to R15 (the brief's section 14; R8 is tests/core/test_r8_declare_order.py,
R11's account tests/cli/test_account_why.py). Each test names its ruling and the rule file that states it."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespy.core.allocation import tier
from rulespy.play import play, refused
from rulespy.state import Model, ModelStatus

ROOT = Path(__file__).resolve().parents[2]

READING = ROOT / "examples" / "scenarios" / "reading"


def test_r9_holding_fire_keeps_a_closer_unit_a_candidate() -> None:
    """core/target_selection.md#unit-without-a-leader: only m1's held rifle reaches the Raiders."""
    text = (READING / "06_leaderless_held_fire_keeps_candidate.yaml").read_text(encoding="utf-8")
    assert refused(text).rule == "core/target_selection.md#unit-without-a-leader"


def test_r9_an_abandoned_models_weapons_never_make_a_candidate() -> None:
    """The same, with m1 Abandoned: the Raiders are no candidate, so the Walker may be shot."""
    text = (READING / "07_leaderless_abandoned_only_reacher.yaml").read_text(encoding="utf-8")
    assert play(text).removed == {"w1": "end_of_attack"}


def test_r9_an_abandoned_models_weapon_never_makes_a_mark_legal() -> None:
    """core/target_selection.md#marked-model: x2 is in range of the Abandoned v1's cannon only."""
    refusal = refused("""
weapons:
  pistol: {range: 6, dice: 1, lock: 4, damage: 1}
  cannon: {range: 36, dice: 1, lock: 4, damage: 2}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, weapons: [pistol]}
      - {id: v1, at: [0, 2], weapons: [cannon], status: [abandoned]}
  - id: raiders
    side: red
    models: [{id: x1, at: [6, 0]}, {id: x2, at: [20, 0]}]
attack: {unit: squad, command: shoot, targets: [{unit: raiders, mark: x2}]}
""")
    assert refusal.rule == "core/target_selection.md#marked-model"


FIREFIGHT = (ROOT / "examples/scenarios/snap_fire_firefight.yaml").read_text(encoding="utf-8")


def test_r10_both_critical_steps_remove_at_once_and_the_rest_waits() -> None:
    """core/shooting.md#initiative-and-simultaneous-fire (owner timing/firefight.md)."""
    result = play(FIREFIGHT)
    assert result.removed == {
        "x1": "immediate",
        "r1": "immediate",
        "x2": "end_of_firefight",
        "r2": "end_of_firefight",
    }


def test_r10_a_reply_critical_casualty_still_in_the_initiatives_normal_round_is_passed_over() -> None:
    """r1, removed at once by the reply's Critical Lock, takes none of the Initiative's normal successes
    (they are aimed at the raiders anyway), and the reply's normal success goes to r2, not r1."""
    result = play(FIREFIGHT)
    reply = result.attacks[1].targets[0]
    assert [(hit.model, hit.critical) for hit in reply.allocation] == [("r1", True), ("r2", False)]


ABANDONED_LEADER = """
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, ld: 9, weapons: [rifle], status: [abandoned]}
      - {id: s2, at: [0, 2], weapons: [rifle]}
      - {id: s3, at: [0, 4], weapons: [rifle]}
  - id: raiders
    side: red
    models: [{id: x1, at: [6, 0]}]
  - id: walker
    side: red
    models: [{id: w1, at: [16, 0], wounds: 3}]
"""


def test_r12_an_abandoned_leader_still_leads_target_choice() -> None:
    """core/target_selection.md#target-priority: the farther Walker is legal, and s1 does not fire."""
    result = play(
        ABANDONED_LEADER + "attack: {unit: squad, command: shoot, targets: [{unit: walker, mark: w1}]}\n"
        "dice: [4, 4]\n"
    )
    assert [lock.roll.model for lock in result.attacks[0].targets[0].locks] == ["s2", "s3"]


def test_r12_an_abandoned_leader_takes_the_leadership_checks_of_split_fire() -> None:
    """core/statuses.md#abandoned: the split's check is on s1's ld 9 (4 + 5 = 9 passes)."""
    result = play(
        ABANDONED_LEADER
        + """attack:
  unit: squad
  command: shoot
  targets: [{unit: raiders, mark: x1, models: [s2]}, {unit: walker, mark: w1, models: [s3]}]
dice: [4, 5, 4, 4]
"""
    )
    check = result.attacks[0].targets[1].leadership
    assert check is not None and check.leader == "s1" and check.ld == 9 and check.passed


def test_r12_an_abandoned_leaders_sight_decides_the_mark() -> None:
    """A wall hides w1 from the Abandoned leader s1 only: marking w1 is refused, although s2 and s3 see it,
    and marking w2, which s1 sees, is legal."""
    text = (
        ABANDONED_LEADER.replace("range: 24", "range: 36")
        .replace("{id: s1, at: [0, 0]", "{id: s1, at: [0, -10]")
        .replace(
            "models: [{id: w1, at: [16, 0], wounds: 3}]",
            "models: [{id: w1, at: [16, 0], wounds: 3}, {id: w2, at: [16, -20]}]",
        )
        + """terrain:
  - {kind: blocking, polygon: [[7, -6.5], [9, -6.5], [9, -3.5], [7, -3.5]]}
attack: {unit: squad, command: shoot, targets: [{unit: walker, mark: MARK}]}
dice: [4, 4]
"""
    )
    assert refused(text.replace("MARK", "w1")).rule == "core/target_selection.md#marked-model"
    assert play(text.replace("MARK", "w2")).attacks[0].targets[0].fired


@pytest.mark.parametrize(
    ("page", "open_words"),
    [("core/allocation.md", "in the open"), ("ru/core/allocation.md", "на открытом месте")],
)
def test_r13_the_allocation_tier_is_active_never_in_the_open(page: str, open_words: str) -> None:
    """core/allocation.md#allocation-key: "in the open" means no cover only; the tier page never says it."""
    text = (ROOT / page).read_text(encoding="utf-8")
    assert open_words not in text
    row = next(line for line in text.splitlines() if line.startswith("| 3 |"))
    assert ("**active**" in row) or ("**активна**" in row)
    assert (
        tier(Model("a", (0, 0))) == 0
        and tier(Model("p", (0, 0), status=frozenset({ModelStatus.PINNED}))) == 1
    )


COVERING = """
weapons:
  rifle: {range: 12, dice: 1, lock: 4, damage: 1}
units:
  - id: sentries
    side: blue
    models: [{id: s1, at: [0, 0], leader: true, weapons: [rifle]}]
  - id: raiders
    side: red
    models: [{id: x1, at: [X, 0]}]
attack: {unit: sentries, command: covering_fire, targets: [{unit: raiders, mark: x1}]}
dice: [5]
"""


def test_r14_covering_fire_measures_where_the_enemy_declared() -> None:
    """core/measuring.md#measuring: 12" away when declaring is in range; 12.5" is not, and the covering
    unit keeps watching (the refusal names commands/command_covering_fire.md)."""
    assert play(COVERING.replace("X", "13")).attacks[0].targets[0].fired
    refusal = refused(COVERING.replace("X", "13.5"))
    assert refusal.rule == "core/shooting.md#which-weapons-fire"
    assert refusal.response == "commands/command_covering_fire.md#covering-fire"


LANCE = """
weapons:
  carbine: {range: 12, dice: 1, lock: 4, damage: 1}
  lance: {range: 24, dice: 1, lock: 4, damage: 2, traits: [minimum range 6]}
units:
  - id: lancers
    side: blue
    models: [{id: l1, at: [0, 0], leader: true, weapons: [carbine, lance]}]
  - id: team
    side: red
    models: [{id: t1, at: [NEAR, 0]}, {id: t2, at: [11, 0]}]
attack: {unit: lancers, command: shoot, targets: [{unit: team, mark: t2}]}
dice: [6, 4]
"""


@pytest.mark.parametrize("near", ["5", "7"])
def test_r15_a_minimum_range_success_with_no_model_it_can_reach_is_lost(near: str) -> None:
    """core/allocation.md#lost-successes: t1 at 4", or exactly 6" (not farther than 6), is no valid model."""
    result = play(LANCE.replace("NEAR", near))
    target = result.attacks[0].targets[0]
    assert [lock.roll.weapon for lock in target.locks] == ["carbine", "lance"]
    assert [hit.model for hit in target.allocation] == ["t2", None]
    assert result.wounds("t1") == 1


def test_r15_the_same_success_lands_on_a_model_just_beyond_minimum_range() -> None:
    result = play(LANCE.replace("NEAR", "7.5"))
    assert [hit.model for hit in result.attacks[0].targets[0].allocation] == ["t2", "t1"]
