"""Target Priority, Marked Model, Leader's Split Fire and Swarm: who a unit may shoot at.

Rule: core/target_selection.md#target-priority

Every check here raises ``IllegalDeclaration`` naming its anchor; nothing is rolled. The Leadership
Checks that Split Target needs are taken later, by the shooting sequence (core/leadership.md).
Which enemy units are *legal* (core/shooting.md#target-legality) is decided in rulespy/core/shooting.py,
which passes that test in as ``is_legal`` so that the two modules do not import each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rulespy.core.allocation import is_valid
from rulespy.core.command_rules import CommandRules
from rulespy.core.line_of_sight import sees, sees_unit
from rulespy.core.measuring import EPSILON, distance_between_units
from rulespy.core.ranged_weapons import Weapon
from rulespy.errors import IllegalDeclaration
from rulespy.i18n import _, decimal
from rulespy.state import Battlefield, Model, Unit

OWNER = "core/target_selection.md"


def _inches(value: float) -> str:
    """A distance as the messages print it: ``6"`` or ``6.5"`` (``6,5"`` in Russian)."""
    return f'{decimal(round(value, 3))}"'


def more_than_half(count: int, total: int) -> bool:
    """Strictly more than half: 2 of 3, 3 of 4 and 1 of 1 (2 of 4 is not).

    Rule: core/target_selection.md#unit-without-a-leader
    """
    return 2 * count > total


def models_seeing(shooter: Unit, target: Unit | Model, bf: Battlefield) -> int:
    """How many of the shooter's models in play see the target (a unit: any model of it).

    Rule: core/line_of_sight.md#line-of-sight
    """
    if isinstance(target, Unit):
        return sum(1 for m in shooter.models if sees_unit(m, target, bf.terrain))
    return sum(1 for m in shooter.models if sees(m, target, bf.terrain))


def majority_sees(shooter: Unit, target: Unit | Model, bf: Battlefield) -> bool:
    """Whether more than half of the shooter's models in play see ``target`` (a unit or one model).

    Rule: core/target_selection.md#unit-without-a-leader
    """
    return more_than_half(models_seeing(shooter, target, bf), len(shooter.models))


def check_split(shooter: Unit, targets: Sequence[str], rules: CommandRules) -> None:
    """Refuse more than one target unless the command allows Split Target and the unit may use it.

    Rule: core/target_selection.md#leaders-split-fire
    Rule: core/target_selection.md#swarm

    Checked in this order: the command (Assault, Covering Fire and Snap Fire forbid it, citing the
    command's own anchor), then a unit without a leader, then a unit with the Swarm trait.
    """
    if len(targets) <= 1:
        return
    names = ", ".join(repr(t) for t in targets)
    values = {"unit": shooter.id, "count": len(targets), "names": names, "owner": OWNER}
    if not rules.split_target:
        owner = rules.rule.split("#", 1)[0]
        raise IllegalDeclaration(
            rules.rule,
            _(
                "unit {unit!r} declared {count} targets ({names}), but {command} does not allow Split Target "
                "({owner})",
                **{**values, "owner": owner},
                command=_(rules.command.value),
            ),
        )
    if shooter.leader is None:
        raise IllegalDeclaration(
            f"{OWNER}#leaders-split-fire",
            _(
                "unit {unit!r} declared {count} targets ({names}), but it has no leader in play and only a "
                "unit with a leader may split its fire (Leader's Split Fire, {owner})",
                **values,
            ),
        )
    if shooter.swarm:
        raise IllegalDeclaration(
            f"{OWNER}#swarm",
            _(
                "unit {unit!r} declared {count} targets ({names}), but it has the Swarm trait and may never "
                "split its fire (Swarm, {owner})",
                **values,
            ),
        )


def check_target_seen(shooter: Unit, target: Unit, bf: Battlefield) -> None:
    """The leader must see the target; a unit without a leader needs more than half of its models to.

    Rule: core/target_selection.md#unit-with-a-leader
    Rule: core/target_selection.md#unit-without-a-leader
    """
    leader = shooter.leader
    if leader is not None:
        if not sees_unit(leader, target, bf.terrain):
            raise IllegalDeclaration(
                f"{OWNER}#unit-with-a-leader",
                _(
                    "unit {unit!r} cannot target {target!r}: its leader {leader!r} sees no model of it "
                    "(Target Priority, unit with a leader, {owner})",
                    unit=shooter.id,
                    target=target.id,
                    leader=leader.id,
                    owner=OWNER,
                ),
            )
        return
    count = models_seeing(shooter, target, bf)
    if not more_than_half(count, len(shooter.models)):
        raise IllegalDeclaration(
            f"{OWNER}#unit-without-a-leader",
            _(
                "unit {unit!r} has no leader and cannot target {target!r}: only {count} of its {models} "
                "models in play see it, and more than half must (Target Priority, unit without a leader, "
                "{owner})",
                unit=shooter.id,
                target=target.id,
                count=count,
                models=len(shooter.models),
                owner=OWNER,
            ),
        )


def candidates(shooter: Unit, bf: Battlefield, is_legal: Callable[[Unit], bool]) -> tuple[Unit, ...]:
    """The candidates of a unit without a leader: enemy units it could legally declare (``is_legal``: a
    legal Marked Model included, core/target_selection.md#unit-without-a-leader) that more than half of its
    models in play see.

    Rule: core/target_selection.md#unit-without-a-leader
    """
    return tuple(
        unit
        for unit in bf.enemies_of(shooter)
        if unit.models and is_legal(unit) and majority_sees(shooter, unit, bf)
    )


def check_closest(
    shooter: Unit,
    target: Unit,
    bf: Battlefield,
    is_legal: Callable[[Unit], bool],
    why: Callable[[Unit], str] | None = None,
) -> None:
    """A unit without a leader must choose the closest candidate; equally close ones are its choice.
    ``why``, when given, says what makes the closer unit a candidate, and the refusal adds it.

    Rule: core/target_selection.md#unit-without-a-leader

    Closeness is the distance between units (core/measuring.md); a tie is within 1e-9 inch.
    """
    found = candidates(shooter, bf, is_legal)
    if not found:
        return  # the target itself failed an earlier check, which has already been reported
    own = distance_between_units(shooter, target)
    nearest = min(found, key=lambda u: distance_between_units(shooter, u))
    best = distance_between_units(shooter, nearest)
    if own > best + EPSILON:
        raise IllegalDeclaration(
            f"{OWNER}#unit-without-a-leader",
            _(
                "unit {unit!r} has no leader, so it must target the closest candidate: {target!r} is {own} "
                "away but {nearest!r} is {best}{why} (Target Priority, unit without a leader, {owner})",
                unit=shooter.id,
                target=target.id,
                own=_inches(own),
                nearest=nearest.id,
                best=_inches(best),
                why="; " + why(nearest) if why else "",
                owner=OWNER,
            ),
        )


def mark_is_legal(
    shooter: Unit, mark: Model, firing: Sequence[tuple[Model, Weapon]], bf: Battlefield
) -> bool:
    """Whether ``mark`` may be the Marked Model: seen as Target Priority requires (by the leader, or by more
    than half of a leaderless unit's models in play) and a valid model for at least one of ``firing``, the
    (model, weapon) pairs that fire at its unit.

    Rule: core/target_selection.md#marked-model
    """
    leader = shooter.leader
    seen = sees(leader, mark, bf.terrain) if leader is not None else majority_sees(shooter, mark, bf)
    return seen and _valid_for_a_firing_weapon(mark, firing, bf)


def _valid_for_a_firing_weapon(mark: Model, firing: Sequence[tuple[Model, Weapon]], bf: Battlefield) -> bool:
    return any(is_valid(mark, weapon, (model,), bf.terrain) for model, weapon in firing)


def check_mark(
    shooter: Unit, target: Unit, mark: Model, firing: Sequence[tuple[Model, Weapon]], bf: Battlefield
) -> None:
    """The Marked Model must be seen (by the leader, or by more than half of a leaderless unit's models in
    play) and be a valid model for at least one weapon that fires at the target
    (core/target_selection.md#marked-model): a model that fires that weapon sees it, has it within range
    and, with Minimum Range N, has it farther than N.
    ``firing`` pairs each firing model with a weapon it fires at the target; a weapon that is declared
    but does not fire (held, Abandoned, Heavy in an Advance...) never makes a mark legal.

    Rule: core/target_selection.md#marked-model
    """
    leader = shooter.leader
    if leader is not None:
        if not sees(leader, mark, bf.terrain):
            raise IllegalDeclaration(
                f"{OWNER}#marked-model",
                _(
                    "unit {unit!r} cannot mark {mark!r} of {target!r}: its leader {leader!r} does not see it "
                    "(Marked Model, {owner})",
                    unit=shooter.id,
                    mark=mark.id,
                    target=target.id,
                    leader=leader.id,
                    owner=OWNER,
                ),
            )
    elif not majority_sees(shooter, mark, bf):
        count = models_seeing(shooter, mark, bf)
        raise IllegalDeclaration(
            f"{OWNER}#marked-model",
            _(
                "unit {unit!r} cannot mark {mark!r} of {target!r}: it has no leader and only {count} of its "
                "{models} models in play see that model (Marked Model, {owner})",
                unit=shooter.id,
                mark=mark.id,
                target=target.id,
                count=count,
                models=len(shooter.models),
                owner=OWNER,
            ),
        )
    if not _valid_for_a_firing_weapon(mark, firing, bf):
        raise IllegalDeclaration(
            f"{OWNER}#marked-model",
            _(
                "unit {unit!r} cannot mark {mark!r} of {target!r}: it is not a valid model for any weapon "
                "that fires at {target!r} (no model firing such a weapon sees it and has it in range and "
                "beyond any Minimum Range) (Marked Model, {owner})",
                unit=shooter.id,
                mark=mark.id,
                target=target.id,
                owner=OWNER,
            ),
        )
