"""What a player asks of an attack's odds: casualties in the target unit, their mean, each model's risk.

Rule: core/damage.md#casualty
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulespy.sequences.shooting_sequence import ShootingSequence, State
from rulespy.state import Model

Distribution = tuple[tuple[int, Fraction], ...]


@dataclass(frozen=True)
class Odds:
    """Exact odds of one scenario. Distributions list every count from 0 to the unit's size."""

    target_unit: str
    casualties: Distribution
    attacker_unit: str
    attacker_casualties: Distribution | None
    models: tuple[tuple[str, Fraction], ...]
    targets: tuple[tuple[str, Distribution], ...] = ()
    """Casualties in every target unit of the attack, in declared order (a split's second target too)."""
    wounds: tuple[tuple[str, Fraction], ...] | None = None
    """The expected wounds taken off every target unit, in declared order (a casualty counts all its
    wounds, a survivor those it lost); None when the exact engine could not keep each model's wounds
    within its limits (``rulespy.odds.odds``)."""

    @property
    def expected_casualties(self) -> Fraction:
        return sum((k * p for k, p in self.casualties), Fraction(0))

    def expected_wounds(self, unit: str) -> Fraction | None:
        """The expected wounds taken off target ``unit``; None when they were not kept."""
        return None if self.wounds is None else dict(self.wounds)[unit]

    def casualty(self, model_id: str) -> Fraction:
        """The probability that ``model_id`` becomes a casualty."""
        return dict(self.models)[model_id]

    def to_json(self, fractions: bool = False) -> dict[str, Any]:
        """The ``odds --json`` dict: floats, or exact fractions as strings such as ``"1/4"``."""

        def number(p: Fraction) -> float | str:
            return str(p) if fractions else float(p)

        def table(dist: Distribution) -> dict[str, float | str]:
            return {str(k): number(p) for k, p in dist}

        return {
            "casualties": table(self.casualties),
            "expected_casualties": number(self.expected_casualties),
            "attacker_casualties": None
            if self.attacker_casualties is None
            else table(self.attacker_casualties),
            "models": {m: {"casualty": number(p)} for m, p in self.models},
            "method": "exact",
            "targets": {
                unit: {
                    "casualties": table(dist),
                    "expected_casualties": number(sum((k * p for k, p in dist), Fraction(0))),
                    "expected_wounds": None if self.wounds is None else number(dict(self.wounds)[unit]),
                }
                for unit, dist in self.targets
            },
        }


def summarise(sequence: ShootingSequence, finals: Mapping[State, Fraction], wounds: bool = False) -> Odds:
    """Reduce the final states' distribution to the odds a player reads; with ``wounds`` (final states
    that kept each model's wounds left) the expected wounds taken off each target unit as well."""
    bf = sequence.battlefield
    target = sequence.attacks[0].targets[0].unit
    attacker = sequence.attacks[0].unit
    targets = dict.fromkeys(t.unit for t in sequence.attacks[0].targets)
    risk = {m.id: Fraction(0) for m in bf.models()}
    for state, p in finals.items():
        for model_id, _timing in state.casualties:
            risk[model_id] += p
    return Odds(
        target,
        _count(bf.unit(target).models, finals),
        attacker,
        _count(bf.unit(attacker).models, finals) if sequence.firefight else None,
        tuple(risk.items()),
        tuple((u, _count(bf.unit(u).models, finals)) for u in targets),
        tuple((u, _wounds(bf.unit(u).models, finals)) for u in targets) if wounds else None,
    )


def _wounds(models: Iterable[Model], finals: Mapping[State, Fraction]) -> Fraction:
    """The expected wounds the attack takes off ``models``: a casualty's every wound, a survivor's lost
    ones (as ``rulespy.odds.sampled`` counts them in each trial).

    Rule: core/damage.md#casualty
    """
    full = {m.id: m.wounds for m in models}
    total = Fraction(0)
    for state, p in finals.items():
        fallen = {model_id for model_id, _ in state.casualties}
        left = dict(state.wounds)
        taken = sum(w if m in fallen else w - left.get(m, w) for m, w in full.items())
        total += taken * p
    return total


def _count(models: Iterable[Model], finals: Mapping[State, Fraction]) -> Distribution:
    ids = {m.id for m in models}
    counts = [Fraction(0)] * (len(ids) + 1)
    for state, p in finals.items():
        counts[sum(1 for model_id, _ in state.casualties if model_id in ids)] += p
    return tuple(enumerate(counts))
