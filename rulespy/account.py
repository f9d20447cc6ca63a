"""The readable account that ``rulespy resolve`` prints: the attack step by step, each line citing its rule.

The steps come from the resolution's event log, in Shooting Sequence order; the outcome that follows
is read from the contract's JSON (so the account and ``--json`` can never disagree). Every line ends
with the ``path#anchor`` of the rule that decided it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from typing import Any

from rulespy.commands import rules_for
from rulespy.errors import IllegalDeclaration
from rulespy.events import Event
from rulespy.state import Command, Scenario
from rulespy.wording import command_name, count, it, the, verb

_HEADING_RULES = ("sequences/shooting_sequence.md#step-", "timing/firefight.md#firefight-")
_REMOVED = {
    "immediate": "removed at once (a Critical Damage casualty)",
    "end_of_attack": "removed at the end of the attack",
    "end_of_firefight": "removed at the end of the firefight",
}
_WIDTH = 100
# A line that opens with one of these words starts a sentence (a line opening with a model id does not).
_SENTENCE_OPENERS = frozenset({"the", "no", "normal", "every", "a"})


def _cite(text: str, rule: str, indent: int = 2) -> list[str]:
    if text.partition(" ")[0] in _SENTENCE_OPENERS:
        text = text[0].upper() + text[1:]
    pad = " " * indent
    body = textwrap.wrap(
        f"{text}  [{rule}]",
        _WIDTH,
        initial_indent=pad,
        subsequent_indent=pad + "  ",
        break_on_hyphens=False,
        break_long_words=False,
    )
    return body or [pad]


def _header(scenario: Scenario) -> list[str]:
    lines = [f"Scenario: {scenario.path or '<scenario>'}"]
    if scenario.description:
        text = " ".join(scenario.description.split())
        lines += textwrap.wrap(text, _WIDTH, initial_indent="  ", subsequent_indent="  ")
    return lines


def render(scenario: Scenario, result: Mapping[str, Any], trace: Iterable[Event]) -> str:
    """The account of a resolved scenario: its steps, each attack's and target's outcome, the casualties."""
    lines = _header(scenario)
    lines += ["", "Step by step"]
    for event in trace:
        if event.rule.startswith(_HEADING_RULES):
            lines += ["", *_cite(event.text, event.rule, 0)]
        else:
            lines += _cite(event.text, event.rule)
    lines += ["", "Outcome"]
    for attack in result.get("attacks", []):
        lines += _attack(attack)
    lines += _casualties(result.get("casualties", []))
    lines += ["", "Final state"]
    for model, state in result.get("models", {}).items():
        statuses = ", ".join(state.get("status", [])) or "no status"
        left = count(int(state.get("wounds", 0)), "wound")
        lines += _cite(f"{model}: {left} left, {statuses}", "core/damage.md#wounds")
    return "\n".join(lines) + "\n"


def _attack(attack: Mapping[str, Any]) -> list[str]:
    command = str(attack.get("command"))
    initiative = " with the Initiative" if attack.get("initiative") else ""
    rule = rules_for(Command(command)).rule
    lines = _cite(f"Attack by {the(str(attack.get('unit')))}: {command_name(command)}{initiative}", rule, 0)
    for number, target in enumerate(attack.get("targets", []), start=1):
        unit = str(target.get("unit"))
        lines += _cite(f"Target {number}: {the(unit)}", "core/shooting.md#target-legality")
        leadership = target.get("leadership")
        if leadership:
            dice = leadership.get("dice", [])
            verdict = (
                "passed"
                if leadership.get("passed")
                else f"failed: the weapons declared against {it(unit)} do not fire"
            )
            total = " + ".join(str(d) for d in dice)
            lines += _cite(
                f"Leadership Check {total} = {sum(dice)}: {verdict}", "core/leadership.md#leadership-check", 4
            )
        if not target.get("fired"):
            lines += _cite("no die was rolled at this target", "core/shooting.md#which-weapons-fire", 4)
            continue
        lines += _cite(
            _successes(int(target.get("successes", 0)), int(target.get("criticals", 0))),
            "core/target_lock.md#critical-lock",
            4,
        )
        for hit in target.get("allocation", []):
            kind = "Critical Lock" if hit.get("critical") else "success"
            rule = (
                "core/critical_damage.md#critical-damage" if hit.get("critical") else "core/damage.md#damage"
            )
            if hit.get("model") is None:
                lines += _cite(
                    f"a {kind} of {hit.get('weapon')} is lost: no valid model",
                    "core/allocation.md#lost-successes",
                    4,
                )
            else:
                taken = f"{count(int(hit.get('wounds', 0)), 'wound')} lost"
                lines += _cite(f"{hit.get('model')} takes a {kind} of {hit.get('weapon')}: {taken}", rule, 4)
    return lines


def _successes(successes: int, criticals: int) -> str:
    """How many dice succeeded at a target and how many of those were Critical Locks."""
    if not successes:
        return "no die succeeded"
    if successes == 1:
        return f"1 successful die, {'a' if criticals else 'not a'} Critical Lock"
    if not criticals:
        return f"{successes} successful dice, none of them a Critical Lock"
    kind = "a Critical Lock" if criticals == 1 else "Critical Locks"
    return f"{successes} successful dice, {'all' if criticals == successes else criticals} of them {kind}"


def _casualties(casualties: list[Mapping[str, Any]]) -> list[str]:
    lines = ["", "Casualties"]
    if not casualties:
        return lines + _cite("none: no model was brought to 0 wounds", "core/damage.md#casualty")
    for casualty in casualties:
        when = _REMOVED.get(str(casualty.get("removed")), str(casualty.get("removed")))
        lines += _cite(f"{casualty.get('model')} is a casualty, {when}", "timing/firefight.md#removal-timing")
    return lines


def describe_declaration(scenario: Scenario) -> str:
    """The declaration in one sentence, such as ``the rangers declare Shoot at the drones, marking d1``."""
    attack = scenario.attack
    parts = []
    for target in attack.targets:
        fire = ""
        if target.models is not None:
            fire += f" with {', '.join(target.models) or 'no models'}"
        if target.weapons is not None:
            fire += f"{' and' if fire else ' with'} {', '.join(f'{m}/{w}' for m, w in target.weapons)}"
        parts.append(f"{the(target.unit)}{fire}, marking {target.mark}")
    text = f"{verb(attack.unit, 'declares', 'declare')} {command_name(attack.command.value)} at "
    text += "; then at ".join(parts)
    if scenario.response is not None:
        response = command_name(scenario.response.command.value)
        text += f"; the response is {response} marking {scenario.response.mark}"
    return text


def render_illegal(scenario: Scenario, error: IllegalDeclaration) -> str:
    """What was declared, which rule forbids it and the file that owns that rule; nothing was rolled."""
    owner = error.rule.partition("#")[0]
    lines = _header(scenario)
    lines += [
        "",
        "Illegal declaration: nothing was rolled",
        *_cite(f"Declared: {describe_declaration(scenario)}", "sequences/shooting_sequence.md#step-declare"),
        *_cite(f"Forbidden: {error.message}", error.rule),
        f"  The rule is owned by {owner}: see {error.rule}",
    ]
    return "\n".join(lines) + "\n"
