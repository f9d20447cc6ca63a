"""Hostile inputs of issue 12 at full size: time and peak memory of each tool, in one run.

Every case runs as its own process (the command line a contributor or CI would run), started by a
small wrapper that reports the child's wall time and peak resident memory; the baseline of each tool is
the same command on an ordinary input, measured in the same run. The inputs are built by
``tests/hostile/cases.py`` (the test suite runs each class at a small size). Budgets: every case ends in
under 2 s and 500 MB, with a clean refusal (exit 1 or 2 and a message naming the file and line) or an
answer; the table is in ``bench/README.md``.

With ``--site``, the site-build classes (identical headings, a non-UTF-8 page) are built on a copy of
the repository the way ``make site`` builds it, each step a row of its own: ``rulespy render . --strict``
(the staged pages), then ``python -m rulespy.render.build mkdocs`` (the generator, ``--strict``), which
is not run when the render refused; the plain repository is the baseline.

Usage: .venv/bin/python bench/bench_hostile.py [--site] [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.hostile import cases  # noqa: E402

BIN = Path(sys.executable).parent
RULESPY = str(BIN / "rulespy")

#: Runs one command, then prints its wall time, exit status, peak memory (KiB) and first output line.
WRAPPER = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
wall = time.perf_counter() - started
lines = (done.stderr.strip() or done.stdout.strip()).splitlines()
if "rulespy.render.build" in sys.argv:  # its log: the first error, else how it ended
    first = next((l for l in lines if "error" in l.lower()), lines[-1] if lines else "")
else:
    first = lines[0] if lines else ""
print(json.dumps({"wall": wall, "status": done.returncode,
                  "peak_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
                  "said": first[:150], "traceback": "Traceback" in done.stderr}))
"""


def measure(command: list[str], cwd: Path | None = None) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", WRAPPER, *command], capture_output=True, text=True, cwd=cwd, check=True
    )
    return dict(json.loads(out.stdout))


def repo(folder: Path, page: str | bytes, extra: dict[str, str] | None = None) -> Path:
    """A tiny rules repository whose ``core/page.md`` is ``page``."""
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "core").mkdir(parents=True)
    (folder / "index.md").write_text("# Home\n\n[page](core/page.md)\n", encoding="utf-8")
    if isinstance(page, bytes):
        (folder / "core" / "page.md").write_bytes(page)
    else:
        (folder / "core" / "page.md").write_text(page, encoding="utf-8")
    for name, text in (extra or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def coverage_tree(folder: Path, files: int, fences: int, tests: int) -> Path:
    """A copy of this repository plus ``files`` generated rule files of ``fences`` continuation examples
    and ``tests`` generated unit tests: the "large generated tree" of the issue."""
    shutil.rmtree(folder, ignore_errors=True)
    ignore = shutil.ignore_patterns(".venv", ".git", "site", "__pycache__", "*.egg-info", ".*cache")
    shutil.copytree(ROOT, folder, ignore=ignore)
    for index in range(files):
        text = cases.continuation_file(fences).replace("generated", f"generated-{index}")
        text = text.replace("{#rule-", f"{{#rule-{index}-")
        (folder / "core" / f"generated_{index}.md").write_text(text, encoding="utf-8")
    (folder / "tests" / "generated").mkdir()
    body = "".join(
        f"def {name}() -> None:\n    assert True\n\n" for name in cases.unit_test_names(tests, fences)
    )
    (folder / "tests" / "generated" / "test_generated.py").write_text(body, encoding="utf-8")
    return folder


def rows(work: Path, site: bool) -> list[tuple[str, str, list[str], Path | None]]:
    """(class, size, command, working folder) for every case, baselines first in each group."""
    found: list[tuple[str, str, list[str], Path | None]] = []

    def check(name: str, size: str, page: str | bytes, extra: dict[str, str] | None = None) -> None:
        folder = repo(work / name.replace(" ", "_"), page, extra)
        found.append((f"check: {name}", size, [RULESPY, "check", str(folder), "--no-cache"], None))

    check("baseline (one ordinary page)", "1 KB", "# Page {#page}\n\n" + "Some [text](../index.md). " * 30)
    for label, build, count in (
        ("identical headings", cases.identical_headings, 20_000),
        ("reference definitions", cases.reference_definitions, 5_000),
        ("link labels in one paragraph", cases.bracket_runs, 8_000),
        ("emphasis openers", cases.emphasis_openers, 20_000),
        ("ownership claims", cases.repeated_claims, 20_000),
        ("capitalised run before a claim", cases.capitalised_run, 20_000),
    ):
        text = build(count)
        check(label, f"{count:,} ({len(text) // 1000} KB)", text)
    check(
        "concepts.yml alias bomb", "9**10 values", "# Page\n", {"concepts.yml": cases.concepts_alias_bomb(9)}
    )
    check("mkdocs.yml nav alias bomb", "9**10 values", "# Page\n", {"mkdocs.yml": cases.nav_alias_bomb(9)})

    def scenario(group: str, name: str, size: str, text: str, *extra: str) -> None:
        path = work / f"{group}_{len(found)}.yaml"
        path.write_text(text, encoding="utf-8")
        found.append((f"{group}: {name}", size, [RULESPY, group, str(path), *extra], None))

    plain = (ROOT / "examples" / "scenarios" / "shoot.yaml").read_text(encoding="utf-8")
    scenario("resolve", "baseline (examples/scenarios/shoot.yaml)", "", plain)
    scenario("resolve", "sight past a zigzag wall", "4,000 vertices", cases.zigzag_wall(4_000))
    scenario("resolve", "sight through a zigzag wall", "4,000 vertices", cases.zigzag_wall(4_000, past=False))
    scenario("resolve", "scenario alias bomb", "9**10 values", cases.scenario_alias_bomb(9))
    scenario("odds", "baseline (examples/scenarios/shoot.yaml)", "", plain)
    scenario("odds", "100 dice at 1,000 models", "35 KB", cases.big_unit(1_000, 100))
    scenario("odds", "100 dice at 9,000 models", "315 KB", cases.big_unit(9_000, 100))
    scenario("odds", "300 dice at 1,000 models", "35 KB", cases.big_unit(1_000, 300))
    scenario("odds", "Snap Fire firefight, 1,000 models", "35 KB", cases.big_unit(1_000, 100, True))
    scenario("odds", "near the work limit (16 models, 60 dice)", "1 KB", cases.big_unit(16, 60))

    issue_29(work, found, scenario)

    found.append(("coverage: baseline (this repository)", "", [RULESPY, "coverage", str(ROOT)], None))
    tree = coverage_tree(work / "coverage_tree", 2, 2_000, 4_000)
    size = "2 files x 2,000 continuation examples, 4,000 tests"
    found.append(("coverage: large generated tree", size, [RULESPY, "coverage", str(tree)], None))

    if site:
        for name, page in (
            ("baseline (this repository)", None),
            ("identical headings", cases.identical_headings(10_000)),
            ("non-UTF-8 page", "# Latin\n\ncaf\xe9\n".encode("latin-1")),
        ):
            folder = work / f"site_{name.split()[0]}"
            shutil.rmtree(folder, ignore_errors=True)
            ignore = shutil.ignore_patterns(
                ".venv", ".git", "site", "build", "__pycache__", "*.egg-info", ".*cache"
            )
            shutil.copytree(ROOT, folder, ignore=ignore)
            if page is not None:
                target = folder / "core" / "hostile.md"
                target.write_bytes(page if isinstance(page, bytes) else page.encode("utf-8"))
            size = "10,000" if "headings" in name else ""
            render = [RULESPY, "render", ".", "--strict"]
            built = str(work / f"built_{name.split()[0]}")
            generate = [sys.executable, "-m", "rulespy.render.build", "mkdocs", "--site-dir", built]
            found.append((f"site build: {name}, render", size, render, folder))
            found.append((f"site build: {name}, mkdocs", size, generate, folder))
    return found


def issue_29(
    work: Path, found: list[tuple[str, str, list[str], Path | None]], scenario: Callable[..., None]
) -> None:
    """The classes of issue 29 (rows named "issue 29"): each markup and configuration class refused by
    ``rulespy check`` and ``rulespy render``, build/ linked out of the repository, render on 40,000
    mentions in one paragraph, and the odds attacks of many weapon profiles."""
    cover = {"core/cover.md": "# Cover\n"}
    folder = repo(work / "render_baseline", "# Page {#page}\n\n" + "Some [text](../index.md). " * 30, cover)
    found.append(
        ("issue 29 render: baseline (one ordinary page)", "1 KB", [RULESPY, "render", str(folder)], None)
    )
    for name, (line, _) in cases.UNSAFE_MARKUP.items():
        folder = repo(work / f"markup_{len(found)}", cases.page_with(line))
        found.append((f"issue 29 check: {name}", "", [RULESPY, "check", str(folder), "--no-cache"], None))
        found.append((f"issue 29 render: {name}", "", [RULESPY, "render", str(folder)], None))
    for name, (line, _) in cases.UNSAFE_CONFIG.items():
        folder = repo(work / f"config_{len(found)}", "# Page\n", {"mkdocs.yml": cases.config_with(line)})
        found.append(
            (f"issue 29 check: mkdocs.yml {name}", "", [RULESPY, "check", str(folder), "--no-cache"], None)
        )
    folder = repo(work / "linked_build", "# Page\n")
    (work / "elsewhere").mkdir(exist_ok=True)
    (folder / "build").symlink_to(work / "elsewhere", target_is_directory=True)
    found.append(
        (
            "issue 29 render: build/ a symlink out of the repository",
            "",
            [RULESPY, "render", str(folder)],
            None,
        )
    )
    for count in (4_000, 40_000):
        folder = repo(work / f"mentions_{count}", cases.mentions(count), cover)
        size = f"{count:,} ({len(cases.mentions(count)) // 1000} KB)"
        found.append(
            ("issue 29 render: mentions in one paragraph", size, [RULESPY, "render", str(folder)], None)
        )
    folder = repo(work / "nested", cases.nested_markers(2_000))
    found.append(
        (
            "issue 29 render: nested list markers on one line",
            "2,000 (4 KB)",
            [RULESPY, "render", str(folder)],
            None,
        )
    )
    for shape in ((3, 10, 3), (6, 4, 8)):
        size = "{} models x {} profiles at {} targets".format(*shape)
        scenario("odds", "issue 29: many weapon profiles", size, cases.many_profiles(*shape))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--site",
        action="store_true",
        help="also time the site build (render, then mkdocs) on the site classes",
    )
    parser.add_argument("--only", default="", help="run only the cases whose name holds this text")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        work = Path(temporary)
        print("| class | size | time | peak memory | exit | what it said |")
        print("|---|---|---|---|---|---|")
        refused: set[str] = set()  # the site cases whose render refused: nothing to build
        for name, size, command, cwd in rows(work, args.site):
            if args.only not in name:
                continue
            case = name.rsplit(", ", 1)[0]
            if name.endswith(", mkdocs") and case in refused:
                print(f"| {name} | {size} | | | | not run: the render refused |", flush=True)
                continue
            result = measure(command, cwd)
            if name.endswith(", render") and result["status"] != 0:
                refused.add(case)
            said = str(result["said"]).replace(str(work) + "/", "").replace("|", "\\|")
            if result["traceback"]:
                said = "TRACEBACK: " + said
            wall, peak = float(str(result["wall"])), int(str(result["peak_kib"])) / 1024
            print(
                f"| {name} | {size} | {wall:.2f} s | {peak:.0f} MB | {result['status']} | {said} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
