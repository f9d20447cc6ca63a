"""Engine invariants over 10,000 random legal attacks (issue 7, item 3): failures (0 expected) and timing.

    .venv/bin/python bench/bench_properties.py [--cases 10000] [--seed 0] [--show 3]
    .venv/bin/python bench/bench_properties.py --attempt 1234     # replay one attempt, print its scenario

The suite runs the same generators and checks through Hypothesis (tests/properties/); here a seeded
``random.Random`` drives them, which is much faster than Hypothesis's engine and needs no shrinking.
Each attempt builds a battlefield and a declaration from the seed and the attempt number; attempts the
engine refuses as illegal are skipped (and counted), until ``--cases`` legal attacks have been resolved
and checked. A failure prints the scenario as a contract YAML file with the dice that were rolled, so
``rulespy resolve`` can replay it. Exit status: 0 no failure, 1 failures.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulespy.errors import IllegalDeclaration  # noqa: E402
from rulespy.sequences.resolution import resolve  # noqa: E402
from tests.properties.invariants import check_all  # noqa: E402
from tests.properties.strategies import RandomSource, SourceDice, make_scenario, scenario_yaml  # noqa: E402


@dataclass
class Failure:
    attempt: int
    message: str
    scenario: str


def run_attempt(seed: int, attempt: int) -> tuple[str, Failure | None]:
    """One attempt: ``("illegal", None)``, ``("ok", None)`` or ``("failed", Failure)``."""
    src = RandomSource(random.Random(seed * 1_000_003 + attempt))
    scenario = make_scenario(src)
    dice = SourceDice(src)
    try:
        result = resolve(scenario, dice)
    except IllegalDeclaration:
        return "illegal", None
    except Exception as error:  # a legal attack must resolve: anything else is a failure too
        text = scenario_yaml(scenario, dice.faces)
        return "failed", Failure(attempt, f"resolve raised {type(error).__name__}: {error}", text)
    try:
        check_all(scenario, result, tuple(dice.faces))
    except Exception as error:
        kind = "" if isinstance(error, AssertionError) else f"{type(error).__name__}: "
        return "failed", Failure(attempt, f"{kind}{error}", scenario_yaml(scenario, dice.faces))
    return "ok", None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=10_000, help="legal attacks to check (10,000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the generator (0)")
    parser.add_argument("--show", type=int, default=3, help="failing scenarios to print in full (3)")
    parser.add_argument("--attempt", type=int, help="replay this one attempt and print its scenario")
    args = parser.parse_args(argv)
    if args.attempt is not None:
        outcome, failure = run_attempt(args.seed, args.attempt)
        print(f"attempt {args.attempt}: {outcome}")
        if failure is not None:
            print(failure.message)
            print(failure.scenario)
        return 1 if failure else 0

    counts: Counter[str] = Counter()
    failures: list[Failure] = []
    start = time.perf_counter()
    attempt = 0
    while counts["ok"] + counts["failed"] < args.cases:
        outcome, failure = run_attempt(args.seed, attempt)
        counts[outcome] += 1
        if failure is not None:
            failures.append(failure)
        attempt += 1
    elapsed = time.perf_counter() - start
    checked = counts["ok"] + counts["failed"]
    skipped = counts["illegal"]
    print(f"engine invariants: {checked} legal attacks checked, {skipped} illegal declarations skipped")
    print(f"failures: {len(failures)}")
    print(f"time: {elapsed:.1f} s in all, {1000 * elapsed / max(attempt, 1):.2f} ms an attempt")
    kinds = Counter(f.message.split(":")[0] for f in failures)
    for kind, n in kinds.most_common():
        print(f"  {n:6d}  {kind}")
    for failure in failures[: args.show]:
        print(f"\n--- attempt {failure.attempt} (seed {args.seed}): {failure.message}\n{failure.scenario}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
