"""The declaration part of a scenario: the attack, its targets and the response, with every name checked.

A mark must be a model of its target's unit; the models and ``MODEL/WEAPON`` pairs of a split must belong
to the attacking unit (and the weapon to the model); each weapon is declared at one target at most; at
most one target takes every weapon not declared elsewhere; a response marks a model of the attacker.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulespy.commands import attack_commands, response_commands
from rulespy.errors import InvalidInput
from rulespy.scenario import schema as s
from rulespy.scenario.yamlnodes import Map, Node, Scalar
from rulespy.state import AttackDeclaration, Command, ResponseDeclaration, TargetDeclaration

ATTACK_COMMANDS = attack_commands()
"""The commands an attack may be declared with, read from the commands' own rules (the site's list). The
loader asks ``attack_commands()`` and ``response_commands()`` again at each load (five commands: nothing
to save), so that ``make mutants`` sees what they decide: a value worked out at import is out of reach of
mutmut's mutants, which are switched in after the import."""
RESPONSE_COMMANDS = response_commands()
"""The commands the response to the attack may be declared with (Snap Fire)."""


@dataclass
class Ids:
    """Every unit and model id seen so far, with its line, and which unit each model belongs to."""

    lines: dict[str, int] = field(default_factory=dict)
    unit_of: dict[str, str] = field(default_factory=dict)
    models_of: dict[str, list[str]] = field(default_factory=dict)
    carried: dict[str, tuple[str, ...]] = field(default_factory=dict)


def _unit_ref(node: Node, what: str, f: s.Fields, ids: Ids) -> str:
    name = s.text_of(node, what, f.path)
    if name not in ids.models_of:
        hint = f" ({name!r} is a model of unit {ids.unit_of[name]!r})" if name in ids.unit_of else ""
        raise InvalidInput(
            f"unknown unit {name!r} in {what}{s.suggest(name, ids.models_of)}{hint}", node.line, f.path
        )
    return name


def _model_ref(node: Node, what: str, unit_id: str, f: s.Fields, ids: Ids) -> str:
    name = s.text_of(node, what, f.path)
    if ids.unit_of.get(name) != unit_id:
        own = ids.models_of[unit_id]
        where = f" ({name!r} is a model of unit {ids.unit_of[name]!r})" if name in ids.unit_of else ""
        raise InvalidInput(
            f"{name!r} ({what}) is not a model of unit {unit_id!r}{s.suggest(name, own)}{where}",
            node.line,
            f.path,
        )
    return name


def attack_of(top: s.Fields, ids: Ids) -> AttackDeclaration:
    f = s.Fields(
        top.node("attack"), "the attack", top.path, s.ATTACK_KEYS, required=("unit", "command", "targets")
    )
    unit_id = _unit_ref(f.node("unit"), "the attacking unit", f, ids)
    command_node = f.node("command")
    if isinstance(command_node, Scalar) and command_node.value in response_commands():
        raise InvalidInput(
            f"{command_node.value} is a responding command: declare it under 'response', not as the attack",
            command_node.line,
            f.path,
        )
    command = Command(f.choice("command", attack_commands()))
    items = f.seq("targets").items
    if not items:
        raise InvalidInput("the attack declares no targets", f.node("targets").line, f.path)
    declared: dict[str, tuple[int, int]] = {}  # "model" or "model/weapon" -> (target number, line)
    target_units: dict[str, tuple[int, int]] = {}  # unit id -> (target number, line)
    open_target: int | None = None
    targets = []
    for number, item in enumerate(items, start=1):
        target = _target(item, number, unit_id, f, ids, declared)
        if target.models is None and target.weapons is None:
            if open_target is not None:
                raise InvalidInput(
                    f"targets {open_target} and {number} both leave out 'models' and 'weapons': "
                    "at most one target may take every weapon not declared elsewhere",
                    item.line,
                    f.path,
                )
            open_target = number
        _once(target.unit, number, item, target_units, f.path)
        targets.append(target)
    return AttackDeclaration(unit_id, command, tuple(targets))


def _target(
    node: Node, number: int, attacker: str, attack: s.Fields, ids: Ids, declared: dict[str, tuple[int, int]]
) -> TargetDeclaration:
    path = attack.path
    f = s.Fields(node, f"target {number}", path, s.TARGET_KEYS, required=("unit", "mark"))
    unit_id = _unit_ref(f.node("unit"), f"the unit of target {number}", f, ids)
    mark = _model_ref(f.node("mark"), f"the mark of target {number}", unit_id, f, ids)
    models = weapons = None
    if f.has("models"):
        models = []
        for item in f.seq("models").items:
            model = _model_ref(item, f"a model firing at target {number}", attacker, f, ids)
            _declare(model, number, item.line, declared, path)
            models.append(model)
    if f.has("weapons"):
        weapons = []
        for item in f.seq("weapons").items:
            pair = s.text_of(item, f"a weapon firing at target {number}", path)
            model_id, slash, weapon = pair.partition("/")
            if not slash:
                raise InvalidInput(
                    f"a weapon firing at target {number} is written MODEL/WEAPON, such as r2/lance, "
                    f"not {pair!r}",
                    item.line,
                    path,
                )
            _model_ref(Scalar(model_id, item.line), f"the model of {pair!r}", attacker, f, ids)
            _check_carried(model_id, weapon, item.line, ids, path)
            _declare(model_id, number, item.line, declared, path, weapon)
            weapons.append((model_id, weapon))
    return TargetDeclaration(
        unit_id,
        mark,
        tuple(models) if models is not None else None,
        tuple(weapons) if weapons is not None else None,
    )


SPLIT_TARGET = "Split Target, core/shooting.md#split-target"


def _once(unit_id: str, number: int, item: Node, seen: dict[str, tuple[int, int]], path: str) -> None:
    """Each target of a split is a different enemy unit: a unit declared twice is refused at the line of its
    second declaration (core/shooting.md#split-target)."""
    line = item.entries["unit"].value.line if isinstance(item, Map) and "unit" in item.entries else item.line
    if unit_id in seen:
        other, first_line = seen[unit_id]
        raise InvalidInput(
            f"unit {unit_id!r} is declared as target {number} and already as target {other} (line "
            f"{first_line}): each target of a split is a different unit ({SPLIT_TARGET})",
            line,
            path,
        )
    seen[unit_id] = (number, line)


def _check_carried(model_id: str, weapon: str, line: int, ids: Ids, path: str) -> None:
    carried = ids.carried[model_id]
    if weapon not in carried:
        raise InvalidInput(
            f"model {model_id!r} carries no weapon {weapon!r}{s.suggest(weapon, carried)}; "
            f"it carries: {', '.join(carried) or 'nothing'}",
            line,
            path,
        )


def _declare(
    model: str, number: int, line: int, declared: dict[str, tuple[int, int]], path: str, weapon: str = ""
) -> None:
    keys = [f"{model}/{weapon}", model] if weapon else [model]
    clashes = [declared[k] for k in keys if k in declared]
    if not weapon:
        clashes += [v for k, v in declared.items() if k.startswith(model + "/")]
    if clashes:
        other, first_line = clashes[0]
        what = f"{model}/{weapon}" if weapon else f"model {model!r}"
        raise InvalidInput(
            f"{what} is declared at target {other} (line {first_line}) and again at target {number}: "
            f"each weapon fires at one target only ({SPLIT_TARGET})",
            line,
            path,
        )
    declared[keys[0]] = (number, line)


def response_of(top: s.Fields, attack: AttackDeclaration, ids: Ids) -> ResponseDeclaration:
    f = s.Fields(
        top.node("response"), "the response", top.path, s.RESPONSE_KEYS, required=("command", "mark")
    )
    command = Command(f.choice("command", response_commands()))
    mark = _model_ref(f.node("mark"), "the mark of the response", attack.unit, f, ids)
    return ResponseDeclaration(command, mark)
