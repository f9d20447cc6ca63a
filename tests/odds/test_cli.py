"""``rulespy odds`` on the command line: the contract's exit statuses and outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulespy.cli import main
from tests.odds.scenarios import BINOMIAL, SPLIT


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_json_prints_exact_odds_as_floats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", str(_write(tmp_path, BINOMIAL)), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["casualties"]["0"] == 1 / 64
    assert data["attacker_casualties"] is None


def test_fractions_prints_exact_fractions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", str(_write(tmp_path, BINOMIAL)), "--json", "--fractions"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["casualties"] == {"0": "1/64", "1": "3/32", "2": "15/64", "3": "21/32"}


def test_text_form_lists_counts_and_models(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", str(_write(tmp_path, BINOMIAL))]) == 0
    out = capsys.readouterr().out
    assert "Casualties in cultists" in out
    assert "Expected casualties: 2.531" in out
    assert "c1  98.4%" in out


def test_malformed_input_exits_2_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, BINOMIAL.replace("lock: 4", "lok: 4"))
    assert main(["odds", str(path), "--json"]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.startswith(f"{path}:3: ")
    assert "Traceback" not in out.err


def test_illegal_declaration_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, BINOMIAL.replace("- {unit: cultists, mark: c1}", "- {unit: squad, mark: s1}"))
    assert main(["odds", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["legal"] is False and "#" in data["error"]["rule"]


def test_beyond_the_size_limit_exits_2_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused at once, judged from the scenario alone (``rulespy.odds.limits``, ``sampled.trials_for``):
    the exact engine never starts and the sampler rolls no die (work counted, not seconds)."""
    import rulespy.odds
    import rulespy.odds.sampled

    def started(*_: object, **__: object) -> None:
        raise AssertionError("work was started for a request beyond the limits")

    monkeypatch.setattr(rulespy.odds, "final_states", started)
    monkeypatch.setattr(rulespy.odds.sampled, "SeededDice", started)
    path = _write(tmp_path, BINOMIAL.replace("dice: 2", "dice: 600"))
    assert main(["odds", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert "too large for exact odds" in out.err and out.err.startswith(f"{path}:1: ")


def test_text_of_a_split_lists_every_target_unit_in_declared_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 26: the text printed the first target only; every target has its chart, mean and wounds.
    assert main(["odds", str(_write(tmp_path, SPLIT)), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["odds", str(_write(tmp_path, SPLIT))]) == 0
    out = capsys.readouterr().out
    alpha, beta = out.index("Casualties in alpha (exact"), out.index("Casualties in beta (exact")
    assert alpha < beta < out.index("Chance that each model")
    for unit, start, end in (("alpha", alpha, beta), ("beta", beta, len(out))):
        part = out[start:end]
        assert f"Expected casualties: {data['targets'][unit]['expected_casualties']:.3f}" in part
        assert f"Expected wounds: {data['targets'][unit]['expected_wounds']:.3f}" in part
