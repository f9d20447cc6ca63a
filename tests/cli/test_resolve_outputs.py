"""``rulespy resolve`` answers every scenario and worked example exactly as recorded in
``resolve_outputs.json``: the contract's JSON and the account, line for line.

A refactoring of the engine or the account must leave both unchanged. A deliberate change (an outcome, a
wording) rewrites the record (``.venv/bin/python -m tests.cli.resolve_outputs``) in the same commit, so
that its diff shows every answer it changed.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.cli.resolve_outputs import outputs, recorded

RECORDED = recorded()


@pytest.fixture(scope="module")
def current() -> dict[str, dict[str, Any]]:
    return outputs()


def test_every_scenario_and_example_has_a_recorded_answer(current: dict[str, dict[str, Any]]) -> None:
    assert sorted(current) == sorted(RECORDED), "run python -m tests.cli.resolve_outputs and read the diff"


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_resolve_json_is_byte_identical_to_the_record(name: str, current: dict[str, dict[str, Any]]) -> None:
    assert current.get(name, {}).get("json") == RECORDED[name]["json"]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_resolve_account_is_the_recorded_account(name: str, current: dict[str, dict[str, Any]]) -> None:
    assert current.get(name, {}).get("text") == RECORDED[name]["text"]
