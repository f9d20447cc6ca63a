"""Small builders shared by the declaration tests (core/shooting.md and core/target_selection.md)."""

from __future__ import annotations

import pytest

from rulespy.commands import rules_for
from rulespy.core.ranged_weapons import Weapon
from rulespy.core.shooting import TargetPlan, plan_attack
from rulespy.errors import IllegalDeclaration
from rulespy.state import (
    AttackDeclaration,
    Battlefield,
    Command,
    Model,
    TargetDeclaration,
    Terrain,
    TerrainKind,
    Unit,
)

WEAPONS = (
    Weapon("rifle", 24, 1, 4, 1),
    Weapon("pistol", 12, 1, 4, 1, assault=True),
    Weapon("cannon", 36, 2, 4, 2, heavy=True),
    Weapon("mortar", 48, 1, 4, 1, minimum_range=6),
)


def model(mid: str, x: float, y: float = 0.0, **kw: object) -> Model:
    kw.setdefault("weapons", ("rifle",))
    return Model(mid, (x, y), **kw)  # type: ignore[arg-type]


def unit(uid: str, side: str, *models: Model, **kw: object) -> Unit:
    return Unit(uid, side, models, **kw)  # type: ignore[arg-type]


def wall(x0: float, y0: float, x1: float, y1: float) -> Terrain:
    return Terrain(TerrainKind.BLOCKING, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


def field(*units: Unit, terrain: tuple[Terrain, ...] = ()) -> Battlefield:
    return Battlefield(WEAPONS, units, terrain)


def target(uid: str, mark: str, **kw: object) -> TargetDeclaration:
    return TargetDeclaration(uid, mark, **kw)  # type: ignore[arg-type]


def plan(
    bf: Battlefield, shooter: str, *targets: TargetDeclaration, command: Command = Command.SHOOT
) -> tuple[TargetPlan, ...]:
    return plan_attack(bf, AttackDeclaration(shooter, command, targets), rules_for(command))


def refused(
    bf: Battlefield, shooter: str, *targets: TargetDeclaration, command: Command = Command.SHOOT
) -> IllegalDeclaration:
    with pytest.raises(IllegalDeclaration) as err:
        plan(bf, shooter, *targets, command=command)
    return err.value
