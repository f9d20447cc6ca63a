"""The odds engine's dice-pool core against the Target Lock chance step's own multinomial
(core/target_lock.md#target-lock, core/target_lock.md#critical-lock, core/ranged_weapons.md#critical-n)."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest

from rulespy.core.ranged_weapons import Weapon
from rulespy.core.target_lock import LockChance, LockResult, die_probabilities
from rulespy.odds import pool
from tests.odds import oracles
from tests.odds.oracles import lock_outcomes


@pytest.mark.parametrize("dice", [1, 3, 12])
@pytest.mark.parametrize(
    ("lock", "critical", "net"), [(4, 6, 0), (4, 5, 0), (3, 5, -2), (6, 6, -2), (2, 6, 1)]
)
def test_two_pass_tallies_equal_the_target_lock_multinomial(
    dice: int, lock: int, critical: int, net: int
) -> None:
    weapon = Weapon("gun", range=24, dice=dice, lock=lock, damage=1, critical=critical)
    p = die_probabilities(weapon, net)
    crit, success, fail = (
        int(p.get(r, 0) * 6) for r in (LockResult.CRITICAL, LockResult.SUCCESS, LockResult.FAIL)
    )
    ways = oracles.tallies(dice, crit, success, fail)
    listed = {(t.criticals, t.successes): q for t, q in lock_outcomes(LockChance("m", weapon, net, dice))}
    assert {k: Fraction(w, 6**dice) for k, w in ways.items() if w} == listed
    assert sum(ways.values()) == 6**dice


def test_pool_doctests() -> None:
    assert doctest.testmod(pool).failed == 0
    assert doctest.testmod(oracles).failed == 0
