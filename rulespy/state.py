"""The battlefield as the rules see it: frozen data, never changed in place.

Positions are in inches. A rule step that changes the game returns new state plus the events it
caused; nothing here rolls dice or applies a rule.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import field, replace
from functools import cached_property
from typing import Any, TypeVar

from rulespy.core.ranged_weapons import Weapon
from rulespy.errors import InvalidInput
from rulespy.frozen import frozen


class Cover(enum.IntEnum):
    """Cover levels, ordered so that the higher one wins."""

    NONE = 0
    LIGHT = 1
    HEAVY = 2


class ModelStatus(enum.StrEnum):
    PINNED = "pinned"
    IMMOBILISED = "immobilised"
    ABANDONED = "abandoned"


class UnitStatus(enum.StrEnum):
    SHAKEN = "shaken"
    FLEEING = "fleeing"


class TerrainKind(enum.StrEnum):
    BLOCKING = "blocking"
    LIGHT = "light"
    HEAVY = "heavy"


class Command(enum.StrEnum):
    SHOOT = "shoot"
    ADVANCE = "advance"
    ASSAULT = "assault"
    COVERING_FIRE = "covering_fire"
    SNAP_FIRE = "snap_fire"

    @property
    def name_in_rules(self) -> str:
        """The command as the rules name it: ``Covering Fire``."""
        return self.value.replace("_", " ").title()


Point = tuple[float, float]
_T = TypeVar("_T")


@frozen
class Model:
    """One model in play: its position (the centre of its base, in inches), base diameter, Leadership,
    wounds, armour, whether it leads its unit, weapons carried in listed order, statuses, facing and
    fire arc (None: all round), cover, and whether it holds fire."""

    id: str
    at: Point
    base: float = 1.0
    ld: int = 7
    wounds: int = 1
    armour: int = 0
    leader: bool = False
    weapons: tuple[str, ...] = ()
    status: frozenset[ModelStatus] = frozenset()
    facing: float = 0.0
    arc: float | None = None
    cover: Cover | None = None
    holds_fire: bool = False

    @property
    def radius(self) -> float:
        return self.base / 2


@frozen
class Unit:
    """A unit of models in play on one side, in listed order (the unit order of allocation)."""

    id: str
    side: str
    models: tuple[Model, ...]
    traits: frozenset[str] = frozenset()
    status: frozenset[UnitStatus] = frozenset()

    @property
    def leader(self) -> Model | None:
        """The leader model while it is in play (a unit whose leader was removed is leaderless)."""
        return next((m for m in self.models if m.leader), None)

    @property
    def swarm(self) -> bool:
        return "swarm" in self.traits

    @cached_property
    def _by_id(self) -> dict[str, Model]:
        return {m.id: m for m in self.models}

    def model(self, model_id: str) -> Model:
        """The model ``model_id`` of this unit (``KeyError`` if it has none)."""
        return self._by_id[model_id]

    def has(self, model_id: str) -> bool:
        return model_id in self._by_id


@frozen
class Terrain:
    """A terrain piece: its kind (blocking, light or heavy cover) and its outline."""

    kind: TerrainKind
    polygon: tuple[Point, ...]


@frozen
class Battlefield:
    """Every unit in play, their weapons' profiles and the terrain."""

    weapons: tuple[Weapon, ...]
    units: tuple[Unit, ...]
    terrain: tuple[Terrain, ...] = ()

    # Look-up tables, each built once per battlefield (it never changes) when first asked.
    @cached_property
    def _weapons(self) -> dict[str, Weapon]:
        return {w.name: w for w in self.weapons}

    @cached_property
    def _units(self) -> dict[str, Unit]:
        return {u.id: u for u in self.units}

    @cached_property
    def _units_of(self) -> dict[str, Unit]:
        return {m.id: u for u in self.units for m in u.models}

    @cached_property
    def _models(self) -> dict[str, Model]:
        return {m.id: m for u in self.units for m in u.models}

    def weapon(self, name: str) -> Weapon:
        """The weapon profile ``name``; ``InvalidInput`` if there is none."""
        return _look_up(self._weapons, name, "weapon")

    def unit(self, unit_id: str) -> Unit:
        """The unit ``unit_id``; ``InvalidInput`` if none is in play."""
        return _look_up(self._units, unit_id, "unit")

    def unit_of(self, model_id: str) -> Unit:
        """The unit of the model ``model_id``; ``InvalidInput`` if the model is not in play."""
        return _look_up(self._units_of, model_id, "model")

    def model(self, model_id: str) -> Model:
        """The model ``model_id``; ``InvalidInput`` if it is not in play."""
        return _look_up(self._models, model_id, "model")

    @cached_property
    def _all_models(self) -> tuple[Model, ...]:
        return tuple(m for u in self.units for m in u.models)

    def models(self) -> Iterator[Model]:
        """Every model in play, unit by unit in listed order."""
        return iter(self._all_models)

    def enemies_of(self, unit: Unit) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side != unit.side)

    @cached_property
    def _enemy_models(self) -> dict[str, tuple[Model, ...]]:
        return {}

    def enemy_models(self, side: str) -> tuple[Model, ...]:
        """Every model in play of a side other than ``side``, unit by unit (worked out once per side)."""
        found = self._enemy_models.get(side)
        if found is None:
            found = tuple(m for u in self.units if u.side != side for m in u.models)
            self._enemy_models[side] = found
        return found

    def without(self, removed: frozenset[str]) -> Battlefield:
        """The battlefield once the models in ``removed`` have left play."""
        if not removed:
            return self
        units = tuple(
            replace(u, models=tuple(m for m in u.models if m.id not in removed)) for u in self.units
        )
        return replace(self, units=units)


def _look_up(table: dict[str, _T], key: str, what: str) -> _T:
    try:
        return table[key]
    except KeyError:
        raise InvalidInput(f"unknown {what} {key!r}") from None


@frozen
class TargetDeclaration:
    """One declared target. With neither ``models`` nor ``weapons`` it takes every weapon not declared
    elsewhere.

    ``weapons`` holds ``(model id, weapon name)`` pairs (written ``r2/lance`` in a scenario).
    """

    unit: str
    mark: str
    models: tuple[str, ...] | None = None
    weapons: tuple[tuple[str, str], ...] | None = None


@frozen
class AttackDeclaration:
    """A unit's declared shooting attack: its command and its targets in declared order."""

    unit: str
    command: Command
    targets: tuple[TargetDeclaration, ...]


@frozen
class ResponseDeclaration:
    """A responding command by the first target's unit (Snap Fire), shooting back at the attacker."""

    command: Command
    mark: str


@frozen
class Scenario:
    """A scenario as loaded: the battlefield, the attack, its response if any, the dice (scripted, or a
    seed), its description and, not compared (two equal games from two files are equal), its expected
    outcome and, for messages, where it came from."""

    battlefield: Battlefield
    attack: AttackDeclaration
    response: ResponseDeclaration | None = None
    dice: tuple[int, ...] | None = None
    seed: int | None = None
    description: str | None = None
    expect: Any = field(default=None, compare=False, hash=False)
    path: str | None = field(default=None, compare=False, hash=False)
    dice_line: int | None = field(default=None, compare=False, hash=False)
