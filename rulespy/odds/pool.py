"""The odds engine's dice-pool core: how many ways a firing weapon's dice give each tally.

A Target Lock die has ``crit`` faces that make a Critical Lock, ``success`` faces that make another
success and ``fail`` faces that fail (``rulespy.core.target_lock.die_probabilities``, six faces in all).
The exact engine rolls a weapon's dice in two passes (``rulespy.odds.exact``): first how many are
Critical Locks, then how many of the others succeed. Both are counted in whole numbers of ways, so that
the chance of ``c`` Critical Locks and ``s`` other successes among ``n`` dice is
``criticals(n, crit)[c] * others(n - c, success, fail)[s] / 6**n``: exact, without ``Fraction``.

Rule: core/target_lock.md#target-lock
"""

from __future__ import annotations

from functools import cache
from math import comb


@cache
def criticals(dice: int, crit: int) -> tuple[int, ...]:
    """Ways (over the faces that make a Critical Lock) for 0..dice of ``dice`` dice to be Critical
    Locks, the other dice not yet told apart: ``comb(dice, c) * crit**c``.

    >>> criticals(2, 1)
    (1, 2, 1)
    """
    return tuple(comb(dice, c) * crit**c for c in range(dice + 1))


@cache
def others(dice: int, success: int, fail: int) -> tuple[int, ...]:
    """Ways for 0..dice of ``dice`` dice that are no Critical Lock to be other successes, the rest
    fails: ``comb(dice, s) * success**s * fail**(dice - s)``.

    >>> others(2, 2, 3)
    (9, 12, 4)
    """
    return tuple(comb(dice, s) * success**s * fail ** (dice - s) for s in range(dice + 1))
