"""Tests of core/measuring.md: distance with bases, within, range to a unit, distance between units."""

import math

import pytest

from rulespy.core.measuring import (
    EPSILON,
    distance,
    distance_between_units,
    farther_than,
    range_to_unit,
    unit_within_range,
    within,
)
from rulespy.state import Model, Unit


def m(mid: str, x: float, y: float = 0.0, base: float = 1.0) -> Model:
    return Model(mid, (x, y), base=base)


def test_distance_subtracts_both_base_radii() -> None:
    assert distance(m("a", 0), m("b", 10)) == pytest.approx(9.0)
    assert distance(m("a", 0, base=2), m("b", 10, base=3)) == pytest.approx(7.5)


def test_distance_is_measured_in_any_direction() -> None:
    assert distance(m("a", 0, 0), m("b", 3, 4)) == pytest.approx(4.0)


def test_distance_is_never_below_zero_for_overlapping_bases() -> None:
    assert distance(m("a", 0), m("b", 0.5)) == 0.0
    assert distance(m("a", 0), m("b", 0)) == 0.0


def test_within_includes_the_exact_distance() -> None:
    assert within(m("a", 0), m("b", 7), 6)


def test_within_uses_the_tolerance() -> None:
    # 0.1 + 0.2 is 0.30000000000000004 in floating point: still within 0.3 + 1 (bases)
    assert within(m("a", 0), m("b", 0.1 + 0.2 + 1), 0.3)
    assert within(m("a", 0), m("b", 7 + EPSILON / 2), 6)
    assert not within(m("a", 0), m("b", 7 + 1e-6), 6)


def test_farther_than_is_the_opposite_of_within() -> None:
    assert not farther_than(m("a", 0), m("b", 7), 6)
    assert farther_than(m("a", 0), m("b", 7.001), 6)


def test_range_to_unit_is_to_the_closest_model() -> None:
    unit = Unit("u", "red", (m("far", 20), m("near", 11), m("mid", 15)))
    assert range_to_unit(m("a", 0), unit) == pytest.approx(10.0)
    assert unit_within_range(m("a", 0), unit, 10)
    assert not unit_within_range(m("a", 0), unit, 9.99)


def test_range_to_unit_without_models_is_infinite() -> None:
    assert range_to_unit(m("a", 0), Unit("u", "red", ())) == math.inf


def test_distance_between_units_is_the_smallest_model_to_model_distance() -> None:
    a = Unit("a", "blue", (m("a1", 0), m("a2", 5)))
    b = Unit("b", "red", (m("b1", 30), m("b2", 12, 0)))
    assert distance_between_units(a, b) == pytest.approx(6.0)
    assert distance_between_units(b, a) == pytest.approx(6.0)


def test_distance_between_units_with_an_empty_unit_is_infinite() -> None:
    assert distance_between_units(Unit("a", "blue", ()), Unit("b", "red", (m("b1", 1),))) == math.inf
