"""What the odds engine remembers while it explores every outcome: whole deterministic steps.

Many dice outcomes reach the same allocation round or removal with the same inputs. ``StepMemo`` works
each out once: the state a step leaves is remembered under the step's key and every state field it
reads (wounds, pins, removals, casualties), and given to the next state that matches. The odds engine
reads states, never the log, so the memo keeps none of the records a step logs (holding them for every
remembered step made the garbage collector's work grow with the state space). Only the odds engine
needs this, so it lives here and not in the rules.
"""

from __future__ import annotations

from collections.abc import Callable

from rulespy.sequences.rounds import Memo
from rulespy.sequences.shooting_sequence import Item, State

# The state fields a step leaves: wounds, pins, removed, casualties and done.
Remembered = tuple[
    tuple[tuple[str, int], ...],
    frozenset[str],
    frozenset[str],
    frozenset[tuple[str, str]],
    bool,
]


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
            known = (after.wounds, after.pins, after.removed, after.casualties, after.done)
            self._steps[full] = known
        wounds, pins, removed, casualties, done = known
        return state.evolve(wounds=wounds, pins=pins, removed=removed, casualties=casualties, done=done)
