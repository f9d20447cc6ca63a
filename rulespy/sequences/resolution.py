"""Resolving a scenario with dice, and the result as ``resolve --json`` prints it.

Rule: sequences/shooting_sequence.md#dice-order
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from rulespy.dice import ScriptedDice, SeededDice
from rulespy.errors import InvalidInput
from rulespy.events import Event
from rulespy.sequences.records import Casualty, Hit, Leadership, Rolled
from rulespy.sequences.shooting_sequence import Item, ShootingSequence, State
from rulespy.state import ModelStatus, Scenario


class DiceSource(Protocol):
    def roll(self, count: int) -> tuple[int, ...]: ...

    def finish(self) -> None: ...


@dataclass(frozen=True)
class TargetResult:
    unit: str
    fired: bool
    leadership: Leadership | None
    locks: tuple[Rolled, ...]
    allocation: tuple[Hit, ...]

    @property
    def successes(self) -> int:
        return sum(r.roll.success for r in self.locks)

    @property
    def criticals(self) -> int:
        return sum(r.roll.critical for r in self.locks)

    def to_json(self) -> dict[str, Any]:
        leadership = None
        if self.leadership is not None:
            leadership = {"dice": list(self.leadership.dice), "passed": self.leadership.passed}
        return {
            "unit": self.unit,
            "fired": self.fired,
            "leadership": leadership,
            "locks": [r.roll.to_json() for r in self.locks],
            "successes": self.successes,
            "criticals": self.criticals,
            "allocation": [h.to_json() for h in self.allocation],
        }


@dataclass(frozen=True)
class AttackResult:
    unit: str
    command: str
    initiative: bool
    targets: tuple[TargetResult, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "command": self.command,
            "initiative": self.initiative,
            "targets": [t.to_json() for t in self.targets],
        }


@dataclass(frozen=True)
class Resolution:
    """What happened: every attack and target, the casualties, every model's final state, the trace."""

    attacks: tuple[AttackResult, ...]
    casualties: tuple[Casualty, ...]
    models: dict[str, tuple[int, tuple[str, ...]]]
    trace: tuple[Event, ...]

    legal = True

    def wounds(self, model_id: str) -> int:
        """A model's wounds left at the end."""
        return self.models[model_id][0]

    def status(self, model_id: str) -> tuple[str, ...]:
        return self.models[model_id][1]

    @property
    def removed(self) -> dict[str, str]:
        """Each casualty and when it left play."""
        return {c.model: c.removed for c in self.casualties}

    def to_json(self) -> dict[str, Any]:
        return {
            "legal": True,
            "attacks": [a.to_json() for a in self.attacks],
            "casualties": [c.to_json() for c in self.casualties],
            "models": {m: {"wounds": w, "status": list(s)} for m, (w, s) in self.models.items()},
            "trace": [e.to_json() for e in self.trace],
        }


def dice_for(scenario: Scenario) -> DiceSource:
    """The scenario's scripted dice, or seeded dice; exactly one of the two.

    Rule: sequences/shooting_sequence.md#dice-order
    """
    if (scenario.dice is None) == (scenario.seed is None):
        raise InvalidInput(
            "resolve needs exactly one of 'dice' and 'seed'", scenario.dice_line, scenario.path
        )
    if scenario.dice is not None:
        return ScriptedDice(scenario.dice, scenario.dice_line)
    assert scenario.seed is not None
    return SeededDice(scenario.seed)


def resolve(scenario: Scenario, dice: DiceSource | None = None) -> Resolution:
    """Resolve the scenario's attack (and its firefight) with its dice, step by step.

    Checks run in the contract's order: the declaration first (``IllegalDeclaration``, nothing rolled),
    then the dice (``InvalidInput`` at the line of ``dice:``).

    Rule: sequences/shooting_sequence.md#shooting-sequence
    """
    sequence = ShootingSequence(scenario)
    try:
        source = dice if dice is not None else dice_for(scenario)
        state, log = sequence.initial()
        while (chance := sequence.chance(state)) is not None:
            outcome, items = sequence.read(state, chance, source.roll(chance.dice))
            state, more = sequence.apply(state, outcome)
            log.extend(items)
            log.extend(more)
        source.finish()
    except InvalidInput as error:
        error.path = error.path or scenario.path
        if error.line is None:
            error.line = scenario.dice_line
        raise
    return _build(sequence, state, log)


def _build(sequence: ShootingSequence, state: State, log: list[Item]) -> Resolution:
    locks: dict[tuple[int, int], list[Rolled]] = {}
    hits: dict[tuple[int, int], list[Hit]] = {}
    checks: dict[tuple[int, int], Leadership] = {}
    events: list[Event] = []
    casualties: list[Casualty] = []
    for item in log:  # one pass: a large attack logs thousands of items, most of them dice and events
        if isinstance(item, Rolled):
            locks.setdefault((item.attack, item.target), []).append(item)
        elif isinstance(item, Event):
            events.append(item)
        elif isinstance(item, Casualty):
            casualties.append(item)
        elif isinstance(item, Hit):
            hits.setdefault((item.attack, item.target), []).append(item)
        elif isinstance(item, Leadership):
            checks[(item.attack, item.target)] = item
    attacks = []
    for a, plan in enumerate(sequence.attacks):
        targets = []
        for t, target in enumerate(plan.targets):
            rolled = tuple(locks.get((a, t), ()))
            allocated = tuple(hits.get((a, t), ()))
            targets.append(TargetResult(target.unit, bool(rolled), checks.get((a, t)), rolled, allocated))
        command = plan.rules.command.value
        attacks.append(AttackResult(plan.unit, command, a == 0, tuple(targets)))
    wounds = dict(state.wounds)
    models = {}
    for model in sequence.battlefield.models():
        status = {s.value for s in model.status}
        if model.id in state.pins:
            status.add(ModelStatus.PINNED.value)
        models[model.id] = (wounds.get(model.id, model.wounds), tuple(sorted(status)))
    return Resolution(
        tuple(attacks),
        tuple(casualties),
        models,
        tuple(events),
    )
