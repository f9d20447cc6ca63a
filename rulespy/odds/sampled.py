"""Sampled odds: what ``rulespy odds`` answers when an attack is beyond the exact engine's size limit.

The exact engine (``rulespy.odds.exact``) refuses an attack whose states, transitions or allocation deals
would pass its caps, or that ``rulespy.odds.limits`` judges too large before it starts. Such an attack
is then played many times by the same state machine ``rulespy resolve`` runs, with seeded dice
(``rulespy.dice.SeededDice``: the same seed gives the same answer on every machine and in the page), and
every figure is given with its 95% interval: the Wilson score interval for a probability, the normal
interval for a mean. Nothing here changes a rule; it only counts what the engine did.

How many trials: ``TRIALS`` at most, fewer for a large attack, so that the sampling itself takes about a
second on the 2-core development machine: each trial costs about ``dice + models`` units (every Target
Lock die the firing units could roll and every model in play), and ``WORK`` such units are spent in
all. An attack for which fewer than ``MIN_TRIALS`` trials fit is refused (``TooLarge``), sampled or not.

Rule: sequences/shooting_sequence.md#dice-order
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rulespy.dice import SeededDice
from rulespy.odds.exact import TooLarge
from rulespy.sequences.shooting_sequence import LeadershipChance, ShootingSequence
from rulespy.state import Scenario

TRIALS = 2_000
"""The most trials a sampled answer plays."""
MIN_TRIALS = 200
"""The fewest trials worth reporting: an attack too costly for these is refused."""
WORK = 60_000
"""Units of ``dice + models`` spent on the trials in all (about a second, measured on the 2-core machine)."""
SEED = 1
"""The seed of a sampled answer's dice, unless ``rulespy odds --seed`` gives another."""
Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""

HELP = (
    f"Beyond the exact engine's limits the odds are sampled instead (and said to be): the same engine "
    f"plays the attack with seeded dice (--seed, default {SEED}), at most {TRIALS:,} trials, fewer for a "
    f"large attack so that sampling takes about a second, never fewer than {MIN_TRIALS}; every figure "
    "comes with its 95% interval. --exact refuses instead."
)


def trials_for(scenario: Scenario) -> int:
    """How many trials a sampled answer for ``scenario`` plays (``TooLarge`` when not even ``MIN_TRIALS``
    fit in ``WORK``)."""
    field = scenario.battlefield
    firing = [scenario.attack.unit]
    if scenario.response is not None and scenario.attack.targets:
        firing.append(scenario.attack.targets[0].unit)
    dice = sum(field.weapon(n).dice for u in firing for m in field.unit(u).models for n in m.weapons)
    cost = dice + sum(len(unit.models) for unit in field.units) + 1
    trials = min(TRIALS, WORK // cost)
    if trials < MIN_TRIALS:
        raise TooLarge(
            "the attack is too large for exact odds, and too large to sample: each trial costs about"
            f" {cost:,} units of dice and models, and {MIN_TRIALS} trials must fit in {WORK:,}"
            " (see `rulespy odds --help`)",
            None,
            scenario.path,
        )
    return trials


def wilson(hits: int, trials: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a probability seen ``hits`` times in ``trials``.

    >>> wilson(0, 100)[0], round(wilson(0, 100)[1], 4)
    (0.0, 0.037)
    """
    p = hits / trials
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = Z95 * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    low = 0.0 if hits == 0 else max(0.0, centre - half)
    return low, 1.0 if hits == trials else min(1.0, centre + half)


def mean_interval(values: list[int]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% normal interval: ``(mean, low, high)``."""
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = Z95 * spread / math.sqrt(n)
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class Sampled:
    """Sampled odds of one scenario: counts of what ``trials`` seeded plays gave.

    ``casualties`` counts, for each number of casualties in the first target's unit (0 to its size), the
    trials that ended so; ``targets`` the same for every target unit of the attack in declared order;
    ``models`` the trials in which each model became a casualty; ``wounds`` the wounds each trial took
    off each target unit.
    """

    target_unit: str
    attacker_unit: str
    trials: int
    seed: int
    casualties: tuple[tuple[int, int], ...]
    attacker_casualties: tuple[tuple[int, int], ...] | None
    models: tuple[tuple[str, int], ...]
    targets: tuple[tuple[str, tuple[tuple[int, int], ...], tuple[int, ...]], ...]

    def expected(self, counts: tuple[tuple[int, int], ...]) -> tuple[float, float, float]:
        """The mean count and its 95% interval."""
        return mean_interval([k for k, n in counts for _ in range(n)])

    @property
    def expected_casualties(self) -> float:
        return self.expected(self.casualties)[0]

    def to_json(self) -> dict[str, Any]:
        """The ``odds --json`` keys of the exact answer, as sampled frequencies, with ``method``,
        ``trials``, ``seed`` and ``intervals`` (a 95% ``[low, high]`` for every figure)."""

        def table(counts: tuple[tuple[int, int], ...]) -> dict[str, float]:
            return {str(k): n / self.trials for k, n in counts}

        def spans(counts: tuple[tuple[int, int], ...]) -> dict[str, list[float]]:
            return {str(k): list(wilson(n, self.trials)) for k, n in counts}

        mean, low, high = self.expected(self.casualties)
        targets: dict[str, Any] = {}
        for unit, counts, wounds in self.targets:
            w_mean, w_low, w_high = mean_interval(list(wounds))
            c_mean, c_low, c_high = self.expected(counts)
            targets[unit] = {
                "casualties": table(counts),
                "expected_casualties": c_mean,
                "expected_wounds": w_mean,
                "intervals": {
                    "casualties": spans(counts),
                    "expected_casualties": [c_low, c_high],
                    "expected_wounds": [w_low, w_high],
                },
            }
        return {
            "casualties": table(self.casualties),
            "expected_casualties": mean,
            "attacker_casualties": None
            if self.attacker_casualties is None
            else table(self.attacker_casualties),
            "models": {m: {"casualty": n / self.trials} for m, n in self.models},
            "method": "sampled",
            "trials": self.trials,
            "seed": self.seed,
            "intervals": {
                "casualties": spans(self.casualties),
                "expected_casualties": [low, high],
                "attacker_casualties": None
                if self.attacker_casualties is None
                else spans(self.attacker_casualties),
                "models": {m: wilson(n, self.trials) for m, n in self.models},
            },
            "targets": targets,
        }


def sample(scenario: Scenario, seed: int = SEED, trials: int | None = None) -> Sampled:
    """Play the scenario's attack ``trials`` times (``trials_for`` when None) with dice seeded by ``seed``
    and count the casualties and wounds. Raises ``IllegalDeclaration`` for a declaration the rules forbid.

    Rule: sequences/shooting_sequence.md#shooting-sequence
    """
    sequence = ShootingSequence(scenario)  # the declaration's legality first
    count = trials_for(scenario) if trials is None else trials
    field = scenario.battlefield
    target_units = list(dict.fromkeys(t.unit for t in scenario.attack.targets))
    attacker = scenario.attack.unit
    members = {u: {m.id for m in field.unit(u).models} for u in {*target_units, attacker}}
    full = {m.id: m.wounds for m in field.models()}
    tallies = {u: [0] * (len(members[u]) + 1) for u in members}
    wounds: dict[str, list[int]] = {u: [] for u in target_units}
    fallen = dict.fromkeys(full, 0)
    dice = SeededDice(seed)
    for _ in range(count):
        state, _ = sequence.initial()
        while (chance := sequence.chance(state)) is not None:
            faces = dice.roll(chance.dice)
            outcome = chance.read(faces) if isinstance(chance, LeadershipChance) else chance.read(faces)[0]
            state, _ = sequence.apply(state, outcome)
        removed = {model for model, _ in state.casualties}
        left = dict(state.wounds)
        for model in removed:
            fallen[model] += 1
        for unit, ids in members.items():
            tallies[unit][len(removed & ids)] += 1
        for unit in target_units:
            wounds[unit].append(
                sum(full[m] if m in removed else full[m] - left.get(m, full[m]) for m in members[unit])
            )
    first = target_units[0] if target_units else attacker
    return Sampled(
        target_unit=first,
        attacker_unit=attacker,
        trials=count,
        seed=seed,
        casualties=tuple(enumerate(tallies[first])),
        attacker_casualties=tuple(enumerate(tallies[attacker])) if sequence.firefight else None,
        models=tuple(fallen.items()),
        targets=tuple((u, tuple(enumerate(tallies[u])), tuple(wounds[u])) for u in target_units),
    )
