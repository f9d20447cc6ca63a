"""Markdown examples are isolated, and a broken example fails with its .md line.

Each test writes small rule files into a temporary folder and runs pytest on them in a subprocess, with
the repository's conftest.py and the same options as pyproject.toml (``--markdown-docs
--markdown-docs-syntax=superfences``), then reads the report:

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
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FENCE = "```"

INI = """[pytest]
addopts = --markdown-docs --markdown-docs-syntax=superfences -p no:cacheprovider
timeout = 60
"""


def example(code: str) -> str:
    return f"{FENCE}{{.python}}\n{code.strip()}\n{FENCE}\n"


def run_pytest(folder: Path, *args: str, conftest: bool = True) -> tuple[int, str]:
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
    )
    return done.returncode, done.stdout + done.stderr


def line_of(path: Path, text: str) -> int:
    """The 1-based line of the first line of ``path`` that contains ``text``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_a_broken_example_fails_with_its_md_path_and_line(tmp_path: Path) -> None:
    page = tmp_path / "rules" / "broken.md"
    page.parent.mkdir()
    page.write_text(
        "# A rule\n\nSome text before the example.\n\n"
        + example("total = 1 + 1\nassert total == 3, 'the example is wrong on purpose'")
        + "\nMore text.\n\n"
        + example("assert 2 + 2 == 4"),
        encoding="utf-8",
    )
    status, report = run_pytest(tmp_path)
    assert status == 1, report
    assert "1 failed, 1 passed" in report, report
    line = line_of(page, "assert total == 3")
    assert f'broken.md", line {line}' in report, report
    assert "the example is wrong on purpose" in report, report
    assert "FAILED rules/broken.md::" in report, report


def test_a_hanging_example_is_stopped_by_the_timeout_at_its_md_line(tmp_path: Path) -> None:
    page = tmp_path / "hang.md"
    page.write_text(
        "# Hanging\n\n"
        + example("spins = 0\nwhile True:\n    spins += 1")
        + "\nThe next example still runs.\n\n"
        + example("assert 'spins' not in globals()"),
        encoding="utf-8",
    )
    status, report = run_pytest(tmp_path, "-o", "markdown_example_limit=2")
    assert status == 1, report
    assert "Timeout" in report, report
    assert "1 failed, 1 passed" in report, report
    lines = {line_of(page, "while True"), line_of(page, "spins += 1")}
    assert any(f'hang.md", line {n}' in report for n in lines), report
    assert "FAILED hang.md::" in report, report


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


def test_module_state_changed_by_one_example_does_not_reach_the_next(tmp_path: Path) -> None:
    page = tmp_path / "isolation.md"
    page.write_text("# Isolation\n\n" + example(CHANGER) + "\n" + example(CHECKER), encoding="utf-8")
    status, report = run_pytest(tmp_path)
    assert status == 0 and "2 passed" in report, report


def test_without_the_conftest_the_same_change_does_leak(tmp_path: Path) -> None:
    """The control: the isolation above comes from the repository's conftest.py, not from luck."""
    page = tmp_path / "isolation.md"
    page.write_text("# Isolation\n\n" + example(CHANGER) + "\n" + example(CHECKER), encoding="utf-8")
    status, report = run_pytest(tmp_path, conftest=False)
    assert status == 1 and "1 failed, 1 passed" in report, report
    assert "NEAR_BAND" in report or "99.0" in report, report
