"""Speed of ``rulespy odds`` (issue 6): exact odds against a seeded simulation by the same engine.

The attack: ten models fire 30 Target Lock dice from two weapon profiles (six rifles and four launchers,
three dice each; the unit lists its riflemen first) at ten two-wound models with armour 1. Reports, in
one run, the exact distribution's CPU time (goal: <= 1 s) and the time of a ``--trials`` simulation
(default 100,000) driven through the same ``ShootingSequence`` with ``SeededDice`` and the odds
engine's ``StepMemo``, measured on ``--measure`` trials (default 10,000) and extrapolated linearly when
fewer than ``--trials``, and the largest gap between the two distributions in simulation standard errors.
Run: ``.venv/bin/python bench/bench_odds.py [--trials N] [--measure N]``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter

from rulespy.dice import SeededDice
from rulespy.odds import odds
from rulespy.odds.memo import StepMemo
from rulespy.scenario import parse_scenario
from rulespy.sequences.shooting_sequence import ShootingSequence
from rulespy.state import Scenario

RIFLEMEN, GUNNERS, TARGETS = 6, 4, 10


def scenario() -> Scenario:
    shooters = [
        f"      - {{id: a{i}, at: [0, {i * 1.5}], weapons: [{'rifle' if i < RIFLEMEN else 'launcher'}]}}"
        for i in range(RIFLEMEN + GUNNERS)
    ]
    targets = [f"      - {{id: t{i}, at: [14, {i * 1.5}], wounds: 2, armour: 1}}" for i in range(TARGETS)]
    text = "\n".join(
        [
            "weapons:",
            "  rifle: {range: 24, dice: 3, lock: 4, damage: 2}",
            "  launcher: {range: 24, dice: 3, lock: 4, damage: 3, traits: [critical 5]}",
            "units:",
            "  - id: squad",
            "    side: blue",
            "    models:",
            *shooters,
            "  - id: foes",
            "    side: red",
            "    models:",
            *targets,
            "attack: {unit: squad, command: shoot, targets: [{unit: foes, mark: t0}]}",
        ]
    )
    return parse_scenario(text, "<bench>")


def simulate(sc: Scenario, trials: int, seed: int = 1) -> Counter[int]:
    """Casualty counts of ``trials`` seeded resolutions by the same state machine and step memo."""
    sequence = ShootingSequence(sc, StepMemo())
    dice = SeededDice(seed)
    targets = {m.id for m in sc.battlefield.unit("foes").models}
    counts: Counter[int] = Counter()
    for _ in range(trials):
        state, _ = sequence.initial()
        while (chance := sequence.chance(state)) is not None:
            outcome, _ = sequence.read(state, chance, dice.roll(chance.dice))
            state, _ = sequence.apply(state, outcome)
        counts[sum(1 for m, _ in state.casualties if m in targets)] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100_000)
    parser.add_argument("--measure", type=int, default=10_000, help="trials actually run (extrapolated)")
    args = parser.parse_args()
    sc = scenario()
    dice = sum(sc.battlefield.weapon(w).dice for m in sc.battlefield.unit("squad").models for w in m.weapons)

    start = time.process_time()
    exact = odds(sc)
    exact_s = time.process_time() - start

    measured = min(args.trials, args.measure)
    start = time.process_time()
    counts = simulate(sc, measured)
    sim_s = time.process_time() - start
    sim_full = sim_s * args.trials / measured

    worst = 0.0
    for k, p in exact.casualties:
        se = math.sqrt(float(p) * (1 - float(p)) / measured) or 1 / measured
        worst = max(worst, abs(counts[k] / measured - float(p)) / se)
    print(f"attack: {dice} dice from 2 weapon profiles at {TARGETS} two-wound models with armour 1")
    print(f"exact odds (every die, exact arithmetic): {exact_s:.3f} s CPU  (goal <= 1 s)")
    note = "" if measured == args.trials else f", extrapolated from {measured:,} trials ({sim_s:.2f} s)"
    print(f"simulation, {args.trials:,} trials: {sim_full:.2f} s CPU{note}")
    print(f"exact is {sim_full / exact_s:.1f}x faster; largest gap exact vs simulated: {worst:.2f} SE")
    print("casualties  exact       simulated")
    for k, p in exact.casualties:
        print(f"  {k:>3}      {float(p):.5f}     {counts[k] / measured:.5f}")


if __name__ == "__main__":
    main()
