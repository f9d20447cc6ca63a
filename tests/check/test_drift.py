"""RS060: the numbered steps of a tree's rules against the step lists of that tree's engine source."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulespy.sequences.steps as steps_module
from rulespy.check.drift import PAIRS, findings
from rulespy.check.findings import Finding
from rulespy.check.runner import CheckOptions, run_check

MAIN = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).parent / "fixtures" / "RS060"
SEQUENCE = "sequences/shooting_sequence.md"
STEPS_FILE = "rulespy/sequences/steps.py"
FIREFIGHT = "timing/firefight.md"
FIREFIGHT_FILE = "rulespy/timing/firefight.py"


def _line(anchor: str, path: str = SEQUENCE) -> int:
    lines = (MAIN / path).read_text(encoding="utf-8").splitlines()
    return next(n for n, text in enumerate(lines, 1) if text.startswith("#") and f"{{#{anchor}}}" in text)


def _tree(tmp_path: Path, *, engine: dict[str, tuple[str, str]] | None = None) -> Path:
    """A copy of this repository's two step rule files and two engine files, each engine file with the
    given ``(old, new)`` text replacement."""
    for relative in (SEQUENCE, FIREFIGHT, STEPS_FILE, FIREFIGHT_FILE):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(MAIN / relative, tmp_path / relative)
    for relative, (old, new) in (engine or {}).items():
        text = (tmp_path / relative).read_text(encoding="utf-8")
        assert old in text
        (tmp_path / relative).write_text(text.replace(old, new, 1), encoding="utf-8")
    return tmp_path


def test_the_repository_steps_agree_with_the_engine() -> None:
    assert findings(MAIN) == []


def test_step_drift_reads_the_checked_tree_not_the_imported_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(steps_module, "STEPS", ("step-something-else",))
    assert findings(MAIN) == []


def test_the_fixture_engine_is_the_real_step_list_with_one_step_renamed() -> None:
    real = (MAIN / STEPS_FILE).read_text(encoding="utf-8")
    fixture = (FIXTURE / STEPS_FILE).read_text(encoding="utf-8")
    assert fixture == real.replace('"step-removal",', '"step-remove-casualties",')
    assert fixture != real


def test_step_drift_fixture_fails_for_the_renamed_step(tmp_path: Path) -> None:
    found = run_check(FIXTURE, CheckOptions(cache_dir=tmp_path)).findings
    code_only, rules_only = found
    lines = (FIXTURE / STEPS_FILE).read_text(encoding="utf-8").splitlines()
    renamed = lines.index('    "step-remove-casualties",') + 1
    assert (code_only.path, code_only.line, code_only.code) == (SEQUENCE, 1, "RS060")
    assert "'step-remove-casualties'" in code_only.message
    assert f"{STEPS_FILE}:{renamed}" in code_only.message
    assert (rules_only.path, rules_only.line, rules_only.code) == (SEQUENCE, 11, "RS060")
    assert "#step-removal" in rules_only.message and "never runs it" in rules_only.message


def test_a_step_renamed_only_in_the_code_is_a_finding(tmp_path: Path) -> None:
    root = _tree(tmp_path, engine={STEPS_FILE: ('"step-target-lock"', '"step-roll-locks"')})
    found = findings(root)
    assert {(f.path, f.line, f.code) for f in found} == {
        (SEQUENCE, _line("step-target-lock"), "RS060"),  # written, never run
        (SEQUENCE, 1, "RS060"),  # run, never written: line 1, naming the code
    }
    code_only = next(f for f in found if f.line == 1)
    assert "step-roll-locks" in code_only.message
    assert f"{STEPS_FILE}:" in code_only.message


def test_two_steps_swapped_in_the_code_are_out_of_order(tmp_path: Path) -> None:
    swapped = (
        '    "step-critical-round",\n    "step-normal-round",',
        '    "step-normal-round",\n    "step-critical-round",',
    )
    (finding,) = findings(_tree(tmp_path, engine={STEPS_FILE: swapped}))
    assert finding.code == "RS060"
    assert finding.line in {_line("step-critical-round"), _line("step-normal-round")}
    assert "here but step" in finding.message


def test_a_timing_step_missing_from_the_code_is_a_finding(tmp_path: Path) -> None:
    (finding,) = findings(_tree(tmp_path, engine={FIREFIGHT_FILE: ('    "firefight-removal",\n', "")}))
    assert (finding.path, finding.line) == (FIREFIGHT, _line("firefight-removal", FIREFIGHT))


def test_a_step_added_only_to_the_rules_is_a_finding(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    text = (MAIN / SEQUENCE).read_text(encoding="utf-8") + "\n### 8. Regroup {#step-regroup}\n\nText.\n"
    (root / SEQUENCE).write_text(text, encoding="utf-8")
    (finding,) = findings(root)
    assert finding.line == len(text.splitlines()) - 2
    assert "#step-regroup" in finding.message


def test_a_step_list_that_is_not_a_literal_is_one_finding(tmp_path: Path) -> None:
    root = _tree(tmp_path, engine={STEPS_FILE: ("STEPS = (", "STEPS = tuple(")})
    (finding,) = findings(root)
    assert (finding.path, finding.line, finding.code) == (SEQUENCE, 1, "RS060")
    assert f"{STEPS_FILE} assigns no literal list to STEPS" in finding.message


def test_a_tree_without_the_engine_has_no_step_drift(tmp_path: Path) -> None:
    root = _tree(tmp_path, engine={STEPS_FILE: ('"step-target-lock"', '"step-roll-locks"')})
    shutil.rmtree(root / "rulespy")
    assert findings(root) == []
    assert findings(MAIN / "no-such-folder") == []


def test_findings_are_the_checker_data_type(tmp_path: Path) -> None:
    found = findings(_tree(tmp_path, engine={FIREFIGHT_FILE: ('"firefight-removal"', '"firefight-end"')}))
    assert found and all(isinstance(f, Finding) for f in found)
    assert str(found[0]).startswith("timing/firefight.md:")


def test_every_pair_names_an_engine_file_of_this_repository() -> None:
    assert all((MAIN / pair.source).is_file() for pair in PAIRS)
