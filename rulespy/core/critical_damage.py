"""Critical Damage: each Critical Lock inflicts the weapon's damage plus one, ignoring armour.

Rule: core/critical_damage.md#critical-damage
"""

from __future__ import annotations

from rulespy.core.ranged_weapons import Weapon


def critical_wounds(weapon: Weapon) -> int:
    """Wounds one Critical Lock of ``weapon`` inflicts: ``damage + 1``; armour does not reduce them.

    Rule: core/critical_damage.md#critical-damage

    >>> critical_wounds(Weapon("lance", 24, 1, 4, damage=2))
    3
    """
    return weapon.damage + 1
