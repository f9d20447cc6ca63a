"""Damage, Wounds, Armour, Casualty and Target Limit.

Rule: core/damage.md#damage
"""

from __future__ import annotations

from rulespy.core.critical_damage import critical_wounds
from rulespy.core.ranged_weapons import Weapon


def normal_wounds(weapon: Weapon, armour: int) -> int:
    """Wounds one successful, non-critical Target Lock inflicts: ``max(damage - armour, 0)``.

    Rule: core/damage.md#armour

    >>> lance = Weapon("lance", 24, 1, 4, damage=2)
    >>> normal_wounds(lance, armour=1), normal_wounds(lance, armour=3)
    (1, 0)
    """
    return max(weapon.damage - armour, 0)


def wounds_inflicted(weapon: Weapon, armour: int, critical: bool) -> int:
    """Wounds one success inflicts on a model with ``armour``.

    Rule: core/damage.md#damage

    >>> rifle = Weapon("rifle", 24, 1, 4, damage=1)
    >>> wounds_inflicted(rifle, armour=1, critical=False), wounds_inflicted(rifle, armour=1, critical=True)
    (0, 2)
    """
    return critical_wounds(weapon) if critical else normal_wounds(weapon, armour)


def wounds_lost(inflicted: int, wounds_left: int) -> int:
    """Wounds the model actually loses: never more than it has. The rest is lost with the success and
    never spills over to another model.

    Rule: core/damage.md#target-limit
    Rule: core/damage.md#wounds

    >>> wounds_lost(inflicted=3, wounds_left=1)  # the other 2 are wasted, never passed on
    1
    """
    return min(inflicted, wounds_left)


def is_casualty(wounds_left: int) -> bool:
    """A model brought to 0 wounds is a casualty.

    Rule: core/damage.md#casualty

    >>> is_casualty(0), is_casualty(1)
    (True, False)
    """
    return wounds_left <= 0
