"""From the located tree to the frozen ``rulespy.state.Scenario``, checking every name and id.

Form only: a well-formed scenario may still declare an illegal attack, which the engine refuses later
(exit 1). Everything here is malformed input (exit 2) with the line of the offending key or value.
"""

from __future__ import annotations

from rulespy.core.ranged_weapons import TRAITS, Trait, Weapon
from rulespy.errors import InvalidInput
from rulespy.scenario import schema as s
from rulespy.scenario.declaration import Ids, attack_of, response_of
from rulespy.scenario.yamlnodes import Map, Node, Scalar, plain
from rulespy.state import (
    Battlefield,
    Cover,
    Model,
    ModelStatus,
    Scenario,
    Terrain,
    TerrainKind,
    Unit,
    UnitStatus,
)

MAX_MODELS = 5_000
"""The most models a scenario may hold (within ``rulespy.yamlbudget.MAX_NODES``, so this limit speaks)."""
MAX_TOTAL_DICE = 10_000
"""The most Target Lock dice all the scenario's models together may carry (one volley of each weapon)."""

WEAPON_TRAITS = tuple(t.written for t in TRAITS)
UNIT_TRAITS = ("swarm",)


def build(root: Node, path: str) -> Scenario:
    """The scenario the tree describes; raises InvalidInput for anything malformed."""
    top = s.Fields(root, "the scenario", path, s.TOP_KEYS, required=("units", "attack"))
    weapons = _weapons(top) if top.has("weapons") else {}
    ids = Ids()
    units = _units(top, weapons, ids)
    terrain = _terrain(top) if top.has("terrain") else ()
    attack = attack_of(top, ids)
    response = response_of(top, attack, ids) if top.has("response") else None
    dice, seed, dice_line = _dice(top)
    description = top.text("description") if top.has("description") else None
    expect = plain(top.node("expect")) if top.has("expect") else None
    return Scenario(
        battlefield=Battlefield(tuple(weapons.values()), units, terrain),
        attack=attack,
        response=response,
        dice=dice,
        seed=seed,
        description=description,
        expect=expect,
        path=path,
        dice_line=dice_line,
    )


def _weapons(top: s.Fields) -> dict[str, Weapon]:
    table = s.expect_map(top.node("weapons"), "'weapons' (weapon name: profile)", top.path)
    weapons: dict[str, Weapon] = {}
    for name, entry in table.entries.items():
        what = f"weapon {name!r}"
        f = s.Fields(entry.value, what, top.path, s.WEAPON_KEYS, required=("range", "dice", "lock", "damage"))
        traits = _weapon_traits(f) if f.has("traits") else {}
        weapons[name] = Weapon(
            name=name,
            range=f.number("range", 0.0, 0.0, s.MAX_COORDINATE, low_open=True),
            dice=f.integer("dice", 1, 1, s.MAX_DICE),
            lock=f.integer("lock", 4, 2, 6),
            damage=f.integer("damage", 1, 1, s.MAX_WOUNDS),
            **traits,  # type: ignore[arg-type]
        )
    return weapons


def _weapon_traits(f: s.Fields) -> dict[str, object]:
    traits: dict[str, object] = {}
    for item in f.seq("traits").items:
        text = " ".join(s.text_of(item, f"a trait of {f.what}", f.path).split())
        trait, value = _trait(text, item, f)
        if trait.field in traits:
            raise InvalidInput(f"{f.what} has the trait {text!r} more than once", item.line, f.path)
        traits[trait.field] = value
    return traits


def _trait(text: str, item: Node, f: s.Fields) -> tuple[Trait, object]:
    """The trait ``text`` names (``TRAITS``) and the value it gives its field."""
    word, _, raw = text.rpartition(" ")
    for trait in TRAITS:
        if trait.number is None and text == trait.written:
            return trait, True
        if trait.number is not None and word == trait.word:
            return trait, _trait_number(raw, item, f, trait)
    raise InvalidInput(
        f"unknown trait {text!r} of {f.what}{s.suggest(text, WEAPON_TRAITS)}; "
        f"known traits: {', '.join(WEAPON_TRAITS)}",
        item.line,
        f.path,
    )


def _trait_number(raw: str, item: Node, f: s.Fields, trait: Trait) -> float | int:
    what = f"N of {trait.written!r} on {f.what}"
    integer = trait.number is int
    try:
        node = Scalar(int(raw) if integer else float(raw), item.line)
    except ValueError:
        kind = "a whole number" if integer else "a number"
        raise InvalidInput(f"{what} must be {kind}, not {raw!r}", item.line, f.path) from None
    low = trait.low if trait.low is not None else 0.0
    high = trait.high if trait.high is not None else s.MAX_COORDINATE
    if integer:
        return s.integer_of(node, what, f.path, int(low), int(high))
    return s.number_of(node, what, f.path, low, high)


def _new_id(node: Node, what: str, f: s.Fields, ids: Ids) -> str:
    name = s.text_of(node, what, f.path)
    if name in ids.lines:
        raise InvalidInput(
            f"duplicate id {name!r}: ids of units and models are unique (first on line {ids.lines[name]})",
            node.line,
            f.path,
        )
    ids.lines[name] = node.line
    return name


def _units(top: s.Fields, weapons: dict[str, Weapon], ids: Ids) -> tuple[Unit, ...]:
    units: list[Unit] = []
    items = top.seq("units").items
    if not items:
        raise InvalidInput("'units' is empty: a scenario needs its units", top.key_line("units"), top.path)
    count = 0
    for item in items:
        f = s.Fields(item, "a unit", top.path, s.UNIT_KEYS, required=("id", "side", "models"))
        unit_id = _new_id(f.node("id"), "the id of a unit", f, ids)
        f.what = f"unit {unit_id!r}"
        traits = [name for name, _ in _choices(f, "traits", UNIT_TRAITS, "unit trait")]
        status = [
            UnitStatus(name) for name, _ in _choices(f, "status", [u.value for u in UnitStatus], "status")
        ]
        model_nodes = f.seq("models").items
        if not model_nodes:
            raise InvalidInput(f"{f.what} has no models", f.key_line("models"), f.path)
        count += len(model_nodes)
        if count > MAX_MODELS:
            raise InvalidInput(
                f"the scenario has more than {MAX_MODELS:,} models", f.key_line("models"), f.path
            )
        models = tuple(_model(node, unit_id, weapons, ids, f.path) for node in model_nodes)
        _one_leader(unit_id, models, model_nodes, f.path)
        units.append(Unit(unit_id, f.text("side"), models, frozenset(traits), frozenset(status)))
    largest = max((len(unit.models) for unit in units), default=0)  # a weapon's dice at the largest target
    total = sum(weapons[w].dice_at(largest) for unit in units for model in unit.models for w in model.weapons)
    if total > MAX_TOTAL_DICE:
        raise InvalidInput(
            f"the models carry {total:,} Target Lock dice in all; at most {MAX_TOTAL_DICE:,} are supported",
            top.key_line("units"),
            top.path,
        )
    return tuple(units)


def _one_leader(unit_id: str, models: tuple[Model, ...], nodes: tuple[Node, ...], path: str) -> None:
    leaders = [(model, node) for model, node in zip(models, nodes, strict=True) if model.leader]
    if len(leaders) > 1:
        (first, _), (second, node) = leaders[0], leaders[1]
        assert isinstance(node, Map)
        raise InvalidInput(
            f"unit {unit_id!r} has two leaders, {first.id!r} and {second.id!r}: at most one is allowed",
            node.entries["leader"].key_line,
            path,
        )


def _choices(f: s.Fields, key: str, choices: list[str] | tuple[str, ...], what: str) -> list[tuple[str, int]]:
    found = f.names(key, what)
    for name, line in found:
        if name not in choices:
            hint = _status_hint(name)
            raise InvalidInput(
                f"unknown {what} {name!r} in {f.label(key)}{s.suggest(name, choices)}{hint}; "
                f"allowed: {', '.join(choices) or 'none'}",
                line,
                f.path,
            )
    return found


def _status_hint(name: str) -> str:
    if name == "engaged":
        return " (Engaged is found from positions, never declared)"
    if name in (u.value for u in UnitStatus):
        return f" ({name} is a unit status: give it in the unit's 'status')"
    if name in (m.value for m in ModelStatus):
        return f" ({name} is a model status: give it in the model's 'status')"
    return ""


def _model(node: Node, unit_id: str, weapons: dict[str, Weapon], ids: Ids, path: str) -> Model:
    f = s.Fields(node, f"a model of unit {unit_id!r}", path, s.MODEL_KEYS, required=("id", "at"))
    model_id = _new_id(f.node("id"), "the id of a model", f, ids)
    if "/" in model_id:
        raise InvalidInput(f"model id {model_id!r} must not contain '/'", f.node("id").line, path)
    ids.unit_of[model_id] = unit_id
    ids.models_of.setdefault(unit_id, []).append(model_id)
    f.what = f"model {model_id!r}"
    carried = f.names("weapons", "weapon")
    for name, line in carried:
        if name not in weapons:
            raise InvalidInput(
                f"unknown weapon {name!r} carried by {f.what}{s.suggest(name, weapons)}", line, path
            )
    ids.carried[model_id] = tuple(name for name, _ in carried)
    statuses = _choices(f, "status", [m.value for m in ModelStatus], "status")
    cover = Cover[f.choice("cover", ("none", "light", "heavy")).upper()] if f.has("cover") else None
    arc = f.number("arc", 360.0, 0.0, 360.0, low_open=True) if f.has("arc") else None
    return Model(
        id=model_id,
        at=s.point_of(f.node("at"), f.label("at"), path),
        base=f.number("base", 1.0, 0.0, s.MAX_COORDINATE, low_open=True),
        ld=f.integer("ld", 7, 2, 12),
        wounds=f.integer("wounds", 1, 1, s.MAX_WOUNDS),
        armour=f.integer("armour", 0, 0, 3),
        leader=f.boolean("leader", False),
        weapons=tuple(name for name, _ in carried),
        status=frozenset(ModelStatus(name) for name, _ in statuses),
        facing=f.number("facing", 0.0, -s.MAX_COORDINATE, s.MAX_COORDINATE),
        arc=arc,
        cover=cover,
        holds_fire=f.boolean("holds_fire", False),
    )


def _terrain(top: s.Fields) -> tuple[Terrain, ...]:
    pieces = []
    for item in top.seq("terrain").items:
        f = s.Fields(item, "a terrain piece", top.path, s.TERRAIN_KEYS, required=("kind", "polygon"))
        kind = TerrainKind(f.choice("kind", [k.value for k in TerrainKind]))
        corners = f.seq("polygon").items
        if len(corners) < 3:
            raise InvalidInput(
                f"the polygon of a terrain piece needs at least 3 points, not {len(corners)}",
                f.node("polygon").line,
                top.path,
            )
        polygon = tuple(s.point_of(c, "a corner of a terrain polygon", top.path) for c in corners)
        pieces.append(Terrain(kind, polygon))
    return tuple(pieces)


def _dice(top: s.Fields) -> tuple[tuple[int, ...] | None, int | None, int | None]:
    dice = seed = line = None
    if top.has("dice"):
        line = top.key_line("dice")
        faces = []
        for item in top.seq("dice").items:
            value = item.value if isinstance(item, Scalar) else None
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInput(
                    f"a scripted die must be a whole number, not {s.kind(item)}", item.line, top.path
                )
            faces.append(value)
        dice = tuple(faces)
    if top.has("seed"):
        seed = s.integer_of(top.node("seed"), "'seed'", top.path, -(2**63), 2**63)
        line = line or top.key_line("seed")
    return dice, seed, line
