"""Speed of ``rulespy odds`` (issues 6 and 15): exact odds of the bench attacks, each against baselines
taken in the same run.

Reports, as CPU time (the machine is shared; CPU time is disturbed far less than wall time by other jobs):

1. the exact odds of the bench attack (``bench/odds_attacks.py``: 30 dice from two profiles at ten
   two-wound, armour-1 models; goal <= 100 ms), of the alternating-profiles attack (40 dice, two
   profiles alternating model by model; goal: answered within 1 s) and of a Snap Fire Firefight of 20
   dice a side (goal: answered within 1 s), each the median of ``--runs`` fresh runs, with a bare loop of
   1,000,000 iterations timed between them as the machine's baseline;
2. the pure dice part of the bench attack (the joint distribution of Critical Locks and other successes
   of each weapon profile's dice) by the engine's dice-pool core (``rulespy.odds.pool``) and by icepool
   (``pip install -e '.[bench]'``), and whether the two agree exactly;
3. with ``--before REV``, the three attacks' exact odds by the engine of git revision ``REV`` (its
   ``rulespy`` package extracted to a temporary folder and run in a child process, alternating with
   this engine, best of ``--runs`` each), answered or refused, so that a speed-up is measured in one run;
4. a seeded simulation of the bench attack and of the alternating attack by the same
   ``ShootingSequence`` with the odds side's ``StepMemo`` (``--trials``, measured on ``--measure``
   trials and extrapolated linearly), and the largest gap between it and the exact distribution in
   simulation standard errors (the cross-check that the exact engine is right).

Run: ``.venv/bin/python bench/bench_odds.py [--runs N] [--trials N] [--measure N] [--before REV]``.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # the oracles of tests/odds

import odds_attacks  # noqa: E402

from rulespy.core.target_lock import LockChance, LockResult, die_probabilities  # noqa: E402
from rulespy.dice import SeededDice  # noqa: E402
from rulespy.errors import RulesError  # noqa: E402
from rulespy.odds import odds, pool  # noqa: E402
from rulespy.sequences.shooting_sequence import ShootingSequence  # noqa: E402
from rulespy.state import Scenario  # noqa: E402
from tests.odds import oracles  # noqa: E402
from tests.odds.oracles import lock_outcomes  # noqa: E402
from tests.odds.step_memo import StepMemo  # noqa: E402


def cpu(work: Callable[[], object], clock: Callable[[], float] = time.process_time) -> tuple[float, object]:
    """Seconds of ``work`` by ``clock`` (CPU time by default; ``bench_pyodide.py`` passes the page's
    clocks, Pyodide having no process CPU time of its own), and its result."""
    start = clock()
    result = work()
    return clock() - start, result


def bare_loop() -> None:
    for _ in range(1_000_000):
        pass


def fresh_odds(sc: Scenario) -> object:
    """Exact odds from nothing remembered: the dice-pool tables are cleared first."""
    pool.criticals.cache_clear()
    pool.others.cache_clear()
    try:
        return odds(sc)
    except RulesError as error:
        return error


ATTACKS = {
    "bench attack, 30 dice (goal <= 100 ms)": odds_attacks.bench,
    "alternating profiles, 40 dice (goal <= 1 s)": lambda: odds_attacks.alternating(10, 4),
    "Snap Fire Firefight, 20 dice a side (goal <= 1 s)": lambda: odds_attacks.firefight(10),
}
"""The attacks whose exact odds are timed, by name: each builds its scenario YAML."""


def time_exact(
    name: str, runs: int, clock: Callable[[], float] = time.process_time
) -> tuple[list[float], list[float], str]:
    """``runs`` fresh exact runs of the attack ``ATTACKS[name]``, each after a bare loop: the seconds of
    each run, of each loop, and the answer ("answered exactly" or the refusal)."""
    sc = odds_attacks.scenario(ATTACKS[name](), name)
    times, loops = [], []
    result: object = None
    for _ in range(runs):
        loops.append(cpu(bare_loop, clock)[0])
        seconds, result = cpu(lambda: fresh_odds(sc), clock)
        times.append(seconds)
    return times, loops, f"refused: {result}" if isinstance(result, RulesError) else "answered exactly"


def exact_times(runs: int) -> None:
    loops: list[float] = []
    for name in ATTACKS:
        times, loop, answer = time_exact(name, runs)
        loops += loop
        print(f"{name}: {statistics.median(times) * 1000:.1f} ms CPU (median of {runs}), {answer}")
    print(f"baseline, bare loop of 1,000,000 iterations: {statistics.median(loops) * 1000:.1f} ms CPU")


_TIMER = """
import sys, time
sys.path[:0] = [sys.argv[1], sys.argv[2]]
import odds_attacks
import rulespy
assert rulespy.__file__.startswith(sys.argv[1]), rulespy.__file__
from rulespy.errors import RulesError
from rulespy.odds import odds
scenario = odds_attacks.scenario(eval("odds_attacks." + sys.argv[3]))
start = time.process_time()
try:
    odds(scenario)
    answer = "answered"
except RulesError:
    answer = "refused"
print(time.process_time() - start, answer)
"""
# The attacks ``--before`` times by both engines (expressions over ``odds_attacks``).
BEFORE = {
    "bench attack": "bench()",
    "alternating profiles, 40 dice": "alternating(10, 4)",
    "Snap Fire Firefight, 20 dice a side": "firefight(10)",
}


def before_and_after(revision: str, runs: int) -> None:
    """Each attack of ``BEFORE`` by the engine of ``revision`` and by this one, alternating child
    processes (best of ``runs`` each)."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            ["git", "archive", revision, "rulespy"], cwd=root, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        for attack, expression in BEFORE.items():
            times: dict[str, list[float]] = {revision: [], "this engine": []}
            answers: dict[str, str] = {}
            for _ in range(runs):
                for name, path in ((revision, folder), ("this engine", str(root))):
                    env = {**os.environ, "PYTHONPATH": path}
                    done = subprocess.run(
                        [sys.executable, "-c", _TIMER, path, str(root / "bench"), expression],
                        env=env,
                        cwd=folder,
                        capture_output=True,
                        text=True,
                        check=True,
                    )
                    seconds, answers[name] = done.stdout.split()
                    times[name].append(float(seconds))
            old, new = min(times[revision]), min(times["this engine"])
            print(
                f"{attack}, engine of {revision}: {answers[revision]} in {old * 1000:.0f} ms CPU; "
                f"this engine: {answers['this engine']} in {new * 1000:.1f} ms CPU "
                f"(best of {runs} each, alternating); "
                f"{old / new:.1f}x"
            )


def profiles(sc: Scenario) -> list[tuple[str, int, tuple[int, int, int]]]:
    """Each weapon profile of the bench attack: its name, all its dice, and a die's faces that make a
    Critical Lock, another success and a fail."""
    bf = sc.battlefield
    found: dict[str, int] = {}
    for model in bf.unit("squad").models:
        for name in model.weapons:
            found[name] = found.get(name, 0) + bf.weapon(name).dice
    result = []
    for name, dice in found.items():
        p = die_probabilities(bf.weapon(name), 0)
        faces = tuple(
            int(p.get(r, 0) * 6) for r in (LockResult.CRITICAL, LockResult.SUCCESS, LockResult.FAIL)
        )
        result.append((name, dice, (faces[0], faces[1], faces[2])))
    return result


def core_tallies(dice: int, crit: int, success: int, fail: int) -> dict[tuple[int, int], int]:
    """The dice-pool core's joint distribution of Critical Locks and other successes, from nothing
    remembered."""
    pool.criticals.cache_clear()
    pool.others.cache_clear()
    return oracles.tallies(dice, crit, success, fail)


def time_pool(
    runs: int, clock: Callable[[], float] = time.process_time
) -> list[tuple[str, int, tuple[int, int, int], float, float]]:
    """Each profile of the bench attack: its name, dice and faces, and the best of ``runs`` seconds of
    the dice-pool core and of the Target Lock step's own ``Fraction`` multinomial."""
    sc = odds_attacks.scenario(odds_attacks.bench())
    rows = []
    for name, dice, faces in profiles(sc):
        ours = min(cpu(functools.partial(core_tallies, dice, *faces), clock)[0] for _ in range(runs))
        chance = LockChance("a", sc.battlefield.weapon(name), 0, dice)
        listed = min(cpu(functools.partial(lock_outcomes, chance), clock)[0] for _ in range(runs))
        rows.append((name, dice, faces, ours, listed))
    return rows


def dice_pool(runs: int) -> None:
    try:
        import icepool
    except ImportError:
        icepool = None
    for name, dice, (crit, success, fail), ours, listed in time_pool(runs):
        mine = core_tallies(dice, crit, success, fail)
        line = f"dice pool, {dice} {name} dice: engine core {ours * 1e6:.0f} us CPU (best of {runs})"
        line += f"; the Target Lock step's Fraction multinomial {listed * 1e6:.0f} us"
        if icepool is None:
            print(line + "; icepool not installed (pip install -e '.[bench]')")
            continue

        def peer(dice: int = dice, crit: int = crit, success: int = success, fail: int = fail) -> object:
            faces = [(1, 0)] * crit + [(0, 1)] * success + [(0, 0)] * fail
            die = icepool.Die([icepool.Vector(face) for face in faces])
            return dice @ die

        theirs = min(cpu(peer)[0] for _ in range(runs))
        result = peer()
        scale = 6**dice // result.denominator()
        agree = {tuple(k): v * scale for k, v in result.items()} == {k: v for k, v in mine.items() if v}
        print(
            line + f"; icepool {icepool.__version__} {theirs * 1e6:.0f} us CPU; ratio {theirs / ours:.0f}x; "
            f"distributions {'agree exactly' if agree else 'DIFFER'}"
        )


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


def cross_check(trials: int, measure: int) -> None:
    """Exact against simulated: the bench attack (each profile's dice in one group) and the alternating
    attack (ten groups, the one pass's guesses and merged deals at their busiest)."""
    measured = min(trials, measure)
    checked = (("bench attack", odds_attacks.bench()), ("alternating attack", odds_attacks.alternating()))
    for name, text in checked:
        sc = odds_attacks.scenario(text)
        exact_s, exact = cpu(lambda sc=sc: fresh_odds(sc))  # type: ignore[misc]
        assert not isinstance(exact, RulesError)
        sim_s, counts = cpu(lambda sc=sc: simulate(sc, measured))  # type: ignore[misc]
        sim_full = sim_s * trials / measured
        worst = 0.0
        for k, p in exact.casualties:  # type: ignore[attr-defined]
            se = math.sqrt(float(p) * (1 - float(p)) / measured) or 1 / measured
            worst = max(worst, abs(counts[k] / measured - float(p)) / se)  # type: ignore[index]
        note = "" if measured == trials else f", extrapolated from {measured:,} trials ({sim_s:.2f} s)"
        print(f"simulation of the {name}, {trials:,} trials: {sim_full:.2f} s CPU{note}")
        print(f"exact is {sim_full / exact_s:.0f}x faster; largest gap exact vs simulated: {worst:.2f} SE")
        print("casualties  exact       simulated")
        for k, p in exact.casualties:  # type: ignore[attr-defined]
            print(f"  {k:>3}      {float(p):.5f}     {counts[k] / measured:.5f}")  # type: ignore[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--trials", type=int, default=100_000)
    parser.add_argument("--measure", type=int, default=10_000, help="trials actually run (extrapolated)")
    parser.add_argument("--before", metavar="REV", help="also time the bench attack by the engine of REV")
    args = parser.parse_args()
    exact_times(args.runs)
    dice_pool(args.runs)
    if args.before:
        before_and_after(args.before, args.runs)
    cross_check(args.trials, args.measure)


if __name__ == "__main__":
    main()
