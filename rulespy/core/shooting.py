"""The shooting attack's declaration: which targets are legal, and which declared weapons fire.

Rule: core/shooting.md#shooting-attack

``plan_attack`` checks a whole declaration before any die is rolled (core/shooting.md#target-legality,
core/target_selection.md) and returns one ``TargetPlan`` per target; ``firing_weapons`` applies the
per-weapon checks of core/shooting.md#which-weapons-fire. Which weapons fire at every target is settled on
the battlefield as declared: the sequence applies ``firing_weapons`` to that battlefield and only leaves
out models that left play before their unit rolled.
"""

from __future__ import annotations

from dataclasses import field, replace

from rulespy.core.command_rules import CommandRules
from rulespy.core.line_of_sight import sees_unit
from rulespy.core.measuring import farther_than, unit_within_range
from rulespy.core.ranged_weapons import Weapon
from rulespy.core.statuses import check_may_shoot, engaged, engaged_with_enemy, is_abandoned
from rulespy.core.target_selection import (
    check_closest,
    check_mark,
    check_split,
    check_target_seen,
    mark_is_legal,
    models_seeing,
)
from rulespy.errors import IllegalDeclaration, InvalidInput
from rulespy.frozen import frozen
from rulespy.i18n import _, decimal
from rulespy.state import AttackDeclaration, Battlefield, Model, TargetDeclaration, Unit

OWNER = "core/shooting.md"
Pair = tuple[str, str]


@frozen
class FiringWeapon:
    """One weapon of one model firing at one target: a firing group of ``dice`` dice
    (``weapon.dice_at`` the target's models)."""

    model: Model
    weapon: Weapon
    dice: int

    def __hash__(self) -> int:
        # Every state of the Shooting Sequence holds these and the odds engine hashes states very often:
        # hash the model, profile and dice once (the value is the dataclass's own field hash).
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.model, self.weapon, self.dice))
            object.__setattr__(self, "_hash", cached)
        return cached


@frozen
class Holds:
    """Why a declared weapon does not fire: the rule (``PATH#ANCHOR``), a sentence naming the model, weapon
    and target (refusals quote it), and the condition alone (``reason``, empty when ``text`` is all)."""

    rule: str
    text: str
    reason: str = ""


@frozen
class TargetPlan:
    """A checked declaration for one target; ``weapons`` are (model id, weapon name) in Dice Order.

    ``stopped`` is set (and ``weapons`` empty) when an Assault may not shoot at the unit it assaults: the
    rule that stops the shooting and why (commands/command_assault.md#assault). The Assault is still legal;
    nothing is rolled.

    ``holds`` is, for each of ``weapons``, why it does not fire (None: it fires), as ``plan_attack``
    checked it on the battlefield as declared; ``firing_weapons`` reads it and never checks again (None
    only in a plan written by hand, which it refuses). It follows from the other fields and that
    battlefield, so it takes no part in comparing plans.
    """

    unit: str
    mark: str
    weapons: tuple[Pair, ...]
    stopped: Holds | None = None
    holds: tuple[Holds | None, ...] | None = field(default=None, compare=False)


def why_not_firing(
    bf: Battlefield, model: Model, weapon: Weapon, target: Unit, side: str, rules: CommandRules
) -> Holds | None:
    """``None`` if the weapon fires at ``target``; otherwise the first condition of section 5 it fails.

    Rule: core/ranged_weapons.md#assault-trait
    Rule: core/ranged_weapons.md#heavy
    Rule: core/ranged_weapons.md#minimum-range
    Rule: core/shooting.md#which-weapons-fire

    The model is assumed in play (the battlefield holds only models in play). Boundaries: a range equal
    to the weapon's range is in range; with Minimum Range N a model exactly N away is not farther than N.
    """

    def held(rule: str, reason: str) -> Holds:
        text = _(
            "{model!r} does not fire {weapon!r} at {target!r}: {reason}",
            model=model.id,
            weapon=weapon.name,
            target=target.id,
            reason=reason,
        )
        return Holds(rule, text, reason)

    if is_abandoned(model):
        return held("core/statuses.md#abandoned", _("it is Abandoned"))
    if model.holds_fire:
        return held(f"{OWNER}#which-weapons-fire", _("it holds fire"))
    if not sees_unit(model, target, bf.terrain):
        return held("core/line_of_sight.md#line-of-sight", _("it sees no model of that unit"))
    if not unit_within_range(model, target, weapon.range):
        return held(
            f"{OWNER}#which-weapons-fire",
            _('the unit is out of its range of {range}"', range=decimal(weapon.range)),
        )
    n = weapon.minimum_range
    if n is not None and not any(farther_than(model, other, n) for other in target.models):
        return held(
            "core/ranged_weapons.md#minimum-range",
            _('no model of that unit is farther than {inches}"', inches=decimal(n)),
        )
    if not weapon.assault and engaged_with_enemy(model, bf, side):
        return held(
            f"{OWNER}#engagement-restriction",
            _('it is within 1" of an enemy model and only Assault weapons fire'),
        )
    if weapon.heavy and not rules.heavy_weapons_fire:
        return held(rules.rule, _("Heavy weapons do not fire in {command}", command=_(rules.command.value)))
    if not weapon.assault and rules.assault_weapons_only:
        return held(rules.rule, _("only Assault weapons fire in {command}", command=_(rules.command.value)))
    return None


def firing_weapons(
    bf: Battlefield, shooter: str, plan: TargetPlan, rules: CommandRules
) -> tuple[FiringWeapon, ...]:
    """Of ``plan.weapons``, those that fire at the target on ``bf``, in Dice Order.

    Rule: core/shooting.md#which-weapons-fire

    Called with the battlefield as declared: the checks are made once, for the whole declaration, and never
    again when the dice are rolled (core/shooting.md#which-weapons-fire), so the plan, which only
    ``plan_attack`` makes, brings the answers it worked out there (``plan.holds``), and every model it
    names is on ``bf``. (The sequence leaves out the models that left play since.)
    """
    unit = bf.unit(shooter)
    target = bf.unit(plan.unit)
    checked = plan.holds
    assert checked is not None, "plan_attack checks every declared weapon"
    fired = []
    for holds, (model_id, name) in zip(checked, plan.weapons, strict=True):
        if holds is None:
            weapon = bf.weapon(name)
            fired.append(FiringWeapon(unit.model(model_id), weapon, weapon.dice_at(len(target.models))))
    return tuple(fired)


def _dice_order(unit: Unit, pairs: set[Pair]) -> tuple[Pair, ...]:
    """Models in unit order, each model's weapons in its listed order."""
    return tuple((m.id, w) for m in unit.models for w in m.weapons if (m.id, w) in pairs)


def declared_weapons(shooter: Unit, targets: tuple[TargetDeclaration, ...]) -> tuple[tuple[Pair, ...], ...]:
    """Each target's declared (model, weapon) pairs, in Dice Order.

    Rule: core/shooting.md#split-target

    A target lists ``weapons`` pairs, or ``models`` (all of their weapons), or both (their union); a target
    with neither takes every weapon of the unit not declared at another target. A weapon in no target's
    pairs is declared against no target and does not fire, as if its model held fire; so is a weapon left
    out of a lone target's list. Structural faults (an unknown model or weapon, a weapon declared twice, two
    targets without a list) are ``InvalidInput``.
    """
    claimed: dict[Pair, str] = {}
    chosen: list[set[Pair] | None] = []
    seen_targets: set[str] = set()
    for decl in targets:
        if decl.unit in seen_targets:
            raise InvalidInput(
                f"unit {decl.unit!r} is declared as a target more than once: each target of a split is a "
                f"different unit (Split Target, {OWNER}#split-target)"
            )
        seen_targets.add(decl.unit)
        if decl.models is None and decl.weapons is None:
            if any(c is None for c in chosen):
                raise InvalidInput(
                    "only one target may leave its models and weapons undeclared (Split Target, "
                    f"{OWNER}#split-target)"
                )
            chosen.append(None)
            continue
        pairs: list[Pair] = list(decl.weapons or ())
        for model_id in decl.models or ():
            if not shooter.has(model_id):
                raise InvalidInput(f"model {model_id!r} is not in the shooting unit {shooter.id!r}")
            pairs.extend((model_id, w) for w in shooter.model(model_id).weapons)
        for model_id, name in pairs:
            if not shooter.has(model_id):
                raise InvalidInput(f"model {model_id!r} is not in the shooting unit {shooter.id!r}")
            if name not in shooter.model(model_id).weapons:
                raise InvalidInput(f"model {model_id!r} does not carry the weapon {name!r}")
            owner = claimed.setdefault((model_id, name), decl.unit)
            if owner != decl.unit:
                raise InvalidInput(
                    f"weapon {model_id}/{name} is declared at both {owner!r} and {decl.unit!r}: each weapon "
                    f"fires at one target only (Split Target, {OWNER}#split-target)"
                )
        chosen.append(set(pairs))
    everything = {(m.id, w) for m in shooter.models for w in m.weapons}
    rest = everything - set(claimed)
    return tuple(_dice_order(shooter, rest if c is None else c) for c in chosen)


def target_legality_refusal(bf: Battlefield, shooter: Unit, target: Unit) -> IllegalDeclaration | None:
    """Why ``target`` is no legal target of ``shooter``, or ``None``: a target must be an enemy unit that
    is not Engaged with a unit friendly to the shooter (other than the shooter itself).

    Rule: core/shooting.md#target-legality
    """
    refusal = _enemy_refusal(shooter, target)
    if refusal is not None:
        return refusal
    for friend in bf.units:
        if friend.side == shooter.side and friend.id != shooter.id and engaged(target, friend):
            return IllegalDeclaration(
                f"{OWNER}#target-legality",
                _(
                    "unit {unit!r} cannot target {target!r}: it is Engaged with the friendly unit {friend!r} "
                    "(Target Legality, {owner})",
                    unit=shooter.id,
                    target=target.id,
                    friend=friend.id,
                    owner=OWNER,
                ),
            )
    return None


def can_target(bf: Battlefield, shooter: Unit, target: Unit) -> bool:
    """Whether ``target`` is an enemy unit not Engaged with a unit friendly to ``shooter``
    (``check_target_legality`` is the refusal).

    Rule: core/shooting.md#target-legality
    """
    return target_legality_refusal(bf, shooter, target) is None


def check_target_legality(bf: Battlefield, shooter: Unit, target: Unit) -> None:
    """Refuse a target that ``can_target`` rejects, saying why.

    Rule: core/shooting.md#target-legality
    """
    refusal = target_legality_refusal(bf, shooter, target)
    if refusal is not None:
        raise refusal


def check_enemy(shooter: Unit, target: Unit) -> None:
    """Only an enemy unit may be targeted (or assaulted).

    Rule: core/shooting.md#target-legality
    """
    refusal = _enemy_refusal(shooter, target)
    if refusal is not None:
        raise refusal


def _enemy_refusal(shooter: Unit, target: Unit) -> IllegalDeclaration | None:
    if target.side == shooter.side:
        return IllegalDeclaration(
            f"{OWNER}#target-legality",
            _(
                "unit {unit!r} cannot target {target!r}: it is a friendly unit, and only enemy units are "
                "legal targets (Target Legality, {owner})",
                unit=shooter.id,
                target=target.id,
                owner=OWNER,
            ),
        )
    return None


def _fire_reasons(
    bf: Battlefield, shooter: Unit, target: Unit, pairs: tuple[Pair, ...], rules: CommandRules
) -> tuple[Holds | None, ...]:
    """Why each declared weapon would not fire (None: it fires)."""
    return tuple(
        why_not_firing(bf, shooter.model(mid), bf.weapon(name), target, shooter.side, rules)
        for mid, name in pairs
    )


def could_declare(bf: Battlefield, shooter: Unit, target: Unit, rules: CommandRules) -> bool:
    """Whether ``shooter`` could legally declare ``target`` apart from target priority: an enemy, not
    Engaged with another friendly unit, with a model it could legally mark for a weapon that would fire.

    Rule: core/target_selection.md#unit-without-a-leader

    This is the candidate test of a unit without a leader (``candidate_weapons`` gives the weapons that
    make it one).
    """
    return bool(candidate_weapons(bf, shooter, target, rules))


def candidate_weapons(
    bf: Battlefield, shooter: Unit, target: Unit, rules: CommandRules
) -> tuple[tuple[Model, Weapon], ...]:
    """The (model, weapon) pairs of ``shooter`` that would fire at ``target`` had nobody held fire, when
    ``target`` is a legal target with a model that one of them makes a legal mark; empty otherwise.

    Rule: core/target_selection.md#unit-without-a-leader

    Every weapon of the unit counts, and holding fire is a choice made in the declaration, so it is
    ignored here: a unit could declare without holding fire. An Abandoned model cannot fire, so its
    weapons never count. The models are the shooter's own (``holds_fire`` as declared).
    """
    if not can_target(bf, shooter, target):
        return ()
    firing = []
    for m in shooter.models:
        free = replace(m, holds_fire=False) if m.holds_fire else m
        for name in m.weapons:
            weapon = bf.weapon(name)
            if why_not_firing(bf, free, weapon, target, shooter.side, rules) is None:
                firing.append((m, weapon))
    if any(mark_is_legal(shooter, mark, firing, bf) for mark in target.models):
        return tuple(firing)
    return ()


def why_a_candidate(bf: Battlefield, shooter: Unit, unit: Unit, rules: CommandRules) -> str:
    """What makes ``unit`` a candidate of the leaderless ``shooter``, for a refusal: how many of its models
    see it and which weapons could fire at it, saying so when those are held (holding fire never changes
    candidates).

    Rule: core/target_selection.md#unit-without-a-leader
    """
    pairs = candidate_weapons(bf, shooter, unit, rules)
    named = [_("the {weapon} of {model}", weapon=weapon.name, model=model.id) for model, weapon in pairs[:3]]
    if len(pairs) > 3:
        named.append(_("{count} more", count=len(pairs) - 3))
    through = _(", ").join(named[:-1]) + (_(" and ") if len(named) > 1 else "") + named[-1]
    held = sorted({model.id for model, _x in pairs if model.holds_fire})
    values = {
        "candidate": unit.id,
        "seeing": models_seeing(shooter, unit, bf),
        "models": len(shooter.models),
        "unit": shooter.id,
        "through": through,
        "held": _(", ").join(held),
    }
    one = len(held) == 1
    if held and len(held) == len({model.id for model, _x in pairs}):
        if one:
            return _(
                "{candidate!r} is a candidate: {seeing} of the {models} models of {unit!r} see it, and it "
                "could be declared only through {through}, which holds fire: holding fire never changes "
                "candidates",
                **values,
            )
        return _(
            "{candidate!r} is a candidate: {seeing} of the {models} models of {unit!r} see it, and it could "
            "be declared only through {through}, which hold fire: holding fire never changes candidates",
            **values,
        )
    if held and one:
        return _(
            "{candidate!r} is a candidate: {seeing} of the {models} models of {unit!r} see it, and it could "
            "be declared through {through} ({held} holds fire, which never changes candidates)",
            **values,
        )
    if held:
        return _(
            "{candidate!r} is a candidate: {seeing} of the {models} models of {unit!r} see it, and it could "
            "be declared through {through} ({held} hold fire, which never changes candidates)",
            **values,
        )
    return _(
        "{candidate!r} is a candidate: {seeing} of the {models} models of {unit!r} see it, and it could be "
        "declared through {through}",
        **values,
    )


def check_target(
    bf: Battlefield, shooter: Unit, target: Unit, mark: Model, pairs: tuple[Pair, ...], rules: CommandRules
) -> tuple[Holds | None, ...]:
    """Every check of one target of a declaration, in order: Engaged with another friendly unit, seen (leader
    / more than half), at least one declared weapon would fire, the closest candidate (leaderless, when the
    command keeps that rule), the Marked Model (a valid model for a weapon that fires:
    core/target_selection.md#marked-model). Returns why each of ``pairs`` does not fire (None: it fires),
    which the plan keeps for the firing step.

    Rule: core/shooting.md#target-legality
    """
    check_target_legality(bf, shooter, target)
    check_target_seen(shooter, target, bf)
    reasons = _fire_reasons(bf, shooter, target, pairs, rules)
    firing = [
        (shooter.model(mid), bf.weapon(name))
        for (mid, name), reason in zip(pairs, reasons, strict=True)
        if reason is None
    ]
    if not firing:
        listed = _("; ").join(r.text for r in reasons if r is not None) or _(
            "no weapon is declared against it"
        )
        raise IllegalDeclaration(
            f"{OWNER}#which-weapons-fire",
            _(
                "unit {unit!r} cannot target {target!r}: no weapon declared against it would fire ({listed}) "
                "(Which Weapons Fire, {owner})",
                unit=shooter.id,
                target=target.id,
                listed=listed,
                owner=OWNER,
            ),
        )
    if shooter.leader is None and rules.closest_target_rule:
        check_closest(
            shooter,
            target,
            bf,
            lambda u: could_declare(bf, shooter, u, rules),
            lambda u: why_a_candidate(bf, shooter, u, rules),
        )
    check_mark(shooter, target, mark, firing, bf)
    return reasons


@frozen
class DeclareCheck:
    """One check of the Declare step, in the order ``plan_attack`` (and, for a response,
    ``rulespy.sequences.shooting_sequence.declare``) makes them: what it asks, and every rule
    (``PATH#ANCHOR``) a refusal by this check can name, in the order they are tried.

    ``DECLARE_CHECKS`` is the numbered list of core/shooting.md#target-legality, item for item; a test
    (tests/core/test_r8_declare_order.py) reads the page's list and proves the two agree, and plays one
    declaration breaking each pair of neighbouring checks to prove the engine refuses the earlier one.
    """

    asks: str
    rules: tuple[str, ...]


DECLARE_CHECKS = (
    DeclareCheck(
        "the unit may shoot at all: not Shaken, then not Fleeing",
        ("core/statuses.md#shaken", "core/statuses.md#fleeing"),
    ),
    DeclareCheck(
        "more than one target: the command allows Split Target, the unit has a leader, it is no Swarm",
        (
            "commands/command_assault.md#assault",
            "commands/command_covering_fire.md#covering-fire",
            "commands/command_snap_fire.md#snap-fire",
            "core/target_selection.md#leaders-split-fire",
            "core/target_selection.md#swarm",
        ),
    ),
    DeclareCheck(
        "each target, in declared order, checks 3 to 7: an enemy unit not Engaged with another friendly unit",
        (f"{OWNER}#target-legality",),
    ),
    DeclareCheck(
        "the leader sees the target, or more than half of a leaderless unit's models do",
        ("core/target_selection.md#unit-with-a-leader", "core/target_selection.md#unit-without-a-leader"),
    ),
    DeclareCheck(
        "at least one weapon declared against the target fires at it", (f"{OWNER}#which-weapons-fire",)
    ),
    DeclareCheck(
        "a unit without a leader declares the closest candidate (unless the command names its target)",
        ("core/target_selection.md#unit-without-a-leader",),
    ),
    DeclareCheck(
        "the Marked Model is seen, and valid for a weapon that fires",
        ("core/target_selection.md#marked-model",),
    ),
    DeclareCheck(
        "a response may answer this attack (Snap Fire, never against Covering Fire or an Assault that "
        "shoots nothing); then the response's own declaration goes through checks 1 to 7",
        (
            "timing/command_timing.md#responding-command",
            "commands/command_covering_fire.md#covering-fire",
            "commands/command_snap_fire.md#snap-fire",
        ),
    ),
)


def plan_attack(bf: Battlefield, attack: AttackDeclaration, rules: CommandRules) -> tuple[TargetPlan, ...]:
    """Check the whole declaration and return one ``TargetPlan`` per declared target, in declared order.

    Rule: core/shooting.md#target-legality
    Rule: commands/command_assault.md#assault

    Raises ``IllegalDeclaration`` on the first rule broken, nothing rolled, in the order of
    ``DECLARE_CHECKS`` 1 to 7 (core/shooting.md#target-legality): Shaken, Fleeing; Split Target; then per
    target in declared order: friendly, then ``check_target``. In an
    Assault the shooting is optional (commands/command_assault.md#assault): only a Shaken or Fleeing unit,
    a split or a friendly target makes the Assault itself impossible; any other broken rule of
    ``check_target`` means the unit assaults without shooting, and the plan records that rule in
    ``stopped``.
    """
    shooter = bf.unit(attack.unit)
    check_may_shoot(shooter, rules.command)
    if not attack.targets:
        raise InvalidInput(f"the attack by {shooter.id!r} declares no target")
    check_split(shooter, [t.unit for t in attack.targets], rules)
    plans = []
    for decl, pairs in zip(attack.targets, declared_weapons(shooter, attack.targets), strict=True):
        target = bf.unit(decl.unit)
        check_enemy(shooter, target)
        if not target.has(decl.mark):
            raise InvalidInput(f"the marked model {decl.mark!r} is not a model of {target.id!r}")
        mark = target.model(decl.mark)
        if not rules.shooting_optional:
            holds = check_target(bf, shooter, target, mark, pairs, rules)
        else:
            try:
                holds = check_target(bf, shooter, target, mark, pairs, rules)
            except IllegalDeclaration as error:
                plans.append(TargetPlan(decl.unit, decl.mark, (), Holds(error.rule, error.message), ()))
                continue
        plans.append(TargetPlan(decl.unit, decl.mark, pairs, holds=holds))
    return tuple(plans)
