"""Target Lock: one D6 a die, modifiers summed and capped, natural 1 fails, Critical Locks.

The rules never roll: ``LockChance`` names a firing weapon's dice and reads faces a driver rolled for
``resolve``; the odds engine counts the ways of each tally from ``die_probabilities``'s faces
(``rulespy.odds.pool``).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

from rulespy.core.command_rules import CommandRules
from rulespy.core.cover import cover_modifier
from rulespy.core.ranged_weapons import Weapon
from rulespy.frozen import frozen
from rulespy.i18n import N_
from rulespy.state import Cover

if TYPE_CHECKING:  # probabilities are only listed for the odds engine: imported there
    from fractions import Fraction

MODIFIER_FLOOR = -2
MODIFIER_CEILING = 1


@frozen
class Modifier:
    """One Target Lock modifier, with why it applies."""

    amount: int
    reason: str
    rule: str


class LockResult(enum.Enum):
    FAIL = "fail"
    SUCCESS = "success"
    CRITICAL = "critical"


def net_modifier(modifiers: tuple[Modifier, ...]) -> int:
    """The sum of all modifiers, capped to no lower than -2 and no higher than +1.

    Rule: core/target_lock.md#modifier-cap

    >>> pinned_in_heavy_cover = (Modifier(-1, "Pinned", "x.md#p"), Modifier(-2, "Heavy cover", "x.md#h"))
    >>> net_modifier(pinned_in_heavy_cover)  # -3, capped
    -2
    """
    total = sum(m.amount for m in modifiers)
    return max(MODIFIER_FLOOR, min(MODIFIER_CEILING, total))


def lock_modifiers(
    weapon: Weapon, firer_pinned: bool, cover: Cover, command: CommandRules
) -> tuple[Modifier, ...]:
    """Every modifier that applies to ``weapon``'s dice: the command's, a Pinned firing model's, the
    target unit's cover, and Precise.

    Rule: core/target_lock.md#target-lock-modifiers
    Rule: core/ranged_weapons.md#precise
    """
    found = []
    if command.lock_modifier:
        found.append(Modifier(command.lock_modifier, command.command.value.replace("_", " "), command.rule))
    if firer_pinned:
        found.append(Modifier(-1, N_("firing model Pinned"), "core/statuses.md#pinned"))
    if cover is Cover.LIGHT:
        found.append(
            Modifier(cover_modifier(cover), N_("target in Light cover"), "core/cover.md#light-cover")
        )
    elif cover is Cover.HEAVY:
        found.append(
            Modifier(cover_modifier(cover), N_("target in Heavy cover"), "core/cover.md#heavy-cover")
        )
    if weapon.precise:
        found.append(Modifier(+1, N_("Precise"), "core/ranged_weapons.md#precise"))
    return tuple(found)


def judge(natural: int, weapon: Weapon, net: int) -> LockResult:
    """One die: a natural 1 always fails; success on modified >= lock; a successful die whose natural
    roll is 6 (N or more with Critical N) is a Critical Lock.

    Rule: core/target_lock.md#target-lock
    Rule: core/target_lock.md#natural-1
    Rule: core/target_lock.md#critical-lock
    Rule: core/ranged_weapons.md#critical-n

    >>> rifle = Weapon("rifle", 24, 1, lock=4, damage=1)
    >>> [judge(natural, rifle, net=-1).value for natural in (1, 4, 5, 6)]
    ['fail', 'fail', 'success', 'critical']
    >>> judge(5, Weapon("needler", 24, 1, lock=4, damage=1, critical=5), net=0).value
    'critical'
    """
    if natural == 1 or natural + net < weapon.lock:
        return LockResult.FAIL
    if natural >= weapon.critical:
        return LockResult.CRITICAL
    return LockResult.SUCCESS


def die_probabilities(weapon: Weapon, net: int) -> dict[LockResult, Fraction]:
    """The chance of each result for one die of ``weapon`` at net modifier ``net``.

    Rule: core/target_lock.md#target-lock

    >>> chances = die_probabilities(Weapon("rifle", 24, 1, lock=4, damage=1), net=0)
    >>> [str(chances[r]) for r in (LockResult.FAIL, LockResult.SUCCESS, LockResult.CRITICAL)]
    ['1/2', '1/3', '1/6']
    """
    from fractions import Fraction

    counts = {result: 0 for result in LockResult}
    for natural in range(1, 7):
        counts[judge(natural, weapon, net)] += 1
    return {result: Fraction(n, 6) for result, n in counts.items() if n}


@frozen
class LockRoll:
    """One rolled die: its natural and modified result against the weapon's ``lock`` (``net`` is the
    capped modifier, ``critical_on`` the natural result from which a success is a Critical Lock)."""

    model: str
    weapon: str
    natural: int
    modified: int
    success: bool
    critical: bool
    lock: int
    net: int
    critical_on: int

    @property
    def rule(self) -> str:
        """The rule that decided this die: a natural 1, a Critical Lock (made or missed), or the lock.

        Rule: core/target_lock.md#target-lock
        """
        if self.natural == 1:
            return "core/target_lock.md#natural-1"
        if self.critical or self.natural >= self.critical_on:
            return "core/target_lock.md#critical-lock"
        return "core/target_lock.md#target-lock"

    def to_json(self) -> dict[str, object]:
        return {
            "model": self.model,
            "weapon": self.weapon,
            "natural": self.natural,
            "modified": self.modified,
            "success": self.success,
            "critical": self.critical,
        }


@frozen
class LockTally:
    """A firing weapon's result once its dice are rolled: how many Critical Locks and other successes."""

    criticals: int
    successes: int


@frozen
class LockChance:
    """The chance step of one firing weapon: ``dice`` D6 for ``weapon`` of ``model`` at ``net``.

    ``dice`` is the weapon's profile value for one firing group; the odds engine rolls several equal
    groups together by adding their dice, never by rewriting the weapon's profile, and counts its tallies
    in two passes (``rulespy.odds.pool``). Decision: no ``outcomes()`` here any more; the ``Fraction``
    trinomial it was is the tests' and the bench's oracle (``tests/odds/oracles.py``), since the engine
    never called it.

    Rule: core/target_lock.md#target-lock
    """

    model: str
    weapon: Weapon
    net: int
    dice: int

    def read(self, faces: tuple[int, ...]) -> tuple[LockTally, tuple[LockRoll, ...]]:
        """The tally of rolled ``faces``, and each die (dice showing the same face share one roll)."""
        seen: dict[int, LockRoll] = {}  # a weapon's dice show at most six faces: judged once each
        criticals = successes = 0
        for natural in dict.fromkeys(faces):
            result = judge(natural, self.weapon, self.net)
            seen[natural] = LockRoll(
                self.model,
                self.weapon.name,
                natural,
                natural + self.net,
                result is not LockResult.FAIL,
                result is LockResult.CRITICAL,
                self.weapon.lock,
                self.net,
                self.weapon.critical,
            )
            if result is LockResult.CRITICAL:
                criticals += faces.count(natural)
            elif result is LockResult.SUCCESS:
                successes += faces.count(natural)
        return LockTally(criticals, successes), tuple(map(seen.__getitem__, faces))
