"""Speed of ``rulespy check`` on a synthetic 2,000-file rules tree (issue 4).

Reports, in one run: the bare markdown-it-py parse of every file (the floor), ``rulespy check`` cold
(empty cache), and again with nothing changed, with one file changed, and with a heading renamed that
another file links to (so that file's finding appears and it is checked again too). Goals: cold <= 1.5x
the floor; re-checks <= 0.3 s. Run: ``.venv/bin/python bench/bench_check.py [--files N]``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from markdown_it import MarkdownIt

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


def floor(root: Path) -> float:
    md = MarkdownIt("commonmark").enable("table")
    started = time.perf_counter()
    for path in sorted(root.rglob("*.md")):
        md.parse(path.read_text(encoding="utf-8"))
    return time.perf_counter() - started


def timed(root: Path, options: CheckOptions) -> tuple[float, int]:
    started = time.perf_counter()
    report = run_check(root, options)
    return time.perf_counter() - started, len(report.findings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        root, cache = Path(work) / "rules", Path(work) / "cache"
        names = generate(root, args.files)
        options = CheckOptions(cache_dir=cache)
        floor(root)  # warm the OS file cache and imports, so both sides read from memory
        floors, colds = [], []
        for _ in range(3):  # alternated, so that a load spike from other jobs hits both sides alike
            floors.append(floor(root))
            colds.append(timed(root, CheckOptions(use_cache=False)))
        bare = min(floors)
        cold, found = min(colds)
        cold_cache, _ = timed(root, options)
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
        started = time.perf_counter()
        env = {"RULESPY_CACHE_DIR": str(cache), "PATH": ""}
        subprocess.run(command, capture_output=True, env=env, check=False)
        process = time.perf_counter() - started
    print(f"files: {args.files + 2} markdown; findings: {found} (5 planted)")
    print(f"floor  bare markdown-it-py parse       {bare:7.3f} s")
    print(f"cold   check, --no-cache               {cold:7.3f} s  ({cold / bare:.2f}x floor; goal <= 1.5x)")
    print(f"cold   check, empty cache (writes it)  {cold_cache:7.3f} s  ({cold_cache / bare:.2f}x floor)")
    print(f"warm   check, nothing changed          {unchanged:7.3f} s  (goal <= 0.3 s)")
    print(f"warm   check, one file changed         {changed:7.3f} s  (goal <= 0.3 s)")
    print(f"warm   check, a linked heading renamed {renamed:7.3f} s  ({renamed_found} findings)")
    print(f"warm   `rulespy check` as a process    {process:7.3f} s  (includes interpreter start-up)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
