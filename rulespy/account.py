"""The account of a resolution, in words: what ``rulespy resolve`` prints, and the ``trace`` of its JSON.

The rules and the Shooting Sequence log typed records and never word them (``rulespy.sequences.records``);
this module alone writes them as English, one line a record, each line citing the record's rule. The
JSON ``trace`` is those lines in the order they happened. The step-by-step account is the same lines as a
referee tells them, each under the step it belongs to: a target's cover and held weapons under its own
Target Lock heading, every die under the target it was rolled at, and in each allocation round every
success's model first, then the damage (core/allocation.md#allocation: no damage until every success of
the round has a model). The outcome that follows is read from the ``--json`` document (so the account
and ``--json`` can never disagree).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any, assert_never

from rulespy.commands import rules_for
from rulespy.core.allocation import KEY_PARTS, Choice, Invalid, Unfit, Why
from rulespy.core.target_lock import LockRoll
from rulespy.errors import IllegalDeclaration
from rulespy.frozen import frozen
from rulespy.sequences.records import (
    Allowed,
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
    Undeclared,
)
from rulespy.sequences.resolution import Resolution
from rulespy.state import Command, Scenario
from rulespy.timing.firefight import Removal
from rulespy.wording import command_name, count, is_plural, it, its, the, they, verb

# When a casualty leaves play, in words: the one wording of ``Removal``.
_WHEN = {
    Removal.IMMEDIATE: "at once",
    Removal.END_OF_ATTACK: "at the end of the attack",
    Removal.END_OF_FIREFIGHT: "at the end of the firefight",
}
_WIDTH = 100
# A line that opens with one of these words starts a sentence (a line opening with a model id does not).
_SENTENCE_OPENERS = frozenset({"the", "no", "nothing", "normal", "every", "a"})


@frozen
class Line:
    """One line of the account: the rule that decided it (``PATH#ANCHOR``) and what it says."""

    rule: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}


def trace(resolution: Resolution) -> tuple[Line, ...]:
    """Every record of the resolution's log as a line of the account, in order."""
    log = resolution.trace
    return tuple(Line(record.rule, say(record, _context(log, i))) for i, record in enumerate(log))


@frozen
class Context:
    """What a record's wording needs from the rest of the log: whether the unit resolving its Critical
    Locks has any (``CriticalsFirst``), and whether any shooting attack was made at all (``LeavePlay``)."""

    criticals: bool = True
    shooting: bool = True


_ANY_CONTEXT = Context()


def _context(log: tuple[Record, ...], index: int) -> Context:
    record = log[index]
    if isinstance(record, CriticalsFirst):
        rounds = []
        for later in log[index + 1 :]:
            if isinstance(later, CriticalsFirst | NormalDamage | LeavePlay):
                break
            rounds.append(isinstance(later, Round) and later.critical)
        return Context(criticals=any(rounds))
    if isinstance(record, LeavePlay):
        # commands/command_assault.md#assault: an Assault that does not shoot makes no shooting attack
        stopped = any(isinstance(r, ShootingStopped) for r in log)
        return Context(shooting=not stopped or any(isinstance(r, LockDice) for r in log))
    return Context()


def to_json(resolution: Resolution) -> dict[str, Any]:
    """The ``resolve --json`` answer: the outcome, then the trace in words."""
    return {**resolution.to_json(), "trace": [line.to_json() for line in trace(resolution)]}


def say(record: Record, context: Context = _ANY_CONTEXT) -> str:
    """One record in words (``context``: what its wording needs from the rest of the log)."""
    match record:
        case Declared(unit, command, targets, command_rule, weapons):
            at = "; ".join(
                f"{the(target)}{_with(weapons[i]) if weapons else ''} (marking {mark})"
                for i, (target, mark) in enumerate(targets)
            )
            declares = f"{verb(unit, 'declares', 'declare')} {command_name(command.value)}"
            return f"{declares} at {at}: a legal declaration (see {command_rule})"
        case Allowed():
            return _allowed(record)
        case Undeclared(model, weapon):
            return f"{model}'s {weapon} does not fire: declared against no target"
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
            return f"nothing is fired at {the(target)}: {holds.text}"
        case ShootingStopped(unit, target):
            return (
                f"the Assault by {the(unit)} goes ahead without shooting at {the(target)}: no die is rolled, "
                "and melee follows"
            )
        case Rolled():
            return _die(record.roll)
        case CriticalsFirst(unit):
            if not context.criticals:
                return f"{verb(unit, 'has', 'have')} no Critical Lock to resolve"
            return (
                f"{verb(unit, 'resolves', 'resolve')} {its(unit)} Critical Locks; those casualties go at once"
            )
        case NormalDamage():
            return "the normal successes are allocated next, the Initiative unit's first"
        case Round(target, critical, successes):
            what = (
                count(successes, "Critical Lock")
                if critical
                else count(successes, "other success", "other successes")
            )
            return f"{what} at {the(target)} {'is' if successes == 1 else 'are'} allocated"
        case Hit():
            kind = "Critical Lock" if record.critical else "success"
            if record.model is None:
                return f"a {record.weapon} {kind} is lost: {_why(record.why)}: {_invalid(record.invalid)}"
            text = f"the {record.weapon} {kind} goes to {record.model}: {_why(record.why)}"
            if record.through_removed:
                firers = " and ".join(record.through_removed)
                text += (
                    f"; {record.model} is valid only through {firers}, who fired the {record.weapon} and has "
                    "been removed since: a model that fired counts as it stood when it rolled"
                )
            if record.invalid:
                mark = record.invalid[0].model
                text += f"; the Marked Model {mark} is not valid for it: {_invalid(record.invalid)}"
            return text
        case Damage(model, inflicted, armour, critical, lost):
            text = f"{model} loses {count(lost, 'wound')}"
            if lost != inflicted:
                text += f" of the {inflicted} inflicted"
            if critical:
                return f"{text}, ignoring armour"
            return f"{text} after armour {armour}" if armour else text
        case Surplus(model, left, surplus):
            wounds = f"{'other ' if left else ''}{'wound is' if surplus == 1 else f'{surplus} wounds are'}"
            return f"{model} had {count(left, 'wound')} left; the {wounds} lost, never passed on"
        case Casualty(model, removed):
            return f"{model} is a casualty at 0 wounds, removed {_WHEN[removed]}"
        case LeavePlay(firefight):
            if not context.shooting:
                return "no shooting attack was made, so no casualty leaves play"
            if firefight:
                return "every other casualty of the firefight goes together"
            return "the attack's other casualties leave play together"
        case Pinned(model):
            return f"{model} survives and becomes Pinned"
        case MeleeFollows():
            return "the shooting is over and the assault goes into melee; rulespy stops here"
        case _:
            assert_never(record)


def _with(pairs: tuple[tuple[str, str], ...]) -> str:
    """A target's declared weapons, model by model: `` with r1's carbine and lance, r2's rifle``."""
    if not pairs:
        return " with no weapon"
    by_model: dict[str, list[str]] = {}
    for model, weapon in pairs:
        by_model.setdefault(model, []).append(weapon)
    return " with " + ", ".join(f"{model}'s {' and '.join(names)}" for model, names in by_model.items())


def _invalid(invalid: tuple[Invalid, ...]) -> str:
    """Why models are not valid for a success: ``t1 is within the lance's minimum range 6" of l1``.

    Rule: core/allocation.md#valid-model
    """
    reasons = []
    for why in invalid:
        of = f"the {why.weapon}'s"
        match why.unfit:
            case Unfit.LEFT_PLAY:
                reasons.append(f"{why.model} has left play")
            case Unfit.NOT_SEEN:
                reasons.append(f"{why.firer} does not see {why.model}")
            case Unfit.OUT_OF_RANGE:
                reasons.append(f'{why.model} is beyond {of} range of {why.inches:g}" from {why.firer}')
            case Unfit.MINIMUM_RANGE:
                reasons.append(f'{why.model} is within {of} minimum range {why.inches:g}" of {why.firer}')
            case _:
                assert_never(why.unfit)
    return ", ".join(reasons) or "the target unit has no model"


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
    chosen, against = why.chosen, why.against
    if KEY_PARTS[why.part] == "unit order":  # a place in the unit's list, counted from 1 as players count
        chosen, against = chosen + 1, against + 1
    return f"smallest key ({KEY_PARTS[why.part]}: {chosen} against {against} for {why.runner})"


def _allowed(record: Allowed) -> str:
    """Why Target Priority allows the target (core/target_selection.md#target-priority)."""
    target = the(record.target)
    if record.leader:
        may = verb(record.unit, "may", "may")
        return f"the leader {record.leader} sees {target}, so {may} target {it(record.target)}"
    lacks = f"{verb(record.unit, 'has', 'have')} no leader"
    if record.named:
        return (
            f"{lacks}, but {command_name(record.named)} names its target, so the closest-candidate rule "
            f"does not apply to {target}"
        )
    away = f'{round(record.inches, 3):g}" away'
    if record.tied:
        others = ", ".join(the(unit) for unit in record.tied)
        return (
            f"{lacks}; {target} ({away}) and {others} are the closest candidates, equally close, and the "
            "player chooses among them"
        )
    be = "are" if is_plural(record.target) else "is"
    if record.candidates == 1:
        return f"{lacks}; {target} ({away}) {be} {its(record.unit)} only candidate, so the closest"
    return f"{lacks}; {target} ({away}) {be} the closest of {its(record.unit)} {record.candidates} candidates"


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
    for heading, body in steps(resolution):
        if heading is not None:
            lines += ["", *_cite(heading.text, heading.rule, 0)]
        for line in body:
            lines += _cite(line.text, line.rule)
    lines += ["", "Outcome"]
    firefight = len(result.get("attacks", [])) > 1
    for attack in result.get("attacks", []):
        lines += _attack(attack, firefight)
    lines += _casualties(result.get("casualties", []))
    lines += ["", "Final state"]
    for model, state in result.get("models", {}).items():
        statuses = ", ".join(state.get("status", [])) or "no status"
        left = count(int(state.get("wounds", 0)), "wound")
        lines += _cite(f"{model}: {left} left, {statuses}", "core/damage.md#wounds")
    return "\n".join(lines) + "\n"


Section = tuple[Line | None, list[Line]]
# Records that open a step of the account; every other record is a line under the step it belongs to.
_HEADINGS = (Declared, SplitFire, LockDice, NoneFire, CriticalsFirst, NormalDamage, Round, LeavePlay)


def steps(resolution: Resolution) -> list[Section]:
    """The trace's lines grouped as a referee tells them: each line under the heading of its step.

    The log is kept in the order things happened; the account moves three kinds of line. A target's held
    weapons and its cover (core/cover.md#target-unit-cover: found at step 4) go under that target's own
    Target Lock heading; every die goes under the target it was rolled at; in an allocation round every
    success's model comes first, then one damage line per hit, then the casualties
    (core/allocation.md#allocation: no damage until every success of the round has a model). The removal
    step of an Assault that does not shoot is left out: it made no shooting attack
    (commands/command_assault.md#assault).
    """
    records, lines = resolution.trace, trace(resolution)
    sections: list[Section] = [(None, [])]
    by_target: dict[tuple[int, int], list[Line]] = {}
    pending: dict[str, list[Line]] = {}
    attacks: list[Declared] = []
    round_hits: list[Line] | None = None
    round_rest: list[Line] = []

    def close_round() -> None:
        nonlocal round_hits
        if round_hits is not None:
            sections[-1][1].extend([*round_hits, *round_rest])
            round_hits = None
            round_rest.clear()

    for number, (record, line) in enumerate(zip(records, lines, strict=True)):
        if isinstance(record, _HEADINGS):
            close_round()
            if isinstance(record, LeavePlay) and not _context(records, number).shooting:
                continue
            sections.append((line, []))
            if isinstance(record, Declared):
                attacks.append(record)
            elif isinstance(record, LockDice | NoneFire):
                sections[-1][1].extend(pending.pop(record.target, []))
                shooter = [i for i, d in enumerate(attacks) if d.unit == record.unit][-1]
                index = [t for t, _ in attacks[shooter].targets].index(record.target)
                by_target[(shooter, index)] = sections[-1][1]
            elif isinstance(record, Round):
                round_hits = []
            continue
        if isinstance(record, Held | TargetCover):
            pending.setdefault(record.target if isinstance(record, Held) else record.unit, []).append(line)
        elif isinstance(record, Rolled):
            by_target[(record.attack, record.target)].append(line)
        elif round_hits is not None and isinstance(record, Hit):
            round_hits.append(line)
        elif round_hits is not None and isinstance(record, Damage | Surplus | Casualty):
            round_rest.append(line)
        else:
            close_round()
            sections[-1][1].append(line)
    close_round()
    for leftover in pending.values():
        sections[-1][1].extend(leftover)
    return _no_empty_headings([section for section in sections if section[0] is not None or section[1]])


def _no_empty_headings(sections: list[Section]) -> list[Section]:
    """No heading stands without lines under it. A heading that says nothing happens at its step (a unit
    with no Critical Lock to resolve) becomes the last line of the step before; any other heading with
    nothing under it introduces the next step: it heads that step, whose own heading becomes its first
    line (``The rangers resolve their Critical Locks`` over ``1 Critical Lock at the raiders is
    allocated``)."""
    result: list[Section] = []
    carried: Line | None = None
    for heading, body in sections:
        if carried is not None:
            body = ([heading] if heading is not None else []) + body
            heading, carried = carried, None
        if heading is not None and not body:
            if heading.text.endswith("no Critical Lock to resolve") and result:
                result[-1][1].append(heading)
            else:
                carried = heading
            continue
        result.append((heading, body))
    if carried is not None:
        if result:
            result[-1][1].append(carried)
        else:
            result.append((carried, []))
    return result


def _attack(attack: Mapping[str, Any], firefight: bool) -> list[str]:
    """One attack's outcome; "with the Initiative" only in a firefight (a lone attack has no rival)."""
    command = str(attack.get("command"))
    rule = rules_for(Command(command)).rule
    unit = the(str(attack.get("unit")))
    targets = attack.get("targets", [])
    if command == Command.ASSAULT.value and not any(target.get("fired") for target in targets):
        # commands/command_assault.md#assault: an Assault that does not shoot makes no shooting attack
        lines = _cite(f"Assault by {unit}: no shooting attack", rule, 0)
    else:
        initiative = " with the Initiative" if firefight and attack.get("initiative") else ""
        lines = _cite(f"Attack by {unit}: {command_name(command)}{initiative}", rule, 0)
    for number, target in enumerate(targets, start=1):
        unit = str(target.get("unit"))
        lines += _cite(f"Target {number}: {the(unit)}", "core/shooting.md#shooting-resolution")
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
    if error.response:
        lines += _cite(
            f"The response is refused, not the attack: its rule is {error.response}", error.response
        )
    return "\n".join(lines) + "\n"
