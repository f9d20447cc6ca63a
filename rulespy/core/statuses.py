"""Statuses derived from the battlefield, and the ones that stop a unit shooting.

Rule: core/statuses.md#statuses

Engaged is never declared: it is worked out from positions each time it is asked.
"""

from __future__ import annotations

from rulespy.core.measuring import within
from rulespy.errors import IllegalDeclaration
from rulespy.state import Battlefield, Command, Model, ModelStatus, Unit, UnitStatus

ENGAGEMENT_RANGE = 1.0
"""Models within this many inches of each other engage their units (core/statuses.md#engaged)."""


def engaged(a: Unit, b: Unit) -> bool:
    """Whether two different units are Engaged: any model of one within 1" of any model of the other.

    Rule: core/statuses.md#engaged

    A unit is never Engaged with itself. Sides are not looked at here: the rules only ever ask whether a
    unit is Engaged with an enemy, or with a unit friendly to the shooter. Boundary: exactly 1" engages.
    """
    if a.id == b.id:
        return False
    return any(within(m, n, ENGAGEMENT_RANGE) for m in a.models for n in b.models)


def engaged_with_enemy(model: Model, bf: Battlefield, side: str) -> bool:
    """Whether ``model`` (of ``side``) is within 1" of any enemy model in play.

    Rule: core/statuses.md#engaged
    """
    return any(within(model, other, ENGAGEMENT_RANGE) for other in bf.enemy_models(side))


def is_pinned(model: Model) -> bool:
    """Rule: core/statuses.md#pinned"""
    return ModelStatus.PINNED in model.status


def is_immobilised(model: Model) -> bool:
    """Rule: core/statuses.md#immobilised"""
    return ModelStatus.IMMOBILISED in model.status


def is_abandoned(model: Model) -> bool:
    """An Abandoned model stays in play but never fires.

    Rule: core/statuses.md#abandoned
    """
    return ModelStatus.ABANDONED in model.status


def check_may_shoot(unit: Unit, command: Command | None = None) -> None:
    """Refuse a shooting attack by a Shaken or Fleeing unit (Shaken is checked first). For an Assault the
    refusal says that the Assault itself is refused: it may go ahead without shooting, but never by a unit
    that may not shoot at all (commands/command_assault.md#assault).

    Rule: core/statuses.md#shaken
    Rule: core/statuses.md#fleeing
    """
    for status, name in ((UnitStatus.SHAKEN, "Shaken"), (UnitStatus.FLEEING, "Fleeing")):
        if status not in unit.status:
            continue
        what = f"unit {unit.id!r} is {name} and cannot make a shooting attack"
        if command is Command.ASSAULT:
            what += f", so its Assault is refused: a {name} unit cannot Assault at all"
        raise IllegalDeclaration(f"core/statuses.md#{status.value}", f"{what} ({name}, core/statuses.md)")
