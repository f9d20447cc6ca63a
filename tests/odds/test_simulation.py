"""Exact odds against seeded simulations through ``rulespy resolve``'s engine: each casualty count and
each model's risk agree within four standard errors (sequences/shooting_sequence.md#dice-order).

1,000 seeded trials a scenario in the suite, 4,000 under the thorough profile (``HYPOTHESIS_PROFILE=
thorough``, ``tests/hypothesis_profiles.py``), which the suite ran before issue 25; the tolerance follows
the trials, so fewer trials only widen it."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from rulespy.dice import SeededDice
from rulespy.odds import odds
from rulespy.scenario import parse_scenario
from rulespy.sequences.resolution import resolve
from tests.hypothesis_profiles import examples
from tests.odds.scenarios import VARIED

TRIALS = examples(suite=1_000, thorough=4_000)
SEED = 20_240_601


def agrees(exact: float, hits: int, trials: int) -> bool:
    """Within four standard errors of the exact probability (half a trial of slack for discreteness)."""
    error = math.sqrt(exact * (1 - exact) / trials)
    return abs(hits / trials - exact) <= 4 * error + 0.5 / trials


@pytest.mark.parametrize("name", sorted(VARIED))
def test_seeded_simulation_agrees_with_exact_odds(name: str) -> None:
    scenario = parse_scenario(VARIED[name])
    exact = odds(scenario)
    dice = SeededDice(SEED)
    target = {m.id for m in scenario.battlefield.unit(exact.target_unit).models}
    attacker = {m.id for m in scenario.battlefield.unit(exact.attacker_unit).models}
    counts: Counter[int] = Counter()
    attacker_counts: Counter[int] = Counter()
    fallen: Counter[str] = Counter()
    for _ in range(TRIALS):
        removed = set(resolve(scenario, dice).removed)
        counts[len(removed & target)] += 1
        attacker_counts[len(removed & attacker)] += 1
        fallen.update(removed)
    for k, p in exact.casualties:
        assert agrees(float(p), counts[k], TRIALS), (name, "casualties", k, float(p), counts[k])
    if exact.attacker_casualties is not None:
        for k, p in exact.attacker_casualties:
            assert agrees(float(p), attacker_counts[k], TRIALS), (name, "attacker", k)
    for model, p in exact.models:
        assert agrees(float(p), fallen[model], TRIALS), (name, model, float(p), fallen[model])
