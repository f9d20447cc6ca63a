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
from rulespy.i18n import N_, SOURCE, _, cite, current, decimal, n_
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
from rulespy.wording import command_name, is_plural

# When a casualty leaves play, in words: the one wording of ``Removal``.
_WHEN = {
    Removal.IMMEDIATE: N_("at once"),
    Removal.END_OF_ATTACK: N_("at the end of the attack"),
    Removal.END_OF_FIREFIGHT: N_("at the end of the firefight"),
}
# The cover a target takes, and the parts of the allocation key (core/allocation.md#allocation-key), as
# the account names them.
_COVER = {"none": N_("none"), "light": N_("light"), "heavy": N_("heavy")}
_KEY_PARTS = (
    N_("successes from the same weapon this round"),
    N_("successes this round"),
    N_("tier"),
    N_("band"),
    N_("unit order"),
)
# The reasons of Target Lock modifiers (rulespy.core.target_lock) that are not marked where they are made.
_MODIFIERS = (N_("shoot"), N_("advance"), N_("assault"), N_("covering fire"), N_("snap fire"))
# The commands' values as some refusals quote them (``_(command.value)``, rulespy.core.shooting).
_VALUES = (N_("covering_fire"), N_("snap_fire"))
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


def _agree(unit: str, singular: str, plural: str, /, **values: object) -> str:
    """The message whose English verb agrees with ``unit`` (a plural id takes ``plural``), translated;
    ``{unit}`` is the unit's id. A translation that names the unit by a noun ("отряд ...") gives both
    messages the same text."""
    return _(plural if is_plural(unit) else singular, unit=unit, **values)


def say(record: Record, context: Context = _ANY_CONTEXT) -> str:
    """One record in words (``context``: what its wording needs from the rest of the log)."""
    match record:
        case Declared(unit, command, targets, command_rule, weapons):
            at = _("; ").join(
                _(
                    "the {target}{weapons} (marking {mark})",
                    target=target,
                    weapons=_with(weapons[i]) if weapons else "",
                    mark=mark,
                )
                for i, (target, mark) in enumerate(targets)
            )
            return _agree(
                unit,
                N_("the {unit} declares {command} at {targets}: a legal declaration (see {rule})"),
                N_("the {unit} declare {command} at {targets}: a legal declaration (see {rule})"),
                command=command_name(command.value),
                targets=at,
                rule=cite(command_rule),
            )
        case Allowed():
            return _allowed(record)
        case Undeclared(model, weapon):
            return _(
                "{model}'s {weapon} does not fire: declared against no target", model=model, weapon=weapon
            )
        case Initiative(attacker, responder):
            return _agree(
                attacker,
                N_("the {unit} started the firefight, so it has the Initiative over the {responder}"),
                N_("the {unit} started the firefight, so they have the Initiative over the {responder}"),
                responder=responder,
            )
        case SplitFire(unit):
            return _agree(
                unit,
                N_("the {unit} splits its fire: a Leadership Check for each later target"),
                N_("the {unit} split their fire: a Leadership Check for each later target"),
            )
        case Leadership():
            a, b = record.dice
            values = {"leader": record.leader, "ld": record.ld, "a": a, "b": b}
            if record.passed:
                return _agree(
                    record.unit,
                    N_(
                        "Leadership Check for the {unit} on {leader}'s ld {ld}: {a} + {b} = {total}, passed: "
                        "the weapons declared against it may fire"
                    ),
                    N_(
                        "Leadership Check for the {unit} on {leader}'s ld {ld}: {a} + {b} = {total}, passed: "
                        "the weapons declared against them may fire"
                    ),
                    **values,
                    total=a + b,
                )
            return _agree(
                record.unit,
                N_(
                    "Leadership Check for the {unit} on {leader}'s ld {ld}: {a} + {b} = {total}, failed: "
                    "the weapons declared against it do not fire"
                ),
                N_(
                    "Leadership Check for the {unit} on {leader}'s ld {ld}: {a} + {b} = {total}, failed: "
                    "the weapons declared against them do not fire"
                ),
                **values,
                total=a + b,
            )
        case Held(model, weapon, target, holds):
            if holds is not None and not holds.reason:
                return holds.text
            reason = _("{model} has left play", model=model) if holds is None else holds.reason
            return _(
                "{model}'s {weapon} does not fire at the {target}: {reason}",
                model=model,
                weapon=weapon,
                target=target,
                reason=reason,
            )
        case TargetCover(unit, mark, cover):
            return _agree(
                unit,
                N_("the {unit} takes its cover from the marked model {mark}: {cover}"),
                N_("the {unit} take their cover from the marked model {mark}: {cover}"),
                mark=mark,
                cover=_(_COVER[cover.name.lower()]),
            )
        case LockDice(unit, target, dice):
            if is_plural(unit):
                return n_(
                    "the {unit} roll {n} Target Lock die at the {target}",
                    "the {unit} roll {n} Target Lock dice at the {target}",
                    dice,
                    unit=unit,
                    target=target,
                )
            return n_(
                "the {unit} rolls {n} Target Lock die at the {target}",
                "the {unit} rolls {n} Target Lock dice at the {target}",
                dice,
                unit=unit,
                target=target,
            )
        case Fires():
            return _fires(record)
        case NoneFire(unit, target):
            return _("no weapon of the {unit} fires at the {target}", unit=unit, target=target)
        case NoShooting(target, holds):
            return _("nothing is fired at the {target}: {reason}", target=target, reason=holds.text)
        case ShootingStopped(unit, target):
            return _(
                "the Assault by the {unit} goes ahead without shooting at the {target}: no die is rolled, "
                "and melee follows",
                unit=unit,
                target=target,
            )
        case Rolled():
            return _die(record.roll)
        case CriticalsFirst(unit):
            if not context.criticals:
                return _agree(
                    unit,
                    N_("the {unit} has no Critical Lock to resolve"),
                    N_("the {unit} have no Critical Lock to resolve"),
                )
            return _agree(
                unit,
                N_("the {unit} resolves its Critical Locks; those casualties go at once"),
                N_("the {unit} resolve their Critical Locks; those casualties go at once"),
            )
        case NormalDamage():
            return _("the normal successes are allocated next, the Initiative unit's first")
        case Round(target, critical, successes):
            if critical:
                return n_(
                    "{n} Critical Lock at the {target} is allocated",
                    "{n} Critical Locks at the {target} are allocated",
                    successes,
                    target=target,
                )
            return n_(
                "{n} other success at the {target} is allocated",
                "{n} other successes at the {target} are allocated",
                successes,
                target=target,
            )
        case Hit():
            return _hit(record)
        case Damage(model, inflicted, armour, critical, lost):
            values = {"model": model, "inflicted": inflicted, "armour": armour}
            if lost != inflicted:
                if critical:
                    return n_(
                        "{model} loses {n} wound of the {inflicted} inflicted, ignoring armour",
                        "{model} loses {n} wounds of the {inflicted} inflicted, ignoring armour",
                        lost,
                        **values,
                    )
                if armour:
                    return n_(
                        "{model} loses {n} wound of the {inflicted} inflicted after armour {armour}",
                        "{model} loses {n} wounds of the {inflicted} inflicted after armour {armour}",
                        lost,
                        **values,
                    )
                return n_(
                    "{model} loses {n} wound of the {inflicted} inflicted",
                    "{model} loses {n} wounds of the {inflicted} inflicted",
                    lost,
                    **values,
                )
            if critical:
                return n_(
                    "{model} loses {n} wound, ignoring armour",
                    "{model} loses {n} wounds, ignoring armour",
                    lost,
                    model=model,
                )
            if armour:
                return n_(
                    "{model} loses {n} wound after armour {armour}",
                    "{model} loses {n} wounds after armour {armour}",
                    lost,
                    model=model,
                    armour=armour,
                )
            return n_("{model} loses {n} wound", "{model} loses {n} wounds", lost, model=model)
        case Surplus(model, left, surplus):
            had = n_("{model} had {n} wound left", "{model} had {n} wounds left", left, model=model)
            if left:
                gone = n_(
                    "the other wound is lost, never passed on",
                    "the other {n} wounds are lost, never passed on",
                    surplus,
                )
            else:
                gone = n_(
                    "the wound is lost, never passed on", "the {n} wounds are lost, never passed on", surplus
                )
            return _("{had}; {lost}", had=had, lost=gone)
        case Casualty(model, removed):
            return _("{model} is a casualty at 0 wounds, removed {when}", model=model, when=_(_WHEN[removed]))
        case LeavePlay(firefight):
            if not context.shooting:
                return _("no shooting attack was made, so no casualty leaves play")
            if firefight:
                return _("every other casualty of the firefight goes together")
            return _("the attack's other casualties leave play together")
        case Pinned(model):
            return _("{model} survives and becomes Pinned", model=model)
        case MeleeFollows():
            return _("the shooting is over and the assault goes into melee; rulespy stops here")
        case _:
            assert_never(record)


def _hit(record: Hit) -> str:
    """Which model a success goes to, and why (core/allocation.md#allocation-key)."""
    values = {"weapon": record.weapon, "model": record.model, "why": _why(record.why)}
    if record.model is None:
        invalid = _invalid(record.invalid)
        if record.critical:
            return _("a {weapon} Critical Lock is lost: {why}: {invalid}", **values, invalid=invalid)
        return _("a {weapon} success is lost: {why}: {invalid}", **values, invalid=invalid)
    if record.critical:
        text = _("the {weapon} Critical Lock goes to {model}: {why}", **values)
    else:
        text = _("the {weapon} success goes to {model}: {why}", **values)
    if record.through_removed:
        text += _(
            "; {model} is valid only through {firers}, who fired the {weapon} and has been removed since: "
            "a model that fired counts as it stood when it rolled",
            model=record.model,
            firers=_(" and ").join(record.through_removed),
            weapon=record.weapon,
        )
    if record.invalid:
        text += _(
            "; the Marked Model {mark} is not valid for it: {invalid}",
            mark=record.invalid[0].model,
            invalid=_invalid(record.invalid),
        )
    return text


def _with(pairs: tuple[tuple[str, str], ...]) -> str:
    """A target's declared weapons, model by model: `` with r1's carbine and lance, r2's rifle``."""
    if not pairs:
        return _(" with no weapon")
    by_model: dict[str, list[str]] = {}
    for model, weapon in pairs:
        by_model.setdefault(model, []).append(weapon)
    listed = _(", ").join(
        _("{model}'s {weapons}", model=model, weapons=_(" and ").join(names))
        for model, names in by_model.items()
    )
    return _(" with {weapons}", weapons=listed)


def _invalid(invalid: tuple[Invalid, ...]) -> str:
    """Why models are not valid for a success: ``t1 is within the lance's minimum range 6" of l1``.

    Rule: core/allocation.md#valid-model
    """
    reasons = []
    for why in invalid:
        values = {"model": why.model, "weapon": why.weapon, "firer": why.firer, "inches": decimal(why.inches)}
        match why.unfit:
            case Unfit.LEFT_PLAY:
                reasons.append(_("{model} has left play", model=why.model))
            case Unfit.NOT_SEEN:
                reasons.append(_("{firer} does not see {model}", firer=why.firer, model=why.model))
            case Unfit.OUT_OF_RANGE:
                reasons.append(
                    _("{model} is beyond the {weapon}'s range of {inches}\" from {firer}", **values)
                )
            case Unfit.MINIMUM_RANGE:
                reasons.append(
                    _("{model} is within the {weapon}'s minimum range {inches}\" of {firer}", **values)
                )
            case _:
                assert_never(why.unfit)
    return _(", ").join(reasons) or _("the target unit has no model")


def _fires(record: Fires) -> str:
    mods = record.modifiers
    parts = _(", ").join(_("{reason} {amount:+d}", reason=_(m.reason), amount=m.amount) for m in mods) or _(
        "no modifiers"
    )
    total, net = sum(m.amount for m in mods), record.net
    values = {"model": record.model, "weapon": record.weapon, "target": record.target, "modifiers": parts}
    if record.capped:
        return n_(
            "{model} fires {n} die of {weapon} at the {target} ({modifiers}; {total:+d} capped to {net:+d})",
            "{model} fires {n} dice of {weapon} at the {target} ({modifiers}; {total:+d} capped to {net:+d})",
            record.dice,
            **values,
            total=total,
            net=net,
        )
    return n_(
        "{model} fires {n} die of {weapon} at the {target} ({modifiers}; net {net:+d})",
        "{model} fires {n} dice of {weapon} at the {target} ({modifiers}; net {net:+d})",
        record.dice,
        **values,
        net=net,
    )


def _die(roll: LockRoll) -> str:
    values = {
        "model": roll.model,
        "weapon": roll.weapon,
        "natural": roll.natural,
        "net": roll.net,
        "modified": roll.modified,
        "lock": roll.lock,
    }
    if roll.net:
        head = _("{model} fires {weapon}: natural {natural}, {net:+d} makes {modified}", **values)
    else:
        head = _("{model} fires {weapon}: natural {natural}", **values)
    if roll.natural == 1:
        return _("{roll}: a natural 1 always fails", roll=head)
    against = _("{roll} against lock {lock}", roll=head, lock=roll.lock)
    if roll.critical:
        return _(
            "{roll}: a success on a natural {natural}, a Critical Lock", roll=against, natural=roll.natural
        )
    if roll.success:
        return _("{roll}: a success", roll=against)
    if roll.natural >= roll.critical_on:
        return _(
            "{roll}: fails, so the natural {natural} is no Critical Lock", roll=against, natural=roll.natural
        )
    return _("{roll}: fails", roll=against)


def _why(why: Why) -> str:
    if why.choice is Choice.MARKED:
        return _("the first success of the round goes to the Marked Model")
    if why.choice is Choice.ONLY:
        return _("the only valid model")
    if why.choice is Choice.LOST:
        return _("no model of the target unit is valid for it")
    chosen, against = why.chosen, why.against
    if KEY_PARTS[why.part] == "unit order":  # a place in the unit's list, counted from 1 as players count
        chosen, against = chosen + 1, against + 1
    return _(
        "smallest key ({part}: {chosen} against {against} for {runner})",
        part=_(_KEY_PARTS[why.part]),
        chosen=chosen,
        against=against,
        runner=why.runner,
    )


# Target Priority's reasons (``_allowed``), by whether the shooting unit's id and the target's read as
# plural: the English verb and pronoun agree with them; a translation naming both by "отряд" needs one text.
_LEADER_SEES = {
    False: N_("the leader {leader} sees the {target}, so the {unit} may target it"),
    True: N_("the leader {leader} sees the {target}, so the {unit} may target them"),
}
_NAMED = {
    False: N_(
        "the {unit} has no leader, but {command} names its target, so the closest-candidate rule does not "
        "apply to the {target}"
    ),
    True: N_(
        "the {unit} have no leader, but {command} names its target, so the closest-candidate rule does not "
        "apply to the {target}"
    ),
}
_TIED = {
    False: N_(
        "the {unit} has no leader; the {target} ({away}) and {others} are the closest candidates, equally "
        "close, and the player chooses among them"
    ),
    True: N_(
        "the {unit} have no leader; the {target} ({away}) and {others} are the closest candidates, equally "
        "close, and the player chooses among them"
    ),
}
_ONLY = {
    (False, False): N_(
        "the {unit} has no leader; the {target} ({away}) is its only candidate, so the closest"
    ),
    (False, True): N_(
        "the {unit} has no leader; the {target} ({away}) are its only candidate, so the closest"
    ),
    (True, False): N_(
        "the {unit} have no leader; the {target} ({away}) is their only candidate, so the closest"
    ),
    (True, True): N_(
        "the {unit} have no leader; the {target} ({away}) are their only candidate, so the closest"
    ),
}
_CLOSEST = {
    (False, False): N_(
        "the {unit} has no leader; the {target} ({away}) is the closest of its {candidates} candidates"
    ),
    (False, True): N_(
        "the {unit} has no leader; the {target} ({away}) are the closest of its {candidates} candidates"
    ),
    (True, False): N_(
        "the {unit} have no leader; the {target} ({away}) is the closest of their {candidates} candidates"
    ),
    (True, True): N_(
        "the {unit} have no leader; the {target} ({away}) are the closest of their {candidates} candidates"
    ),
}


def _allowed(record: Allowed) -> str:
    """Why Target Priority allows the target (core/target_selection.md#target-priority)."""
    values: dict[str, object] = {"unit": record.unit, "target": record.target}
    plural, target_plural = is_plural(record.unit), is_plural(record.target)
    if record.leader:
        return _(_LEADER_SEES[target_plural], leader=record.leader, **values)
    if record.named:
        return _(_NAMED[plural], command=command_name(record.named), **values)
    values["away"] = _('{inches}" away', inches=decimal(round(record.inches, 3)))
    if record.tied:
        others = _(", ").join(_("the {unit}", unit=unit) for unit in record.tied)
        return _(_TIED[plural], others=others, **values)
    if record.candidates == 1:
        return _(_ONLY[(plural, target_plural)], **values)
    return _(_CLOSEST[(plural, target_plural)], candidates=record.candidates, **values)


def _cite(text: str, rule: str, indent: int = 2) -> list[str]:
    """``text`` and its rule, wrapped. A line that starts a sentence starts with a capital: in English
    one opening with ``_SENTENCE_OPENERS``, in a translation one opening with a word of its own alphabet
    (a line opening with a model id, in Latin letters, does not)."""
    if text.partition(" ")[0] in _SENTENCE_OPENERS if current() == SOURCE else not text[:1].isascii():
        text = text[0].upper() + text[1:]
    pad = " " * indent
    body = textwrap.wrap(
        f"{text}  [{cite(rule)}]",
        _WIDTH,
        initial_indent=pad,
        subsequent_indent=pad + "  ",
        break_on_hyphens=False,
        break_long_words=False,
    )
    return body or [pad]


def _header(scenario: Scenario) -> list[str]:
    lines = [_("Scenario: {path}", path=scenario.path or "<scenario>")]
    if scenario.description:
        text = " ".join(scenario.description.split())
        lines += textwrap.wrap(text, _WIDTH, initial_indent="  ", subsequent_indent="  ")
    return lines


def render(scenario: Scenario, resolution: Resolution) -> str:
    """The account of a resolved scenario: its steps, each attack's and target's outcome, the casualties."""
    result = resolution.to_json()
    lines = _header(scenario)
    lines += ["", _("Step by step")]
    for heading, body in steps(resolution):
        if heading is not None:
            lines += ["", *_cite(heading.text, heading.rule, 0)]
        for line in body:
            lines += _cite(line.text, line.rule)
    lines += ["", _("Outcome")]
    firefight = len(result.get("attacks", [])) > 1
    for attack in result.get("attacks", []):
        lines += _attack(attack, firefight)
    lines += _casualties(result.get("casualties", []))
    lines += ["", _("Final state")]
    for model, state in result.get("models", {}).items():
        statuses = _(", ").join(_status(s) for s in state.get("status", [])) or _("no status")
        left = n_(
            "{model}: {n} wound left, {statuses}",
            "{model}: {n} wounds left, {statuses}",
            int(state.get("wounds", 0)),
            model=model,
            statuses=statuses,
        )
        lines += _cite(left, "core/damage.md#wounds")
    return "\n".join(lines) + "\n"


# The statuses as the final state names them (their values in the JSON stay as they are).
_STATUSES = {
    "pinned": N_("pinned"),
    "immobilised": N_("immobilised"),
    "abandoned": N_("abandoned"),
    "shaken": N_("shaken"),
    "fleeing": N_("fleeing"),
    "engaged": N_("engaged"),
}


def _status(status: str) -> str:
    return _(_STATUSES[status]) if status in _STATUSES else status


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
    quiet: set[int] = set()  # the headings that say nothing happens at their step

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
            if isinstance(record, CriticalsFirst) and not _context(records, number).criticals:
                quiet.add(id(line))
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
    return _no_empty_headings(
        [section for section in sections if section[0] is not None or section[1]], quiet
    )


def _no_empty_headings(sections: list[Section], quiet: set[int]) -> list[Section]:
    """No heading stands without lines under it. A heading that says nothing happens at its step (a unit
    with no Critical Lock to resolve) becomes the last line of the step before; any other heading with
    nothing under it introduces the next step: it heads that step, whose own heading becomes its first
    line (``The rangers resolve their Critical Locks`` over ``1 Critical Lock at the raiders is
    allocated``). ``quiet``: the ``id`` of each heading that says nothing happens."""
    result: list[Section] = []
    carried: Line | None = None
    for heading, body in sections:
        if carried is not None:
            body = ([heading] if heading is not None else []) + body
            heading, carried = carried, None
        if heading is not None and not body:
            if id(heading) in quiet and result:
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
    unit = str(attack.get("unit"))
    targets = attack.get("targets", [])
    if command == Command.ASSAULT.value and not any(target.get("fired") for target in targets):
        # commands/command_assault.md#assault: an Assault that does not shoot makes no shooting attack
        lines = _cite(_("Assault by the {unit}: no shooting attack", unit=unit), rule, 0)
    elif firefight and attack.get("initiative"):
        text = _(
            "Attack by the {unit}: {command} with the Initiative", unit=unit, command=command_name(command)
        )
        lines = _cite(text, rule, 0)
    else:
        lines = _cite(_("Attack by the {unit}: {command}", unit=unit, command=command_name(command)), rule, 0)
    for number, target in enumerate(targets, start=1):
        unit = str(target.get("unit"))
        lines += _cite(
            _("Target {number}: the {unit}", number=number, unit=unit), "core/shooting.md#shooting-resolution"
        )
        leadership = target.get("leadership")
        if leadership:
            dice = leadership.get("dice", [])
            total = " + ".join(str(d) for d in dice)
            if leadership.get("passed"):
                text = _("Leadership Check {dice} = {total}: passed", dice=total, total=sum(dice))
            elif is_plural(unit):
                text = _(
                    "Leadership Check {dice} = {total}: failed: the weapons declared against them do not "
                    "fire",
                    dice=total,
                    total=sum(dice),
                )
            else:
                text = _(
                    "Leadership Check {dice} = {total}: failed: the weapons declared against it do not fire",
                    dice=total,
                    total=sum(dice),
                )
            lines += _cite(text, "core/leadership.md#leadership-check", 4)
        # commands/command_assault.md#assault: an Assault goes ahead even when it may not shoot
        if not target.get("fired") and command == Command.ASSAULT.value:
            text = _("no die was rolled: the Assault goes ahead without shooting, and melee follows")
            lines += _cite(text, rule, 4)
            continue
        if not target.get("fired"):
            lines += _cite(_("no die was rolled at this target"), "core/shooting.md#which-weapons-fire", 4)
            continue
        lines += _cite(
            _successes(int(target.get("successes", 0)), int(target.get("criticals", 0))),
            "core/target_lock.md#critical-lock",
            4,
        )
        for hit in target.get("allocation", []):
            critical = bool(hit.get("critical"))
            rule = "core/critical_damage.md#critical-damage" if critical else "core/damage.md#damage"
            weapon = hit.get("weapon")
            if hit.get("model") is None:
                if critical:
                    text = _("a Critical Lock of {weapon} is lost: no valid model", weapon=weapon)
                else:
                    text = _("a success of {weapon} is lost: no valid model", weapon=weapon)
                lines += _cite(text, "core/allocation.md#lost-successes", 4)
            else:
                values = {"model": hit.get("model"), "weapon": weapon}
                wounds = int(hit.get("wounds", 0))
                if critical:
                    text = n_(
                        "{model} takes a Critical Lock of {weapon}: {n} wound lost",
                        "{model} takes a Critical Lock of {weapon}: {n} wounds lost",
                        wounds,
                        **values,
                    )
                else:
                    text = n_(
                        "{model} takes a success of {weapon}: {n} wound lost",
                        "{model} takes a success of {weapon}: {n} wounds lost",
                        wounds,
                        **values,
                    )
                lines += _cite(text, rule, 4)
    return lines


def _successes(successes: int, criticals: int) -> str:
    """How many dice succeeded at a target and how many of those were Critical Locks."""
    if not successes:
        return _("no die succeeded")
    if successes == 1:
        return (
            _("1 successful die, a Critical Lock")
            if criticals
            else _("1 successful die, not a Critical Lock")
        )
    if not criticals:
        return n_(
            "{n} successful die, none of them a Critical Lock",
            "{n} successful dice, none of them a Critical Lock",
            successes,
        )
    if criticals == successes:
        return n_(
            "{n} successful die, all of them Critical Locks",
            "{n} successful dice, all of them Critical Locks",
            successes,
        )
    if criticals == 1:
        return n_(
            "{n} successful die, 1 of them a Critical Lock",
            "{n} successful dice, 1 of them a Critical Lock",
            successes,
        )
    return n_(
        "{n} successful die, {criticals} of them Critical Locks",
        "{n} successful dice, {criticals} of them Critical Locks",
        successes,
        criticals=criticals,
    )


def _casualties(casualties: list[Mapping[str, Any]]) -> list[str]:
    lines = ["", _("Casualties")]
    if not casualties:
        return lines + _cite(_("none: no model was brought to 0 wounds"), "core/damage.md#casualty")
    for casualty in casualties:
        removed = Removal(str(casualty.get("removed")))
        values = {"model": casualty.get("model"), "when": _(_WHEN[removed])}
        if removed is Removal.IMMEDIATE:
            text = _("{model} is a casualty, removed {when} (a Critical Damage casualty)", **values)
        else:
            text = _("{model} is a casualty, removed {when}", **values)
        lines += _cite(text, "timing/firefight.md#removal-timing")
    return lines


def describe_declaration(scenario: Scenario) -> str:
    """The declaration in one sentence, such as ``the rangers declare Shoot at the drones, marking d1``."""
    attack = scenario.attack
    parts = []
    for target in attack.targets:
        fire = ""
        if target.models is not None:
            models = _(", ").join(target.models) or _("no models")
            fire += _(" with {models}", models=models)
        if target.weapons is not None:
            pairs = _(", ").join(f"{m}/{w}" for m, w in target.weapons)
            fire += _(" and {weapons}", weapons=pairs) if fire else _(" with {weapons}", weapons=pairs)
        parts.append(_("the {unit}{fire}, marking {mark}", unit=target.unit, fire=fire, mark=target.mark))
    text = _agree(
        attack.unit,
        N_("the {unit} declares {command} at {targets}"),
        N_("the {unit} declare {command} at {targets}"),
        command=command_name(attack.command.value),
        targets=_("; then at ").join(parts),
    )
    if scenario.response is not None:
        response = command_name(scenario.response.command.value)
        text += _("; the response is {command} marking {mark}", command=response, mark=scenario.response.mark)
    return text


def render_illegal(scenario: Scenario, error: IllegalDeclaration) -> str:
    """What was declared, which rule forbids it and the file that owns that rule; nothing was rolled."""
    owner = error.rule.partition("#")[0]
    lines = _header(scenario)
    lines += [
        "",
        _("Illegal declaration: nothing was rolled"),
        *_cite(
            _("Declared: {declaration}", declaration=describe_declaration(scenario)),
            "sequences/shooting_sequence.md#step-declare",
        ),
        *_cite(_("Forbidden: {message}", message=error.message), error.rule),
        "  " + _("The rule is owned by {owner}: see {rule}", owner=owner, rule=cite(error.rule)),
    ]
    if error.response:
        lines += _cite(
            _("The response is refused, not the attack: its rule is {rule}", rule=cite(error.response)),
            error.response,
        )
    return "\n".join(lines) + "\n"
