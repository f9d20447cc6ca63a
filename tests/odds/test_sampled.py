"""Sampled odds (``rulespy.odds.sampled``): what ``rulespy odds`` answers beyond the exact engine's limit.
Played by the same engine with seeded dice, labelled as sampled, every figure with its 95% interval, and
``--exact`` keeps the refusal (sequences/shooting_sequence.md#dice-order)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import rulespy.odds
from rulespy.cli import main
from rulespy.odds import TooLarge, odds
from rulespy.odds.sampled import MIN_TRIALS, TRIALS, sample, trials_for, wilson
from rulespy.odds.summary import Odds
from rulespy.scenario import parse_scenario
from rulespy.state import Scenario
from tests.odds.scenarios import SPLIT, VARIED

#: 40 dice at ten six-wound models, alternating weapons model by model: the exact engine's allocation
#: deals pass their cap, so the exact answer is refused
BEYOND = "\n".join(
    [
        "weapons:",
        "  rifle: {range: 24, dice: 4, lock: 4, damage: 2}",
        "  launcher: {range: 24, dice: 4, lock: 4, damage: 3, traits: [critical 5]}",
        "units:",
        "  - id: squad",
        "    side: blue",
        "    models:",
        *(
            f"      - {{id: a{i}, at: [0, {i * 1.5}], weapons: [{'rifle' if i % 2 == 0 else 'launcher'}]}}"
            for i in range(10)
        ),
        "  - id: foes",
        "    side: red",
        "    models:",
        *(f"      - {{id: t{i}, at: [14, {i * 1.5}], wounds: 6, armour: 1}}" for i in range(10)),
        "attack: {unit: squad, command: shoot, targets: [{unit: foes, mark: t0}]}",
        "",
    ]
)


def _within(exact: float, frequency: float, trials: int) -> bool:
    """Four standard errors and half a trial of slack: a seeded run that misses this is a real bug."""
    return abs(frequency - exact) <= 4 * math.sqrt(exact * (1 - exact) / trials) + 0.5 / trials


@pytest.mark.parametrize("name", sorted(VARIED))
def test_sampled_odds_agree_with_the_exact_odds(name: str) -> None:
    scenario = parse_scenario(VARIED[name])
    exact, found = odds(scenario), sample(scenario, trials=TRIALS)
    data = found.to_json()
    for k, p in exact.casualties:
        assert _within(float(p), data["casualties"][str(k)], TRIALS), (name, k)
    for model, p in exact.models:
        assert _within(float(p), data["models"][model]["casualty"], TRIALS), (name, model)
    low, high = data["intervals"]["expected_casualties"]
    assert low <= data["expected_casualties"] <= high
    assert abs(float(exact.expected_casualties) - data["expected_casualties"]) <= 2 * (high - low)


def test_the_same_seed_gives_the_same_answer_and_another_seed_another() -> None:
    scenario = parse_scenario(VARIED["mixed"])
    first, again = sample(scenario, seed=7, trials=300), sample(scenario, seed=7, trials=300)
    assert first == again
    assert sample(scenario, seed=8, trials=300).casualties != first.casualties


def test_a_split_gives_the_casualties_of_every_target_unit_and_none_of_the_firing_unit() -> None:
    scenario = parse_scenario(SPLIT)
    units = list(dict.fromkeys(t.unit for t in scenario.attack.targets))
    assert len(units) == 2
    sampled = sample(scenario, trials=400).to_json()["targets"]
    exact = odds(scenario).to_json()["targets"]
    assert list(sampled) == list(exact) == units  # in declared order, the firing unit left out
    for unit in units:
        size = len(scenario.battlefield.unit(unit).models)
        assert list(exact[unit]["casualties"]) == [str(k) for k in range(size + 1)]
        assert sum(sampled[unit]["casualties"].values()) == pytest.approx(1)
        assert sampled[unit]["expected_wounds"] >= sampled[unit]["expected_casualties"]


def test_wilson_interval_holds_the_frequency_and_narrows_with_trials() -> None:
    low, high = wilson(30, 100)
    assert low < 0.3 < high
    narrow = wilson(300, 1000)
    assert low < narrow[0] < 0.3 < narrow[1] < high
    assert wilson(100, 100)[1] == 1.0 and wilson(100, 100)[0] > 0.96


def test_trials_shrink_for_a_large_attack_and_an_attack_too_costly_to_sample_is_refused() -> None:
    from rulespy.odds import TooLarge

    assert trials_for(parse_scenario(VARIED["mixed"])) == TRIALS
    assert MIN_TRIALS <= trials_for(parse_scenario(BEYOND)) < TRIALS
    huge = BEYOND.replace("dice: 4,", "dice: 60,")
    with pytest.raises(TooLarge, match="too large to sample"):
        trials_for(parse_scenario(huge))


@pytest.fixture(scope="module")
def refusal() -> TooLarge:
    """The exact engine's refusal of ``BEYOND``, found once: its allocation deals pass their cap only
    after about 1.2 s of CPU, which each ``rulespy odds`` run of the tests below would spend again."""
    with pytest.raises(TooLarge) as found:
        odds(parse_scenario(BEYOND))
    assert found.value.message.startswith("the attack is too large for exact odds: ")
    return found.value


@pytest.fixture
def refused_at_once(refusal: TooLarge, monkeypatch: pytest.MonkeyPatch) -> None:
    """``rulespy odds`` asks the exact engine first: for ``BEYOND`` (and only for it) the refusal the
    engine gave above is raised again, at the scenario's own path, instead of being found again."""
    exact = rulespy.odds.odds

    def replayed(scenario: Scenario) -> Odds:
        if scenario != parse_scenario(BEYOND):  # a scenario's path is not compared
            return exact(scenario)
        raise TooLarge(refusal.message, refusal.line, scenario.path)

    monkeypatch.setattr(rulespy.odds, "odds", replayed)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.usefixtures("refused_at_once")
def test_odds_beyond_the_exact_limit_are_sampled_and_say_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, BEYOND)
    assert main(["odds", str(path)]) == 0
    text = capsys.readouterr().out
    trials = trials_for(parse_scenario(BEYOND))
    said = f"Sampled, not exact: the attack is beyond the exact engine's limits, so it was played {trials:,}"
    assert text.startswith(said)
    assert "Casualties in foes (sampled):" in text and "Expected wounds: " in text

    assert main(["odds", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"casualties", "expected_casualties", "attacker_casualties", "models"} <= set(data)
    assert data["method"] == "sampled" and data["trials"] == trials and data["seed"] == 1
    assert list(data["casualties"]) == [str(k) for k in range(11)]
    for k, p in data["casualties"].items():
        low, high = data["intervals"]["casualties"][k]
        assert low <= p <= high
    assert data["models"]["a0"]["casualty"] == 0.0  # the firing models are listed, as the contract says

    assert main(["odds", str(path), "--json", "--seed", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["casualties"] != data["casualties"]


@pytest.mark.usefixtures("refused_at_once")
def test_odds_exact_keeps_the_refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, BEYOND)
    assert main(["odds", str(path), "--exact"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err.startswith(f"{path}:1: the attack is too large for exact odds")


def test_odds_help_explains_sampling(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["odds", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "--exact" in shown and "sampled instead" in shown and "95% interval" in shown
