"""One pass over an attack's Target Lock dice: both allocation rounds of a target dealt together.

The two-pass dealer (``rulespy.odds.exact``) must keep, for the second pass, how many of each firing
weapon's dice were no Critical Lock; when consecutive weapons differ (two profiles alternating model by
model) those counts cannot be joined and the states multiply. This module rolls every die once, as a
Critical Lock, another success or a fail, and deals the two kinds of success at once:

* **Critical Locks** into the target's critical round, as the two-pass dealer does.
* **Other successes** into the normal round, which starts only once the critical round has ended. So
  the critical round's end is **guessed**: its possible ends (each model's wounds once every Critical
  Lock is dealt) are found first, from the critical round alone, and the other successes are dealt
  into the normal round as it starts after each guessed end. A dice outcome counts under the one guess
  that comes true, so each outcome is counted once and the answer stays exact.
* **Deals no later success can tell apart are merged** (``layers``): working back from the last
  weapon, two deals of a round are alike when every number of successes each later weapon may still
  roll leads them to alike deals, and at the end to the same outcome. Which model took which success
  is soon forgotten this way (in the alternating attack, every critical round that has hit the first k
  models is one class), so the pass carries a handful of critical classes times the normal classes.
  With the engine's walk (``exact.Walk``) the outcome is which models end at 0 wounds, so survivors'
  wounds are forgotten too (what ``rulespy odds`` prints; ``tests/odds/test_joint.py`` proves the printed
  odds unchanged on every recorded scenario).

Used for an attack that no firefight follows, whose targets are distinct units (the critical and normal
rounds of one target touch no other target's models, so dealing one target's rounds after another's
reaches the same final state). The product of the two kinds of ways, ``criticals(n, crit)[k] *
others(n - k, success, fail)[j]``, is the tally's multinomial count, as in the two-pass dealer.

Rule: sequences/shooting_sequence.md#step-critical-round
Rule: sequences/shooting_sequence.md#step-normal-round
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Protocol

from rulespy.odds import pool
from rulespy.odds.deal import DealId, Round

# A firing group as the pass rolls it: (weapon number in the round, dice).
Group = tuple[int, int]


class Limits(Protocol):
    """The size limit's counters (``rulespy.odds.exact``): each refuses (``TooLarge``) before the work
    that would pass its limit."""

    def spend(self, transitions: int) -> None: ...

    def hold(self, states: int) -> None: ...

    def make(self, models: int) -> None: ...


@dataclass
class Layers:
    """A round's deals over a sequence of firing groups, merged into classes layer by layer.

    ``follow[i][c]`` lists, for class ``c`` before group ``i`` rolls, the class it reaches with 0, 1,
    ... successes of that group; ``start`` is the class of the round's first deal; ``finals[c]`` is a
    deal of final class ``c`` (one with the class's outcome).
    """

    follow: list[list[tuple[int, ...]]]
    start: int
    finals: list[DealId]


def layers(
    table: Round,
    start: DealId,
    groups: list[Group],
    outcome: Callable[[DealId], Hashable],
    limits: Limits,
) -> Layers:
    """Every deal of ``table`` reachable from ``start`` when each group in turn adds 0 to all its dice
    as successes, merged back from the end: deals with the same ``outcome`` at the end are one class,
    and before a group, deals whose every count of that group's successes leads to the same class are
    one class. ``limits`` is told of each deal about to be made and of each layer's deals."""
    # Forward: each layer's deals (the round's memo keeps where each success leads, not a copy here).
    layer: list[DealId] = [start]
    seen_layers: list[list[DealId]] = []
    for weapon, dice in groups:
        limits.spend(len(layer) * dice)
        reached: dict[DealId, None] = {}
        deal, made, make, size = table.deal, table.memo[weapon], limits.make, max(1, len(table.ids))
        for last in layer:
            reached[last] = None
            for _ in range(dice):
                after = made.get(last)
                if after is None:
                    make(size)
                    after = deal(last, weapon)
                reached[after] = None
                last = after
        seen_layers.append(layer)
        layer = list(reached)
        limits.hold(len(layer))
    # Backward: the outcome classes at the end, then before each group the rows of classes it leads to.
    numbers: dict[Hashable, int] = {}
    finals: list[DealId] = []
    cls: dict[DealId, int] = {}
    for last in layer:
        end = outcome(last)
        number = numbers.get(end)
        if number is None:
            number = numbers[end] = len(finals)
            finals.append(last)
        cls[last] = number
    follow: list[list[tuple[int, ...]]] = []
    for (weapon, dice), firsts in zip(reversed(groups), reversed(seen_layers), strict=True):
        made = table.memo[weapon]
        known: dict[tuple[int, ...], int] = {}
        rows: list[tuple[int, ...]] = []
        before: dict[DealId, int] = {}
        for first in firsts:
            row = [cls[first]]
            last = first
            for _ in range(dice):
                last = made[last]
                row.append(cls[last])
            key = tuple(row)
            number = known.get(key)
            if number is None:
                number = known[key] = len(rows)
                rows.append(key)
            before[first] = number
        follow.append(rows)
        cls = before
    follow.reverse()
    return Layers(follow, cls[start], finals)


def reach(crit: Layers, guess: list[int]) -> list[list[frozenset[int]]]:
    """For each layer (and the end), the guesses each critical class can still come to: ``guess[c]``
    is the guess final class ``c`` makes true."""
    at_end = [frozenset((g,)) for g in guess]
    found = [at_end]
    for rows in reversed(crit.follow):
        later = found[-1]
        found.append([frozenset().union(*(later[c] for c in row)) for row in rows])
    found.reverse()
    return found


def deal_both(
    crit: Layers,
    normal: Layers,
    faces: list[tuple[int, int, int, int]],
    can_reach: list[list[frozenset[int]]],
    guess: int,
    limits: Limits,
) -> dict[tuple[int, int], int]:
    """The joint pass under one guess: (critical class, normal class) at the end, each with its ways
    (out of 6 to the power of all the groups' dice).

    ``faces`` lists each group's (critical faces, success faces, fail faces, dice). A critical class
    that can no longer come to ``guess`` is dropped: its outcomes count under another guess.
    """
    # Keyed by one number, critical class * width + normal class (small integers hash fastest).
    width = len(normal.follow[0]) if normal.follow else 1
    states: dict[int, int] = {crit.start * width + normal.start: 1}
    for i, (c_faces, s_faces, f_faces, dice) in enumerate(faces):
        crit_rows, normal_rows = crit.follow[i], normal.follow[i]
        alive = [guess in guesses for guesses in can_reach[i + 1]]
        later = len(normal.follow[i + 1]) if i + 1 < len(normal.follow) else len(normal.finals)
        # Per number of Critical Locks: the ways of it with each number of other successes.
        tallies = [
            (k, [(j, ways * more) for j, more in enumerate(pool.others(dice - k, s_faces, f_faces)) if more])
            for k, ways in enumerate(pool.criticals(dice, c_faces))
            if ways
        ]
        limits.spend(len(states) * sum(len(others) for _, others in tallies))
        nexts: dict[int, int] = {}
        get = nexts.get
        for key, w in states.items():
            c, n = divmod(key, width)
            crow, nrow = crit_rows[c], normal_rows[n]
            for k, others in tallies:
                after = crow[k]
                if not alive[after]:
                    continue
                base = after * later
                for j, ways in others:
                    entry = base + nrow[j]
                    nexts[entry] = get(entry, 0) + w * ways
        limits.hold(len(nexts))
        states, width = nexts, later
    return {divmod(key, width): w for key, w in states.items()}
