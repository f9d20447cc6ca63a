"""Target Lock: one D6 a die, modifiers summed and capped, natural 1 fails, Critical Locks.

The rules never roll: ``LockChance`` lists a firing weapon's outcomes with their probabilities for the
odds engine, and reads faces a driver rolled for ``resolve``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING

from rulespy.commands import CommandRules
from rulespy.core.cover import cover_modifier
from rulespy.core.ranged_weapons import Weapon
from rulespy.events import Event
from rulespy.state import Cover

if TYPE_CHECKING:  # probabilities are only listed for the odds engine: imported there
    from fractions import Fraction

MODIFIER_FLOOR = -2
MODIFIER_CEILING = 1


@dataclass(frozen=True)
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
        found.append(Modifier(-1, "firing model Pinned", "core/statuses.md#pinned"))
    if cover is Cover.LIGHT:
        found.append(Modifier(cover_modifier(cover), "target in Light cover", "core/cover.md#light-cover"))
    elif cover is Cover.HEAVY:
        found.append(Modifier(cover_modifier(cover), "target in Heavy cover", "core/cover.md#heavy-cover"))
    if weapon.precise:
        found.append(Modifier(+1, "Precise", "core/ranged_weapons.md#precise"))
    return tuple(found)


def judge(natural: int, weapon: Weapon, net: int) -> LockResult:
    """One die: a natural 1 always fails; success on modified >= lock; a successful die whose natural
    roll is 6 (N or more with Critical N) is a Critical Lock.

    Rule: core/target_lock.md#target-lock
    Rule: core/target_lock.md#natural-1
    Rule: core/target_lock.md#critical-lock
    Rule: core/ranged_weapons.md#critical-n
    """
    if natural == 1 or natural + net < weapon.lock:
        return LockResult.FAIL
    if natural >= weapon.critical:
        return LockResult.CRITICAL
    return LockResult.SUCCESS


def die_probabilities(weapon: Weapon, net: int) -> dict[LockResult, Fraction]:
    """The chance of each result for one die of ``weapon`` at net modifier ``net``.

    Rule: core/target_lock.md#target-lock
    """
    from fractions import Fraction

    counts = {result: 0 for result in LockResult}
    for natural in range(1, 7):
        counts[judge(natural, weapon, net)] += 1
    return {result: Fraction(n, 6) for result, n in counts.items() if n}


@dataclass(frozen=True)
class LockRoll:
    """One rolled die, as the account and ``resolve --json`` show it."""

    model: str
    weapon: str
    natural: int
    modified: int
    success: bool
    critical: bool

    def to_json(self) -> dict[str, object]:
        return {
            "model": self.model,
            "weapon": self.weapon,
            "natural": self.natural,
            "modified": self.modified,
            "success": self.success,
            "critical": self.critical,
        }


@dataclass(frozen=True)
class LockTally:
    """A firing weapon's result once its dice are rolled: how many Critical Locks and other successes."""

    criticals: int
    successes: int


@dataclass(frozen=True)
class LockChance:
    """The chance step of one firing weapon: ``dice`` D6 for ``weapon`` of ``model`` at ``net``.

    Rule: core/target_lock.md#target-lock
    """

    model: str
    weapon: Weapon
    net: int

    @property
    def dice(self) -> int:
        return self.weapon.dice

    def outcomes(self) -> list[tuple[LockTally, Fraction]]:
        """Every tally of criticals and other successes over the weapon's dice, with its probability."""
        from fractions import Fraction

        p = die_probabilities(self.weapon, self.net)
        pc, ps, pf = (
            p.get(r, Fraction(0)) for r in (LockResult.CRITICAL, LockResult.SUCCESS, LockResult.FAIL)
        )
        n = self.dice
        result = []
        for c in range(n + 1):
            for s in range(n - c + 1):
                f = n - c - s
                weight = comb(n, c) * comb(n - c, s) * pc**c * ps**s * pf**f
                if weight:
                    result.append((LockTally(c, s), weight))
        return result

    def read(self, faces: tuple[int, ...]) -> tuple[LockTally, tuple[LockRoll, ...], list[Event]]:
        """The tally of rolled ``faces``, each die as the account shows it, and the events."""
        seen: dict[int, tuple[LockRoll, Event]] = {}  # a weapon's dice show at most six faces
        rolls = []
        events = []
        criticals = successes = 0
        for natural in faces:
            found = seen.get(natural)
            if found is None:
                result = judge(natural, self.weapon, self.net)
                roll = LockRoll(
                    self.model,
                    self.weapon.name,
                    natural,
                    natural + self.net,
                    result is not LockResult.FAIL,
                    result is LockResult.CRITICAL,
                )
                found = seen[natural] = (roll, _describe(roll, self.weapon, self.net))
            rolls.append(found[0])
            events.append(found[1])
            criticals += found[0].critical
            successes += found[0].success and not found[0].critical
        return LockTally(criticals, successes), tuple(rolls), events


def _describe(roll: LockRoll, weapon: Weapon, net: int) -> Event:
    head = f"{roll.model} fires {roll.weapon}: natural {roll.natural}"
    if net:
        head += f", {net:+d} makes {roll.modified}"
    if roll.natural == 1:
        return Event("core/target_lock.md#natural-1", f"{head}: a natural 1 always fails")
    if roll.critical:
        return Event(
            "core/target_lock.md#critical-lock",
            f"{head} against lock {weapon.lock}: a success on a natural {roll.natural}, a Critical Lock",
        )
    if roll.success:
        return Event("core/target_lock.md#target-lock", f"{head} against lock {weapon.lock}: a success")
    if roll.natural >= weapon.critical:
        return Event(
            "core/target_lock.md#critical-lock",
            f"{head} against lock {weapon.lock}: fails, so the natural {roll.natural} is no Critical Lock",
        )
    return Event("core/target_lock.md#target-lock", f"{head} against lock {weapon.lock}: fails")
