"""Every scenario under examples/scenarios/ resolves to the outcome written, by hand, in its ``expect:`` key.

Subfolders are collected too (``reading/`` holds the situations an independent reader worked out from the
rule pages alone), recursively and in sorted order.

``expect`` keys: ``legal`` (and ``rule`` when false); ``attacks`` (per attack: ``unit``, ``initiative``
and ``targets``, each target with any of ``unit``, ``fired``, ``leadership``, ``successes``,
``criticals``, ``allocation``, plus ``rolled``: Target Lock dice rolled, and ``lost``: successes with no
valid model); ``casualties`` ({model: removed}, exact); ``wounds`` and ``status`` (final, for the models
listed).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulespy.cli import main
from rulespy.scenario import load_scenario
from rulespy.scenario.yamlnodes import Node
from rulespy.state import Command
from tests.cli.resolve_outputs import remembered_parses

FOLDER = Path(__file__).resolve().parents[2] / "examples" / "scenarios"
SCENARIOS = sorted(FOLDER.rglob("*.yaml"))
IDS = [p.relative_to(FOLDER).with_suffix("").as_posix() for p in SCENARIOS]
_TARGET_KEYS = ("unit", "fired", "leadership", "successes", "criticals", "allocation")


_PARSED: dict[str, Node] = {}


@pytest.fixture(autouse=True)
def _each_scenario_parsed_once() -> Iterator[None]:
    """Each test here loads or resolves every scenario file: each file's YAML is parsed once a module."""
    with remembered_parses(_PARSED):
        yield


def _resolve(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["resolve", str(path), "--json"])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return code, json.loads(out)


def test_the_library_covers_every_command() -> None:
    """Every command has a scenario file of its own (a new command's recipe adds one)."""
    commands = set()
    for path in SCENARIOS:
        scenario = load_scenario(path)
        commands.add(scenario.attack.command.value)
        if scenario.response is not None:
            commands.add(scenario.response.command.value)
    assert commands == {command.value for command in Command}


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
def test_scenario_has_a_sentence_description_and_an_expectation(path: Path) -> None:
    scenario = load_scenario(path)
    assert scenario.description and scenario.description.strip().endswith(".")
    assert isinstance(scenario.expect, dict) and "legal" in scenario.expect


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
def test_scenario_resolves_to_its_expected_outcome(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expect = load_scenario(path).expect
    code, result = _resolve(path, capsys)
    assert result["legal"] is expect["legal"]
    if not expect["legal"]:
        assert code == 1
        assert result["error"]["rule"] == expect["rule"]
        return
    assert code == 0
    for a, attack in enumerate(expect.get("attacks", [])):
        got = result["attacks"][a]
        for key in ("unit", "initiative"):
            if key in attack:
                assert got[key] == attack[key], f"attack {a + 1} {key}"
        for t, target in enumerate(attack.get("targets", [])):
            got_target = got["targets"][t]
            where = f"attack {a + 1} target {t + 1}"
            for key in _TARGET_KEYS:
                if key in target:
                    assert got_target[key] == target[key], f"{where} {key}"
            if "rolled" in target:
                assert len(got_target["locks"]) == target["rolled"], f"{where} rolled"
            if "lost" in target:
                lost = sum(1 for hit in got_target["allocation"] if hit["model"] is None)
                assert lost == target["lost"], f"{where} lost"
    if "casualties" in expect:
        got_casualties = {c["model"]: c["removed"] for c in result["casualties"]}
        assert got_casualties == expect["casualties"]
    for model, wounds in expect.get("wounds", {}).items():
        assert result["models"][model]["wounds"] == wounds, f"{model} wounds"
    for model, status in expect.get("status", {}).items():
        assert sorted(result["models"][model]["status"]) == sorted(status), f"{model} status"


@pytest.mark.parametrize("path", SCENARIOS, ids=IDS)
def test_account_cites_a_rule_on_every_line(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["resolve", str(path)])
    out, err = capsys.readouterr()
    assert code in (0, 1) and err == ""
    text = out.replace("\n      ", " ").replace("\n    ", " ").replace("\n  ", " ")
    assert ".md#" in text
