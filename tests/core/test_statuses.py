"""Tests of core/statuses.md: Engaged from positions, and the statuses that forbid shooting."""

import pytest

from rulespy.core.ranged_weapons import Weapon
from rulespy.core.statuses import (
    check_may_shoot,
    engaged,
    engaged_with_enemy,
    is_abandoned,
    is_immobilised,
    is_pinned,
)
from rulespy.errors import IllegalDeclaration
from rulespy.state import Battlefield, Model, ModelStatus, Unit, UnitStatus


def unit(uid: str, side: str, *xs: float, status: frozenset[UnitStatus] = frozenset()) -> Unit:
    return Unit(uid, side, tuple(Model(f"{uid}{i}", (x, 0.0)) for i, x in enumerate(xs)), status=status)


def test_units_within_one_inch_are_engaged() -> None:
    assert engaged(unit("a", "blue", 0, 10), unit("b", "red", 12, 30))  # 10 -> 12: 1" between bases


def test_engaged_boundary_exactly_one_inch_engages() -> None:
    assert engaged(unit("a", "blue", 0), unit("b", "red", 2))
    assert not engaged(unit("a", "blue", 0), unit("b", "red", 2.01))


def test_a_unit_is_not_engaged_with_itself() -> None:
    a = unit("a", "blue", 0, 0.5)
    assert not engaged(a, a)


def test_engaged_with_enemy_ignores_friendly_models() -> None:
    shooter = unit("a", "blue", 0)
    friend = unit("f", "blue", 1.5)
    enemy = unit("e", "red", 2.5)
    bf = Battlefield((Weapon("gun", 24, 1, 4, 1),), (shooter, friend, enemy))
    model = shooter.models[0]
    assert not engaged_with_enemy(model, bf, "blue")
    assert engaged_with_enemy(friend.models[0], bf, "blue")


def test_model_statuses() -> None:
    model = Model("m", (0, 0), status=frozenset({ModelStatus.PINNED, ModelStatus.ABANDONED}))
    assert is_pinned(model) and is_abandoned(model) and not is_immobilised(model)


@pytest.mark.parametrize(
    ("status", "anchor"), [(UnitStatus.SHAKEN, "#shaken"), (UnitStatus.FLEEING, "#fleeing")]
)
def test_shaken_or_fleeing_unit_cannot_shoot(status: UnitStatus, anchor: str) -> None:
    with pytest.raises(IllegalDeclaration) as err:
        check_may_shoot(unit("a", "blue", 0, status=frozenset({status})))
    assert err.value.rule == "core/statuses.md" + anchor
    assert "'a'" in err.value.message and "core/statuses.md" in err.value.message


def test_unit_without_status_may_shoot() -> None:
    check_may_shoot(unit("a", "blue", 0))
