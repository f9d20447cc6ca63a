"""RS060: `rulespy check` fails when a Shooting Sequence step is renamed only in the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespy.check.runner import CheckOptions, run_check
from rulespy.sequences import steps as shooting_sequence

ROOT = Path(__file__).resolve().parents[2]


def test_step_renamed_only_in_code_is_a_finding(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    renamed = tuple("step-remove-casualties" if s == "step-removal" else s for s in shooting_sequence.STEPS)
    monkeypatch.setattr(shooting_sequence, "STEPS", renamed)
    report = run_check(ROOT, CheckOptions(cache_dir=tmp_path))
    drift = [f for f in report.findings if f.code == "RS060"]
    assert {(f.path, f.code) for f in drift} == {("sequences/shooting_sequence.md", "RS060")}
    assert any("step-remove-casualties" in f.message for f in drift)


def test_real_repository_has_no_step_drift(tmp_path: Path) -> None:
    report = run_check(ROOT, CheckOptions(cache_dir=tmp_path))
    assert [f for f in report.findings if f.code == "RS060"] == []
