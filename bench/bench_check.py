"""Speed of ``rulespy check`` on a synthetic 2,000-file rules tree (issues 4 and 15).

Reports, in one run and against baselines taken in the same run: the bare markdown-it-py parse of every
file (the floor) against ``--no-cache`` (cold: as the checker chooses, on a pool of every core, and in one
process), an empty cache (cold, writes it), re-checks in process (nothing changed, one file changed, a
linked heading renamed), and ``rulespy check`` as a process (nothing changed, one file changed) against
``python -c pass``.
Goals (issue 15): cold <= 1.5x the floor; the process <= 0.3 s with nothing changed, <= 0.4 s with one
file changed. Run: ``.venv/bin/python bench/bench_check.py [--files N] [--runs N]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from markdown_it import MarkdownIt

from rulespy.book.book import forget_pages
from rulespy.check import stamps
from rulespy.check.runner import CheckOptions, run_check

FOLDERS = ("core", "sequences", "timing", "commands")


def generate(root: Path, files: int) -> list[str]:
    """A rules tree: ids, links, mentions, ownership claims, fences, tables; 5 planted faults."""
    names = [f"{FOLDERS[i % 4]}/rule_{i:04d}.md" for i in range(files)]
    owners = []
    for i, name in enumerate(names):
        nxt, far = names[(i + 1) % files], names[(i * 7 + 3) % files]
        rel = "../" + nxt
        sections = []
        for s in range(6):
            sections.append(
                f"## Section {s} of rule {i} {{#s{s}}}\n\n"
                f"A unit resolves step {s} here, then reads [the next rule]({rel}#s{s}) and the mention "
                f"`{far}` before it rolls. Concept {i} is owned by `{name}`; **bold** and *em* text, "
                f"a second sentence long enough to look like rules prose, and a third one as well.\n\n"
                f"| roll | result |\n|---|---|\n| 1 | miss |\n| 6 | [critical]({rel}#s0) |\n\n"
                "```\n[not a link](nowhere.md)\n```\n"
            )
        text = f"# Rule {i} {{#rule-{i}}}\n\n" + "\n".join(sections)
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        owners.append(f"  {name}:\n    - {{concept: Concept {i}, anchor: rule-{i}}}\n")
    index = "# Home\n\n" + "".join(f"- [{n}]({n})\n" for n in names)
    (root / "index.md").write_text(index, encoding="utf-8")
    (root / "concepts.yml").write_text("owners:\n" + "".join(owners), encoding="utf-8")
    # planted faults: a broken link, a broken anchor, a missing mention, a wrong claim, an orphan
    with open(root / names[10], "a", encoding="utf-8") as handle:
        handle.write("\n[gone](missing.md) [bad anchor](#nope) and core/missing_rule.md\n")
        handle.write(f"\nConcept 11 is owned by `{names[12]}`.\n")
    (root / "core" / "orphan.md").write_text("# Orphan {#orphan}\n", encoding="utf-8")
    return names


def cpu() -> float:
    """CPU seconds of this process and its finished children (the parse pool's workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def floor(root: Path) -> tuple[float, float]:
    """Wall and CPU seconds of the bare parse."""
    md = MarkdownIt("commonmark").enable("table")
    started, used = time.perf_counter(), cpu()
    for path in sorted(root.rglob("*.md")):
        md.parse(path.read_text(encoding="utf-8"))
    return time.perf_counter() - started, cpu() - used


def timed(root: Path, options: CheckOptions, fresh: bool = False) -> tuple[float, int]:
    """Wall seconds and findings of a check in process; ``fresh``: without the pages an earlier check
    of this process parsed (``rulespy.book``'s cache), as a new process starts."""
    if fresh:
        forget_pages()
    started = time.perf_counter()
    report = run_check(root, options)
    return time.perf_counter() - started, len(report.findings)


def cold(root: Path, jobs: str) -> tuple[float, float, int]:
    """``--no-cache`` in process with ``RULESPY_CHECK_JOBS`` set to ``jobs`` (``""``: as the checker
    chooses, a worker for each core the load average leaves free): wall and CPU seconds (workers
    included), findings."""
    os.environ["RULESPY_CHECK_JOBS"] = jobs
    used = cpu()
    try:
        wall, found = timed(root, CheckOptions(use_cache=False), fresh=True)
    finally:
        del os.environ["RULESPY_CHECK_JOBS"]
    return wall, cpu() - used, found


def process(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of one process run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, env=env, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def settle(files: list[Path]) -> None:
    """Wait until the last write is older than the stamps' racy window, as in everyday use."""
    newest = max(path.stat().st_ctime_ns for path in files)
    time.sleep(max(0.0, (newest + stamps.RACY_NS) / 1e9 - time.time() + 0.2))


def spread(values: list[float]) -> str:
    return f"best {min(values):6.3f}  median {statistics.median(values):6.3f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=7, help="process runs of each kind (default 7)")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as work:
        root, cache = Path(work) / "rules", Path(work) / "cache"
        names = generate(root, args.files)
        options = CheckOptions(cache_dir=cache)
        floor(root)  # warm the OS file cache and imports, so both sides read from memory
        floors, chosen, pooled, single = [], [], [], []
        for _ in range(3):  # alternated, so that a load spike from other jobs hits all sides alike
            floors.append(floor(root))
            chosen.append(cold(root, ""))
            pooled.append(cold(root, str(os.cpu_count() or 1)))
            single.append(cold(root, "1"))
        bare, bare_cpu = min(floors)
        cold_chosen, chosen_cpu, found = min(chosen)
        cold_pool, pool_cpu, _ = min(pooled)
        cold_single, single_cpu, _ = min(single)
        cold_cache, _ = timed(root, options, fresh=True)
        settle([root / name for name in names])
        unchanged, _ = min(timed(root, options) for _ in range(3))
        changes = []
        for name in names[args.files // 4 :][:3]:  # best of three, a different file each time
            target = root / name
            target.write_text(target.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
            changes.append(timed(root, options)[0])
        changed = min(changes)
        renames = []
        # a heading another file links to: that file is checked again too
        for name in names[args.files * 3 // 10 :][:3]:
            target = root / name
            target.write_text(target.read_text(encoding="utf-8").replace("{#s3}", "{#s3b}"), encoding="utf-8")
            renames.append(timed(root, options))
        renamed, renamed_found = min(renames)

        command = [str(Path(sys.executable).parent / "rulespy"), "check", str(root)]
        baseline = [sys.executable, "-c", "pass"]
        env = {"RULESPY_CACHE_DIR": str(cache), "PATH": ""}
        settle([root / name for name in names])
        process(command, env)  # remembers the stamps of the files written above
        bare_process, quiet, edited = [], [], []
        for i in range(args.runs):  # alternated: python -c pass, nothing changed, one file changed
            bare_process.append(process(baseline, env))
            quiet.append(process(command, env))
            target = root / names[args.files // 2 + i]
            target.write_text(target.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
            edited.append(process(command, env))
    load_after = os.getloadavg()

    def walls(runs: list[tuple[float, float]]) -> list[float]:
        return [wall for wall, _ in runs]

    def cpus(runs: list[tuple[float, float]]) -> list[float]:
        return [cpu for _, cpu in runs]

    base_wall, base_cpu = statistics.median(walls(bare_process)), statistics.median(cpus(bare_process))
    print(f"files: {args.files + 2} markdown; findings: {found} (5 planted); cores: {os.cpu_count()}")
    print(f"load average: {load_before[0]:.1f} at the start, {load_after[0]:.1f} at the end")
    print(f"floor  bare markdown-it-py parse       {bare:7.3f} s  cpu {bare_cpu:6.3f} s")
    runs = (("as chosen", cold_chosen, chosen_cpu), ("pool", cold_pool, pool_cpu))
    for label, wall, used in (*runs, ("one process", cold_single, single_cpu)):
        print(
            f"cold   check, --no-cache, {label:12} {wall:7.3f} s  ({wall / bare:.2f}x floor; goal <= 1.5x)"
            f"  cpu {used:6.3f} s ({used / bare_cpu:.2f}x floor's cpu)"
        )
    print(f"cold   check, empty cache (writes it)  {cold_cache:7.3f} s  ({cold_cache / bare:.2f}x floor)")
    print(f"warm   check, nothing changed          {unchanged:7.3f} s  (in process)")
    print(f"warm   check, one file changed         {changed:7.3f} s  (in process)")
    print(f"warm   check, a linked heading renamed {renamed:7.3f} s  ({renamed_found} findings)")
    print(f"process runs ({args.runs} each, alternated), seconds:")
    rows = (("python -c pass", bare_process, ""), ("check, nothing changed", quiet, " goal <= 0.3 s"))
    rows += (("check, one file changed", edited, " goal <= 0.4 s"),)
    for label, runs, goal in rows:
        wall, cpu = statistics.median(walls(runs)), statistics.median(cpus(runs))
        print(
            f"  {label:24} wall {spread(walls(runs))} ({wall / base_wall:4.1f}x pass)"
            f"  cpu {spread(cpus(runs))} ({cpu / max(base_cpu, 1e-3):4.1f}x pass){goal}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
