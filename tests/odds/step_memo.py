"""What a driver that plays a sequence over many outcomes may remember: whole deterministic steps.

The exact engine (``rulespy/odds/exact.py``) deals the critical and normal rounds itself
(``rulespy/odds/deal.py``, ``rulespy/odds/joint.py``) and needs from its sequence only the geometry of
each target and firing group, which every sequence's plain ``rounds.Memo`` keeps. ``StepMemo`` is for
drivers that play the sequence's own steps many times, such as the seeded simulation of
``bench/bench_odds.py`` (the exact engine's cross-check): many dice outcomes reach the same allocation
round with the same inputs, and ``StepMemo`` works each out once. The state a step leaves is remembered
under the step's key and every state field it reads (wounds, pins, removals, casualties), and given to
the next state that matches. Such drivers read states, never the log, so the memo keeps none of the
records a step logs (holding them for every remembered step made the garbage collector's work grow
with the state space). Removal is not remembered (``rounds.remove_casualties``).

It was in the engine (``rulespy/odds/memo.py``), which never used it: only the bench's simulation and
``tests/sequences/test_records.py`` (which proves it reaches the states the sequence reaches alone) do.
Code no command runs is not a rule a player can meet, so no worked example could pin it down (``make
mutants`` counted its mutants as unreached): it lives beside the odds engine's other test-only helpers
(``tests/odds/oracles.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from rulespy.sequences.rounds import Memo
from rulespy.sequences.shooting_sequence import Item, State

# The state fields a step leaves: wounds, pins, removed and casualties.
Remembered = tuple[tuple[tuple[str, int], ...], frozenset[str], frozenset[str], frozenset[tuple[str, str]]]


class StepMemo(Memo):
    """Remembers every deterministic step of one sequence by everything it depends on; logs nothing."""

    def __init__(self) -> None:
        super().__init__()
        self._steps: dict[tuple[object, ...], Remembered] = {}

    def step(
        self,
        key: tuple[object, ...],
        state: State,
        items: list[Item],
        work: Callable[[State, list[Item]], State],
    ) -> State:
        full = key + (state.wounds, state.pins, state.removed, state.casualties)
        known = self._steps.get(full)
        if known is None:
            after = work(state, [])
            known = (after.wounds, after.pins, after.removed, after.casualties)
            self._steps[full] = known
        wounds, pins, removed, casualties = known
        return state.evolve(wounds=wounds, pins=pins, removed=removed, casualties=casualties)
