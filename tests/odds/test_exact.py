"""Exact odds against closed forms (sequences/shooting_sequence.md#shooting-sequence)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import pytest

from rulespy.errors import IllegalDeclaration
from rulespy.odds import TooLarge, markdown_table, odds
from rulespy.odds.exact import final_states
from rulespy.scenario import parse_scenario
from rulespy.sequences.shooting_sequence import ShootingSequence
from tests.odds import full_states
from tests.odds.scenarios import BINOMIAL, INTERLEAVED, VARIED


def binomial(n: int, k: int, p: Fraction) -> Fraction:
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def test_single_weapon_against_one_wound_models_is_binomial_capped_at_unit_size() -> None:
    # 6 dice at 4+ (1/2 each); each success (critical or not) kills one one-wound model.
    result = odds(parse_scenario(BINOMIAL))
    half = Fraction(1, 2)
    expected = [binomial(6, k, half) for k in range(3)]
    expected.append(1 - sum(expected))
    assert [p for _, p in result.casualties] == expected
    assert [k for k, _ in result.casualties] == [0, 1, 2, 3]
    assert result.expected_casualties == sum(k * p for k, p in enumerate(expected))


def test_models_fall_in_allocation_order_so_each_risk_is_a_binomial_tail() -> None:
    # The marked model takes the first success, the others follow in unit order (core/allocation.md).
    result = odds(parse_scenario(BINOMIAL))
    half = Fraction(1, 2)
    for rank, model in enumerate(["c1", "c2", "c3"]):
        tail = sum((binomial(6, k, half) for k in range(rank + 1, 7)), Fraction(0))
        assert result.casualty(model) == tail
    assert result.casualty("s1") == 0


def test_heavy_cover_lock_probability_matches_target_lock_rules() -> None:
    # One die at lock 4 with -2 (heavy cover): only a natural 6 succeeds, so 1/6 per die.
    text = BINOMIAL.replace("{id: c1, at: [10, 0]}", "{id: c1, at: [10, 0], cover: heavy}")
    result = odds(parse_scenario(text))
    sixth = Fraction(1, 6)
    assert result.casualties[0][1] == (1 - sixth) ** 6
    assert result.casualties[1][1] == binomial(6, 1, sixth)


@pytest.mark.parametrize("name", sorted(VARIED))
def test_probabilities_sum_to_exactly_one(name: str) -> None:
    result = odds(parse_scenario(VARIED[name]))
    assert sum(p for _, p in result.casualties) == 1
    if result.attacker_casualties is not None:
        assert sum(p for _, p in result.attacker_casualties) == 1
    for _, p in result.models:
        assert 0 <= p <= 1


def test_every_count_from_zero_to_unit_size_is_listed() -> None:
    result = odds(parse_scenario(VARIED["cover"]))
    assert [k for k, _ in result.casualties] == [0, 1, 2]


def test_attacker_casualties_only_in_a_snap_fire_firefight() -> None:
    assert odds(parse_scenario(VARIED["cover"])).attacker_casualties is None
    firefight = odds(parse_scenario(VARIED["snap_fire"]))
    assert firefight.attacker_casualties is not None
    assert [k for k, _ in firefight.attacker_casualties] == [0, 1, 2]


def test_json_matches_the_contract_shape() -> None:
    result = odds(parse_scenario(BINOMIAL))
    data = result.to_json()
    # the contract's keys, and the two added since: how it was computed, and every target unit's casualties
    contract = {"casualties", "expected_casualties", "attacker_casualties", "models"}
    assert set(data) == contract | {"method", "targets"}
    assert data["method"] == "exact" and data["targets"]["cultists"]["casualties"] == data["casualties"]
    assert data["casualties"]["0"] == 1 / 64
    assert data["attacker_casualties"] is None
    assert data["models"]["c1"] == {"casualty": 63 / 64}
    exact = result.to_json(fractions=True)
    assert exact["casualties"]["0"] == "1/64"
    assert exact["models"]["s1"] == {"casualty": "0"}


def test_dice_and_seed_are_ignored() -> None:
    plain = odds(parse_scenario(BINOMIAL))
    assert odds(parse_scenario(BINOMIAL + "dice: [6, 6, 6, 6, 6, 6]\n")) == plain
    assert odds(parse_scenario(BINOMIAL + "seed: 3\n")) == plain


def test_illegal_declaration_is_refused_before_any_enumeration() -> None:
    text = BINOMIAL.replace("- {unit: cultists, mark: c1}", "- {unit: squad, mark: s1}")
    with pytest.raises(IllegalDeclaration):
        odds(parse_scenario(text))


def test_size_limit_refuses_instead_of_running_on() -> None:
    sequence = ShootingSequence(parse_scenario(VARIED["mixed"]))
    with pytest.raises(TooLarge, match="distinct states"):
        final_states(sequence, max_states=5)
    with pytest.raises(TooLarge, match="transitions"):
        final_states(sequence, max_transitions=10)


def test_the_casualties_and_markdown_table_for_rule_pages() -> None:
    scenario = parse_scenario(BINOMIAL)
    rows = odds(scenario).casualties
    assert rows[0] == (0, Fraction(1, 64))
    text = markdown_table(scenario)
    assert text.startswith("| casualties in cultists | chance | exact |")
    assert "| 0 | 1.6% | 1/64 |" in text


def test_help_states_the_size_limit_the_engine_applies() -> None:
    from rulespy.cli.odds import HELP_LIMIT
    from rulespy.odds import MAX_DEALS, MAX_STATES, MAX_TRANSITIONS

    assert f"{MAX_STATES:,}" in HELP_LIMIT
    assert f"{MAX_TRANSITIONS:,}" in HELP_LIMIT
    assert f"{MAX_DEALS:,}" in HELP_LIMIT


@pytest.mark.parametrize("name", sorted(VARIED) + ["interleaved"])
def test_joining_firing_groups_of_one_profile_changes_no_probability(name: str) -> None:
    # Groups of one weapon profile in a row add into one run of successes (Dice Order keeps them
    # together), so rolling them together must reach exactly the same final states.
    scenario = parse_scenario(VARIED.get(name, INTERLEAVED))
    joined = full_states.final_states(ShootingSequence(scenario))
    one_by_one = full_states.final_states(ShootingSequence(scenario), joined=False)
    assert joined == one_by_one


def test_a_snap_fire_firefight_of_20_dice_a_side_is_answered_within_the_size_limit() -> None:
    # Issue 15 (timing/firefight.md#firefight): the two passes (Critical Locks dealt as rolled, then the
    # other successes) keep the firefight well under the size limit; its speed is in bench/bench_odds.py.
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    import odds_attacks

    result = odds(parse_scenario(odds_attacks.firefight(10)))
    assert result.attacker_casualties is not None
    assert sum(p for _, p in result.casualties) == 1 == sum(p for _, p in result.attacker_casualties)
    assert [k for k, _ in result.casualties] == list(range(11))
