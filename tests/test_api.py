"""``rulespy.api``: the answers ``rulespy resolve`` and ``rulespy odds`` print, as values the command line
and the site's rules judge both print from (``tests/cli/resolve_outputs.json`` records them for every
scenario; here the library's own promises)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulespy import api
from rulespy.cli import main
from rulespy.scenario import parse_scenario

ROOT = Path(__file__).resolve().parents[1]
ARMOUR = ROOT / "examples/scenarios/armour.yaml"
ILLEGAL = ROOT / "examples/scenarios/illegal_friendly_target.yaml"


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("path", [ARMOUR, ILLEGAL])
@pytest.mark.parametrize("command", ["resolve", "odds"])
def test_answer_is_what_the_command_line_prints(
    capsys: pytest.CaptureFixture[str], path: Path, command: str
) -> None:
    answer = (api.resolve if command == "resolve" else api.odds)(path.read_text(encoding="utf-8"), str(path))
    assert (answer.exit, answer.json, "") == _cli(capsys, command, str(path), "--json")
    assert (answer.exit, answer.text, "") == _cli(capsys, command, str(path))


def test_a_loaded_scenario_is_answered_as_its_text() -> None:
    text = ARMOUR.read_text(encoding="utf-8")
    assert api.resolve(parse_scenario(text, "a.yaml")) == api.resolve(text, "a.yaml")
    assert api.resolve_file(ARMOUR).json == api.resolve(text, str(ARMOUR)).json


def test_only_the_outputs_asked_for_are_made() -> None:
    answer = api.resolve_file(ARMOUR, ("json",))
    assert answer.text is None and json.loads(answer.json or "")["legal"] is True
    assert api.odds_file(ARMOUR, ("text",)).json is None


def test_an_illegal_declaration_is_exit_1_with_the_rule_broken() -> None:
    answer = api.resolve_file(ILLEGAL)
    assert answer.exit == 1 and answer.error == ""
    rule = json.loads(answer.json or "")["error"]["rule"]
    assert rule.startswith("core/") and rule in (answer.text or "")


@pytest.mark.parametrize(
    ("text", "line"),
    [("units: [}", 1), ("a: &a [1, *a]\n", 1), ("\n\nunits: 3\n", 3), ("dice: [7]\n", 1)],
)
def test_malformed_input_is_exit_2_with_its_line_never_an_exception(text: str, line: int) -> None:
    for answer in (api.resolve(text, "s.yaml"), api.odds(text, "s.yaml")):
        assert answer.exit == 2 and (answer.json, answer.text, answer.scenario) == ("", "", None)
        assert answer.error.startswith(f"s.yaml:{line}: ") and answer.error.endswith("\n")


def test_a_missing_file_is_exit_2_named() -> None:
    answer = api.resolve_file(ROOT / "no-such.yaml")
    assert answer.exit == 2 and answer.error.endswith("no-such.yaml:1: no such scenario file\n")


def test_odds_with_fractions_are_the_fractions_the_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    answer = api.odds_file(ARMOUR, fractions=True)
    assert (answer.exit, answer.json, "") == _cli(capsys, "odds", str(ARMOUR), "--json", "--fractions")
    assert "/" in (answer.text or "")
