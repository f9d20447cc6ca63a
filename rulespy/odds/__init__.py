"""Exact odds of a scenario's attack, computed from the same state machine ``rulespy resolve`` runs.

``odds(scenario)`` returns an ``Odds`` (``rulespy.odds.summary``; its ``casualties`` are the distribution
in the first target's unit) and ``markdown_table(scenario)`` is what a rule page shows beside a worked
example. The scenario's ``dice`` and ``seed`` are ignored: every die is enumerated with its probability,
nothing is sampled.

What a player reads (the casualties) is computed from final states that keep the casualties alone
(``final_states`` with ``exact.CASUALTIES``): survivors' wounds and pins, which nothing printed depends
on, are forgotten so that more ends merge; ``tests/odds/test_joint.py`` proves the printed and JSON odds
those of the full final states on every recorded scenario. The expected wounds taken off each target unit
need the survivors' wounds: they are kept (``exact.WOUNDS``, pins still forgotten; about a tenth more work
on the recorded scenarios) within a quarter of the size limit (``WOUNDS_LIMITS``); an attack beyond that is
worked out again without them, and its odds have no expected wounds (``Odds.wounds`` None, JSON ``null``,
the text says so).

Size limit (``rulespy.odds.exact``): at most ``MAX_STATES`` (100,000) distinct states held at once,
``MAX_TRANSITIONS`` (5,000,000) chance transitions in all and ``MAX_DEALS`` (1,000,000) allocation deals
(each counted once per model in play and 3 more, in an attack no firefight follows); beyond that
``TooLarge`` (an ``InvalidInput``, the command line's exit 2) is raised before the work that would pass
the limit starts. Before any of that, ``rulespy.odds.limits`` judges the request from the scenario alone
(models a unit, dice a weapon, estimated work), so that whatever is accepted is answered or refused within
about 1 s of CPU and 150 MB (``odds --help``).

Rule: sequences/shooting_sequence.md#shooting-sequence
"""

from __future__ import annotations

from rulespy.odds.exact import MAX_DEALS, MAX_STATES, MAX_TRANSITIONS, WOUNDS, TooLarge, final_states
from rulespy.odds.limits import check_size
from rulespy.odds.render import bar_chart
from rulespy.odds.render import markdown_table as _markdown
from rulespy.odds.summary import Odds, summarise
from rulespy.sequences.shooting_sequence import ShootingSequence
from rulespy.state import Scenario

__all__ = [
    "MAX_DEALS",
    "MAX_STATES",
    "MAX_TRANSITIONS",
    "Odds",
    "TooLarge",
    "bar_chart",
    "markdown_table",
    "odds",
]


WOUNDS_LIMITS: dict[str, int] = {
    "max_states": MAX_STATES // 4,
    "max_transitions": MAX_TRANSITIONS // 4,
    "max_deals": MAX_DEALS // 4,
}
"""The exact engine's limits while it keeps each model's wounds left (for the expected wounds): a quarter
of its own, so that an attack too large for them costs little before its casualties are worked out
without the wounds (or it is refused). Kept wounds make each deal dearer: at half the limits, the
attack of ``tests/odds/test_sampled.py``'s ``BEYOND`` spent 0.83 s of CPU before the wounds were refused
against 1.13 s for the refusal itself; at a quarter, 1.35 s in all instead of 1.13 s."""


def odds(scenario: Scenario) -> Odds:
    """The exact odds of the scenario's attack (and its firefight, with a Snap Fire response).

    Raises ``IllegalDeclaration`` for a declaration the rules forbid (nothing enumerated) and
    ``TooLarge`` beyond the size limit.
    """
    sequence = ShootingSequence(scenario)  # the declaration's legality first
    try:
        check_size(scenario)
        try:  # with each model's wounds left (the expected wounds), within a quarter of the limits
            finals = final_states(sequence, **WOUNDS_LIMITS, walk=WOUNDS)
            return summarise(sequence, finals, wounds=True)
        except TooLarge:
            pass
        finals = final_states(sequence)
    except TooLarge as error:
        error.path = error.path or scenario.path
        raise
    return summarise(sequence, finals)


def markdown_table(scenario: Scenario) -> str:
    """A small markdown table of the casualty odds in the first target's unit, for a rule page."""
    return _markdown(odds(scenario))
