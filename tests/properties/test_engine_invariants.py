"""Engine invariants over random legal attacks (tests/properties/invariants.py).

80 derandomized examples run in the suite (200 random ones under the thorough profile,
``tests/hypothesis_profiles.py``); bench/bench_properties.py runs 10,000. Every
drawn scenario that the engine refuses as an illegal declaration is discarded, so each example is a
legal attack (or firefight) resolved with dice that Hypothesis draws as the engine asks for them.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from rulespy.errors import IllegalDeclaration
from rulespy.scenario import parse_scenario
from rulespy.sequences import rounds
from rulespy.sequences.resolution import Resolution, resolve
from rulespy.state import Command, ModelStatus, Scenario
from rulespy.timing.firefight import Removal
from tests.hypothesis_profiles import examples

from .invariants import check_all
from .strategies import RandomSource, SourceDice, drawn_dice, make_scenario, scenario_yaml, scenarios

SUITE = settings(
    max_examples=examples(suite=80, thorough=200),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def resolve_legal(scenario: Scenario, data: st.DataObject) -> tuple[Resolution, tuple[int, ...]]:
    """The resolution with drawn dice; an illegal declaration is discarded (nothing was rolled)."""
    dice = drawn_dice(data)
    try:
        result = resolve(scenario, dice)
    except IllegalDeclaration:
        assert not dice.faces, "an illegal declaration rolled dice"
        assume(False)
        raise AssertionError("unreachable") from None
    note(scenario_yaml(scenario, dice.faces))
    return result, tuple(dice.faces)


@SUITE
@given(scenario=scenarios(), data=st.data())
def test_engine_invariants_hold_for_random_legal_attacks(scenario: Scenario, data: st.DataObject) -> None:
    result, faces = resolve_legal(scenario, data)
    check_all(scenario, result, faces)


CONTRACT = (Path(__file__).resolve().parents[2] / "examples/scenarios/contract_example.yaml").read_text(
    encoding="utf-8"
)


def test_invariants_hold_for_the_contract_example() -> None:
    scenario = parse_scenario(CONTRACT)
    assert scenario.dice is not None
    check_all(scenario, resolve(scenario), scenario.dice)


@pytest.mark.parametrize(
    ("target", "replacement", "broken"),
    [
        ("wounds_lost", lambda inflicted, left: inflicted, "loses"),
        ("wounds_inflicted", lambda weapon, armour, critical: max(weapon.damage - armour, 0), "loses"),
        ("removal_timing", lambda critical, firefight: Removal.END_OF_ATTACK, "expected immediate"),
    ],
)
def test_the_invariants_catch_a_broken_engine(
    monkeypatch: pytest.MonkeyPatch, target: str, replacement: object, broken: str
) -> None:
    """The checks are not vacuous: break one rule of the engine and they say so."""
    scenario = parse_scenario(CONTRACT)
    assert scenario.dice is not None
    monkeypatch.setattr(rounds, target, replacement)
    with pytest.raises(AssertionError, match=broken):
        check_all(scenario, resolve(scenario), scenario.dice)


def test_the_generator_reaches_every_situation_the_invariants_are_about() -> None:
    """Over 400 seeded attempts the legal attacks include firefights, split fire, Critical Locks, lost
    successes, Pinned and Immobilised targets, casualties of both kinds and surplus wounds lost."""
    seen: Counter[str] = Counter()
    for attempt in range(400):
        src = RandomSource(random.Random(attempt))
        scenario = make_scenario(src)
        try:
            result = resolve(scenario, SourceDice(src))
        except IllegalDeclaration:
            seen["illegal"] += 1
            continue
        seen["legal"] += 1
        seen["firefight"] += len(result.attacks) == 2
        seen["split"] += len(scenario.attack.targets) > 1
        seen["covering fire"] += scenario.attack.command is Command.COVERING_FIRE
        for attack in result.attacks:
            for target in attack.targets:
                seen["critical"] += target.criticals > 0
                seen["lost success"] += any(h.model is None for h in target.allocation)
                seen["several hits on one model"] += len({h.model for h in target.allocation}) < len(
                    target.allocation
                )
                for hit in target.allocation:
                    if hit.model is not None:
                        status = scenario.battlefield.model(hit.model).status
                        seen["pinned target hit"] += ModelStatus.PINNED in status
                        seen["immobilised target hit"] += ModelStatus.IMMOBILISED in status
        for casualty in result.casualties:
            seen[casualty.removed] += 1
    wanted = [
        "legal", "illegal", "firefight", "split", "covering fire", "critical", "lost success",
        "several hits on one model", "pinned target hit", "immobilised target hit",
        "immediate", "end_of_attack", "end_of_firefight",
    ]  # fmt: skip
    missing = [w for w in wanted if seen[w] < 3]
    assert not missing, f"the generator rarely reaches {missing}: {dict(seen)}"
