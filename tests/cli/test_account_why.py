"""The account answers the player's "why?" (issue 24): why Target Priority allows a target, what makes a
closer unit a candidate, why a refused response leaves the attack legal, and it reads as sentences under
headings that each have lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulespy.account import render, render_illegal, steps, trace
from rulespy.cli import main
from rulespy.errors import IllegalDeclaration
from rulespy.scenario import load_scenario, parse_scenario
from rulespy.sequences.resolution import resolve
from tests.cli.resolve_outputs import recorded

ROOT = Path(__file__).resolve().parents[2]
LEGAL = [
    path
    for path in sorted((ROOT / "examples" / "scenarios").rglob("*.yaml"))
    if (load_scenario(path).expect or {}).get("legal")
]


def _lines(text: str) -> list[str]:
    return [line.text for line in trace(resolve(parse_scenario(text, "<test>")))]


def _refusal(text: str) -> IllegalDeclaration:
    scenario = parse_scenario(text, "<test>")
    with pytest.raises(IllegalDeclaration) as refused:
        resolve(scenario)
    return refused.value


MILITIA = """
weapons:
  rifle: {range: 12, dice: 1, lock: 4, damage: 1}
units:
  - id: militia
    side: blue
    models:
      - {id: m1, at: [0, 0], weapons: [rifle], holds_fire: true}
      - {id: m2, at: [0, 20], weapons: [rifle]}
  - id: raiders
    side: red
    models: [{id: x1, at: [9, 0]}]
  - id: walker
    side: red
    models: [{id: w1, at: [10, 20]}]
attack: {unit: militia, command: shoot, targets: [{unit: TARGET, mark: MARK}]}
dice: [4]
"""


def test_leaderless_refusal_says_what_makes_the_closer_unit_a_candidate() -> None:
    refusal = _refusal(MILITIA.replace("TARGET", "walker").replace("MARK", "w1"))
    assert refusal.rule == "core/target_selection.md#unit-without-a-leader"
    assert (
        "'raiders' is a candidate: 2 of the 2 models of 'militia' see it, and it could be declared only "
        "through the rifle of m1, which holds fire: holding fire never changes candidates"
    ) in refusal.message


def test_leaderless_refusal_names_the_weapons_when_none_is_held() -> None:
    text = MILITIA.replace("holds_fire: true", "holds_fire: false")
    refusal = _refusal(text.replace("TARGET", "walker").replace("MARK", "w1"))
    assert refusal.message.count("through the rifle of m1") == 1
    assert "holds fire" not in refusal.message


def test_legal_leaderless_declaration_says_the_target_is_the_closest_candidate() -> None:
    text = MILITIA.replace("holds_fire: true", "holds_fire: false").replace("TARGET", "raiders")
    lines = _lines(text.replace("MARK", "x1"))
    assert 'the militia has no leader; the raiders (8" away) are the closest of its 2 candidates' in lines


def test_legal_leaderless_response_says_the_command_names_its_target() -> None:
    lines = _lines(
        (ROOT / "examples/scenarios/reading/34_covering_fire_leaderless_not_closest.yaml").read_text()
    )
    assert (
        "the sentries have no leader, but Covering Fire names its target, so the closest-candidate rule does "
        "not apply to the raiders"
    ) in lines


def test_a_target_of_a_unit_with_a_leader_is_allowed_because_the_leader_sees_it() -> None:
    lines = _lines((ROOT / "examples/scenarios/shoot.yaml").read_text())
    assert any(
        line.startswith("the leader ") and " sees the drones, so the rangers may target" in line
        for line in lines
    )


def test_unit_order_counts_from_1() -> None:
    """core/allocation.md#allocation-key part 5: the first model listed is 1, as players count."""
    text = (ROOT / "core/allocation.md").read_text(encoding="utf-8")
    start = text.index('result = play("""', text.index("{#allocation-key}")) + len('result = play("""')
    lines = _lines(text[start : text.index('""")', start)])
    assert "the carbine success goes to t2: smallest key (unit order: 2 against 3 for t3)" in lines


def test_a_lone_attack_is_not_with_the_initiative() -> None:
    for name, answer in recorded().items():
        account = "\n".join(answer["text"]["stdout"])
        if account.count("\nAttack by ") + account.count("\nAssault by ") == 1:
            assert "with the Initiative" not in account, name
    firefight = "\n".join(recorded()["examples/scenarios/snap_fire_firefight.yaml"]["text"]["stdout"])
    assert "Attack by the rangers: Shoot with the Initiative" in firefight


@pytest.mark.parametrize("path", LEGAL, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_heading_without_lines_under_it(path: Path) -> None:
    for heading, lines in steps(resolve(load_scenario(path))):
        assert heading is None or lines, heading


def test_no_sentence_fragment_for_normal_damage_or_a_round() -> None:
    everything = "\n".join("\n".join(answer["text"]["stdout"]) for answer in recorded().values())
    assert "Normal damage: the Initiative unit's first" not in everything
    assert "The normal successes are allocated next, the Initiative unit's first" in everything
    assert "1 other success at the raiders is allocated" in everything


REMOVED_FIRER = """
weapons:
  carbine: {range: 18, dice: 2, lock: 4, damage: 1}
  smg: {range: 12, dice: 2, lock: 4, damage: 1}
units:
  - id: rangers
    side: blue
    models:
      - {id: r1, at: [0, 0], leader: true, weapons: [carbine]}
      - {id: r2, at: [0, -10], weapons: [carbine]}
  - id: raiders
    side: red
    models:
      - {id: x1, at: [10, 0], leader: true, weapons: [smg]}
      - {id: x2, at: [10, 12], weapons: [smg]}
attack: {unit: rangers, command: shoot, targets: [{unit: raiders, mark: x1}]}
response: {command: snap_fire, mark: r1}
dice: [4, 4, 1, 1, 6, 1]
"""


def test_a_model_valid_only_through_a_removed_firer_is_said_so() -> None:
    """core/allocation.md#valid-model: x2 is in range of r1 only, and the reply's Critical Lock removed r1
    before the normal round; r1 counts as it stood when it rolled, and the account says so."""
    resolution = resolve(parse_scenario(REMOVED_FIRER, "<test>"))
    assert resolution.removed["r1"] == "immediate"
    (hit,) = [h for h in resolution.trace if getattr(h, "model", None) == "x2" and hasattr(h, "why")]
    assert hit.through_removed == ("r1",)
    said = [line.text for line in trace(resolution)]
    assert any(
        line.startswith("the carbine success goes to x2") and "valid only through r1" in line for line in said
    )
    plain = [h for h in resolution.trace if getattr(h, "model", None) == "x1" and hasattr(h, "why")]
    assert [h.through_removed for h in plain] == [()]  # x1 is valid through r2, who is still in play


def test_a_shaken_units_assault_is_refused_as_an_assault() -> None:
    refusal = _refusal("""
weapons:
  carbine: {range: 12, dice: 1, lock: 4, damage: 1, traits: [assault]}
units:
  - id: raiders
    side: red
    status: [shaken]
    models: [{id: x1, at: [0, 0], leader: true, weapons: [carbine]}]
  - {id: rangers, side: blue, models: [{id: r1, at: [6, 0]}]}
attack: {unit: raiders, command: assault, targets: [{unit: rangers, mark: r1}]}
""")
    assert refusal.rule == "core/statuses.md#shaken"
    assert "so its Assault is refused" in refusal.message


SHAKEN_RESPONDER = ROOT / "examples/scenarios/reading/16_snap_fire_by_shaken_unit.yaml"


def test_r11_an_illegal_response_is_refused_naming_its_rule_and_the_attack_alone_legal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["resolve", "--json", str(SHAKEN_RESPONDER)]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["rule"] == "core/statuses.md#shaken"  # the first broken rule, as before
    assert error["response"] == "commands/command_snap_fire.md#snap-fire"
    assert "the Shoot by 'rangers' alone is legal" in error["message"]
    assert "delete the scenario's 'response'" in error["message"]
    scenario = load_scenario(SHAKEN_RESPONDER)
    with pytest.raises(IllegalDeclaration) as refused:
        resolve(scenario)
    text = render_illegal(scenario, refused.value)
    assert "The response is refused, not the attack" in text


def test_r11_an_ordinary_refusal_has_no_response_key(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", "--json", str(ROOT / "examples/scenarios/illegal_friendly_target.yaml")]) == 1
    assert "response" not in json.loads(capsys.readouterr().out)["error"]


def test_r11_covering_fire_that_may_not_be_made_keeps_watching() -> None:
    path = ROOT / "examples/scenarios/reading/40_covering_fire_target_engaged_elsewhere.yaml"
    with pytest.raises(IllegalDeclaration) as refused:
        resolve(load_scenario(path))
    assert refused.value.rule == "core/shooting.md#target-legality"
    assert refused.value.response == "commands/command_covering_fire.md#covering-fire"
    assert "keeps watching" in refused.value.message


def test_r11_a_legal_attack_with_its_response_removed_resolves() -> None:
    text = SHAKEN_RESPONDER.read_text(encoding="utf-8")
    kept = [line for line in text.splitlines() if not line.startswith(("response:", "dice:"))]
    alone = "\n".join([*kept, "dice: [4]"])
    scenario = parse_scenario(alone, "<test>")
    assert render(scenario, resolve(scenario)).count("Attack by ") == 1
