"""The Target Lock chance step's own multinomial: an oracle for the odds engine's dice pool.

Rule: core/target_lock.md#target-lock

The engine never lists a firing weapon's tallies this way: the odds engine counts them with its dice-pool
core (``rulespy.odds.pool``) from ``die_probabilities``. This slow, obviously right enumeration, every
tally of Critical Locks and other successes over the weapon's dice with its ``Fraction`` chance, was
``LockChance.outcomes`` in the engine until it moved here (no engine code called it, so no worked example
could pin it down: ``make mutants`` counted it unreached); ``tests/odds/test_pool.py`` checks the pool
against it and ``bench/bench_odds.py`` times it beside the pool.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from rulespy.core.target_lock import LockChance, LockResult, LockTally, die_probabilities


def lock_outcomes(chance: LockChance) -> list[tuple[LockTally, Fraction]]:
    """Every tally of criticals and other successes over ``chance``'s dice, with its probability."""
    p = die_probabilities(chance.weapon, chance.net)
    pc, ps, pf = (p.get(r, Fraction(0)) for r in (LockResult.CRITICAL, LockResult.SUCCESS, LockResult.FAIL))
    n = chance.dice
    result = []
    for c in range(n + 1):
        for s in range(n - c + 1):
            f = n - c - s
            weight = comb(n, c) * comb(n - c, s) * pc**c * ps**s * pf**f
            if weight:
                result.append((LockTally(c, s), weight))
    return result
