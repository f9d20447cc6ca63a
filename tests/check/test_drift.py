"""RS060: the numbered steps of the rules against the step lists the engine runs."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulespy.sequences.steps as shooting_sequence
import rulespy.timing.firefight as firefight
from rulespy.check.drift import findings

MAIN = Path(__file__).resolve().parents[2]
SEQUENCE = "sequences/shooting_sequence.md"


def _line(anchor: str, path: str = SEQUENCE) -> int:
    lines = (MAIN / path).read_text(encoding="utf-8").splitlines()
    return next(n for n, text in enumerate(lines, 1) if text.startswith("#") and f"{{#{anchor}}}" in text)


def test_the_repository_steps_agree_with_the_engine() -> None:
    assert findings(MAIN) == []


def test_a_step_renamed_only_in_the_code_is_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    renamed = tuple("step-roll-locks" if s == "step-target-lock" else s for s in shooting_sequence.STEPS)
    monkeypatch.setattr(shooting_sequence, "STEPS", renamed)
    found = findings(MAIN)
    assert {(f.path, f.line, f.code) for f in found} == {
        (SEQUENCE, _line("step-target-lock"), "RS060"),  # written, never run
        (SEQUENCE, 1, "RS060"),  # run, never written: line 1, naming the code
    }
    code_only = next(f for f in found if f.line == 1)
    assert "step-roll-locks" in code_only.message
    assert "rulespy/sequences/steps.py:" in code_only.message


def test_two_steps_swapped_in_the_code_are_out_of_order(monkeypatch: pytest.MonkeyPatch) -> None:
    steps = list(shooting_sequence.STEPS)
    steps[4], steps[5] = steps[5], steps[4]
    monkeypatch.setattr(shooting_sequence, "STEPS", tuple(steps))
    (finding,) = findings(MAIN)
    assert finding.code == "RS060"
    assert finding.line in {_line(steps[4]), _line(steps[5])}
    assert "here but step" in finding.message


def test_a_timing_step_missing_from_the_code_is_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(firefight, "FIREFIGHT_STEPS", firefight.FIREFIGHT_STEPS[:-1])
    (finding,) = findings(MAIN)
    last = "firefight-removal"
    assert (finding.path, finding.line) == ("timing/firefight.md", _line(last, "timing/firefight.md"))


def test_a_step_added_only_to_the_rules_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / "sequences").mkdir()
    text = (MAIN / SEQUENCE).read_text(encoding="utf-8") + "\n### 8. Regroup {#step-regroup}\n\nText.\n"
    (tmp_path / SEQUENCE).write_text(text, encoding="utf-8")
    (finding,) = findings(tmp_path)
    assert finding.line == len(text.splitlines()) - 2
    assert "#step-regroup" in finding.message


def test_findings_are_the_checker_data_type(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulespy.check.findings import Finding

    monkeypatch.setattr(firefight, "FIREFIGHT_STEPS", ())
    found = findings(MAIN)
    assert found and all(isinstance(f, Finding) for f in found)
    assert str(found[0]).startswith("timing/firefight.md:")
    assert findings(MAIN / "no-such-folder") == []
