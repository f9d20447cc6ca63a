"""The numbered steps of the Shooting Sequence, in order: each is a heading anchor of
``sequences/shooting_sequence.md``. ``rulespy check`` compares this list with the rule file (RS060),
reading this module's source, so ``STEPS`` stays a plain literal tuple.

Rule: sequences/shooting_sequence.md#shooting-sequence
"""

from __future__ import annotations

import enum

STEPS = (
    "step-declare",
    "step-leadership",
    "step-firing-weapons",
    "step-target-lock",
    "step-critical-round",
    "step-normal-round",
    "step-removal",
)


class Phase(enum.Enum):
    """Where the sequence stands: one of its numbered steps (the value is the step's anchor, taken from
    ``STEPS`` in order), or ``DONE`` once the attack is resolved.

    Rule: sequences/shooting_sequence.md#shooting-sequence
    """

    DECLARE = STEPS[0]
    LEADERSHIP = STEPS[1]
    FIRING_WEAPONS = STEPS[2]
    TARGET_LOCK = STEPS[3]
    CRITICAL_ROUND = STEPS[4]
    NORMAL_ROUND = STEPS[5]
    REMOVAL = STEPS[6]
    DONE = "done"
