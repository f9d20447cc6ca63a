"""Exact outcome distributions by dynamic programming over the Shooting Sequence's state machine.

The engine's rules never roll: every chance step lists its outcomes with their probabilities. This
module walks the sequence and keeps a frontier of distinct states with their exact probabilities (whole
numbers over one power of 6, returned as ``Fraction``); two dice sequences that lead to equal states are
merged, so the work grows with the number of distinct states, not with 6 to the power of the dice.

The sequence drives every step but two. Its Leadership Checks are enumerated as it lists them. The
Target Lock dice of an attack that no firefight follows are rolled in one pass, both allocation rounds
of each target dealt at once (``rulespy.odds.joint``, ``_at_once``). A firefight's reply rolls between
the critical and the normal rounds, so a firefight's dice are rolled in two passes, since a die's
outcome is a Critical Lock, another success or a fail, and the two kinds of success meet different
models (sequences/shooting_sequence.md):

1. In the ``TARGET_LOCK`` phase, each firing weapon's Critical Locks are counted (each die a Critical
   Lock or not) and dealt at once into the target's critical round (``rulespy.odds.deal``): the models
   in play are known, and equal rounds merge before the next weapon rolls. Each weapon's dice that are
   no Critical Lock are kept, as a count, for the second pass; the critical rounds then end as the
   sequence ends them (casualties leave at once).
2. In the ``NORMAL_ROUND`` phase, each kept count is rolled again as other successes or fails (a
   success given that the die was no Critical Lock) and dealt into the normal rounds, in Dice Order.

The product of the two passes' chances is each tally's multinomial chance, so the answers are the ones
the sequence gives by rolling every weapon at once; ``tests/odds/test_answers.py`` holds every example's
answer as it was before the passes.

States are processed in order of their progress through the sequence (attack, phase, target, firing
group), which only ever grows, so every path into a state has arrived before that state is expanded and
each distinct state is expanded exactly once.

Size limit: at most ``MAX_STATES`` (100,000) distinct states held at once, at most ``MAX_TRANSITIONS``
(5,000,000) chance transitions in all and at most ``MAX_DEALS`` (1,000,000) allocation deals made by the one
pass, each counted once per model in play and ``DEAL_OVERHEAD`` (3) more (``rulespy.odds.joint``; a deal's
time and memory grow with the models; a firefight's two passes are held by the transitions). Each is
checked before the work that would pass it starts, so a scenario too large for the exact engine is refused
(``TooLarge``, exit 2) within seconds, never left to run on: on this repository's 2-core machine, loaded by
seven other sessions, any of them is reached within about 1 s of CPU and 150 MB (``tests/hostile``).

Rule: sequences/shooting_sequence.md#shooting-sequence
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulespy.core.leadership import LeadershipChance
from rulespy.core.shooting import TargetPlan
from rulespy.core.target_lock import LockChance, LockResult, die_probabilities
from rulespy.errors import InvalidInput
from rulespy.i18n import _
from rulespy.odds import joint, pool
from rulespy.odds.deal import Deal, DealId, Round
from rulespy.sequences.rounds import critical_casualties
from rulespy.sequences.shooting_sequence import ShootingSequence, State
from rulespy.sequences.steps import Phase

MAX_STATES = 100_000
MAX_TRANSITIONS = 5_000_000
MAX_DEALS = 1_000_000
DEAL_OVERHEAD = 3
"""What one allocation deal costs beyond its models, in models: a deal of few models in play still
takes about as long as three more (measured: about 1 us a model plus 2 us a deal), so a deal counts as
its models plus this much. Counted by the models alone, an attack of many weapon profiles at three
targets made 333,000 deals before the limit and took 1.7 s of CPU (3.0 s wall, loaded) to be refused."""

Progress = tuple[int, int, int, int]
# The phases in the order an attack goes through them (a firefight's reply starts again at LEADERSHIP).
ORDER = {phase: rank for rank, phase in enumerate(Phase)}
# Dice kept for the second pass: (attack, target, weapon, faces of another success, faces of a fail,
# dice that were no Critical Lock), in Dice Order.
Kept = tuple[tuple[int, int, str, int, int, int], ...]
Entry = tuple[State, Kept]


class TooLarge(InvalidInput):
    """The scenario is beyond the exact engine's size limit (the command line's exit 2)."""


def progress(state: State) -> Progress:
    """Where a state stands in the sequence; ``apply`` never makes it smaller."""
    return (state.attack, ORDER[state.phase], state.target, state.group)


@dataclass(frozen=True)
class Walk:
    """What ``final_states`` keeps of the sequence as it walks it, for ``rulespy odds``: each end's
    casualties (so ends merge), with ``keep_wounds`` each model's wounds left too (the expected wounds),
    never the pins, which nothing the odds print reads. Consecutive weapons of one profile are rolled
    together, and an attack no firefight follows is rolled in one pass (``rulespy.odds.joint``).

    ``tests/odds/full_states.py`` walks the same sequence keeping everything (wounds, removals and pins)
    and, for its tests, joining no weapons or rolling every attack in two passes: that is how the tests
    prove these merges change no answer."""

    keep_wounds: bool = False

    def one_pass(self, sequence: ShootingSequence) -> bool:
        """Whether the attacks' dice are rolled in one pass: no firefight follows and each target is its
        own unit (the rounds of one target then touch no other target's models)."""
        return not sequence.firefight and all(
            len({target.unit for target in plan.targets}) == len(plan.targets) for plan in sequence.attacks
        )

    def groups(self, chances: tuple[LockChance, ...]) -> list[tuple[str, int, int, int, int]]:
        """A target's firing weapons as (weapon, critical faces, success faces, fail faces, dice), in Dice
        Order, consecutive weapons of one profile whose dice have the same faces joined (their dice are
        alike and their successes fall into one run, so rolling them together reaches the same rounds)."""
        groups: list[tuple[str, int, int, int, int]] = []
        for chance in chances:
            faces = _faces(chance)
            name = chance.weapon.name
            if groups and groups[-1][:4] == (name, *faces):
                groups[-1] = (*groups[-1][:4], groups[-1][4] + chance.dice)
            else:
                groups.append((name, *faces, chance.dice))
        return groups

    def round(
        self, seq: ShootingSequence, state: State, attack: int, index: int, target: TargetPlan, critical: bool
    ) -> Round:
        """The allocation round at target ``index`` of ``attack`` (``Round.of``)."""
        return Round.of(seq, state, attack, index, target, critical)

    def finished(self, state: State) -> State:
        """A finished state reduced to what its outcome is: its casualties, and with ``keep_wounds`` each
        model's wounds left."""
        if self.keep_wounds:
            return State(casualties=state.casualties, wounds=state.wounds, phase=Phase.DONE)
        return State(casualties=state.casualties, phase=Phase.DONE)

    def critical_end(self, deal: Deal) -> Hashable:
        """What tells a critical round's ends apart in the one pass: whether a Critical Lock was dealt (the
        round then ends as the sequence ends it) and each model's wounds."""
        started, _, _, wounds, _ = deal
        return started, wounds

    def normal_end(self, deal: Deal) -> Hashable:
        """What tells a normal round's ends apart in the one pass: which models end at 0 wounds, or with
        ``keep_wounds`` every model's wounds left."""
        wounds = deal[3]
        return wounds if self.keep_wounds else tuple(left == 0 for left in wounds)


CASUALTIES = Walk()
"""The walk ``rulespy odds`` reads its casualties from."""
WOUNDS = Walk(keep_wounds=True)
"""The walk ``rulespy odds`` reads its casualties and expected wounds from."""


class _Limits:
    """The size limit's counters for one enumeration."""

    def __init__(self, max_states: int, max_transitions: int, max_deals: int = 0) -> None:
        self.max_states = max_states
        self.max_transitions = max_transitions
        self.max_deals = self.deals_left = max_deals
        self.transitions = 0
        self.held = 0

    def spend(self, transitions: int) -> None:
        """Count ``transitions`` about to be made; refuse first if they pass the limit."""
        if self.transitions + transitions > self.max_transitions:
            raise TooLarge(
                _(
                    "the attack is too large for exact odds: it needs more than {limit:,} chance transitions "
                    "(the exact engine's limit; see `rulespy odds --help`)",
                    limit=self.max_transitions,
                )
            )
        self.transitions += transitions

    def hold(self, states: int) -> None:
        if self.held + states > self.max_states:
            raise TooLarge(
                _(
                    "the attack is too large for exact odds: more than {limit:,} distinct states at once "
                    "(the exact engine's limit; see `rulespy odds --help`)",
                    limit=self.max_states,
                )
            )

    def make(self, models: int) -> None:
        """Count one allocation deal of ``models`` models about to be made (``rulespy.odds.joint``; its
        memory grows with the models); refuse first past the limit."""
        self.deals_left -= models + DEAL_OVERHEAD
        if self.deals_left < 0:
            raise TooLarge(
                _(
                    "the attack is too large for exact odds: its allocation rounds need more than {limit:,} "
                    "deals, each counted once per model in play and {overhead} more (the exact engine's "
                    "limit; see `rulespy odds --help`)",
                    limit=self.max_deals,
                    overhead=DEAL_OVERHEAD,
                )
            )


def final_states(
    sequence: ShootingSequence,
    max_states: int = MAX_STATES,
    max_transitions: int = MAX_TRANSITIONS,
    max_deals: int = MAX_DEALS,
    walk: Walk = CASUALTIES,
) -> dict[State, Fraction]:
    """Every end the sequence can come to, as ``walk`` keeps it (its casualties, by default), with its
    exact probability (they sum to 1).

    Raises ``TooLarge`` as soon as the next step would hold more than ``max_states`` distinct states, take
    the total past ``max_transitions`` transitions or the one pass's deals past ``max_deals``.

    Every chance outcome has a probability of k / 6**dice, so weights are kept as whole numbers over one
    common denominator 6**E, E being at least every die the sequence can roll: exact, and much faster
    than adding and multiplying ``Fraction`` objects. The first pass divides by 6 for each die; the
    second multiplies by the faces of a success or a fail among the faces of no Critical Lock, which
    leaves a whole number because the first pass counted those faces for each die it kept.
    """
    start, _ = sequence.initial()
    scale = 6 ** dice_bound(sequence)
    at_once = walk.one_pass(sequence)
    limits = _Limits(max_states, max_transitions, max_deals)
    done: dict[State, int] = {}
    buckets: dict[Progress, dict[Entry, int]] = {}
    queue: list[Progress] = []
    rounds = _Rounds(sequence, walk)

    def add(state: State, kept: Kept, weight: int) -> None:
        if state.done:
            state = walk.finished(state)
            done[state] = done.get(state, 0) + weight
            return
        key = progress(state)
        bucket = buckets.get(key)
        if bucket is None:
            bucket = buckets[key] = {}
            heapq.heappush(queue, key)
        entry = (state, kept)
        if entry in bucket:
            bucket[entry] += weight
        else:
            limits.hold(1)
            bucket[entry] = weight
            limits.held += 1

    add(start, (), scale)
    while queue:
        batch = buckets.pop(heapq.heappop(queue))
        limits.held -= len(batch)
        normal: dict[Entry, int] = {}
        for (state, kept), weight in batch.items():
            if state.phase is Phase.LEADERSHIP:
                chance = sequence.chance(state)
                assert isinstance(chance, LeadershipChance)
                limits.spend(2)
                for passed, p in chance.outcomes():
                    exact = weight * p
                    assert exact.denominator == 1, "the dice bound covers every die rolled"
                    after, _ = sequence.advance(sequence.record(state, passed), Phase.NORMAL_ROUND)
                    add(after, kept, exact.numerator)
            elif state.phase is Phase.TARGET_LOCK and at_once:
                for after, part in _at_once(state, weight, rounds, limits):
                    add(sequence.advance(after)[0], kept, part)
            elif state.phase is Phase.TARGET_LOCK:
                for (after, more), part in _criticals(state, weight, rounds, limits):
                    add(sequence.advance(after, Phase.NORMAL_ROUND)[0], kept + more, part)
            else:
                assert state.phase is Phase.NORMAL_ROUND, f"no chance step in {state.phase}"
                normal[(state, kept)] = weight
        if normal:
            for after, part in _normals(normal, rounds, limits).items():
                add(sequence.advance(after)[0], (), part)
    return {state: Fraction(weight, scale) for state, weight in done.items()}


def _faces(chance: LockChance) -> tuple[int, int, int]:
    """How many of a die's six faces give a Critical Lock, another success and a fail."""
    p = die_probabilities(chance.weapon, chance.net)
    crit, success, fail = (
        int(p.get(r, 0) * 6) for r in (LockResult.CRITICAL, LockResult.SUCCESS, LockResult.FAIL)
    )
    return crit, success, fail


class _Rounds:
    """The allocation rounds of one walk, each made once (``walk.round``) for the models a state has in
    play and the weapons firing at its target."""

    def __init__(self, sequence: ShootingSequence, walk: Walk) -> None:
        self.sequence = sequence
        self.walk = walk
        self.made: dict[tuple[object, ...], Round] = {}

    def get(self, state: State, attack: int, index: int, critical: bool) -> Round:
        key = (attack, index, critical, state.removed, state.firing[attack])
        found = self.made.get(key)
        if found is None:
            target = self.sequence.attacks[attack].targets[index]
            found = self.made[key] = self.walk.round(self.sequence, state, attack, index, target, critical)
        return found


def _critical_end(
    sequence: ShootingSequence, table: Round, before: State, deal: DealId, target: TargetPlan
) -> State:
    """``before`` once its critical round ``deal`` has ended as the sequence ends it (casualties leave
    at once); unchanged when no Critical Lock was rolled.

    Rule: sequences/shooting_sequence.md#step-critical-round
    """
    if not table.started(deal):
        return before
    return critical_casualties(sequence, table.settle(before, deal), target, [])


def _criticals(
    state: State, weight: int, rounds: _Rounds, limits: _Limits
) -> list[tuple[tuple[State, Kept], int]]:
    """The first pass over an attack's Target Lock dice: each weapon's Critical Locks dealt as they
    are rolled, target by target, each critical round ended as the sequence ends it; the dice that
    were no Critical Lock kept for the second pass. Returns (state in the critical-round phase, kept)
    with weights.

    Rule: sequences/shooting_sequence.md#step-target-lock
    Rule: sequences/shooting_sequence.md#step-critical-round
    """
    sequence, attack = rounds.sequence, state.attack
    plan = sequence.attacks[attack]
    entries: dict[tuple[State, Kept], int] = {(state, ()): weight}
    for index, chances in enumerate(sequence.lock_chances(state)):
        groups = rounds.walk.groups(chances)
        if not groups:
            continue
        dealt: dict[tuple[State, Kept, DealId], int] = {}
        for (before, kept), w in entries.items():
            dealt[(before, kept, rounds.get(before, attack, index, True).start(before))] = w
        for name, crit, success, fail, dice in groups:
            limits.spend(len(dealt) * (dice + 1))
            whole = 6**dice
            following: dict[tuple[State, Kept, DealId], int] = {}
            for (before, kept, deal), w in dealt.items():
                table = rounds.get(before, attack, index, True)
                weapon = table.weapons[name]
                share, rest = divmod(w, whole)
                assert not rest, "the dice bound covers every die rolled"
                for found, ways in enumerate(pool.criticals(dice, crit)):
                    if not ways:
                        break  # no face makes a Critical Lock
                    left = dice - found
                    p = share * ways
                    if left and success:
                        more = _keep(kept, (attack, index, name, success, fail, left))
                    else:  # no other success possible: every die left is a fail
                        more, p = kept, p * fail**left
                    entry = (before, more, deal)
                    following[entry] = following.get(entry, 0) + p
                    deal = table.deal(deal, weapon)
            limits.hold(len(following))
            dealt = following
        entries = {}
        for (before, kept, deal), w in dealt.items():
            table = rounds.get(before, attack, index, True)
            after = _critical_end(sequence, table, before, deal, plan.targets[index])
            entries[(after, kept)] = entries.get((after, kept), 0) + w
    ended = [(state.evolve(phase=Phase.CRITICAL_ROUND), kept) for state, kept in entries]
    return [((after, kept), w) for (after, kept), w in zip(ended, entries.values(), strict=True)]


def _at_once(state: State, weight: int, rounds: _Rounds, limits: _Limits) -> list[tuple[State, int]]:
    """An attack no firefight follows, from its Target Lock dice to removal, in one pass: each target's
    critical and normal rounds dealt together (``rulespy.odds.joint``), target after target. Returns
    states in the removal phase, with weights. The ends of each round are told apart as the walk tells
    them (``Walk.critical_end``, ``Walk.normal_end``).

    Rule: sequences/shooting_sequence.md#step-target-lock
    Rule: sequences/shooting_sequence.md#step-critical-round
    Rule: sequences/shooting_sequence.md#step-normal-round
    """
    sequence, walk, attack = rounds.sequence, rounds.walk, state.attack
    plan = sequence.attacks[attack]
    entries: dict[State, int] = {state: weight}
    for index, chances in enumerate(sequence.lock_chances(state)):
        groups = walk.groups(chances)
        if not groups:
            continue
        faces = [(crit, success, fail, dice) for _, crit, success, fail, dice in groups]
        following: dict[State, int] = {}
        whole = 6 ** sum(dice for *_, dice in groups)
        for before, w in entries.items():
            share, rest = divmod(w, whole)
            assert not rest, "the dice bound covers every die rolled"
            crit = rounds.get(before, attack, index, True)

            def crit_end(deal: DealId, crit: Round = crit) -> Hashable:
                return walk.critical_end(crit.deals[deal])

            weapons = [(crit.weapons[name], dice) for name, *_, dice in groups]
            crits = joint.layers(crit, crit.start(before), weapons, crit_end, limits)
            # The state each critical end leaves, and the normal round it starts (one per guess, started
            # from the first end that makes that guess).
            ended: list[State] = []
            guesses: dict[tuple[object, ...], int] = {}
            guess: list[int] = []
            firsts: list[State] = []
            for deal in crits.finals:
                after = _critical_end(sequence, crit, before, deal, plan.targets[index])
                ended.append(after)
                made = guesses.setdefault((after.removed, after.wounds), len(guesses))
                if made == len(firsts):
                    firsts.append(after)
                guess.append(made)
            can_reach = joint.reach(crits, guess)
            for number, first in enumerate(firsts):
                table = rounds.get(first, attack, index, False)

                def normal_end(deal: DealId, table: Round = table) -> Hashable:
                    return walk.normal_end(table.deals[deal])

                weapons = [(table.weapons[name], dice) for name, *_, dice in groups]
                normals = joint.layers(table, table.start(first), weapons, normal_end, limits)
                pairs = joint.deal_both(crits, normals, faces, can_reach, number, limits)
                for (c, n), ways in pairs.items():
                    after = table.settle(ended[c], normals.finals[n])
                    following[after] = following.get(after, 0) + share * ways
        limits.hold(len(following))
        entries = following
    return [(after.evolve(phase=Phase.REMOVAL), w) for after, w in entries.items()]


def _keep(kept: Kept, group: tuple[int, int, str, int, int, int]) -> Kept:
    """``kept`` with one more weapon's dice; added to the last when it is the same weapon's run."""
    if kept and kept[-1][:5] == group[:5]:
        return kept[:-1] + ((*group[:5], kept[-1][5] + group[5]),)
    return kept + (group,)


def _normals(batch: dict[Entry, int], rounds: _Rounds, limits: _Limits) -> dict[State, int]:
    """The second pass: the kept dice rolled as other successes or fails and dealt into the normal
    rounds (every target of every attack, in the sequence's order). Entries with as many kept weapons
    left go together, so that equal rounds merge. Returns states ready for removal, with weights.

    Rule: sequences/shooting_sequence.md#step-normal-round
    """
    # Entries are keyed by numbers (the state's, the kept dice's, the round's deal): hashed cheaply.
    states: list[State] = []
    kepts: list[Kept] = []
    numbers: dict[object, int] = {}

    def number(value: State | Kept, into: list[Any]) -> int:
        found = numbers.get(value)
        if found is None:
            found = numbers[value] = len(into)
            into.append(value)
        return found

    Step = tuple[int, int, DealId | None]
    waves: dict[int, dict[Step, int]] = {}
    for (state, kept), weight in batch.items():
        waves.setdefault(len(kept), {})[(number(state, states), number(kept, kepts), None)] = weight
    ready: dict[State, int] = {}
    while waves:
        left = max(waves)
        entries = waves.pop(left)
        limits.spend(sum(kepts[k][0][5] + 1 if kepts[k] else 1 for _, k, _ in entries))
        dealt: dict[Step, int] = {}
        ended: dict[tuple[int, int, DealId, int, int], int] = {}
        for (at, k, deal), w in entries.items():
            before, rest = states[at], kepts[k]
            if not rest:
                after = before.evolve(phase=Phase.REMOVAL)
                ready[after] = ready.get(after, 0) + w
                continue
            attack, index, name, success, fail, dice = rest[0]
            table = rounds.get(before, attack, index, False)
            if deal is None:
                deal = table.start(before)
            weapon = table.weapons[name]
            later = number(rest[1:], kepts)
            going_on = len(rest) > 1 and rest[1][:2] == (attack, index)
            for ways in pool.others(dice, success, fail):
                p = w * ways
                if p and going_on:
                    entry: Step = (at, later, deal)
                    dealt[entry] = dealt.get(entry, 0) + p
                elif p:
                    over = (at, later, deal, attack, index)
                    ended[over] = ended.get(over, 0) + p
                deal = table.deal(deal, weapon)
        for (at, later, deal, attack, index), w in ended.items():  # the round is over
            before = states[at]
            table = rounds.get(before, attack, index, False)
            settled = (number(table.settle(before, deal), states), later, None)
            dealt[settled] = dealt.get(settled, 0) + w
        if dealt:
            limits.hold(len(dealt))
            wave = waves.setdefault(left - 1, {})
            for entry, w in dealt.items():
                wave[entry] = wave.get(entry, 0) + w
    return ready


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
