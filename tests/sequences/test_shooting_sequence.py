"""The Shooting Sequence and Dice Order: sequences/shooting_sequence.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespy.coverage.rules import load_rule_files
from rulespy.dice import ScriptedDice
from rulespy.errors import IllegalDeclaration, InvalidInput
from rulespy.scenario import parse_scenario
from rulespy.sequences.resolution import resolve
from rulespy.sequences.steps import STEPS

ROOT = Path(__file__).resolve().parents[2]
CONTRACT = (ROOT / "examples/scenarios/contract_example.yaml").read_text(encoding="utf-8")

SPLIT = """
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, ld: 7, weapons: [rifle]}
      - {id: s2, at: [0, 2], weapons: [rifle]}
      - {id: s3, at: [0, 4], weapons: [rifle]}
  - id: alpha
    side: red
    models: [{id: a1, at: [10, 0]}]
  - id: beta
    side: red
    models: [{id: b1, at: [10, 6]}]
  - id: gamma
    side: red
    models: [{id: c1, at: [10, 12]}]
attack:
  unit: squad
  command: shoot
  targets:
    - {unit: alpha, mark: a1, models: [s1]}
    - {unit: beta, mark: b1, models: [s2]}
    - {unit: gamma, mark: c1, models: [s3]}
"""


def test_contract_example_resolves_as_the_contract_says() -> None:
    result = resolve(parse_scenario(CONTRACT))
    data = result.to_json()
    target = data["attacks"][0]["targets"][0]
    assert [(lock["natural"], lock["modified"], lock["critical"]) for lock in target["locks"]] == [
        (6, 4, True),
        (2, 0, False),
        (5, 3, True),
    ]
    assert target["allocation"] == [
        {"model": "d1", "weapon": "carbine", "critical": True, "wounds": 2},
        {"model": "d2", "weapon": "lance", "critical": True, "wounds": 1},
    ]
    assert data["casualties"] == [
        {"model": "d1", "removed": "immediate"},
        {"model": "d2", "removed": "immediate"},
    ]
    assert data["models"]["r2"] == {"wounds": 1, "status": ["pinned"]}


def test_dice_order_leadership_checks_come_before_every_target_lock_die() -> None:
    """Checks for beta (3 + 3, passed) then gamma (6 + 6, failed), then one die at alpha and beta in declared
    order; gamma's weapons do not fire, so no die is rolled for them."""
    result = resolve(parse_scenario(SPLIT + "dice: [3, 3, 6, 6, 5, 5]\n"))
    alpha, beta, gamma = result.attacks[0].targets
    assert alpha.leadership is None
    assert beta.leadership is not None and beta.leadership.dice == (3, 3) and beta.leadership.passed
    assert gamma.leadership is not None and gamma.leadership.dice == (6, 6) and not gamma.leadership.passed
    assert [r.roll.natural for r in alpha.locks] == [5]
    assert [r.roll.natural for r in beta.locks] == [5]
    assert not gamma.fired and gamma.locks == ()
    assert result.removed == {"a1": "end_of_attack", "b1": "end_of_attack"}


def test_dice_order_scripted_dice_that_run_out_are_malformed() -> None:
    with pytest.raises(InvalidInput, match="ran out"):
        resolve(parse_scenario(SPLIT + "dice: [3, 3, 1, 1, 5, 5]\n"))


def test_dice_order_scripted_dice_left_over_are_malformed() -> None:
    with pytest.raises(InvalidInput, match="left over"):
        resolve(parse_scenario(SPLIT + "dice: [3, 3, 6, 6, 5, 5, 1]\n"))


def test_dice_order_a_die_of_7_is_malformed_only_after_legality() -> None:
    illegal = SPLIT.replace("leader: true, ", "") + "dice: [7]\n"
    with pytest.raises(IllegalDeclaration):
        resolve(parse_scenario(illegal))
    with pytest.raises(InvalidInput, match="1 to 6"):
        resolve(parse_scenario(SPLIT + "dice: [7, 3, 6, 6, 5, 5]\n"))


def test_seeded_dice_give_the_same_account_for_the_same_seed() -> None:
    first = resolve(parse_scenario(SPLIT + "seed: 11\n"))
    second = resolve(parse_scenario(SPLIT + "seed: 11\n"))
    assert first.to_json() == second.to_json()


def test_explicit_dice_source_overrides_the_scenario() -> None:
    scenario = parse_scenario(SPLIT + "seed: 1\n")
    result = resolve(scenario, ScriptedDice([1, 1, 1, 1, 1, 1, 1]))
    assert result.removed == {}


@pytest.mark.parametrize("scenario", [CONTRACT, SPLIT + "dice: [3, 3, 6, 6, 5, 5]\n"])
def test_every_trace_entry_cites_a_rule_anchor(scenario: str) -> None:
    rule_files = load_rule_files(ROOT)
    result = resolve(parse_scenario(scenario))
    for event in result.trace:
        path, _, anchor = event.rule.partition("#")
        assert path in rule_files, event
        assert anchor in rule_files[path].anchors(), event
    cited = [e.rule for e in result.trace if e.rule.startswith("sequences/shooting_sequence.md#step-")]
    assert cited and {rule.partition("#")[2] for rule in cited} <= set(STEPS)


def test_success_with_no_valid_model_is_lost() -> None:
    """The lance cannot hurt d2 (inside its minimum range). Its Critical Lock kills the marked d1 at once, so
    its other success, allocated in the second round, has no valid model left and is lost."""
    text = """
weapons:
  lance: {range: 36, dice: 2, lock: 2, damage: 1, traits: [minimum range 6]}
units:
  - id: gun
    side: blue
    models: [{id: g1, at: [0, 0], leader: true, weapons: [lance]}]
  - id: pair
    side: red
    models:
      - {id: d1, at: [10, 0]}
      - {id: d2, at: [3, 0]}
attack: {unit: gun, command: shoot, targets: [{unit: pair, mark: d1}]}
dice: [6, 4]
"""
    result = resolve(parse_scenario(text))
    hits = result.attacks[0].targets[0].allocation
    assert [(h.model, h.critical, h.wounds) for h in hits] == [("d1", True, 1), (None, False, 0)]
    assert any(e.rule == "core/allocation.md#lost-successes" for e in result.trace)
    assert result.wounds("d2") == 1


def test_the_sequence_phases_are_the_numbered_steps_in_order() -> None:
    # sequences/shooting_sequence.md#shooting-sequence: the state says which step it is in, by the same
    # anchors the step-drift check (RS060) compares with the rule file.
    from rulespy.sequences.steps import Phase

    assert tuple(p.value for p in Phase if p is not Phase.DONE) == STEPS


def test_a_state_names_its_phase_while_the_dice_are_asked_for() -> None:
    # sequences/shooting_sequence.md#step-leadership then #step-target-lock: the split attack waits
    # for two Leadership Checks, then for each firing weapon's Target Lock dice.
    from rulespy.core.leadership import LeadershipChance
    from rulespy.core.target_lock import LockChance
    from rulespy.sequences.shooting_sequence import ShootingSequence
    from rulespy.sequences.steps import Phase

    sequence = ShootingSequence(parse_scenario(SPLIT + "dice: [3, 3, 6, 6, 4]\n"))
    state, _ = sequence.initial()
    seen = []
    for faces in ((3, 3), (6, 6), (4,)):
        chance = sequence.chance(state)
        seen.append((state.phase, state.target, type(chance)))
        outcome, _ = sequence.read(state, chance, faces)
        state, _ = sequence.apply(state, outcome)
    assert seen == [
        (Phase.LEADERSHIP, 1, LeadershipChance),
        (Phase.LEADERSHIP, 2, LeadershipChance),
        (Phase.TARGET_LOCK, 0, LockChance),
    ]
    assert state.phase is Phase.TARGET_LOCK and state.passed == (True, True, False)
