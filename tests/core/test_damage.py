"""Damage, armour, Target Limit and Critical Damage: core/damage.md, core/critical_damage.md."""

from rulespy.core.critical_damage import critical_wounds
from rulespy.core.damage import is_casualty, normal_wounds, wounds_inflicted, wounds_lost
from rulespy.core.ranged_weapons import Weapon

CANNON = Weapon("cannon", range=36, dice=1, lock=4, damage=3)


def test_armour_reduces_normal_damage() -> None:
    assert normal_wounds(CANNON, 1) == 2


def test_armour_never_makes_damage_negative() -> None:
    assert normal_wounds(Weapon("pop", range=1, dice=1, lock=4, damage=1), 3) == 0


def test_critical_damage_is_damage_plus_one_ignoring_armour() -> None:
    assert critical_wounds(CANNON) == 4
    assert wounds_inflicted(CANNON, 3, critical=True) == 4


def test_target_limit_with_high_damage_wounds_only_one_model() -> None:
    """Damage 3 on a one-wound model: it loses 1; the other 2 are lost, never passed on."""
    assert wounds_lost(3, 1) == 1


def test_casualty_at_zero_wounds() -> None:
    assert is_casualty(0)
    assert not is_casualty(1)
