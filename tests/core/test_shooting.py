"""Tests of core/shooting.md: target legality, the declared weapons of each target, and which weapons fire."""

from __future__ import annotations

import pytest

from rulespy.commands import rules_for
from rulespy.core.shooting import (
    FiringWeapon,
    TargetPlan,
    can_target,
    check_target_legality,
    firing_weapons,
    why_not_firing,
)
from rulespy.errors import IllegalDeclaration, InvalidInput
from rulespy.play import play
from rulespy.state import (
    Battlefield,
    Command,
    ModelStatus,
    TargetDeclaration,
    Terrain,
    TerrainKind,
    UnitStatus,
)

from .declarations import WEAPONS, field, model, plan, refused, target, unit

SHOOT = rules_for(Command.SHOOT)


def fired(bf: Battlefield, shooter: str, tgt: str, command: Command = Command.SHOOT) -> list[tuple[str, str]]:
    """Which (model, weapon) of all of ``shooter``'s weapons fire at ``tgt``, without the legality checks."""
    unit_, rules = bf.unit(shooter), rules_for(command)
    pairs = tuple((m.id, w) for m in unit_.models for w in m.weapons)
    holds = tuple(
        why_not_firing(bf, unit_.model(m), bf.weapon(w), bf.unit(tgt), unit_.side, rules) for m, w in pairs
    )
    return [
        (f.model.id, f.weapon.name)
        for f in firing_weapons(bf, shooter, TargetPlan(tgt, "", pairs, holds=holds), rules)
    ]


ARMED = unit(
    "blue",
    "blue",
    model("L", 0, leader=True, weapons=("rifle", "pistol")),
    model("h", 0, 2, weapons=("cannon", "rifle")),
    model("m", 0, -2, weapons=("mortar",)),
)
FOE = unit("foe", "red", model("e1", 10, 0), model("e2", 10, 3))


# --- which weapons fire (core/shooting.md#which-weapons-fire) ---


def test_every_weapon_in_range_and_sight_fires_in_dice_order() -> None:
    assert fired(field(ARMED, FOE), "blue", "foe") == [
        ("L", "rifle"),
        ("L", "pistol"),
        ("h", "cannon"),
        ("h", "rifle"),
        ("m", "mortar"),
    ]


def test_weapon_out_of_range_does_not_fire() -> None:
    far = unit("foe", "red", model("e1", 20, 0))
    assert ("L", "pistol") not in fired(field(ARMED, far), "blue", "foe")
    assert ("L", "rifle") in fired(field(ARMED, far), "blue", "foe")


def test_range_equal_to_weapon_range_fires() -> None:
    edge = unit("foe", "red", model("e1", 13, 0))  # 12" between bases
    assert ("L", "pistol") in fired(field(ARMED, edge), "blue", "foe")


def test_range_to_target_is_to_its_closest_model_even_unseen() -> None:
    # e1 (9" away) hides behind a wall; e2, which L sees, is 30" away: the rifle still fires
    shooter = unit("blue", "blue", model("L", 0, leader=True))
    foe = unit("foe", "red", model("e1", 10, 0), model("e2", 0, 31))
    bf = field(shooter, foe, terrain=(Terrain(TerrainKind.BLOCKING, ((4, -1), (5, -1), (5, 1), (4, 1))),))
    assert fired(bf, "blue", "foe") == [("L", "rifle")]


def test_model_that_sees_no_model_of_the_target_does_not_fire() -> None:
    wall = Terrain(TerrainKind.BLOCKING, ((4, 1), (5, 1), (5, 10), (4, 10)))  # hides FOE from h only
    result = fired(field(ARMED, FOE, terrain=(wall,)), "blue", "foe")
    assert "h" not in {mid for mid, _ in result} and ("L", "rifle") in result


def test_fire_arc_decides_which_models_fire() -> None:
    turned = unit("blue", "blue", model("L", 0, leader=True), model("r", 0, 2, facing=180, arc=90))
    assert fired(field(turned, FOE), "blue", "foe") == [("L", "rifle")]


def test_minimum_range_needs_a_model_beyond_n() -> None:
    close = unit("foe", "red", model("e1", 5, -2))  # 4" from m: inside the mortar's 6"
    assert ("m", "mortar") not in fired(field(ARMED, close), "blue", "foe")
    pair = unit("foe", "red", model("e1", 5, -2), model("e2", 20, -2))
    assert ("m", "mortar") in fired(field(ARMED, pair), "blue", "foe")


def test_minimum_range_model_exactly_n_away_is_not_beyond() -> None:
    exact = unit("foe", "red", model("e1", 7, -2))  # exactly 6" from m
    assert ("m", "mortar") not in fired(field(ARMED, exact), "blue", "foe")
    assert ("m", "mortar") in fired(field(ARMED, unit("foe", "red", model("e1", 7.01, -2))), "blue", "foe")


def test_engaged_model_fires_only_assault_weapons() -> None:
    foe = unit("foe", "red", model("e1", 2, 0))  # 1" from L, 1.83" from h and m
    result = fired(field(ARMED, foe), "blue", "foe")
    assert ("L", "pistol") in result and ("L", "rifle") not in result
    assert ("h", "rifle") in result  # h is not within 1" of an enemy model
    reason = why_not_firing(field(ARMED, foe), ARMED.models[0], WEAPONS[0], foe, "blue", SHOOT)
    assert reason is not None and reason.rule == "core/shooting.md#engagement-restriction"


def test_engagement_restriction_counts_any_enemy_model_not_only_the_target() -> None:
    other = unit("other", "red", model("o1", -2, 0))  # within 1" of L
    result = fired(field(ARMED, FOE, other), "blue", "foe")
    assert ("L", "rifle") not in result and ("h", "rifle") in result


def test_advance_heavy_weapon_does_not_fire() -> None:
    result = fired(field(ARMED, FOE), "blue", "foe", Command.ADVANCE)
    assert ("h", "cannon") not in result and ("h", "rifle") in result


def test_assault_fires_only_assault_weapons() -> None:
    assert fired(field(ARMED, FOE), "blue", "foe", Command.ASSAULT) == [("L", "pistol")]


def test_abandoned_model_does_not_fire() -> None:
    crew = unit("blue", "blue", model("L", 0, leader=True, status=frozenset({ModelStatus.ABANDONED})))
    assert fired(field(crew, FOE), "blue", "foe") == []
    assert why_not_firing(field(crew, FOE), crew.models[0], WEAPONS[0], FOE, "blue", SHOOT).rule == (  # type: ignore[union-attr]
        "core/statuses.md#abandoned"
    )


def test_pinned_and_immobilised_models_still_fire() -> None:
    status = frozenset({ModelStatus.PINNED, ModelStatus.IMMOBILISED})
    crew = unit("blue", "blue", model("L", 0, leader=True, status=status))
    assert fired(field(crew, FOE), "blue", "foe") == [("L", "rifle")]


def test_model_holding_fire_does_not_fire() -> None:
    crew = unit("blue", "blue", model("L", 0, leader=True), model("q", 0, 2, holds_fire=True))
    assert fired(field(crew, FOE), "blue", "foe") == [("L", "rifle")]


def test_firing_weapons_returns_the_models_profiles_and_dice() -> None:
    bf = field(ARMED, FOE)
    plans = plan(bf, "blue", target("foe", "e1", weapons=(("L", "rifle"),)))
    rifle = WEAPONS[0]
    expected = (FiringWeapon(ARMED.models[0], rifle, rifle.dice_at(len(FOE.models))),)
    assert firing_weapons(bf, "blue", plans[0], SHOOT) == expected
    assert expected[0].dice == rifle.dice  # no trait of the rifle adds dice


# --- declaring the weapons of each target ---


def test_target_without_a_list_takes_every_weapon_in_dice_order() -> None:
    assert plan(field(ARMED, FOE), "blue", target("foe", "e1"))[0].weapons == (
        ("L", "rifle"),
        ("L", "pistol"),
        ("h", "cannon"),
        ("h", "rifle"),
        ("m", "mortar"),
    )


def test_declared_weapons_are_put_in_dice_order() -> None:
    decl = target("foe", "e1", weapons=(("m", "mortar"), ("h", "rifle"), ("L", "pistol"), ("h", "cannon")))
    assert plan(field(ARMED, FOE), "blue", decl)[0].weapons == (
        ("L", "pistol"),
        ("h", "cannon"),
        ("h", "rifle"),
        ("m", "mortar"),
    )


def test_split_by_weapon_leaves_the_rest_to_the_undeclared_target() -> None:
    other = unit("other", "red", model("o1", 10, -8))
    plans = plan(
        field(ARMED, FOE, other),
        "blue",
        target("other", "o1"),
        target("foe", "e1", weapons=(("h", "cannon"),)),
    )
    assert [p.unit for p in plans] == ["other", "foe"]  # declared order
    assert plans[0].weapons == (("L", "rifle"), ("L", "pistol"), ("h", "rifle"), ("m", "mortar"))
    assert plans[1].weapons == (("h", "cannon"),)


def test_models_and_weapons_together_declare_their_union() -> None:
    decl = target("foe", "e1", models=("m",), weapons=(("L", "rifle"),))
    assert plan(field(ARMED, FOE), "blue", decl)[0].weapons == (("L", "rifle"), ("m", "mortar"))


# --- Split Target: a weapon declared against no target does not fire (core/shooting.md#split-target) ---


def test_split_target_weapon_declared_against_no_target_does_not_fire() -> None:
    other = unit("other", "red", model("o1", 10, -8))
    plans = plan(
        field(ARMED, FOE, other),
        "blue",
        target("foe", "e1", models=("L",)),
        target("other", "o1", weapons=(("h", "rifle"),)),
    )
    declared = {pair for p in plans for pair in p.weapons}
    assert ("h", "cannon") not in declared and ("m", "mortar") not in declared


def test_split_target_lone_target_list_leaves_the_other_weapons_out() -> None:
    (only,) = plan(field(ARMED, FOE), "blue", target("foe", "e1", weapons=(("h", "cannon"),)))
    assert only.weapons == (("h", "cannon"),)


def test_split_target_undeclared_weapon_never_makes_a_mark_legal() -> None:
    # e2 stands 40" off: only the mortar (range 48) reaches it, and the mortar is declared nowhere.
    foe = unit("foe", "red", model("e1", 10, 0), model("e2", 40, 0))
    err = refused(field(ARMED, foe), "blue", target("foe", "e2", models=("L",)))
    assert err.rule == "core/target_selection.md#marked-model"
    assert plan(field(ARMED, foe), "blue", target("foe", "e2", models=("m",)))


def test_split_target_undeclared_weapon_plays_like_held_fire() -> None:
    scenario = """
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, weapons: [rifle]}
      - {id: s2, at: [0, 2], weapons: [rifle]HELD}
  - id: raiders
    side: red
    models: [{id: x1, at: [10, 0]}, {id: x2, at: [10, 2]}]
attack: {unit: squad, command: shoot, targets: [{unit: raiders, mark: x1LIST}]}
dice: [4]
"""
    held = play(scenario.replace("HELD", ", holds_fire: true").replace("LIST", ""))
    left_out = play(scenario.replace("HELD", "").replace("LIST", ", models: [s1]"))
    for result in (held, left_out):
        assert [lock.roll.model for lock in result.attacks[0].targets[0].locks] == ["s1"]
        assert result.removed == {"x1": "end_of_attack"}


def test_split_target_two_targets_without_a_list_name_the_rule() -> None:
    other = unit("other", "red", model("o1", 10, -8))
    with pytest.raises(InvalidInput, match="core/shooting.md#split-target"):
        plan(field(ARMED, FOE, other), "blue", target("foe", "e1"), target("other", "o1"))


@pytest.mark.parametrize(
    ("targets", "words"),
    [
        ((target("ghost", "e1"),), "unknown unit 'ghost'"),
        ((target("foe", "nobody"),), "'nobody' is not a model of 'foe'"),
        ((target("foe", "e1", models=("x",)),), "model 'x' is not in the shooting unit"),
        ((target("foe", "e1", weapons=(("L", "cannon"),)),), "does not carry the weapon 'cannon'"),
        (
            (
                target("foe", "e1", weapons=(("L", "rifle"),)),
                target("other", "o1", weapons=(("L", "rifle"),)),
            ),
            "declared at both",
        ),
        ((target("foe", "e1"), target("other", "o1")), "only one target may leave"),
        ((target("foe", "e1", models=("L",)), target("foe", "e2")), "more than once"),
        ((), "declares no target"),
    ],
)
def test_malformed_declarations_are_invalid_input(targets: tuple[TargetDeclaration, ...], words: str) -> None:
    other = unit("other", "red", model("o1", 10, -8))
    with pytest.raises(InvalidInput) as err:
        plan(field(ARMED, FOE, other), "blue", *targets)
    assert words in err.value.message


# --- target legality ---


@pytest.mark.parametrize(
    ("status", "anchor"), [(UnitStatus.SHAKEN, "shaken"), (UnitStatus.FLEEING, "fleeing")]
)
def test_shaken_or_fleeing_unit_cannot_declare_an_attack(status: UnitStatus, anchor: str) -> None:
    shaken = unit("blue", "blue", *ARMED.models, status=frozenset({status}))
    assert refused(field(shaken, FOE), "blue", target("foe", "e1")).rule == f"core/statuses.md#{anchor}"


def test_friendly_target_is_illegal() -> None:
    friend = unit("friend", "blue", model("f1", 10, 0))
    err = refused(field(ARMED, friend), "blue", target("friend", "f1"))
    assert err.rule == "core/shooting.md#target-legality"
    assert "'friend'" in err.message and "core/shooting.md" in err.message


def test_target_engaged_with_another_friendly_unit_is_illegal() -> None:
    friend = unit("friend", "blue", model("f1", 11.5, 0))  # 0.5" from e1
    err = refused(field(ARMED, FOE, friend), "blue", target("foe", "e1"))
    assert err.rule == "core/shooting.md#target-legality"
    assert "'friend'" in err.message


def test_target_engaged_with_the_shooting_unit_itself_is_legal() -> None:
    foe = unit("foe", "red", model("e1", 2, 0))
    assert plan(field(ARMED, foe), "blue", target("foe", "e1"))


def test_target_no_declared_weapon_would_fire_at_is_illegal() -> None:
    err = refused(
        field(ARMED, FOE), "blue", target("foe", "e1", weapons=(("h", "cannon"),)), command=Command.ADVANCE
    )
    assert err.rule == "core/shooting.md#which-weapons-fire"
    assert "'cannon'" in err.message and "Heavy" in err.message


def test_r3_assault_without_assault_weapons_in_range_assaults_without_shooting() -> None:
    far = unit("foe", "red", model("e1", 20, 0))
    (only,) = plan(field(ARMED, far), "blue", target("foe", "e1"), command=Command.ASSAULT)
    assert only.weapons == ()
    assert only.stopped is not None and only.stopped.rule == "core/shooting.md#which-weapons-fire"


def test_undeclared_target_left_with_no_weapon_is_illegal() -> None:
    other = unit("other", "red", model("o1", 10, -8))
    err = refused(
        field(ARMED, FOE, other), "blue", target("foe", "e1", models=("L", "h", "m")), target("other", "o1")
    )
    assert err.rule == "core/shooting.md#which-weapons-fire"
    assert "no weapon is declared" in err.message


def test_out_of_range_target_is_illegal() -> None:
    far = unit("foe", "red", model("e1", 60, 0))
    assert (
        refused(field(ARMED, far), "blue", target("foe", "e1")).rule == "core/shooting.md#which-weapons-fire"
    )


def test_second_target_illegal_refuses_the_whole_attack() -> None:
    friend = unit("friend", "blue", model("f1", 10, -8))
    err = refused(
        field(ARMED, FOE, friend), "blue", target("foe", "e1", models=("L",)), target("friend", "f1")
    )
    assert err.rule == "core/shooting.md#target-legality"


def test_target_legality_can_target_answers_what_check_target_legality_refuses() -> None:
    friend = unit("friend", "blue", model("f1", 11.5, 0))  # Engaged with e1
    alone = unit("alone", "red", model("a1", 30, 0))
    bf = field(ARMED, FOE, friend, alone)
    assert [can_target(bf, ARMED, u) for u in (alone, FOE, friend)] == [True, False, False]
    check_target_legality(bf, ARMED, alone)
    for illegal in (FOE, friend):
        with pytest.raises(IllegalDeclaration) as refusal:
            check_target_legality(bf, ARMED, illegal)
        assert refusal.value.rule == "core/shooting.md#target-legality"


# --- ruling R2: which weapons fire is settled at declaration; every die is rolled before any target ---

SETTLED = """
weapons:
  carbine: {range: 12, dice: 1, lock: 4, damage: 1, traits: [assault]}
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, weapons: [carbine, rifle]}
      - {id: s2, at: [0, 3], weapons: [rifle]}
  - id: raiders
    side: red
    models: [{id: x1, at: [1.5, 0]}]
  - id: walker
    side: red
    models: [{id: w1, at: [12, 2], wounds: 3}]
attack:
  unit: squad
  command: shoot
  targets:
    - {unit: raiders, mark: x1, weapons: [s1/carbine]}
    - {unit: walker, mark: w1, weapons: [s1/rifle, s2/rifle]}
"""


def test_r2_critical_removing_the_only_enemy_within_1_inch_does_not_free_a_weapon_at_a_later_target() -> None:
    result = play(SETTLED + "dice: [3, 4, 6, 4]\n")
    raiders, walker = result.attacks[0].targets
    assert result.removed == {"x1": "immediate"}
    assert [(r.roll.model, r.roll.weapon) for r in walker.locks] == [("s2", "rifle")]


def test_r2_every_target_lock_die_is_rolled_before_any_target_is_resolved() -> None:
    result = play(SETTLED + "dice: [3, 4, 6, 4]\n")
    anchors = [
        e.rule.split("#")[1] for e in result.trace if e.rule.startswith("sequences/shooting_sequence.md")
    ]
    rolls = [i for i, a in enumerate(anchors) if a == "step-target-lock"]
    rounds = [i for i, a in enumerate(anchors) if a in ("step-critical-round", "step-normal-round")]
    assert len(rolls) == 2 and rounds and max(rolls) < min(rounds)


def test_r2_firefight_reply_fires_the_weapons_settled_at_declaration_less_removed_models() -> None:
    duel = """
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - id: blue
    side: blue
    models: [{id: b1, at: [0, 0], leader: true, weapons: [rifle]}]
  - id: red
    side: red
    models:
      - {id: r1, at: [10, 0], leader: true, weapons: [rifle]}
      - {id: r2, at: [10, 2], weapons: [rifle], holds_fire: true}
      - {id: r3, at: [10, 4], weapons: [rifle]}
attack: {unit: blue, command: shoot, targets: [{unit: red, mark: r3}]}
response: {command: snap_fire, mark: b1}
dice: [6, 2]
"""
    result = play(duel)
    reply = result.attacks[1].targets[0]
    assert [r.roll.model for r in reply.locks] == ["r1"]  # r2 holds fire, r3 removed at once
    assert result.removed == {"r3": "immediate"}
