"""The Firefight: an attack and the Snap Fire it provoked resolve as simultaneous fire.

The unit whose command started it has the Initiative. Its Critical Damage lands first and those casualties
are removed at once; the other unit then rolls with the models it still has in play; normal damage of both
follows, Initiative first; every other casualty is removed together at the end.
"""

from __future__ import annotations

import enum


class Removal(enum.StrEnum):
    """When a casualty leaves play."""

    IMMEDIATE = "immediate"
    END_OF_ATTACK = "end_of_attack"
    END_OF_FIREFIGHT = "end_of_firefight"


FIREFIGHT_STEPS = (
    "firefight-initiative-criticals",
    "firefight-reply-criticals",
    "firefight-normal-damage",
    "firefight-removal",
)


def removal_timing(critical: bool, firefight: bool) -> Removal:
    """Critical casualties leave at once; the rest at the end of the attack, or of the firefight.

    Rule: timing/firefight.md#removal-timing
    """
    if critical:
        return Removal.IMMEDIATE
    return Removal.END_OF_FIREFIGHT if firefight else Removal.END_OF_ATTACK
