"""Markdown examples are isolated, and a broken example fails with its .md line.

Each test writes small rule files into a folder of its own and pytest runs them in a subprocess, with the
repository's conftest.py and the same options as pyproject.toml (``--markdown-docs
--markdown-docs-syntax=superfences``), then the test reads its part of the report:

* a broken example fails, and the report names its ``.md`` file and the line that failed;
* a hanging example is stopped by the per-example limit and reported at its ``.md`` file and line, and
  the examples after it still run;
* (issue 13) no example can turn a failing run green or leave anything behind: an example that exits
  the process, skips, or ignores signals and loops fails; a run with fewer examples run than collected
  fails; examples see a scrubbed environment and a temporary working folder, and a daemon they start
  does not outlive them (tests in ``test_containment.py``);
* an example that changes rulespy's module state (a constant, a function, a dict, a class) or leaves a
  name in its namespace changes nothing for the next example; without the repository's conftest.py the
  same file fails, so it is the conftest that keeps examples apart.

A start of pytest with the conftest (which imports every rulespy module, in the test process and in the
example server) costs about a second of CPU, so the cases of a module share one run (``run_cases``): each
case keeps a folder of its own, and its test reads only its own items' outcomes, failure sections and
summary lines (``CaseRun``). A case about the exit status of the run as a whole (fewer examples run than
collected, in ``test_containment.py``) or about another set-up (the run without the conftest) has a run
of its own. The shared run's per-example limit is 2 s, for the hanging example.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FENCE = "```"

INI = """[pytest]
addopts = --markdown-docs --markdown-docs-syntax=superfences -p no:cacheprovider
timeout = 60
"""
#: an item's line in pytest's ``-v`` report: its node id and outcome
_ITEM = re.compile(r"^(?P<id>\S+::\S+) (?P<outcome>PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)\b")
_SECTION = re.compile(r"^_{3,} (?P<name>.+?) _{3,}$")
_BANNER = re.compile(r"^={3,} (?P<name>.+?) ={3,}$")


def example(code: str) -> str:
    return f"{FENCE}{{.python}}\n{code.strip()}\n{FENCE}\n"


def run_pytest(
    folder: Path, *args: str, conftest: bool = True, env: Mapping[str, str] | None = None
) -> tuple[int, str]:
    """Run pytest on ``folder`` in a subprocess; its exit status and its whole report."""
    (folder / "pytest.ini").write_text(INI, encoding="utf-8")
    if conftest:
        shutil.copy(ROOT / "conftest.py", folder / "conftest.py")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:randomly", "-v", "--tb=long", *args, str(folder)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )
    return done.returncode, done.stdout + done.stderr


def line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line of ``path`` that contains ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


@dataclass(frozen=True)
class CaseRun:
    """One case's part of a shared run: its folder, the run's exit status, its items' outcomes (node id to
    ``PASSED``, ``FAILED``...), its own lines of the report (item lines, failure sections, summary lines)
    and the whole report, for a failure's message."""

    folder: Path
    status: int
    outcomes: dict[str, str]
    report: str
    whole: str

    @property
    def summary(self) -> str:
        """The case's counts as pytest's last line writes a run's: ``1 failed, 1 passed``."""
        counts = Counter(self.outcomes.values())
        order = ("FAILED", "PASSED", "SKIPPED", "ERROR")
        return ", ".join(f"{counts[o]} {o.lower()}" for o in order if counts[o])


def _failure_sections(lines: list[str]) -> list[list[str]]:
    """The sections of the FAILURES part of a report, in order (one per failed item, in run order)."""
    sections: list[list[str]] = []
    inside = False
    for line in lines:
        banner = _BANNER.match(line)
        if banner:
            inside = banner["name"] == "FAILURES"
            continue
        if inside and _SECTION.match(line):
            sections.append([line])
        elif inside and sections:
            sections[-1].append(line)
    return sections


def run_cases(
    root: Path,
    cases: Mapping[str, Callable[[Path], object]],
    *args: str,
    conftest: bool = True,
    env: Mapping[str, str] | None = None,
) -> dict[str, CaseRun]:
    """Write each case's files with ``cases[name](root / name)``, run pytest once on ``root``, and split
    the report by case (every case's node ids start with its folder's name)."""
    root.mkdir(parents=True, exist_ok=True)
    for name, write in cases.items():
        (root / name).mkdir()
        write(root / name)
    status, whole = run_pytest(root, *args, conftest=conftest, env=env)
    lines = whole.splitlines()
    items = [(m["id"], m["outcome"]) for m in map(_ITEM.match, lines) if m]
    failed = [node for node, outcome in items if outcome == "FAILED"]
    sections = dict(zip(failed, _failure_sections(lines), strict=False))
    runs: dict[str, CaseRun] = {}
    for name in cases:
        mine = [(node, outcome) for node, outcome in items if node.startswith(f"{name}/")]
        own = [line for line in lines if f" {name}/" in f" {line}" and "::" in line]
        for node, _ in mine:
            own.extend(sections.get(node, []))
        runs[name] = CaseRun(root / name, status, dict(mine), "\n".join(own), whole)
    return runs


def _broken(folder: Path) -> None:
    page = folder / "rules" / "broken.md"
    page.parent.mkdir()
    page.write_text(
        "# A rule\n\nSome text before the example.\n\n"
        + example("total = 1 + 1\nassert total == 3, 'the example is wrong on purpose'")
        + "\nMore text.\n\n"
        + example("assert 2 + 2 == 4"),
        encoding="utf-8",
    )


def _hanging(folder: Path) -> None:
    (folder / "hang.md").write_text(
        "# Hanging\n\n"
        + example("spins = 0\nwhile True:\n    spins += 1")
        + "\nThe next example still runs.\n\n"
        + example("assert 'spins' not in globals()"),
        encoding="utf-8",
    )


SCENARIO = '''
weapons:
  carbine: {range: 18, dice: 3, lock: 4, damage: 1, traits: [assault]}
units:
  - id: rangers
    side: blue
    models:
      - {id: r1, at: [0, 0], leader: true, weapons: [carbine]}
  - id: drones
    side: red
    models:
      - {id: d1, at: [12, 0], wounds: 2}
      - {id: d2, at: [16, 0]}
      - {id: d3, at: [9, 0]}
attack:
  unit: rangers
  command: shoot
  targets:
    - {unit: drones, mark: d1}
dice: [5, 5, 5]
'''

CHANGER = '''
import rulespy
import rulespy.core.allocation as allocation
import rulespy.sequences.rounds as rounds
from rulespy.core import cover
from rulespy.state import Cover, Unit

leaked_name = "from the first example"
allocation.NEAR_BAND = 99.0
rounds.wounds_lost = lambda inflicted, left: 0
cover.COVER_MODIFIERS[Cover.LIGHT] = -5
Unit.swarm = property(lambda self: True)
rulespy.ADDED_BY_AN_EXAMPLE = True
'''

CHECKER = f'''
import rulespy
import rulespy.core.allocation as allocation
from rulespy.core import cover
from rulespy.scenario import parse_scenario
from rulespy.sequences.resolution import resolve
from rulespy.state import Cover

assert "leaked_name" not in globals(), "the namespace of the first example leaked"
assert allocation.NEAR_BAND == 12.0, allocation.NEAR_BAND
assert cover.COVER_MODIFIERS[Cover.LIGHT] == -1, cover.COVER_MODIFIERS
assert not hasattr(rulespy, "ADDED_BY_AN_EXAMPLE")
scenario = parse_scenario("""{SCENARIO}""")
assert not scenario.battlefield.unit("rangers").swarm
result = resolve(scenario)
# d1 takes the first hit as the mark; d3 (8" away, band 0) comes before d2 (15" away, band 1),
# which only a NEAR_BAND of 99 would put in the same band (then unit order picks d2 first)
hits = [(h.model, h.wounds) for h in result.attacks[0].targets[0].allocation]
assert hits == [("d1", 1), ("d3", 1), ("d2", 1)], hits
'''


def _isolation(folder: Path) -> None:
    (folder / "isolation.md").write_text(
        "# Isolation\n\n" + example(CHANGER) + "\n" + example(CHECKER), encoding="utf-8"
    )


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CaseRun]:
    """The module's cases in one run, each in its folder."""
    cases = {"broken": _broken, "hanging": _hanging, "isolation": _isolation}
    return run_cases(tmp_path_factory.mktemp("shared"), cases, "-o", "markdown_example_limit=2")


def test_a_broken_example_fails_with_its_md_path_and_line(shared: dict[str, CaseRun]) -> None:
    run = shared["broken"]
    assert run.status == 1, run.whole
    assert run.summary == "1 failed, 1 passed", run.whole
    line = line_of(run.folder / "rules" / "broken.md", "assert total == 3")
    assert f'broken.md", line {line}' in run.report, run.whole
    assert "the example is wrong on purpose" in run.report, run.whole
    assert "FAILED broken/rules/broken.md::" in run.report, run.whole


def test_a_hanging_example_is_stopped_by_the_timeout_at_its_md_line(shared: dict[str, CaseRun]) -> None:
    run = shared["hanging"]
    assert run.status == 1, run.whole
    assert "Timeout" in run.report, run.whole
    assert run.summary == "1 failed, 1 passed", run.whole
    page = run.folder / "hang.md"
    lines = {line_of(page, "while True"), line_of(page, "spins += 1")}
    assert any(f'hang.md", line {n}' in run.report for n in lines), run.whole
    assert "FAILED hanging/hang.md::" in run.report, run.whole


def test_module_state_changed_by_one_example_does_not_reach_the_next(shared: dict[str, CaseRun]) -> None:
    run = shared["isolation"]
    assert run.summary == "2 passed", run.whole


def test_without_the_conftest_the_same_change_does_leak(tmp_path: Path) -> None:
    """The control: the isolation above comes from the repository's conftest.py, not from luck."""
    run = run_cases(tmp_path / "run", {"isolation": _isolation}, conftest=False)["isolation"]
    assert run.status == 1 and run.summary == "1 failed, 1 passed", run.whole
    assert "NEAR_BAND" in run.report or "99.0" in run.report, run.whole
