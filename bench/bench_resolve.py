"""How fast ``rulespy resolve`` answers, each time as a ratio against a baseline measured in the same run.

1. Start-to-answer of the command line on a small scenario (goal: within 4x ``python -c pass``), against
   ``python -c pass``, both with Python's bytecode cache on as an installed package has it (a temporary
   ``PYTHONPYCACHEPREFIX``, filled by one untimed run, and ``PYTHONDONTWRITEBYTECODE`` cleared), and
   again with the cache off (every module compiled from source at each start) for comparison.
2. In-process resolution of a 1,000-die attack (goal: <= 10 ms CPU), against a bare Python loop of
   1,000 iterations.
Also lists any heavy module (mkdocs, markdown_it) that the resolve path imported: there should be none.

Usage: .venv/bin/python bench/bench_resolve.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "examples" / "scenarios" / "shoot.yaml"
HEAVY = ("mkdocs", "markdown_it", "material", "pymdownx", "hypothesis")


def thousand_dice_scenario() -> str:
    """100 shooters with a 10-dice rifle each (1,000 Target Lock dice) at a unit of 20 models, seeded."""
    shooters = "\n".join(
        f"      - {{id: s{i}, at: [{-(i // 10) * 1.2:.1f}, {(i % 10) * 1.2:.1f}], "
        f"{'leader: true, ' if i == 0 else ''}weapons: [rifle]}}"
        for i in range(100)
    )
    targets = "\n".join(f"      - {{id: t{i}, at: [20, {i * 1.2:.1f}], wounds: 3}}" for i in range(20))
    return f"""\
weapons:
  rifle: {{range: 60, dice: 10, lock: 4, damage: 1}}
units:
  - id: shooters
    side: blue
    models:
{shooters}
  - id: targets
    side: red
    models:
{targets}
attack:
  unit: shooters
  command: shoot
  targets:
    - {{unit: targets, mark: t0}}
seed: 7
"""


def _environment(cached: bool, prefix: str) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPYCACHEPREFIX", None)
    if cached:
        env["PYTHONPYCACHEPREFIX"] = prefix
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"  # the standard library's own bytecode is still read
    return env


def _median_seconds(command: list[str], runs: int, env: dict[str, str]) -> tuple[float, float]:
    """Median wall time and median CPU time (user + system) of the command: CPU resists a busy machine."""
    import resource  # POSIX only; this module also runs in Pyodide (bench_pyodide.py), which has none

    subprocess.run(command, check=False, capture_output=True, env=env)  # fills the bytecode cache
    times, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=False, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times), statistics.median(cpu)


def _rulespy_command() -> list[str]:
    script = Path(sys.executable).with_name("rulespy")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from rulespy.cli import entry; entry()"]


def cli_start(runs: int, cached: bool) -> tuple[tuple[float, float], tuple[float, float]]:
    with tempfile.TemporaryDirectory() as prefix:
        env = _environment(cached, prefix)
        baseline = _median_seconds([sys.executable, "-c", "pass"], runs, env)
        resolve = _median_seconds([*_rulespy_command(), "resolve", str(SMALL)], runs, env)
    return resolve, baseline


def in_process(runs: int, clock: Callable[[], float] = time.process_time) -> tuple[float, float, int]:
    """Median seconds by ``clock`` (CPU time by default) of resolving the 1,000-die attack, median
    seconds of the bare loop, and the dice the attack rolled."""
    from rulespy.scenario import parse_scenario
    from rulespy.sequences.resolution import resolve

    scenario = parse_scenario(thousand_dice_scenario(), "<1000 dice>")
    dice = sum(len(t["locks"]) for a in resolve(scenario).to_json()["attacks"] for t in a["targets"])
    times, loops = [], []
    for _ in range(runs):
        start = clock()
        resolve(scenario)
        times.append(clock() - start)
        start = time.perf_counter()
        for _ in range(1000):
            pass
        loops.append(time.perf_counter() - start)
    return statistics.median(times), statistics.median(loops), dice


def heavy_imports() -> list[str]:
    probe = (
        "import sys, contextlib, io\n"
        "from rulespy.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['resolve', sys.argv[1]])\n"
        f"print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))\n"
    )
    command = [sys.executable, "-c", probe, str(SMALL)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    return done.stdout.split()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    for cached in (True, False):
        (resolve, resolve_cpu), (baseline, baseline_cpu) = cli_start(args.runs, cached)
        cache = "on" if cached else "off"
        print(
            f"cli start-to-answer (examples/scenarios/shoot.yaml), bytecode cache {cache}: "
            f"{resolve * 1000:.0f} ms wall, {resolve_cpu * 1000:.0f} ms CPU; python -c pass: "
            f"{baseline * 1000:.0f} ms wall, {baseline_cpu * 1000:.0f} ms CPU; "
            f"ratio {resolve / baseline:.1f}x wall, {resolve_cpu / baseline_cpu:.1f}x CPU"
            + (" (goal <= 4x)" if cached else "")
        )
        if not cached and any((ROOT / "rulespy").rglob("__pycache__")):
            print("  (rulespy/ holds __pycache__ folders, which that run read: remove them for this row)")
    attack, loop, dice = in_process(args.runs)
    print(
        f"in-process resolve of a {dice}-die attack: {attack * 1000:.1f} ms CPU (goal <= 10 ms); "
        f"bare loop of 1,000 iterations: {loop * 1e6:.1f} us; ratio {attack / loop:.0f}x"
    )
    heavy = heavy_imports()
    print(f"heavy modules imported on the resolve path: {', '.join(heavy) or 'none'}")
    return 0 if not heavy else 1


if __name__ == "__main__":
    sys.exit(main())
