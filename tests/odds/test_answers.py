"""Exact odds give the answers recorded before the odds engine was rewritten for speed (issue 15): the
casualty distribution and every final state's exact probability, for every example scenario, every
scenario a rule file's worked example plays, the odds tests' scenarios and the bench attacks.

Rule: sequences/shooting_sequence.md#shooting-sequence
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.odds.answers import answer, key, scenarios

RECORDED = json.loads((Path(__file__).with_name("answers.json")).read_text(encoding="utf-8"))
CURRENT = {key(text): (name, text) for name, text in scenarios()}
FOUND = sorted(k for k in RECORDED if k in CURRENT)


def test_the_record_still_covers_the_examples() -> None:
    # Rule files change; an example edited since the record is re-recorded on purpose, not silently lost.
    assert len(FOUND) >= 0.8 * len(RECORDED), "re-record tests/odds/answers.json (see tests/odds/answers.py)"
    assert any(RECORDED[k]["name"] == "bench/odds_attacks.py:bench" for k in FOUND)


@pytest.mark.parametrize("digest", FOUND, ids=lambda k: str(RECORDED[k]["name"]))
def test_exact_odds_match_the_recorded_answer(digest: str) -> None:
    name, text = CURRENT[digest]
    recorded = {k: v for k, v in RECORDED[digest].items() if k != "name"}
    assert answer(text) == recorded, name
