"""Statuses derived from the battlefield, and the ones that stop a unit shooting.

Rule: core/statuses.md#statuses

Engaged is never declared: it is worked out from positions each time it is asked.
"""

from __future__ import annotations

from rulespy.core.measuring import within
from rulespy.errors import IllegalDeclaration
from rulespy.i18n import N_, _
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
    refusals = {
        UnitStatus.SHAKEN: (
            N_("unit {unit!r} is Shaken and cannot make a shooting attack (Shaken, core/statuses.md)"),
            N_(
                "unit {unit!r} is Shaken and cannot make a shooting attack, so its Assault is refused: a "
                "Shaken unit cannot Assault at all (Shaken, core/statuses.md)"
            ),
        ),
        UnitStatus.FLEEING: (
            N_("unit {unit!r} is Fleeing and cannot make a shooting attack (Fleeing, core/statuses.md)"),
            N_(
                "unit {unit!r} is Fleeing and cannot make a shooting attack, so its Assault is refused: a "
                "Fleeing unit cannot Assault at all (Fleeing, core/statuses.md)"
            ),
        ),
    }
    for status, (shooting, assault) in refusals.items():
        if status not in unit.status:
            continue
        what = _(assault if command is Command.ASSAULT else shooting, unit=unit.id)
        raise IllegalDeclaration(f"core/statuses.md#{status.value}", what)
