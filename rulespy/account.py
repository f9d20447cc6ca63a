"""The account of a resolution, in words: what ``rulespy resolve`` prints, and the ``trace`` of its JSON.

The rules and the Shooting Sequence log typed records and never word them (``rulespy.sequences.records``);
this module alone writes them as English, one line a record, each line citing the record's rule. The
step-by-step account is those lines in Shooting Sequence order; the outcome that follows is read from
the ``--json`` document (so the account and ``--json`` can never disagree).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, assert_never

from rulespy.commands import rules_for
from rulespy.core.allocation import KEY_PARTS, Choice, Why
from rulespy.core.target_lock import LockRoll
from rulespy.errors import IllegalDeclaration
from rulespy.sequences.records import (
    Casualty,
    CriticalsFirst,
    Damage,
    Declared,
    Fires,
    Held,
    Hit,
    Initiative,
    Leadership,
    LeavePlay,
    LockDice,
    MeleeFollows,
    NoneFire,
    NormalDamage,
    NoShooting,
    Pinned,
    Record,
    Rolled,
    Round,
    ShootingStopped,
    SplitFire,
    Surplus,
    TargetCover,
)
from rulespy.sequences.resolution import Resolution
from rulespy.state import Command, Scenario
from rulespy.timing.firefight import Removal
from rulespy.wording import command_name, count, it, its, the, they, verb

_HEADING_RULES = ("sequences/shooting_sequence.md#step-", "timing/firefight.md#firefight-")
# When a casualty leaves play, in words: the one wording of ``Removal``.
_WHEN = {
    Removal.IMMEDIATE: "at once",
    Removal.END_OF_ATTACK: "at the end of the attack",
    Removal.END_OF_FIREFIGHT: "at the end of the firefight",
}
_WIDTH = 100
# A line that opens with one of these words starts a sentence (a line opening with a model id does not).
_SENTENCE_OPENERS = frozenset({"the", "no", "normal", "every", "a"})


@dataclass(frozen=True)
class Line:
    """One line of the account: the rule that decided it (``PATH#ANCHOR``) and what it says."""

    rule: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}


def trace(resolution: Resolution) -> tuple[Line, ...]:
    """Every record of the resolution's log as a line of the account, in order."""
    return tuple(Line(record.rule, say(record)) for record in resolution.trace)


def to_json(resolution: Resolution) -> dict[str, Any]:
    """The ``resolve --json`` answer: the outcome, then the trace in words."""
    return {**resolution.to_json(), "trace": [line.to_json() for line in trace(resolution)]}


def say(record: Record) -> str:
    """One record in words."""
    match record:
        case Declared(unit, command, targets, command_rule):
            at = "; ".join(f"{the(target)} (marking {mark})" for target, mark in targets)
            declares = f"{verb(unit, 'declares', 'declare')} {command_name(command.value)}"
            return f"{declares} at {at}: a legal declaration (see {command_rule})"
        case Initiative(attacker, responder):
            has = they(attacker, "has", "have")
            return f"{the(attacker)} started the firefight, so {has} the Initiative over {the(responder)}"
        case SplitFire(unit):
            return (
                f"{verb(unit, 'splits', 'split')} {its(unit)} fire: a Leadership Check for each later target"
            )
        case Leadership():
            a, b = record.dice
            fire = "may fire" if record.passed else "do not fire"
            verdict = (
                f"{'passed' if record.passed else 'failed'}: the weapons declared against {it(record.unit)}"
            )
            return (
                f"Leadership Check for {the(record.unit)} on {record.leader}'s ld {record.ld}: "
                f"{a} + {b} = {a + b}, {verdict} {fire}"
            )
        case Held(model, weapon, target, holds):
            if holds is not None and not holds.reason:
                return holds.text
            reason = f"{model} has left play" if holds is None else holds.reason
            return f"{model}'s {weapon} does not fire at {the(target)}: {reason}"
        case TargetCover(unit, mark, cover):
            takes = f"{verb(unit, 'takes', 'take')} {its(unit)} cover"
            return f"{takes} from the marked model {mark}: {cover.name.lower()}"
        case LockDice(unit, target, dice):
            rolls = f"{verb(unit, 'rolls', 'roll')} {count(dice, 'Target Lock die', 'Target Lock dice')}"
            return f"{rolls} at {the(target)}"
        case Fires():
            return _fires(record)
        case NoneFire(unit, target):
            return f"no weapon of {the(unit)} fires at {the(target)}"
        case NoShooting(target, holds):
            return f"no shooting at {the(target)}: {holds.text}"
        case ShootingStopped(unit, target):
            return (
                f"the Assault by {the(unit)} goes ahead without shooting at {the(target)}: no die is rolled, "
                "and melee follows"
            )
        case Rolled():
            return _die(record.roll)
        case CriticalsFirst(unit):
            return (
                f"{verb(unit, 'resolves', 'resolve')} {its(unit)} Critical Locks; those casualties go at once"
            )
        case NormalDamage():
            return "normal damage: the Initiative unit's first"
        case Round(target, critical, successes):
            if critical:
                return f"{count(successes, 'Critical Lock')} at {the(target)}"
            return f"{count(successes, 'other success', 'other successes')} at {the(target)}"
        case Hit():
            if record.model is None:
                return f"a {record.weapon} success is lost: {_why(record.why)}"
            kind = "Critical Lock" if record.critical else "success"
            return f"the {record.weapon} {kind} goes to {record.model}: {_why(record.why)}"
        case Damage(model, inflicted, armour, critical):
            if critical:
                return f"{model} suffers {count(inflicted, 'wound')}, ignoring armour"
            if armour:
                return f"{model}'s armour {armour} leaves {count(inflicted, 'wound')}"
            return f"{model} suffers {count(inflicted, 'wound')}"
        case Surplus(model, left, surplus):
            other = "the other wound is" if surplus == 1 else f"the other {surplus} are"
            return f"{model} had {count(left, 'wound')} left; {other} lost, never passed on"
        case Casualty(model, removed):
            return f"{model} is a casualty at 0 wounds, removed {_WHEN[removed]}"
        case LeavePlay(firefight):
            if firefight:
                return "every other casualty of the firefight goes together"
            return "the attack's other casualties leave play together"
        case Pinned(model):
            return f"{model} survives and becomes Pinned"
        case MeleeFollows():
            return "the shooting is over and the assault goes into melee; rulespy stops here"
        case _:
            assert_never(record)


def _fires(record: Fires) -> str:
    mods = record.modifiers
    parts = ", ".join(f"{m.reason} {m.amount:+d}" for m in mods) or "no modifiers"
    dice = count(record.dice, "die", "dice")
    text = f"{record.model} fires {dice} of {record.weapon} at {the(record.target)} ({parts}"
    total, net = sum(m.amount for m in mods), record.net
    return text + (f"; {total:+d} capped to {net:+d})" if record.capped else f"; net {net:+d})")


def _die(roll: LockRoll) -> str:
    head = f"{roll.model} fires {roll.weapon}: natural {roll.natural}"
    if roll.net:
        head += f", {roll.net:+d} makes {roll.modified}"
    if roll.natural == 1:
        return f"{head}: a natural 1 always fails"
    against = f"{head} against lock {roll.lock}"
    if roll.critical:
        return f"{against}: a success on a natural {roll.natural}, a Critical Lock"
    if roll.success:
        return f"{against}: a success"
    if roll.natural >= roll.critical_on:
        return f"{against}: fails, so the natural {roll.natural} is no Critical Lock"
    return f"{against}: fails"


def _why(why: Why) -> str:
    if why.choice is Choice.MARKED:
        return "the first success of the round goes to the Marked Model"
    if why.choice is Choice.ONLY:
        return "the only valid model"
    if why.choice is Choice.LOST:
        return "no model of the target unit is valid for it"
    return f"smallest key ({KEY_PARTS[why.part]}: {why.chosen} against {why.against} for {why.runner})"


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


def render(scenario: Scenario, resolution: Resolution) -> str:
    """The account of a resolved scenario: its steps, each attack's and target's outcome, the casualties."""
    result = resolution.to_json()
    lines = _header(scenario)
    lines += ["", "Step by step"]
    for line in trace(resolution):
        if line.rule.startswith(_HEADING_RULES):
            lines += ["", *_cite(line.text, line.rule, 0)]
        else:
            lines += _cite(line.text, line.rule)
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
        # commands/command_assault.md#assault: an Assault goes ahead even when it may not shoot
        if not target.get("fired") and command == Command.ASSAULT.value:
            text = "no die was rolled: the Assault goes ahead without shooting, and melee follows"
            lines += _cite(text, rule, 4)
            continue
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
        removed = Removal(str(casualty.get("removed")))
        critical = " (a Critical Damage casualty)" if removed is Removal.IMMEDIATE else ""
        text = f"{casualty.get('model')} is a casualty, removed {_WHEN[removed]}{critical}"
        lines += _cite(text, "timing/firefight.md#removal-timing")
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
