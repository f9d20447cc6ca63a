"""The one pass over an attack's dice (``rulespy/odds/joint.py``): both allocation rounds of a target
dealt together, the critical round's end guessed, deals no later success can tell apart merged. It must
reach exactly the final states of the two passes, and the casualties-only final states ``rulespy odds``
reads must print exactly the same odds as the full ones.

Rule: sequences/shooting_sequence.md#step-critical-round
Rule: sequences/shooting_sequence.md#step-normal-round
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from pathlib import Path

import pytest

from rulespy.errors import RulesError
from rulespy.odds import TooLarge, odds
from rulespy.odds.exact import CASUALTIES, WOUNDS, _Limits, _Rounds, final_states
from rulespy.odds.joint import layers
from rulespy.odds.render import render_text
from rulespy.odds.summary import summarise
from rulespy.scenario import parse_scenario
from rulespy.sequences.shooting_sequence import ShootingSequence
from tests.hypothesis_profiles import examples
from tests.odds import full_states
from tests.odds.answers import key, scenario_of, scenarios
from tests.odds.scenarios import BINOMIAL, INTERLEAVED, VARIED
from tests.properties.strategies import RandomSource, make_scenario

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import odds_attacks  # noqa: E402

RECORDED = json.loads((Path(__file__).with_name("answers.json")).read_text(encoding="utf-8"))
CURRENT = {key(text): (name, text) for name, text in scenarios()}
FOUND = sorted(k for k in RECORDED if k in CURRENT)
SHAPES = {**VARIED, "binomial": BINOMIAL, "interleaved": INTERLEAVED, **odds_attacks.RECORDED}
BIG = (10**7, 10**8, 10**7)  # the limits: room for every recorded scenario
#: the random legal attacks compared below: the suite's first 160, the thorough profile's 400 (the
#: suite's count before; each attempt is a seeded battlefield, so the suite's are among the thorough's)
ATTEMPTS = examples(suite=160, thorough=400)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_one_pass_reaches_exactly_the_final_states_of_two_passes(name: str) -> None:
    # Split fire, cover, armour, mixed profiles, one profile alone, a Snap Fire firefight (two passes
    # either way), runs of one profile interleaved with another, and the bench attacks: every final
    # state, every probability.
    scenario = parse_scenario(SHAPES[name])
    one = full_states.final_states(ShootingSequence(scenario))
    two = full_states.final_states(ShootingSequence(scenario), at_once=False)
    assert one == two


def test_one_pass_and_casualties_only_agree_with_two_passes_on_random_legal_attacks() -> None:
    # The property bench's random battlefields (bench/bench_properties.py): split fire, statuses, cover,
    # arcs, pinning weapons, Snap Fire. 20,000 such attempts agreed when the one pass was written.
    compared = split = 0
    for attempt in range(ATTEMPTS):
        scenario = make_scenario(RandomSource(random.Random(7_000_003 + attempt)))
        try:
            sequence = ShootingSequence(scenario)
            two = full_states.final_states(ShootingSequence(scenario), at_once=False)
        except RulesError:
            continue  # an illegal declaration (about half the attempts)
        one = full_states.final_states(sequence)
        assert one == two, attempt
        short = final_states(ShootingSequence(scenario))
        assert summarise(sequence, short) == summarise(sequence, one), attempt
        compared += 1
        split += len(sequence.attacks[0].targets) > 1
    assert compared > ATTEMPTS * 3 // 8 and split > 0  # about half the attempts are legal


@pytest.mark.parametrize("digest", FOUND, ids=lambda k: str(RECORDED[k]["name"]))
def test_casualties_only_final_states_print_the_same_odds_on_every_recorded_scenario(digest: str) -> None:
    # What `rulespy odds` prints and `--json` emits is read from the casualties alone, so forgetting the
    # survivors' wounds and pins must change none of it (the full final states are in answers.json).
    name, text = CURRENT[digest]
    try:
        sequence = ShootingSequence(scenario_of(text))
        full = full_states.final_states(sequence, *BIG)
    except RulesError as error:
        with pytest.raises(type(error)):
            odds(scenario_of(text))
        return
    short = final_states(ShootingSequence(scenario_of(text)), *BIG, walk=CASUALTIES)
    assert len(short) <= len(full)
    both = summarise(sequence, full), summarise(sequence, short)
    assert both[0] == both[1], name
    for fractions in (False, True):
        assert render_text(both[0], fractions) == render_text(both[1], fractions)
        assert both[0].to_json(fractions) == both[1].to_json(fractions)


def test_casualties_only_merges_final_states_that_differ_in_survivors_wounds() -> None:
    # The bench attack: survivors with one or two wounds left, Pinned or not, are one outcome to a player.
    sequence = ShootingSequence(parse_scenario(odds_attacks.bench()))
    full = full_states.final_states(sequence)
    short = final_states(sequence)
    assert len(short) < len(full)
    assert {state.casualties for state in full} == {state.casualties for state in short}


def test_the_alternating_profiles_attack_of_40_dice_is_answered_exactly() -> None:
    # Issue 15: ten models alternating two profiles, four dice each, were refused by the state limit
    # (every weapon's dice kept apart for the second pass); its speed is in bench/bench_odds.py.
    scenario = parse_scenario(odds_attacks.alternating(10, 4))
    result = odds(scenario)
    assert [k for k, _ in result.casualties] == list(range(11))
    assert sum(p for _, p in result.casualties) == 1
    assert result.expected_casualties == sum(p for _, p in result.models)


def test_layers_merge_only_deals_that_no_later_success_tells_apart() -> None:
    # The critical round of the alternating attack (six models, three dice each): following the merged
    # classes for every count of Critical Locks each weapon may roll gives the outcome dealing gives.
    sequence = ShootingSequence(parse_scenario(odds_attacks.alternating(6, 3)))
    start, _ = sequence.initial()
    groups = CASUALTIES.groups(sequence.lock_chances(start)[0])
    table = _Rounds(sequence, CASUALTIES).get(start, 0, 0, True)
    weapons = [(table.weapons[name], dice) for name, *_, dice in groups]

    def wounds(deal: int) -> object:
        return table.deals[deal][3]

    merged = layers(table, table.start(start), weapons, wounds, _Limits(10**6, 10**6, 10**6))
    for counts in itertools.product(*(range(dice + 1) for _, dice in weapons)):
        deal, cls = table.start(start), merged.start
        for (weapon, _), count in zip(weapons, counts, strict=True):
            for _ in range(count):
                deal = table.deal(deal, weapon)
        for follow, count in zip(merged.follow, counts, strict=True):
            cls = follow[cls][count]
        assert wounds(merged.finals[cls]) == wounds(deal), counts  # the class's deal ends alike
    # Each Critical Lock kills, and each goes to a model not yet hit while there is one: what a round
    # remembers is how many models are down (0 to 10), not which weapon downed each.
    assert len(table.deals) > 100
    assert max(len(rows) for rows in merged.follow) <= 11


def test_size_limit_refuses_a_round_of_too_many_deals() -> None:
    sequence = ShootingSequence(parse_scenario(odds_attacks.alternating(6, 3)))
    with pytest.raises(TooLarge, match="allocation rounds need more than 500 deals"):
        final_states(sequence, max_deals=500)
    with pytest.raises(TooLarge, match="distinct states"):
        final_states(ShootingSequence(parse_scenario(odds_attacks.alternating(6, 3))), max_states=20)


@pytest.mark.parametrize("digest", FOUND, ids=lambda k: str(RECORDED[k]["name"]))
def test_final_states_keeping_wounds_give_the_expected_wounds_of_the_full_ones(digest: str) -> None:
    # The expected wounds (issue 26) are read from final states that keep each model's wounds left and
    # forget pins; on every recorded scenario they must equal those of the full final states.
    name, text = CURRENT[digest]
    try:
        sequence = ShootingSequence(scenario_of(text))
        full = full_states.final_states(sequence, *BIG)
    except RulesError:
        return
    kept = final_states(ShootingSequence(scenario_of(text)), *BIG, walk=WOUNDS)
    assert len(kept) <= len(full)
    assert summarise(sequence, kept, wounds=True) == summarise(sequence, full, wounds=True), name
