"""Measuring: distances between models and units, with base sizes and a fixed tolerance.

Rule: core/measuring.md#distance

Every distance here is in inches, from base edge to base edge. Comparisons use ``EPSILON`` so that a
distance computed as 5.999999999999 still counts as "within 6".
"""

from __future__ import annotations

import math

from rulespy.state import Model, Unit

EPSILON = 1e-9
"""Tolerance of every comparison of lengths, in inches (core/measuring.md#within)."""


def distance(a: Model, b: Model) -> float:
    """Distance between two models: centre to centre minus both base radii, never below 0.

    Rule: core/measuring.md#distance

    Overlapping or touching bases are at distance 0.

    >>> distance(Model("a", (0, 0)), Model("b", (13, 0)))  # 1" bases, centres 13" apart
    12.0
    >>> distance(Model("a", (0, 0)), Model("b", (0.5, 0)))
    0.0
    """
    (ax, ay), (bx, by) = a.at, b.at  # written out: the hottest function of a large attack
    return max(math.hypot(bx - ax, by - ay) - (a.base + b.base) / 2, 0.0)


def within(a: Model, b: Model, inches: float) -> bool:
    """Whether ``b`` is within ``inches`` of ``a``: the distance is <= ``inches`` (plus the tolerance).

    Rule: core/measuring.md#within

    Boundary: a model exactly ``inches`` away is within.

    >>> [within(Model("a", (0, 0)), Model("b", (x, 0)), 18) for x in (19, 19.5)]  # 18" and 18.5" apart
    [True, False]
    """
    reach = inches + (a.base + b.base) / 2 + EPSILON
    if abs(b.at[0] - a.at[0]) > reach or abs(b.at[1] - a.at[1]) > reach:
        return False  # farther along one axis alone: no need for the square root
    return distance(a, b) <= inches + EPSILON


def farther_than(a: Model, b: Model, inches: float) -> bool:
    """Whether ``b`` is farther than ``inches`` from ``a``: exactly the models that are not within.

    Rule: core/measuring.md#within

    Boundary: a model exactly ``inches`` away is not farther (used by Minimum Range N).

    >>> farther_than(Model("a", (0, 0)), Model("b", (7, 0)), 6)
    False
    """
    return not within(a, b, inches)


def range_to_unit(model: Model, unit: Unit) -> float:
    """Range from a model to a unit: the distance to the unit's closest model, seen or not.

    Rule: core/measuring.md#range-to-a-unit

    A unit with no model in play is at ``math.inf``.

    >>> range_to_unit(Model("s", (0, 0)), Unit("foe", "red", (Model("f1", (13, 0)), Model("f2", (21, 0)))))
    12.0
    """
    return min((distance(model, other) for other in unit.models), default=math.inf)


def unit_within_range(model: Model, unit: Unit, inches: float) -> bool:
    """Whether the range from ``model`` to ``unit`` is <= ``inches`` (with the tolerance).

    Rule: core/measuring.md#range-to-a-unit

    The same as ``range_to_unit(model, unit) <= inches + EPSILON``, answered at the first model close
    enough instead of measuring them all (every declared weapon asks it).
    """
    limit = inches + EPSILON
    return any(distance(model, other) <= limit for other in unit.models)


def distance_between_units(a: Unit, b: Unit) -> float:
    """Distance between two units: the smallest distance between a model of one and a model of the other.

    Rule: core/measuring.md#distance-between-units

    ``math.inf`` if either unit has no model in play.
    """
    return min((range_to_unit(model, b) for model in a.models), default=math.inf)
