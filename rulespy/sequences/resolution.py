"""Resolving a scenario with dice: what happened, as typed records (``rulespy/account.py`` words them).

Rule: sequences/shooting_sequence.md#dice-order
"""

from __future__ import annotations

from typing import Any, Protocol

from rulespy.dice import ScriptedDice, SeededDice
from rulespy.errors import InvalidInput
from rulespy.frozen import frozen
from rulespy.sequences.records import Casualty, Hit, Leadership, Record, Rolled
from rulespy.sequences.shooting_sequence import Item, ShootingSequence, State
from rulespy.state import ModelStatus, Scenario


class DiceSource(Protocol):
    def roll(self, count: int) -> tuple[int, ...]: ...

    def finish(self) -> None: ...


@frozen
class TargetResult:
    """What one target of an attack took: whether it was fired at, its Leadership Check if any, its
    Target Lock dice and where each success went."""

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


@frozen
class AttackResult:
    """One attack of the resolution (an attack, or a firefight's reply) and its targets in declared order."""

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


@frozen
class ModelOutcome:
    """A model's state at the end: its wounds left and its statuses (sorted)."""

    wounds: int
    status: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"wounds": self.wounds, "status": list(self.status)}


@frozen
class Resolution:
    """What happened: every attack and target, the casualties, every model's final state, and ``trace``,
    the log of every record in the order it happened (each citing its rule; the account words it)."""

    attacks: tuple[AttackResult, ...]
    casualties: tuple[Casualty, ...]
    models: dict[str, ModelOutcome]
    trace: tuple[Record, ...]

    def wounds(self, model_id: str) -> int:
        """A model's wounds left at the end."""
        return self.models[model_id].wounds

    def status(self, model_id: str) -> tuple[str, ...]:
        return self.models[model_id].status

    @property
    def removed(self) -> dict[str, str]:
        """Each casualty and when it left play."""
        return {c.model: c.removed.value for c in self.casualties}

    def to_json(self) -> dict[str, Any]:
        """The outcome in the ``resolve --json`` form, without the ``trace`` (words, which
        ``rulespy.account.to_json`` adds)."""
        return {
            "legal": True,
            "attacks": [a.to_json() for a in self.attacks],
            "casualties": [c.to_json() for c in self.casualties],
            "models": {m: outcome.to_json() for m, outcome in self.models.items()},
        }


def check_dice_source(scenario: Scenario) -> None:
    """``resolve`` needs exactly one of ``dice`` and ``seed`` (the loader accepts either or both, and
    ``odds`` ignores them): the one place that checks it. The faces themselves are checked as they are
    rolled, after the declaration. The error names no file (its callers, ``resolve`` and the api, give
    it the scenario's), and no line when there is no ``dice:`` (it is then located at line 1).

    Rule: sequences/shooting_sequence.md#dice-order
    """
    if scenario.dice is not None and scenario.seed is not None:
        raise InvalidInput(
            "the scenario gives both 'dice' and 'seed': resolve needs exactly one", scenario.dice_line
        )
    if scenario.dice is None and scenario.seed is None:
        raise InvalidInput(
            "the scenario gives neither 'dice' (scripted dice such as [6, 2, 5]) nor 'seed': "
            "resolve needs one"
        )


def dice_for(scenario: Scenario) -> DiceSource:
    """The scenario's scripted dice, or seeded dice (``check_dice_source``).

    Rule: sequences/shooting_sequence.md#dice-order
    """
    check_dice_source(scenario)
    if scenario.dice is not None:
        return ScriptedDice(scenario.dice)  # resolve locates its errors at the line of dice:
    assert scenario.seed is not None
    return SeededDice(scenario.seed)


def resolve(scenario: Scenario, dice: DiceSource | None = None) -> Resolution:
    """Resolve the scenario's attack (and its firefight) with its dice, step by step.

    Checks run in this order: the declaration first (``IllegalDeclaration``, nothing rolled),
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
    casualties: list[Casualty] = []
    for item in log:  # one pass: a large attack logs thousands of items, most of them dice
        if isinstance(item, Rolled):
            locks.setdefault((item.attack, item.target), []).append(item)
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
        models[model.id] = ModelOutcome(wounds.get(model.id, model.wounds), tuple(sorted(status)))
    return Resolution(tuple(attacks), tuple(casualties), models, tuple(log))
