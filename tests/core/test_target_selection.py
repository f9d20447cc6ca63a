"""Tests of core/target_selection.md: target priority, the closest candidate, split fire, Swarm, marks."""

from __future__ import annotations

import pytest

from rulespy.core.shooting import TargetPlan
from rulespy.core.target_selection import majority_sees, more_than_half
from rulespy.state import (
    Command,
    ModelStatus,
)

from .declarations import field, model, plan, refused, target, unit, wall

# Shooters along y = 0 around x = 0; enemies to the east.
LED = unit("led", "blue", model("L", 0, leader=True), model("s1", 0, 2), model("s2", 0, -2))
SQUAD = unit("squad", "blue", model("q1", 0, 0), model("q2", 0, 2), model("q3", 0, 4), model("q4", 0, 6))
NEAR = unit("near", "red", model("n1", 8, 0))
FAR = unit("far", "red", model("f1", 16, 0))


def test_more_than_half_is_strict() -> None:
    assert more_than_half(2, 3) and more_than_half(3, 4)
    assert not more_than_half(2, 4) and not more_than_half(0, 0)


def test_unit_with_a_leader_may_target_any_legal_unit_its_leader_sees() -> None:
    assert plan(field(LED, NEAR, FAR), "led", target("far", "f1")) == (
        TargetPlan("far", "f1", (("L", "rifle"), ("s1", "rifle"), ("s2", "rifle"))),
    )


def test_unit_with_a_leader_cannot_target_a_unit_its_leader_does_not_see() -> None:
    # the wall hides "near" from the leader only; its two troopers still see it
    bf = field(LED, NEAR, terrain=(wall(3, -0.5, 4, 0.5),))
    err = refused(bf, "led", target("near", "n1"))
    assert err.rule == "core/target_selection.md#unit-with-a-leader"
    assert "'led'" in err.message and "'near'" in err.message and "'L'" in err.message
    assert "core/target_selection.md" in err.message


def test_leader_fire_arc_decides_what_the_leader_sees() -> None:
    looking_away = unit("led", "blue", model("L", 0, leader=True, facing=180, arc=90), model("s1", 0, 2))
    err = refused(field(looking_away, NEAR), "led", target("near", "n1"))
    assert err.rule == "core/target_selection.md#unit-with-a-leader"


def test_leaderless_unit_needs_more_than_half_of_its_models_in_play_to_see_the_target() -> None:
    # the wall hides "near" from q1 and q2: 2 of 4 see it, which is not more than half
    hiding = (wall(3, -1, 4, 1.5),)
    err = refused(field(SQUAD, NEAR, terrain=hiding), "squad", target("near", "n1"))
    assert err.rule == "core/target_selection.md#unit-without-a-leader"
    assert "2 of its 4" in err.message
    # with q4 gone (out of play), 2 of 3 see it: more than half
    three = unit("squad", "blue", *SQUAD.models[:3])
    assert plan(field(three, NEAR, terrain=(wall(3, -1, 4, 0.5),)), "squad", target("near", "n1"))


def test_leaderless_unit_must_choose_closest_candidate() -> None:
    err = refused(field(SQUAD, NEAR, FAR), "squad", target("far", "f1"))
    assert err.rule == "core/target_selection.md#unit-without-a-leader"
    assert "'near'" in err.message and "'far'" in err.message
    assert plan(field(SQUAD, NEAR, FAR), "squad", target("near", "n1"))


def test_leaderless_tie_between_closest_candidates_is_the_attackers_choice() -> None:
    twin = unit("twin", "red", model("t1", 8, 6))  # 8" from q4, as "near" is from q1
    bf = field(SQUAD, NEAR, twin)
    assert plan(bf, "squad", target("near", "n1"))
    assert plan(bf, "squad", target("twin", "t1"))


def test_closest_rule_uses_distance_between_units_not_to_the_leader_or_centre() -> None:
    wide = unit("wide", "red", model("w1", 30, 0), model("w2", 7, 6))  # w2 is 6" from q4
    assert plan(field(SQUAD, NEAR, wide), "squad", target("wide", "w2"))
    assert refused(field(SQUAD, NEAR, wide), "squad", target("near", "n1")).rule.endswith(
        "#unit-without-a-leader"
    )


def test_closer_unit_not_seen_by_a_majority_is_not_a_candidate() -> None:
    hiding = (wall(4, -1, 5, 7),)  # hides "near" from every squad model, not "far" above it
    far_up = unit("far", "red", model("f1", 2, 20))  # 13" from q4
    assert plan(field(SQUAD, NEAR, far_up, terrain=hiding), "squad", target("far", "f1"))


def test_closer_unit_engaged_with_another_friendly_unit_is_not_a_candidate() -> None:
    friend = unit("friend", "blue", model("x1", 9.5, 0))  # within 1" of n1
    assert plan(
        field(SQUAD, NEAR, FAR, friend), "squad", target("far", "f1", models=("q1", "q2", "q3", "q4"))
    )


def test_closer_unit_no_weapon_could_fire_at_is_not_a_candidate() -> None:
    pistols = unit("squad", "blue", *(model(f"p{i}", 0, i, weapons=("mortar",)) for i in range(3)))
    close = unit("close", "red", model("c1", 3, 0))  # inside every mortar's minimum range
    assert plan(field(pistols, close, FAR), "squad", target("far", "f1"))


def test_unit_whose_leader_is_out_of_play_is_leaderless() -> None:
    no_leader = unit("led", "blue", *LED.models[1:])
    err = refused(field(no_leader, NEAR, FAR), "led", target("far", "f1"))
    assert err.rule == "core/target_selection.md#unit-without-a-leader"


def test_snap_fire_ignores_closest_rule() -> None:
    assert plan(field(SQUAD, NEAR, FAR), "squad", target("far", "f1"), command=Command.SNAP_FIRE)


def test_covering_fire_ignores_closest_rule() -> None:
    assert plan(field(SQUAD, NEAR, FAR), "squad", target("far", "f1"), command=Command.COVERING_FIRE)


def test_snap_fire_target_must_still_be_seen_by_more_than_half() -> None:
    err = refused(
        field(SQUAD, NEAR, terrain=(wall(3, -1, 4, 1.5),)),
        "squad",
        target("near", "n1"),
        command=Command.SNAP_FIRE,
    )
    assert err.rule == "core/target_selection.md#unit-without-a-leader"


def test_snap_fire_target_must_still_be_seen_by_the_leader() -> None:
    err = refused(
        field(LED, NEAR, terrain=(wall(3, -0.5, 4, 0.5),)),
        "led",
        target("near", "n1"),
        command=Command.SNAP_FIRE,
    )
    assert err.rule == "core/target_selection.md#unit-with-a-leader"


def test_leader_may_split_fire_by_model() -> None:
    plans = plan(field(LED, NEAR, FAR), "led", target("far", "f1", models=("s1",)), target("near", "n1"))
    assert plans == (
        TargetPlan("far", "f1", (("s1", "rifle"),)),
        TargetPlan("near", "n1", (("L", "rifle"), ("s2", "rifle"))),
    )


def test_split_by_leaderless_unit_is_refused() -> None:
    err = refused(field(SQUAD, NEAR, FAR), "squad", target("near", "n1", models=("q1",)), target("far", "f1"))
    assert err.rule == "core/target_selection.md#leaders-split-fire"
    assert "'near', 'far'" in err.message


def test_split_by_swarm_unit_is_refused_even_with_a_leader() -> None:
    swarm = unit("led", "blue", *LED.models, traits=frozenset({"swarm"}))
    err = refused(field(swarm, NEAR, FAR), "led", target("near", "n1", models=("L",)), target("far", "f1"))
    assert err.rule == "core/target_selection.md#swarm"


def test_swarm_unit_may_shoot_one_target() -> None:
    swarm = unit("led", "blue", *LED.models, traits=frozenset({"swarm"}))
    assert plan(field(swarm, NEAR, FAR), "led", target("far", "f1"))


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        (Command.ASSAULT, "commands/command_assault.md#assault"),
        (Command.COVERING_FIRE, "commands/command_covering_fire.md#covering-fire"),
        (Command.SNAP_FIRE, "commands/command_snap_fire.md#snap-fire"),
    ],
)
def test_command_without_split_target_refuses_a_second_target(command: Command, rule: str) -> None:
    armed = unit(
        "led", "blue", model("L", 0, leader=True, weapons=("pistol",)), model("s1", 0, 2, weapons=("pistol",))
    )
    err = refused(
        field(armed, NEAR, FAR),
        "led",
        target("near", "n1", models=("L",)),
        target("far", "f1"),
        command=command,
    )
    assert err.rule == rule
    assert rule.split("#")[0] in err.message


def test_mark_must_be_seen_by_the_leader() -> None:
    pair = unit("near", "red", model("n1", 8, 0), model("n2", 8, 3))
    bf = field(LED, pair, terrain=(wall(4, 1.5, 5, 4),))  # hides n2 from the leader
    err = refused(bf, "led", target("near", "n2"))
    assert err.rule == "core/target_selection.md#marked-model"
    assert "'n2'" in err.message
    assert plan(bf, "led", target("near", "n1"))


def test_leaderless_mark_must_be_seen_by_more_than_half() -> None:
    pair = unit("near", "red", model("n1", 8, 0), model("n2", 8, 6))
    bf = field(SQUAD, pair, terrain=(wall(4, 2.9, 5, 4.9),))  # hides n2 from q1 and q2 (2 of 4 see it)
    assert not majority_sees(SQUAD, pair.models[1], bf)
    err = refused(bf, "squad", target("near", "n2"))
    assert err.rule == "core/target_selection.md#marked-model"


def test_mark_must_be_in_range_of_a_weapon_declared_against_the_target() -> None:
    pair = unit("near", "red", model("n1", 8, 0), model("n2", 40, 0))
    err = refused(field(LED, pair), "led", target("near", "n2"))
    assert err.rule == "core/target_selection.md#marked-model"
    assert "not a valid model for any weapon that fires" in err.message


def test_mark_in_range_only_of_a_weapon_declared_at_another_target_is_refused() -> None:
    armed = unit("led", "blue", model("L", 0, leader=True, weapons=("rifle", "mortar")))
    pair = unit("far", "red", model("f1", 16, 0), model("f2", 40, 0))
    bf = field(armed, NEAR, pair)
    err = refused(
        bf,
        "led",
        target("far", "f2", weapons=(("L", "rifle"),)),
        target("near", "n1", weapons=(("L", "mortar"),)),
    )
    assert err.rule == "core/target_selection.md#marked-model"
    assert plan(
        bf,
        "led",
        target("far", "f2", weapons=(("L", "mortar"),)),
        target("near", "n1", weapons=(("L", "rifle"),)),
    )


def test_mark_range_is_measured_from_a_model_that_declared_the_weapon() -> None:
    armed = unit(
        "led",
        "blue",
        model("L", 0, leader=True, weapons=("pistol",)),
        model("s1", 10, 10, weapons=("rifle",)),
    )
    pair = unit("near", "red", model("n1", 8, 0), model("n2", 30, 10))  # n2: 19" from s1, 29.5" from L
    assert plan(field(armed, pair), "led", target("near", "n2"))
    err = refused(field(armed, pair), "led", target("near", "n2", models=("L",)))
    assert err.rule == "core/target_selection.md#marked-model"


def test_r1_mark_within_minimum_range_of_the_only_weapon_is_refused() -> None:
    armed = unit("led", "blue", model("L", 0, leader=True, weapons=("mortar",)))
    pair = unit("near", "red", model("n1", 4, 0), model("n2", 20, 0))
    err = refused(field(armed, pair), "led", target("near", "n1"))
    assert err.rule == "core/target_selection.md#marked-model"
    assert plan(field(armed, pair), "led", target("near", "n2"))


def test_r1_mark_in_range_only_of_a_weapon_that_holds_fire_is_refused() -> None:
    armed = unit(
        "led",
        "blue",
        model("L", 0, leader=True, weapons=("pistol",)),
        model("h", 0, 2, weapons=("mortar",), holds_fire=True),
    )
    pair = unit("near", "red", model("n1", 8, 0), model("n2", 30, 2))
    assert (
        refused(field(armed, pair), "led", target("near", "n2")).rule
        == "core/target_selection.md#marked-model"
    )
    assert plan(field(armed, pair), "led", target("near", "n1"))


def test_r1_mark_in_range_only_of_an_abandoned_models_weapon_is_refused() -> None:
    armed = unit(
        "led",
        "blue",
        model("L", 0, leader=True, weapons=("pistol",)),
        model("h", 0, 2, weapons=("mortar",), status=frozenset({ModelStatus.ABANDONED})),
    )
    pair = unit("near", "red", model("n1", 8, 0), model("n2", 30, 2))
    assert (
        refused(field(armed, pair), "led", target("near", "n2")).rule
        == "core/target_selection.md#marked-model"
    )


def test_r1_mark_in_range_only_of_a_heavy_weapon_in_an_advance_is_refused() -> None:
    armed = unit("led", "blue", model("L", 0, leader=True, weapons=("pistol", "cannon")))
    pair = unit("near", "red", model("n1", 8, 0), model("n2", 30, 0))
    bf = field(armed, pair)
    assert plan(bf, "led", target("near", "n2"))  # a Shoot: the cannon fires and reaches n2
    err = refused(bf, "led", target("near", "n2"), command=Command.ADVANCE)
    assert err.rule == "core/target_selection.md#marked-model"


def test_r1_mark_must_be_seen_by_a_model_that_fires_the_weapon() -> None:
    # The leader sees n2; the only model whose rifle reaches it (s) is walled off from it.
    armed = unit(
        "led", "blue", model("L", 0, leader=True, weapons=("pistol",)), model("s", 20, 10, weapons=("rifle",))
    )
    pair = unit("near", "red", model("n1", 8, 0), model("n2", 30, 0))
    bf = field(armed, pair, terrain=(wall(24, 3, 25, 8),))
    err = refused(bf, "led", target("near", "n2"))
    assert err.rule == "core/target_selection.md#marked-model"
    assert plan(field(armed, pair), "led", target("near", "n2"))  # without the wall, s sees it


def test_r6_closer_unit_none_of_whose_models_could_be_marked_does_not_stop_a_farther_target() -> None:
    # "close": c1 is 8" away but hidden from every model; c2 is seen but 30" away, out of rifle range.
    # The rifles would fire at "close" (range to a unit is to its closest model, seen or not), yet no
    # model of it could be marked, so it is no candidate and the farther "far" is the closest one.
    close = unit("close", "red", model("c1", 8, 0), model("c2", 0, 40))
    far = unit("far", "red", model("f1", -16, 0))
    bf = field(SQUAD, close, far, terrain=(wall(5, -1, 6, 7),))
    assert plan(bf, "squad", target("far", "f1"))
    err = refused(bf, "squad", target("close", "c2"))
    assert err.rule == "core/target_selection.md#marked-model"


def test_r6_candidate_test_ignores_holding_fire() -> None:
    # Holding fire is a choice made in the declaration: it never turns a closer unit into a non-candidate.
    held = unit("squad", "blue", model("q1", 0, 0, holds_fire=True), model("q2", 0, 2, weapons=("mortar",)))
    close = unit("close", "red", model("c1", 3, 0))  # only q1's rifle could fire at it (mortar: min 6)
    far = unit("far", "red", model("f1", 16, 0))
    err = refused(field(held, close, far), "squad", target("far", "f1"))
    assert err.rule == "core/target_selection.md#unit-without-a-leader"


def test_r6_closer_unit_whose_every_model_is_seen_by_only_half_is_no_candidate() -> None:
    # A low wall along y = 3: q1 and q2 see only c1, q3 and q4 see only c2. The whole squad sees the unit,
    # but no single model of it is seen by more than half, so none could be marked (Marked Model).
    close = unit("close", "red", model("c1", 8, 1), model("c2", 8, 5))
    far = unit("far", "red", model("f1", -16, 3))
    bf = field(SQUAD, close, far, terrain=(wall(1, 2.9, 7, 3.1),))
    assert majority_sees(SQUAD, close, bf)
    assert plan(bf, "squad", target("far", "f1"))
    assert refused(bf, "squad", target("close", "c1")).rule == "core/target_selection.md#marked-model"


def test_unit_without_a_leader_candidate_test_counts_a_weapon_left_out_of_the_list() -> None:
    # Leaving q1 out of the list is part of the declaration, like holding fire: its rifle still makes the
    # close unit (3" away, inside the mortar's minimum range) a candidate, so "far" may not be declared.
    armed = unit("squad", "blue", model("q1", 0, 0), model("q2", 0, 2, weapons=("mortar",)))
    close = unit("close", "red", model("c1", 3, 0))
    far = unit("far", "red", model("f1", 16, 0))
    err = refused(field(armed, close, far), "squad", target("far", "f1", models=("q2",)))
    assert err.rule == "core/target_selection.md#unit-without-a-leader"


def test_unit_without_a_leader_assault_candidates_ignore_the_named_target_but_keep_the_weapon_limit() -> None:
    # In an Assault only Assault weapons count for candidates, but the Assault's limit to the assaulted unit
    # does not: "near" (pistol range) is a candidate, so the Assault at "far" goes ahead without shooting.
    pistols = unit("squad", "blue", *(model(m.id, *m.at, weapons=("pistol",)) for m in SQUAD.models))
    far = unit("far", "red", model("f1", 10, 0))
    near_pistol = unit("near", "red", model("n1", 8, 0))
    (stopped,) = plan(field(pistols, near_pistol, far), "squad", target("far", "f1"), command=Command.ASSAULT)
    assert stopped.stopped is not None
    assert stopped.stopped.rule == "core/target_selection.md#unit-without-a-leader"
    # A closer unit that only the rifles could fire at is no candidate in an Assault: q4's pistol cannot see
    # it (a wall), so the Assault shoots "far" with the pistol alone.
    mixed = unit("squad", "blue", *SQUAD.models[:3], model("q4", 0, 6, weapons=("pistol",)))
    hidden = unit("near", "red", model("n1", -6, 0))
    bf = field(mixed, hidden, far, terrain=(wall(-2, 4.5, -0.7, 6),))
    (shooting,) = plan(bf, "squad", target("far", "f1"), command=Command.ASSAULT)
    assert shooting.stopped is None
    # Under Shoot every weapon counts: the rifles make "near" a candidate and "far" may not be declared.
    assert refused(bf, "squad", target("far", "f1")).rule == "core/target_selection.md#unit-without-a-leader"
