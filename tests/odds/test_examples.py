"""Every scenario in examples/scenarios/: exact odds that sum to 1, or exit 1 for an illegal declaration.

Rule: sequences/shooting_sequence.md#shooting-sequence
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from rulespy.cli import main
from rulespy.errors import IllegalDeclaration
from rulespy.odds import odds
from rulespy.scenario import load_scenario

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples" / "scenarios").glob("*.yaml"))


def _illegal(path: Path) -> bool:
    expect = load_scenario(path).expect
    return isinstance(expect, dict) and expect.get("legal") is False


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_odds_are_exact_and_sum_to_one(path: Path) -> None:
    scenario = load_scenario(path)
    if _illegal(path):
        with pytest.raises(IllegalDeclaration):
            odds(scenario)
        return
    result = odds(scenario)
    assert sum(p for _, p in result.casualties) == 1
    if result.attacker_casualties is not None:
        assert sum(p for _, p in result.attacker_casualties) == 1


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_odds_on_the_command_line(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["odds", str(path), "--json", "--fractions"])
    out = capsys.readouterr()
    if _illegal(path):
        assert status == 1
        assert json.loads(out.out)["legal"] is False
        return
    assert status == 0, out.err
    data = json.loads(out.out)
    assert sum(Fraction(p) for p in data["casualties"].values()) == 1
