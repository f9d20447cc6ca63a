"""Allocation: core/allocation.md. Each component of the allocation key, the Marked Model, lost successes."""

from rulespy.core.allocation import Invalid, Unfit, allocate_round, band, is_valid, tier, why_not_valid
from rulespy.core.ranged_weapons import Weapon
from rulespy.state import Model, ModelStatus, Terrain, TerrainKind

SHOOTER = Model("s", (0.0, 0.0))
RIFLE = Weapon("rifle", range=30, dice=1, lock=4, damage=1)


def target(model_id: str, x: float, y: float = 0.0, *status: ModelStatus) -> Model:
    return Model(model_id, (x, y), status=frozenset(status))


def allocate(successes, models, marked="none", firers=(SHOOTER,)):  # type: ignore[no-untyped-def]
    valid = {w: list(models) for w in set(successes)}
    result = allocate_round(successes, valid, list(firers), [m.id for m in models], marked)
    return [a.model for a in result]


def test_allocation_first_success_goes_to_marked_model() -> None:
    a, b = target("a", 5), target("b", 6)
    assert allocate(["rifle", "rifle"], [a, b], marked="b") == ["b", "a"]


def test_allocation_marked_model_first_even_when_pinned() -> None:
    a, b = target("a", 5), target("b", 6, 0, ModelStatus.PINNED)
    assert allocate(["rifle"], [a, b], marked="b") == ["b"]


def test_allocation_key_same_weapon_count_comes_first() -> None:
    """b already has a cannon hit, a has a rifle hit: the next cannon hit goes to a (no cannon yet)."""
    a, b = target("a", 5), target("b", 6)
    assert allocate(["rifle", "cannon", "cannon"], [a, b]) == ["a", "b", "a"]


def test_allocation_key_total_successes_break_ties() -> None:
    """Three weapons, one success each: per-weapon counts tie at 0, so total successes spread them."""
    a, b, c = target("a", 5), target("b", 6), target("c", 7)
    assert allocate(["rifle", "cannon", "melta"], [a, b, c]) == ["a", "b", "c"]


def test_allocation_key_successes_this_round_count_every_weapon() -> None:
    """The rifle's second success sees the cannon's success on b: c (no success yet) comes before b."""
    a, b, c = target("a", 5), target("b", 6), target("c", 7)
    assert allocate(["rifle", "cannon", "rifle", "cannon"], [a, b, c]) == ["a", "b", "c", "a"]


def test_allocation_key_tier_pinned_after_active() -> None:
    a, b = target("a", 5, 0, ModelStatus.PINNED), target("b", 6)
    assert allocate(["rifle", "rifle"], [a, b]) == ["b", "a"]


def test_allocation_key_tier_immobilised_and_abandoned_last() -> None:
    a = target("a", 5, 0, ModelStatus.ABANDONED)
    b = target("b", 6, 0, ModelStatus.PINNED)
    c = target("c", 7, 0, ModelStatus.IMMOBILISED, ModelStatus.PINNED)
    assert [tier(m) for m in (a, b, c)] == [2, 1, 2]
    assert allocate(["rifle"] * 3, [a, b, c]) == ["b", "a", "c"]


def test_allocation_key_band_nearer_than_12_first() -> None:
    far, near = target("far", 14), target("near", 13)
    # distance with 1" bases: far 13" (band 1), near 12" (band 0, within 12)
    assert band(near, [SHOOTER]) == 0 and band(far, [SHOOTER]) == 1
    assert allocate(["rifle"], [far, near]) == ["near"]


def test_allocation_key_unit_order_last() -> None:
    a, b = target("a", 5), target("b", 5, 3)
    assert allocate(["rifle"], [b, a]) == ["b"]


def test_allocation_every_success_before_damage_spreads_hits() -> None:
    a, b = target("a", 5), target("b", 6)
    assert allocate(["rifle"] * 5, [a, b]) == ["a", "b", "a", "b", "a"]


def test_allocation_success_with_no_valid_model_is_lost() -> None:
    result = allocate_round(["rifle"], {"rifle": []}, [SHOOTER], ["a"], "a")
    assert result[0].model is None


def test_valid_model_needs_sight_range_and_minimum_range() -> None:
    wall = Terrain(TerrainKind.BLOCKING, ((4.0, -1.0), (5.0, -1.0), (5.0, 1.0), (4.0, 1.0)))
    lance = Weapon("lance", range=20, dice=1, lock=3, damage=2, minimum_range=6)
    assert is_valid(target("a", 10, 5), lance, [SHOOTER], (wall,))
    assert not is_valid(target("b", 10), lance, [SHOOTER], (wall,))  # behind the wall
    assert not is_valid(target("c", 6, 3), lance, [SHOOTER], ())  # within the minimum range
    assert not is_valid(target("d", 0, 22), lance, [SHOOTER], ())  # out of range


def test_valid_model_why_not_names_the_condition_failed_for_each_firer() -> None:
    """core/allocation.md#valid-model: the first condition failed (sight, range, minimum range) per model
    that fired the weapon; nothing when one firer makes the model valid."""
    wall = Terrain(TerrainKind.BLOCKING, ((4.0, -1.0), (5.0, -1.0), (5.0, 1.0), (4.0, 1.0)))
    lance = Weapon("lance", range=20, dice=1, lock=3, damage=2, minimum_range=6)
    other = Model("s2", (0.0, 25.0))
    assert why_not_valid(target("a", 10, 5), lance, [SHOOTER], (wall,)) == ()
    assert why_not_valid(target("b", 10), lance, [SHOOTER], (wall,)) == (
        Invalid("b", "lance", SHOOTER.id, Unfit.NOT_SEEN),
    )
    assert why_not_valid(target("c", 6, 3), lance, [SHOOTER], ()) == (
        Invalid("c", "lance", SHOOTER.id, Unfit.MINIMUM_RANGE, 6),
    )
    assert why_not_valid(target("d", 0, 22), lance, [SHOOTER, other], ()) == (
        Invalid("d", "lance", SHOOTER.id, Unfit.OUT_OF_RANGE, 20),
        Invalid("d", "lance", "s2", Unfit.MINIMUM_RANGE, 6),
    )
