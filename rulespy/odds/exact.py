"""Exact outcome distributions by dynamic programming over the Shooting Sequence's state machine.

The engine's rules never roll: every chance step lists its outcomes with their probabilities. This
module walks those steps and keeps a frontier of distinct states with their exact probabilities (whole
numbers over one power of 6, returned as ``Fraction``); two dice sequences that lead to equal states are
merged, so the work grows with the number of distinct states, not with 6 to the power of the dice.

States are processed in order of their progress through the sequence (attack, stage, target, firing
group), which only ever grows, so every path into a state has arrived before that state is expanded and
each distinct state is expanded exactly once.

Size limit: at most ``MAX_STATES`` (100,000) distinct states held at once and at most
``MAX_TRANSITIONS`` (1,000,000) chance transitions in all. Transitions and each weapon's outcome count are
checked before the work starts, states as they are made, so a scenario too large for the exact engine is
refused (``TooLarge``, exit 2) within seconds, never left to run on.

Rule: sequences/shooting_sequence.md#shooting-sequence
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable
from dataclasses import replace
from fractions import Fraction

from rulespy.core.leadership import LeadershipChance
from rulespy.core.target_lock import LockChance, LockTally
from rulespy.errors import InvalidInput
from rulespy.sequences.shooting_sequence import Chance, ShootingSequence, State

MAX_STATES = 100_000
MAX_TRANSITIONS = 1_000_000

Progress = tuple[int, int, int, int]
NOTHING = LockTally(0, 0)


class TooLarge(InvalidInput):
    """The scenario is beyond the exact engine's size limit (the command line's exit 2)."""


def progress(state: State) -> Progress:
    """Where a state stands in the sequence; ``apply`` never makes it smaller."""
    return (state.attack, 0 if state.group < 0 else 1, state.target, state.group)


def finished(state: State) -> State:
    """A finished state reduced to what its outcome is: casualties, wounds and pins (so ends merge)."""
    return State(
        wounds=state.wounds,
        removed=state.removed,
        pins=state.pins,
        casualties=state.casualties,
        done=True,
    )


def _outcome_key(chance: Chance) -> Hashable:
    if isinstance(chance, LeadershipChance):
        return ("leadership", chance.ld)
    return ("lock", chance.weapon, chance.net)


def final_states(
    sequence: ShootingSequence,
    max_states: int = MAX_STATES,
    max_transitions: int = MAX_TRANSITIONS,
    on_batch: Callable[[int, int], None] | None = None,
    join_groups: bool = True,
) -> dict[State, Fraction]:
    """Every state the sequence can end in, with its exact probability (they sum to 1).

    Raises ``TooLarge`` as soon as the next batch would hold more than ``max_states`` distinct states or
    take the total past ``max_transitions`` transitions. ``on_batch(states, transitions)`` is called
    after each batch (for profiling). ``join_groups`` False rolls every firing group on its own (for
    tests proving that joining them changes nothing).

    Every chance outcome has a probability of k / 6**dice, so weights are kept as whole numbers over one
    common denominator 6**E, E being at least every die the sequence can roll: exact, and much faster
    than adding and multiplying ``Fraction`` objects.
    """
    start, _ = sequence.initial()
    scale = 6 ** dice_bound(sequence)
    done: dict[State, int] = {}
    buckets: dict[Progress, dict[State, int]] = {}
    queue: list[Progress] = []
    cache: dict[Hashable, list[tuple[object, int, int]]] = {}
    transitions = 0
    held = 0

    def add(state: State, weight: int) -> None:
        nonlocal held
        if state.done:
            state = finished(state)
            target = done
        else:
            key = progress(state)
            target = buckets.get(key)  # type: ignore[assignment]
            if target is None:
                target = buckets[key] = {}
                heapq.heappush(queue, key)
        if state in target:
            target[state] += weight
        else:
            target[state] = weight
            held += 1

    add(start, scale)
    while queue:
        batch = buckets.pop(heapq.heappop(queue))
        held -= len(batch)
        planned = []
        work = 0
        for state, weight in batch.items():
            chance, steps = _grouped_chance(sequence, state, join_groups)
            key = (_outcome_key(chance), chance.dice)
            outcomes = cache.get(key)
            if outcomes is None:
                # Count before listing: a weapon with very many dice has very many tallies, each a state.
                count = _outcome_count(chance)
                if count > max_states:
                    _too_many(max_states)
                if transitions + work + len(batch) * count > max_transitions:
                    _too_much(max_transitions)
                outcomes = cache[key] = _integral(chance)
            work += len(outcomes)
            planned.append((state, weight, outcomes, steps))
        if transitions + work > max_transitions:
            _too_much(max_transitions)
        transitions += work
        recorded: dict[State, int] = {}
        for state, weight, outcomes, steps in planned:
            for _ in range(steps - 1):
                state = sequence.record(state, NOTHING)
            for outcome, numerator, dice in outcomes:
                after = sequence.record(state, outcome)
                share, rest = divmod(weight * numerator, 6**dice)
                assert not rest, "the dice bound covers every die rolled"
                recorded[after] = recorded.get(after, 0) + share
            if held + len(recorded) > max_states:
                _too_many(max_states)
        for state, weight in recorded.items():
            add(sequence.advance(state)[0], weight)
        if held > max_states:
            _too_many(max_states)
        if on_batch is not None:
            on_batch(held, transitions)
    return {state: Fraction(weight, scale) for state, weight in done.items()}


def _grouped_chance(sequence: ShootingSequence, state: State, join: bool = True) -> tuple[Chance, int]:
    """The state's chance step, joined with the firing groups right after it that roll the same weapon
    profile at the same net modifier at the same target, and how many groups that makes.

    The sequence keeps a target's successes as runs of weapon names, so groups of one profile in a row
    add into one run: rolling them one by one or all at once reaches the same state, and the sum of their
    tallies is the tally of all their dice together. Recording an empty tally for each group but the last
    and the joint tally for the last gives exactly the state the groups reach one by one, with far fewer
    states in between.
    """
    chance = sequence.chance(state)
    assert chance is not None, "an unfinished state waits for a chance step"
    if isinstance(chance, LeadershipChance) or not join:
        return chance, 1
    groups = state.firing[state.attack][state.target]
    steps, dice = 1, chance.dice
    while state.group + steps < len(groups):
        following = sequence.chance(state.evolve(group=state.group + steps))
        if not isinstance(following, LockChance) or (following.weapon, following.net) != (
            chance.weapon,
            chance.net,
        ):
            break
        steps += 1
        dice += following.dice
    if steps == 1:
        return chance, 1
    return replace(chance, dice=dice), steps


def dice_bound(sequence: ShootingSequence) -> int:
    """At least as many dice as the sequence can roll: the dice of every weapon declared at each target
    (``Weapon.dice_at`` that target), and two for each Leadership Check."""
    bf = sequence.battlefield
    total = 0
    for plan in sequence.attacks:
        total += 2 * len(plan.targets)
        for target in plan.targets:
            models = len(bf.unit(target.unit).models)
            total += sum(bf.weapon(name).dice_at(models) for _, name in target.weapons)
    return total


def _outcome_count(chance: Chance) -> int:
    """How many outcomes a chance step lists, without listing them."""
    if isinstance(chance, LeadershipChance):
        return 2
    return (chance.dice + 1) * (chance.dice + 2) // 2


def _integral(chance: Chance) -> list[tuple[object, int, int]]:
    """The chance step's outcomes as (outcome, k, dice) with probability k / 6**dice."""
    whole = 6**chance.dice
    result: list[tuple[object, int, int]] = []
    for outcome, p in chance.outcomes():
        numerator = p * whole
        assert numerator.denominator == 1, "every chance outcome is a whole number of die faces"
        result.append((outcome, numerator.numerator, chance.dice))
    return result


def _too_much(max_transitions: int) -> None:
    raise TooLarge(
        f"the attack is too large for exact odds: it needs more than {max_transitions:,} chance "
        "transitions (the exact engine's limit; see `rulespy odds --help`)"
    )


def _too_many(max_states: int) -> None:
    raise TooLarge(
        f"the attack is too large for exact odds: more than {max_states:,} distinct states at once "
        "(the exact engine's limit; see `rulespy odds --help`)"
    )
