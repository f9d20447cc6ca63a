"""Fuzz ``rulespy resolve`` and ``rulespy odds`` with 10,000 random and mutated scenarios (0 failures).

Usage: .venv/bin/python bench/bench_fuzz.py [CASES] [--seed N]
A failure is a traceback, an exception escaping ``main``, an exit status outside 0/1/2, an exit 2 that
does not print ``FILE:LINE: message`` (or prints on stdout), or an internal error. Failing documents
are written to bench/fuzz-failures/ (not committed) for replay with ``rulespy resolve``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from scenario.fuzz_cases import cases, check_case  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="?", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=20_261_129)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="rulespy-bench-fuzz-"))
    failures: list[tuple[str, str]] = []
    codes = {"ran": 0}

    @seed(args.seed)
    @settings(
        max_examples=args.cases,
        deadline=None,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(cases)
    def run(text: str) -> None:
        codes["ran"] += 1
        for command in ("resolve", "odds"):
            problem = check_case(text, folder / "fuzz.yaml", command)
            if problem is not None:
                failures.append((f"{command}: {problem}", text))

    start = time.perf_counter()
    run()
    elapsed = time.perf_counter() - start
    print(f"bench_fuzz: {codes['ran']} cases in {elapsed:.1f} s, {len(failures)} failures (seed {args.seed})")
    if failures:
        out = ROOT / "bench" / "fuzz-failures"
        out.mkdir(exist_ok=True)
        for number, (problem, text) in enumerate(failures[:50], start=1):
            (out / f"case{number:03}.yaml").write_text(text, encoding="utf-8", errors="surrogatepass")
            print(f"  case{number:03}.yaml: {problem}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
