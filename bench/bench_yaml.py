"""What reading scenarios with PyYAML's pure-Python parser costs, against libyaml measured in the same run.

Scenarios are read by the pure parser on the command line as in the rules judge (Pyodide has no libyaml),
so that both accept the same texts and word a syntax error alike (``rulespy/scenario/yamlnodes.py``,
``tests/scenario/test_yaml_parity.py``). For each input: CPU time of ``rulespy.yamlbudget.compose`` with
the pure parser and with libyaml (the baseline), medians, and their ratio. The inputs: the bench
scenario of ``bench_resolve.py`` (what the command line's start-up reads), the 1,000-die scenario, the
hostile 9,000-model unit (refused at the YAML budget) and a 1 MB scenario of short lines (the largest
text the loader takes).

Usage: .venv/bin/python bench/bench_yaml.py [--runs N]
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from bench.bench_resolve import SMALL, thousand_dice_scenario  # noqa: E402
from rulespy import yamlbudget  # noqa: E402
from tests.hostile import cases  # noqa: E402


def _median_cpu(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def _compose(text: str, portable: bool) -> None:
    try:
        yamlbudget.compose(text, portable=portable)
    except yamlbudget.YAMLTooLarge:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    if not yaml.__with_libyaml__:
        print("PyYAML has no libyaml here: nothing to compare with")
        return 1
    inputs = {
        "examples/scenarios/shoot.yaml (1 KB)": SMALL.read_text(encoding="utf-8"),
        "1,000-die scenario (6 KB)": thousand_dice_scenario(),
        "hostile: 9,000 models, refused at the budget (315 KB)": cases.big_unit(9_000, 100),
        "1 MB of short lines (description text)": "description: >\n" + "  a few words\n" * 70_000,
    }
    for name, text in inputs.items():
        runs = args.runs if len(text) < 100_000 else max(3, args.runs // 3)
        pure = _median_cpu(functools.partial(_compose, text, True), runs)
        base = _median_cpu(functools.partial(_compose, text, False), runs)
        print(f"{name}: pure Python {pure * 1e3:.1f} ms, libyaml {base * 1e3:.1f} ms: {pure / base:.0f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
