"""Hypothesis strategies for random battlefields and declarations, and a dice source drawn by Hypothesis.

The battlefields are small on purpose (one attacking unit, one to three enemy units, a few models each, a
few weapons) but every input the engine reads varies: positions on a half-inch grid (so boundaries such as
"exactly 12 inches" and "exactly the weapon's range" come up), bases, wounds, armour, leaders, statuses,
fire arcs, held fire, cover, terrain polygons of each kind, weapon profiles with every trait, the
command, Split Target by model or by weapon, the Marked Model and a Snap Fire response. Many drawn
declarations are illegal; the tests keep only the legal ones (``IllegalDeclaration`` -> ``assume``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

import yaml
from hypothesis import strategies as st

from rulespy.core.measuring import distance
from rulespy.core.ranged_weapons import Weapon
from rulespy.state import (
    AttackDeclaration,
    Battlefield,
    Command,
    Cover,
    Model,
    ModelStatus,
    ResponseDeclaration,
    Scenario,
    TargetDeclaration,
    Terrain,
    TerrainKind,
    Unit,
    UnitStatus,
)

ATTACKER = "A"
T = TypeVar("T")


class Source:
    """Where the choices come from: Hypothesis in the tests (so failures shrink), a seeded ``random.Random``
    in the bench (so 10,000 cases run in minutes). Subclasses give ``integer``; the rest is built on it."""

    def integer(self, low: int, high: int) -> int:
        raise NotImplementedError

    def pick(self, options: Sequence[T]) -> T:
        return options[self.integer(0, len(options) - 1)]

    def chance(self, n: int) -> bool:
        """True one time in ``n``."""
        return self.integer(0, n - 1) == 0

    def flag(self) -> bool:
        return self.integer(0, 1) == 1

    def shuffled(self, items: Sequence[T]) -> list[T]:
        rest, result = list(items), []
        while rest:
            result.append(rest.pop(self.integer(0, len(rest) - 1)))
        return result


class HypothesisSource(Source):
    def __init__(self, draw: Callable[[st.SearchStrategy[int]], int]) -> None:
        self._draw = draw

    def integer(self, low: int, high: int) -> int:
        return self._draw(st.integers(low, high))


class RandomSource(Source):
    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def integer(self, low: int, high: int) -> int:
        return self._rng.randint(low, high)


class SourceDice:
    """A dice source whose faces come from a ``Source`` one by one, as the engine asks for them.

    The faces are recorded in the order they were rolled, so the same attack can be replayed with
    ``ScriptedDice(faces)``, which then must be used up exactly.
    """

    def __init__(self, source: Source) -> None:
        self._source = source
        self.faces: list[int] = []

    def roll(self, count: int) -> tuple[int, ...]:
        faces = tuple(self._source.integer(1, 6) for _ in range(count))
        self.faces.extend(faces)
        return faces

    def finish(self) -> None:
        """These dice never run out and are never left over."""


def drawn_dice(data: st.DataObject) -> SourceDice:
    """Dice that Hypothesis draws (and shrinks) as the engine rolls them."""
    return SourceDice(HypothesisSource(data.draw))


RANGES = (6.0, 8.0, 12.0, 12.5, 18.0, 24.0, 24.0, 36.0)
CRITICALS = (6, 6, 6, 5, 4, 3)
MINIMUMS = (None, None, None, None, 1.0, 2.0, 4.0, 6.0, 8.0)
ARCS = (45.0, 90.0, 180.0, 270.0, 360.0)
FACINGS = (0.0, 0.0, 45.0, 90.0, 180.0, -90.0)
COVERS = (None, None, None, None, Cover.NONE, Cover.LIGHT, Cover.HEAVY)
BASES = (1.0, 1.0, 1.0, 0.5, 2.0)
P, IM, AB = ModelStatus.PINNED, ModelStatus.IMMOBILISED, ModelStatus.ABANDONED
STATUS_SETS: tuple[frozenset[ModelStatus], ...] = (frozenset(),) * 9 + tuple(
    frozenset(c) for c in ({P}, {P}, {IM}, {AB}, {P, IM}, {P, AB})
)
KINDS = (TerrainKind.LIGHT, TerrainKind.HEAVY, TerrainKind.BLOCKING)
COMMANDS = (Command.SHOOT, Command.SHOOT, Command.ADVANCE, Command.ASSAULT, Command.COVERING_FIRE)
UNIT_STATUSES: tuple[frozenset[UnitStatus], ...] = (frozenset(),) * 14 + (
    frozenset({UnitStatus.SHAKEN}),
    frozenset({UnitStatus.FLEEING}),
)


def make_weapons(src: Source) -> tuple[Weapon, ...]:
    return tuple(
        Weapon(
            name=f"w{i}",
            range=src.pick(RANGES),
            dice=src.integer(1, 3),
            lock=src.integer(2, 6),
            damage=src.integer(1, 4),
            assault=src.flag(),
            heavy=src.chance(5),
            pinning=src.chance(4),
            precise=src.chance(4),
            critical=src.pick(CRITICALS),
            minimum_range=src.pick(MINIMUMS),
        )
        for i in range(src.integer(1, 4))
    )


def make_model(
    src: Source, model_id: str, xs: tuple[int, int], arms: tuple[Weapon, ...], leader: bool
) -> Model:
    """A model on a half-inch grid, so that boundaries (exactly in range, exactly 12") come up often."""
    x = src.integer(xs[0] * 2, xs[1] * 2) / 2
    y = src.integer(-20, 20) / 2
    names = [w.name for w in arms]
    carried = [n for n in names if src.flag()] or [src.pick(names)]
    if src.chance(8):
        carried = []
    arc, facing = None, 0.0
    if src.chance(6):
        arc, facing = src.pick(ARCS), src.pick(FACINGS)
    return Model(
        id=model_id,
        at=(x, y),
        base=src.pick(BASES),
        ld=src.integer(2, 12),
        wounds=src.integer(1, 4),
        armour=src.integer(0, 3),
        leader=leader,
        weapons=tuple(carried),
        status=src.pick(STATUS_SETS),
        facing=facing,
        arc=arc,
        cover=src.pick(COVERS),
        holds_fire=src.chance(12),
    )


def make_unit(
    src: Source, unit_id: str, side: str, xs: tuple[int, int], arms: tuple[Weapon, ...], lead: int
) -> Unit:
    """A unit of 1-4 models; it has a leader unless a one-in-``lead`` chance says otherwise."""
    size = src.integer(1, 4)
    leader = None if src.chance(lead) else src.integer(0, size - 1)
    models = tuple(make_model(src, f"{unit_id.lower()}{i}", xs, arms, leader == i) for i in range(size))
    traits = frozenset({"swarm"}) if src.chance(6) else frozenset()
    return Unit(unit_id, side, models, traits, src.pick(UNIT_STATUSES))


def make_terrain(src: Source) -> tuple[Terrain, ...]:
    pieces = []
    for _ in range(src.integer(0, 3)):
        x0, y0 = src.integer(-4, 26), src.integer(-12, 10)
        w, h = src.integer(1, 8), src.integer(1, 8)
        corners: tuple[tuple[int, int], ...] = ((x0, y0), (x0 + w, y0), (x0 + w, y0 + h), (x0, y0 + h))
        if src.flag():
            corners = corners[:3]  # a triangle
        pieces.append(Terrain(src.pick(KINDS), tuple((float(a), float(b)) for a, b in corners)))
    return tuple(pieces)


def make_battlefield(src: Source) -> Battlefield:
    arms = make_weapons(src)
    shooter = make_unit(src, ATTACKER, "blue", (-2, 6), arms, lead=3)
    if shooter.status and not src.chance(10):
        shooter = replace(shooter, status=frozenset())  # a Shaken or Fleeing shooter is always illegal
    enemies = [make_unit(src, f"T{i}", "red", (3, 24), arms, lead=2) for i in range(src.integer(1, 3))]
    others = [make_unit(src, "F", "blue", (0, 20), arms, lead=2)] if src.chance(6) else []
    return Battlefield(arms, (shooter, *enemies, *others), make_terrain(src))


def make_declaration(src: Source, bf: Battlefield) -> tuple[AttackDeclaration, ResponseDeclaration | None]:
    shooter = bf.unit(ATTACKER)
    command = src.pick(COMMANDS)
    order = src.shuffled([u for u in bf.units if u.side != shooter.side])
    count = 1
    may_split = (
        shooter.leader is not None and not shooter.swarm and command in (Command.SHOOT, Command.ADVANCE)
    )
    if len(order) > 1 and may_split and src.chance(2):
        count = src.integer(2, len(order))
    chosen = order[:count]
    # A mark must be a valid model for a weapon that fires (brief ruling R1), which a random model of a
    # far-flung unit seldom is: half the time mark the model nearest the shooting unit instead.
    marks = [(src.pick(u.models) if src.flag() else _nearest(shooter, u)).id for u in chosen]
    if count == 1:
        targets: tuple[TargetDeclaration, ...] = (TargetDeclaration(chosen[0].id, marks[0]),)
    else:
        targets = _split(src, shooter, chosen, marks)
    response = None
    if command is not Command.COVERING_FIRE and src.chance(3):
        response = ResponseDeclaration(Command.SNAP_FIRE, src.pick(shooter.models).id)
    return AttackDeclaration(ATTACKER, command, targets), response


def _nearest(shooter: Unit, target: Unit) -> Model:
    return min(target.models, key=lambda t: min(distance(m, t) for m in shooter.models))


def _split(src: Source, shooter: Unit, chosen: list[Unit], marks: list[str]) -> tuple[TargetDeclaration, ...]:
    """Each (model, weapon) pair goes to one target; a target lists whole models or single weapons, and
    one target may take "everything not declared elsewhere"."""
    last = len(chosen) - 1
    pairs: list[list[tuple[str, str]]] = [[] for _ in chosen]
    whole: list[list[str]] = [[] for _ in chosen]
    for m in shooter.models:
        if not m.weapons:
            continue
        if src.flag():
            whole[src.integer(0, last)].append(m.id)
            continue
        for w in m.weapons:
            pairs[src.integer(0, last)].append((m.id, w))
    rest = src.integer(-1, last)
    result = []
    for i, (u, mark) in enumerate(zip(chosen, marks, strict=True)):
        if i == rest:
            result.append(TargetDeclaration(u.id, mark))
            continue
        models = tuple(whole[i]) or None
        listed = tuple(pairs[i]) if pairs[i] or models is None else None
        result.append(TargetDeclaration(u.id, mark, models, listed))
    return tuple(result)


def make_scenario(src: Source) -> Scenario:
    bf = make_battlefield(src)
    attack, response = make_declaration(src, bf)
    return Scenario(bf, attack, response)


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    return make_scenario(HypothesisSource(draw))


def scenario_yaml(scenario: Scenario, dice: tuple[int, ...] | list[int] | None = None) -> str:
    """The scenario in the contract's file format, so that a failing case can be run with ``rulespy``."""
    bf = scenario.battlefield
    doc: dict[str, Any] = {
        "weapons": {
            w.name: {
                "range": w.range,
                "dice": w.dice,
                "lock": w.lock,
                "damage": w.damage,
                "traits": list(w.traits),
            }
            for w in bf.weapons
        },
        "units": [_unit_doc(u) for u in bf.units],
    }
    if bf.terrain:
        doc["terrain"] = [{"kind": t.kind.value, "polygon": [list(p) for p in t.polygon]} for t in bf.terrain]
    targets = []
    for t in scenario.attack.targets:
        entry: dict[str, Any] = {"unit": t.unit, "mark": t.mark}
        if t.models is not None:
            entry["models"] = list(t.models)
        if t.weapons is not None:
            entry["weapons"] = [f"{m}/{w}" for m, w in t.weapons]
        targets.append(entry)
    doc["attack"] = {
        "unit": scenario.attack.unit,
        "command": scenario.attack.command.value,
        "targets": targets,
    }
    if scenario.response is not None:
        doc["response"] = {"command": scenario.response.command.value, "mark": scenario.response.mark}
    if dice is not None:
        doc["dice"] = list(dice)
    return yaml.safe_dump(doc, sort_keys=False, default_flow_style=None, width=200)


def _unit_doc(u: Unit) -> dict[str, Any]:
    models = []
    for m in u.models:
        entry: dict[str, Any] = {"id": m.id, "at": list(m.at)}
        defaults = Model(m.id, m.at)
        for key in ("base", "ld", "wounds", "armour", "leader", "facing", "arc", "holds_fire"):
            if getattr(m, key) != getattr(defaults, key):
                entry[key] = getattr(m, key)
        if m.weapons:
            entry["weapons"] = list(m.weapons)
        if m.status:
            entry["status"] = sorted(s.value for s in m.status)
        if m.cover is not None:
            entry["cover"] = m.cover.name.lower()
        models.append(entry)
    doc: dict[str, Any] = {"id": u.id, "side": u.side, "models": models}
    if u.traits:
        doc["traits"] = sorted(u.traits)
    if u.status:
        doc["status"] = sorted(s.value for s in u.status)
    return doc
