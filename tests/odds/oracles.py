"""Slow, obvious answers that the odds engine's fast ones are checked against (``tests/odds/test_pool.py``,
``tests/core/test_target_lock.py``, ``bench/bench_odds.py``).

They were in the engine (``LockChance.outcomes``, ``rulespy.odds.pool.tallies``), which used neither: the
exact engine rolls a weapon's dice in two passes (``pool.criticals``, ``pool.others``), the sampler reads
rolled faces (``LockChance.read``). Code only the tests call is not a rule a player can meet, so no worked
example could pin it down (``make mutants`` counted its 62 mutants as unreached): it lives here instead.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from rulespy.core.target_lock import LockChance, LockResult, LockTally, die_probabilities
from rulespy.odds import pool


def lock_outcomes(chance: LockChance) -> list[tuple[LockTally, Fraction]]:
    """Every tally of Critical Locks and other successes over a firing weapon's dice, with its
    probability: the trinomial of the Target Lock die's three kinds of face, in ``Fraction``."""
    p = die_probabilities(chance.weapon, chance.net)
    pc, ps, pf = (p.get(r, Fraction(0)) for r in (LockResult.CRITICAL, LockResult.SUCCESS, LockResult.FAIL))
    n = chance.dice
    result = []
    for c in range(n + 1):
        for s in range(n - c + 1):
            weight = comb(n, c) * comb(n - c, s) * pc**c * ps**s * pf ** (n - c - s)
            if weight:
                result.append((LockTally(c, s), weight))
    return result


def tallies(dice: int, crit: int, success: int, fail: int) -> dict[tuple[int, int], int]:
    """The joint distribution of (Critical Locks, other successes) over ``dice`` dice by the engine's
    two passes, as ways out of ``6**dice``, every tally listed (zero ways included when a kind of face is
    missing).

    >>> tallies(1, 1, 2, 3)
    {(0, 0): 3, (0, 1): 2, (1, 0): 1}
    """
    result = {}
    for c, ways in enumerate(pool.criticals(dice, crit)):
        for s, more in enumerate(pool.others(dice - c, success, fail)):
            result[(c, s)] = ways * more
    return result
