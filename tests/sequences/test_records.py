"""Rules return records; the account words them (sequences/shooting_sequence.md#shooting-sequence).

The rules and the sequence log typed records that cite their rule; only ``rulespy/account.py`` turns
them into words, and the odds engine's memo changes nothing but how often a step is worked out.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rulespy import account
from rulespy.dice import ScriptedDice
from rulespy.scenario import load_scenario
from rulespy.sequences.records import Casualty, Hit, Record
from rulespy.sequences.resolution import Resolution, resolve
from rulespy.sequences.rounds import Memo
from rulespy.sequences.shooting_sequence import ShootingSequence, State
from rulespy.timing.firefight import Removal
from tests.odds.step_memo import StepMemo

ROOT = Path(__file__).resolve().parents[2]
RULES = [ROOT / "rulespy" / folder for folder in ("core", "sequences", "timing", "commands")]
SCENARIOS = sorted((ROOT / "examples" / "scenarios").glob("*.yaml"))
LEGAL = [p for p in SCENARIOS if (load_scenario(p).expect or {}).get("legal")]


def _modules() -> list[Path]:
    return sorted(path for folder in RULES for path in folder.rglob("*.py"))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_shooting_sequence_rules_never_word_their_records(path: Path) -> None:
    """No rule module imports the account or its wording, and none asks whether to explain itself."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    } | {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not imported & {"rulespy.account", "rulespy.wording", "rulespy.events"}
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert "explain" not in names | attributes


def _played(path: Path, memo: Memo | None) -> tuple[State, tuple[Record, ...]]:
    """The final state and log of the scenario's attack, driven by hand through a sequence with ``memo``."""
    scenario = load_scenario(path)
    sequence = ShootingSequence(scenario, memo)
    assert scenario.dice is not None
    dice = ScriptedDice(scenario.dice, scenario.dice_line)
    state, log = sequence.initial()
    while (chance := sequence.chance(state)) is not None:
        outcome, items = sequence.read(state, chance, dice.roll(chance.dice))
        state, more = sequence.apply(state, outcome)
        log += items + more
    dice.finish()
    return state, tuple(log)


@pytest.mark.parametrize("path", LEGAL, ids=[p.stem for p in LEGAL])
def test_shooting_sequence_memo_of_the_odds_engine_reaches_the_same_state(path: Path) -> None:
    remembered, _ = _played(path, StepMemo())
    state, log = _played(path, None)
    assert remembered == state
    assert log == resolve(load_scenario(path)).trace


@pytest.mark.parametrize("path", LEGAL, ids=[p.stem for p in LEGAL])
def test_shooting_sequence_log_holds_the_json_records_and_one_line_each(path: Path) -> None:
    result: Resolution = resolve(load_scenario(path))
    lines = account.trace(result)
    assert [line.rule for line in lines] == [record.rule for record in result.trace]
    assert all(line.text for line in lines)
    casualties = tuple(r for r in result.trace if isinstance(r, Casualty))
    assert casualties == result.casualties
    for a, attack in enumerate(result.to_json()["attacks"]):
        for t, target in enumerate(attack["targets"]):
            logged = [
                r.to_json() for r in result.trace if isinstance(r, Hit) and (r.attack, r.target) == (a, t)
            ]
            assert logged == target["allocation"]


def test_removal_timing_has_one_wording_for_each_time() -> None:
    assert set(account._WHEN) == set(Removal)
    assert account.say(Casualty("x1", Removal.END_OF_FIREFIGHT)) == (
        "x1 is a casualty at 0 wounds, removed at the end of the firefight"
    )
