"""Leadership Checks: roll 2D6, passed on a total of ``ld`` or less.

Rule: core/leadership.md#leadership-check
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulespy.frozen import frozen

if TYPE_CHECKING:  # probabilities are only listed for the odds engine: imported there
    from fractions import Fraction


def passes(dice: tuple[int, int], ld: int) -> bool:
    """A Leadership Check passes when the two dice total ``ld`` or less.

    Rule: core/leadership.md#leadership-check
    """
    return sum(dice) <= ld


def pass_probability(ld: int) -> Fraction:
    """The chance that 2D6 total ``ld`` or less.

    Rule: core/leadership.md#leadership-check
    """
    from fractions import Fraction

    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= ld)
    return Fraction(ways, 36)


@frozen
class LeadershipChance:
    """The chance step of one Leadership Check taken on ``ld`` for the target ``target``.

    Rule: core/leadership.md#leadership-check
    """

    leader: str
    ld: int
    target: str
    dice: int = 2

    def outcomes(self) -> list[tuple[bool, Fraction]]:
        p = pass_probability(self.ld)
        return [(passed, chance) for passed, chance in ((True, p), (False, 1 - p)) if chance]

    def read(self, faces: tuple[int, ...]) -> bool:
        """Whether the two rolled ``faces`` pass the check."""
        a, b = faces
        return passes((a, b), self.ld)
