"""The numbered steps of the Shooting Sequence, in order: each is a heading anchor of
``sequences/shooting_sequence.md``. ``rulespy check`` compares this list with the rule file (RS060),
reading this module's source, so ``STEPS`` stays a plain literal tuple.

Rule: sequences/shooting_sequence.md#shooting-sequence
"""

from __future__ import annotations

from rulespy.events import Event

STEPS = (
    "step-declare",
    "step-leadership",
    "step-firing-weapons",
    "step-target-lock",
    "step-critical-round",
    "step-normal-round",
    "step-removal",
)


def step(name: str, text: str) -> Event:
    """An event citing one numbered step of the Shooting Sequence.

    Rule: sequences/shooting_sequence.md#shooting-sequence
    """
    if name not in STEPS:
        raise ValueError(f"unknown sequence step {name!r}")
    return Event(f"sequences/shooting_sequence.md#{name}", text)
