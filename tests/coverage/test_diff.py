"""``rulespy diff REV``: a rule change in the engine shows up as changed outcomes, and nothing is touched."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

from rulespy.cli import main
from rulespy.coverage.runner import scenario_texts

ARMOURED = """\
description: Three rifle shots at armoured targets; a natural 6 ignores armour, the rest bounce off.
weapons:
  rifle: {range: 24, dice: 3, lock: 4, damage: 1}
units:
  - id: shooters
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, weapons: [rifle]}
  - id: armoured
    side: red
    models:
      - {id: a1, at: [10, 0], armour: 1}
      - {id: a2, at: [10, 2], wounds: 2, armour: 1}
attack: {unit: shooters, command: shoot, targets: [{unit: armoured, mark: a1}]}
dice: [4, 6, 5]
"""

RULE = '''\
# Plating {#plating-rules}

## Plating {#plating}

```{.python}
from rulespy.scenario import parse_scenario
from rulespy.sequences.resolution import resolve

TEXT = """
SCENARIO"""
assert resolve(parse_scenario(TEXT)).wounds("a2") == 2
```
'''.replace("\nSCENARIO", "\n" + ARMOURED)

# The rule change: armour no longer stops normal damage.
ARMOUR_IGNORED = """

def normal_wounds(weapon, armour):  # type: ignore[no-untyped-def]
    return weapon.damage
"""


@pytest.fixture
def repo(tmp_path: Path, copy_engine: Callable[[Path], None], git: Callable[..., str]) -> Path:
    root = tmp_path / "rules"
    copy_engine(root)
    (root / "examples/scenarios").mkdir(parents=True)
    (root / "examples/scenarios/armoured.yaml").write_text(ARMOURED, encoding="utf-8")
    (root / "core").mkdir()
    (root / "core/plating.md").write_text(RULE, encoding="utf-8")
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "rules as first written")
    return root


def test_scenario_texts_follow_names_and_dedent() -> None:
    code = (
        'from textwrap import dedent\nA = dedent("""\n  x: 1\n""")\n'
        's = parse_scenario(A)\nparse_scenario("y: 2")\n'
    )
    assert scenario_texts(code) == ["\nx: 1\n", "y: 2"]
    assert scenario_texts("parse_scenario(f'{x}')") == []
    assert scenario_texts("this is not python") == []


def test_nothing_changed_means_nothing_listed(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "HEAD", "--path", str(repo)]) == 0
    assert capsys.readouterr().out.startswith("0 of 2 scenarios and examples changed outcome since HEAD")


def test_a_rule_change_in_the_engine_shows_in_the_diff(
    repo: Path, git: Callable[..., str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with (repo / "rulespy/core/damage.py").open("a", encoding="utf-8") as module:
        module.write(ARMOUR_IGNORED)
    status = git(repo, "status", "--porcelain")
    temp = repo.parent / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))

    assert main(["diff", "HEAD", "--path", str(repo), "--json"]) == 0
    changes = {c["name"]: c for c in json.loads(capsys.readouterr().out)["changes"]}
    assert set(changes) == {"examples/scenarios/armoured.yaml", "core/plating.md#plating[1]"}
    change = changes["examples/scenarios/armoured.yaml"]
    assert change["kind"] == "changed"
    assert change["before"]["wounds"]["a2"] == 2 and change["after"]["wounds"]["a2"] == 0
    assert "a2 casualty: no -> end_of_attack" in change["summary"]
    assert "a2 wounds: 2 -> 0" in change["summary"]
    assert changes["core/plating.md#plating[1]"]["where"] == "core/plating.md:5"

    assert git(repo, "status", "--porcelain") == status  # the working tree and index are untouched
    assert list(temp.iterdir()) == []  # and the revision's tree is cleaned up


def test_the_text_report_shows_before_and_after(
    repo: Path, git: Callable[..., str], capsys: pytest.CaptureFixture[str]
) -> None:
    with (repo / "rulespy/core/damage.py").open("a", encoding="utf-8") as module:
        module.write(ARMOUR_IGNORED)
    git(repo, "commit", "-q", "-am", "armour stops nothing")
    assert main(["diff", "HEAD~1", "--path", str(repo)]) == 0
    out = capsys.readouterr().out
    assert "changed: examples/scenarios/armoured.yaml (examples/scenarios/armoured.yaml:1)\n" in out
    assert "    a2 wounds: 2 -> 0\n" in out
    assert "2 of 2 scenarios and examples changed outcome since HEAD~1 (" in out


@pytest.mark.parametrize("rev", ["no-such-branch", "--output=x", "HEAD~5"])
def test_a_bad_revision_is_refused(repo: Path, rev: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "--path", str(repo), "--", rev]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("rulespy diff: not a revision")
    assert captured.out == "" and "Traceback" not in captured.err


def test_a_folder_outside_git_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "HEAD", "--path", str(tmp_path)]) == 2
    assert "not inside a git repository" in capsys.readouterr().err


def test_scenarios_given_to_the_play_helpers_are_found() -> None:
    code = 'from rulespy.play import play, refused\nplay("a: 1")\nrefused(scenario="b: 2")\n'
    assert scenario_texts(code) == ["a: 1", "b: 2"]


def test_a_revision_holding_a_symlink_that_points_outside_is_a_note(
    repo: Path, git: Callable[..., str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 13, item 8: the symlink is left out of the copy of REV and named, never an internal error."""
    (repo / "core" / "notes.md").symlink_to("../../../etc/passwd")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "a symlink out")
    assert main(["diff", "HEAD", "--path", str(repo)]) == 0
    captured = capsys.readouterr()
    assert "internal error" not in captured.err
    assert "rulespy diff: core/notes.md was left out of the copy of" in captured.err
