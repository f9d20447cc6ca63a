"""Damage, Wounds, Armour, Casualty and Target Limit.

Rule: core/damage.md#damage
"""

from __future__ import annotations

from rulespy.core.critical_damage import critical_wounds
from rulespy.core.ranged_weapons import Weapon


def normal_wounds(weapon: Weapon, armour: int) -> int:
    """Wounds one successful, non-critical Target Lock inflicts: ``max(damage - armour, 0)``.

    Rule: core/damage.md#armour
    """
    return max(weapon.damage - armour, 0)


def wounds_inflicted(weapon: Weapon, armour: int, critical: bool) -> int:
    """Wounds one success inflicts on a model with ``armour``.

    Rule: core/damage.md#damage
    """
    return critical_wounds(weapon) if critical else normal_wounds(weapon, armour)


def wounds_lost(inflicted: int, wounds_left: int) -> int:
    """Wounds the model actually loses: never more than it has. The rest is lost with the success and
    never spills over to another model.

    Rule: core/damage.md#target-limit
    Rule: core/damage.md#wounds
    """
    return min(inflicted, wounds_left)


def is_casualty(wounds_left: int) -> bool:
    """A model brought to 0 wounds is a casualty.

    Rule: core/damage.md#casualty
    """
    return wounds_left <= 0
