"""Fuzzing ``rulespy resolve`` and ``rulespy odds`` with random YAML and mutated example scenarios.

Never a traceback, never a hang: exit 0 or 1 with an answer, or exit 2 with ``FILE:LINE: message`` and
nothing on standard output. The suite profile draws 100 and 40 derandomized cases, the thorough one 250
and 100 random cases (``tests/hypothesis_profiles.py``); bench/bench_fuzz.py runs 10,000.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.hypothesis_profiles import examples

from .fuzz_cases import cases, check_case

_FOLDER = Path(tempfile.mkdtemp(prefix="rulespy-fuzz-"))


@pytest.mark.timeout(600)
@settings(
    max_examples=examples(suite=100, thorough=250),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(cases)
def test_no_scenario_makes_resolve_crash_or_hang(text: str) -> None:
    assert check_case(text, _FOLDER / "fuzz.yaml") is None


@pytest.mark.timeout(600)
@settings(
    max_examples=examples(suite=40, thorough=100),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
@given(cases)
def test_no_scenario_makes_odds_crash_or_hang(text: str) -> None:
    assert check_case(text, _FOLDER / "fuzz-odds.yaml", "odds") is None
