"""Where one attack's resolution stands: the frozen ``State`` the Shooting Sequence steps from one to the
next, the checked declarations (``AttackPlan``) and the firing weapons chosen (``FiringPlan``).

Apart from ``shooting_sequence.py`` so that the steps it drives (``rounds.py``) name these types without
importing the sequence that imports them.

Rule: sequences/shooting_sequence.md#shooting-sequence
"""

from __future__ import annotations

import operator
from dataclasses import fields
from typing import Any

from rulespy.core.command_rules import CommandRules
from rulespy.core.shooting import FiringWeapon, TargetPlan
from rulespy.frozen import frozen
from rulespy.sequences.records import Record
from rulespy.sequences.steps import Phase

Run = tuple[str, int]
Item = Record


@frozen
class AttackPlan:
    """One checked declaration: the shooting unit, its command's overrides and its targets in order."""

    unit: str
    rules: CommandRules
    targets: tuple[TargetPlan, ...]


class FiringPlan(tuple[tuple[FiringWeapon, ...], ...]):
    """One attack's firing weapons, per target: a tuple whose hash is worked out once, since every state
    of the attack carries it and the odds engine hashes states constantly."""

    def __hash__(self) -> int:
        cached: int | None = self.__dict__.get("hash")
        if cached is None:
            cached = self.__dict__["hash"] = tuple.__hash__(self)
        return cached


@frozen
class State:
    """Where the resolution stands. Only what later steps need, so that equal states merge.

    ``phase`` is the step of the current attack (``attack`` 1 is a firefight's reply); ``target`` is the
    target the Leadership Checks or the Target Lock dice have reached, ``group`` the next firing weapon
    to roll at it. ``passed`` holds, per target, whether it is fired at (the first target needs no
    check). Successes are kept per target as runs of weapon names in Dice Order (all the allocation
    needs).
    """

    phase: Phase = Phase.DECLARE
    attack: int = 0
    target: int = 0
    group: int = 0
    passed: tuple[bool, ...] = ()
    firing: tuple[FiringPlan, ...] = ()
    crits: tuple[tuple[Run, ...], ...] = ()
    normals: tuple[tuple[tuple[Run, ...], ...], ...] = ()
    wounds: tuple[tuple[str, int], ...] = ()
    removed: frozenset[str] = frozenset()
    pins: frozenset[str] = frozenset()
    casualties: frozenset[tuple[str, str]] = frozenset()

    @property
    def done(self) -> bool:
        return self.phase is Phase.DONE

    def evolve(self, **changes: Any) -> State:
        """A copy with ``changes``. Like ``dataclasses.replace``, without its per-call overhead: the odds
        engine makes hundreds of thousands of states."""
        if not _STATE_FIELDS.issuperset(changes):
            raise TypeError(f"State has no field {sorted(changes.keys() - _STATE_FIELDS)}")
        new = object.__new__(State)
        values = new.__dict__
        values.update(self.__dict__)
        values.pop("_hash", None)
        values.update(changes)
        return new

    def __hash__(self) -> int:
        """Computed once per state (states are frozen), since the odds engine looks states up often."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(_STATE_VALUES(self.__dict__))
            self.__dict__["_hash"] = cached
        return cached


_STATE_ORDER = tuple(f.name for f in fields(State))
_STATE_FIELDS = frozenset(_STATE_ORDER)
_STATE_VALUES = operator.itemgetter(*_STATE_ORDER)
