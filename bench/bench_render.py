"""Publishing speed, in one run: render cold and with one file changed, each generator's whole-site
build, the rulebook PDF's time and size. The baseline is `python -c pass` (interpreter start), taken
in the same run, so the ratios mean something on a busy machine.

Run: ``.venv/bin/python bench/bench_render.py [--runs N]`` from the repository root. It works on a copy
of the repository's rules in a temporary folder, so nothing in the checkout changes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rulespy.render.build import GENERATORS, build
from rulespy.render.pdf import CHROMIUM, print_rulebook
from rulespy.render.stage import render

ROOT = Path(__file__).resolve().parents[1]
COPIED = ("index.md", "concepts.yml", "mkdocs.yml", "core", "sequences", "timing", "commands", "examples")


def timed(action: Callable[[], object], runs: int) -> list[float]:
    found = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        found.append(time.perf_counter() - started)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="vs-bench-render-") as work:
        repo = Path(work) / "repo"
        repo.mkdir()
        for name in COPIED:
            source = ROOT / name
            (shutil.copytree if source.is_dir() else shutil.copy)(source, repo / name)
        baseline = statistics.median(timed(lambda: subprocess.run([sys.executable, "-c", "pass"]), 5))

        def cold() -> None:
            shutil.rmtree(repo / "build", ignore_errors=True)
            render(repo)

        rows: list[tuple[str, float, str]] = []
        rows.append(("render, cold (22 pages, boards, 2 odds tables)", min(timed(cold, args.runs)), ""))
        page = repo / "core" / "cover.md"
        original = page.read_text(encoding="utf-8")
        count = iter(range(1000))

        def one_changed() -> None:
            page.write_text(original + f"\nChanged {next(count)}.\n", encoding="utf-8")
            report = render(repo)
            assert report.rendered == ["core/cover.md"], report.rendered

        rows.append(("render, one file changed", min(timed(one_changed, args.runs)), ""))
        rows.append(("render, nothing changed", min(timed(lambda: render(repo), args.runs)), ""))
        for generator in GENERATORS:
            site = repo / "build" / f"site-{generator}" if generator == "zensical" else Path(work) / "site"

            def whole(generator: str = generator, site: Path = site) -> None:
                done = build(generator, repo, site)
                assert done.returncode == 0, done.stderr

            rows.append((f"{generator} build --strict, whole site", min(timed(whole, args.runs)), ""))
        if CHROMIUM.exists():
            pdf: list[Path] = []
            seconds = min(timed(lambda: pdf.append(print_rulebook(repo, Path(work) / "site")), args.runs))
            size = pdf[-1].stat().st_size
            rows.append(("rulebook PDF (Chromium print)", seconds, f"{size / 1e6:.1f} MB"))
    print(f"baseline: python -c pass = {baseline * 1000:.0f} ms (load average {os.getloadavg()[0]:.1f})")
    print("| measurement | time (best of runs) | ratio to baseline | size |")
    print("|---|---|---|---|")
    for name, seconds, extra in rows:
        print(f"| {name} | {seconds:.2f} s | {seconds / baseline:.0f}x | {extra} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
