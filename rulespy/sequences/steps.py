"""The numbered steps of the Shooting Sequence, in order: each is a heading anchor of
``sequences/shooting_sequence.md``. ``rulespy check`` compares this list with the rule file (RS060),
reading this module's source, so ``STEPS`` stays a plain literal tuple.

Rule: sequences/shooting_sequence.md#shooting-sequence
"""

from __future__ import annotations

STEPS = (
    "step-declare",
    "step-leadership",
    "step-firing-weapons",
    "step-target-lock",
    "step-critical-round",
    "step-normal-round",
    "step-removal",
)

