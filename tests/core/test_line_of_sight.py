"""Tests of core/line_of_sight.md: fire arcs, blocking terrain and the boundary cases of both."""

import pytest

from rulespy.core.line_of_sight import (
    in_fire_arc,
    point_in_polygon,
    sees,
    sees_unit,
    segment_blocked,
    strictly_inside,
)
from rulespy.state import Model, Terrain, TerrainKind, Unit

SQUARE = ((4.0, -1.0), (6.0, -1.0), (6.0, 1.0), (4.0, 1.0))
WALL = (Terrain(TerrainKind.BLOCKING, SQUARE),)


def m(mid: str, x: float, y: float = 0.0, facing: float = 0.0, arc: float | None = None) -> Model:
    return Model(mid, (x, y), facing=facing, arc=arc)


def test_blocking_polygon_in_the_way_blocks_sight() -> None:
    assert segment_blocked((0, 0), (10, 0), WALL)
    assert not sees(m("a", 0), m("b", 10), WALL)


def test_sight_line_touching_an_edge_is_not_blocked() -> None:
    assert not segment_blocked((0, 1), (10, 1), WALL)  # runs along the top edge
    assert not segment_blocked((5, 1), (5, 5), WALL)  # starts on the edge and leaves it


def test_sight_line_touching_a_vertex_is_not_blocked() -> None:
    assert not segment_blocked((3, 0), (5, 2), WALL)  # passes (4, 1) only
    assert not segment_blocked((5, 2), (7, 0), WALL)  # passes the corner (6, 1) only


def test_diagonal_through_two_opposite_corners_is_blocked() -> None:
    assert segment_blocked((3, -2), (7, 2), WALL)


def test_sight_line_beside_the_polygon_is_not_blocked() -> None:
    assert not segment_blocked((0, 1.5), (10, 1.5), WALL)
    assert not segment_blocked((0, 0), (3.9, 0), WALL)


def test_sight_line_dipping_into_the_interior_is_blocked() -> None:
    assert segment_blocked((0, 1.01), (10, 0.99), WALL)


def test_dipping_no_deeper_than_the_tolerance_does_not_block() -> None:
    assert not segment_blocked((0, 1 - 1e-12), (10, 1 - 1e-12), WALL)


def test_model_inside_blocking_terrain_neither_sees_nor_is_seen() -> None:
    assert segment_blocked((5, 0), (20, 0), WALL)
    assert segment_blocked((20, 0), (5, 0), WALL)


def test_model_on_the_edge_of_blocking_terrain_sees_outward() -> None:
    assert not segment_blocked((6, 0), (20, 0), WALL)
    assert segment_blocked((6, 0), (0, 0), WALL)  # but not back across it


def test_concave_blocking_polygon_blocks_only_through_its_interior() -> None:
    u_shape = ((0.0, 0.0), (6.0, 0.0), (6.0, 6.0), (4.0, 6.0), (4.0, 2.0), (2.0, 2.0), (2.0, 6.0), (0.0, 6.0))
    terrain = (Terrain(TerrainKind.BLOCKING, u_shape),)
    assert not segment_blocked((3, 3), (3, 10), terrain)  # inside the notch, looking out of it
    assert segment_blocked((3, 3), (10, 3), terrain)  # through the right arm
    assert not segment_blocked((2, 4), (4, 4), terrain)  # across the notch, from arm edge to arm edge


def test_closed_polygon_with_repeated_first_vertex_works() -> None:
    closed = (Terrain(TerrainKind.BLOCKING, (*SQUARE, SQUARE[0])),)
    assert segment_blocked((0, 0), (10, 0), closed)
    assert not segment_blocked((0, 1), (10, 1), closed)


def test_light_and_heavy_terrain_never_block_sight() -> None:
    terrain = (Terrain(TerrainKind.LIGHT, SQUARE), Terrain(TerrainKind.HEAVY, SQUARE))
    assert not segment_blocked((0, 0), (10, 0), terrain)


def test_models_never_block_sight() -> None:
    unit = Unit("u", "red", (m("front", 5), m("back", 10)))
    assert sees(m("a", 0), unit.models[1], ())


def test_model_without_arc_sees_all_round() -> None:
    assert in_fire_arc(m("a", 0), (-10, 0))
    assert in_fire_arc(m("a", 0, arc=360), (-10, 0))


@pytest.mark.parametrize(
    ("point", "inside"),
    [((10, 0), True), ((10, 9.9), True), ((0, 10), False), ((-10, 0), False), ((10, -10.1), False)],
)
def test_fire_arc_is_plus_minus_half_the_arc_around_facing(point: tuple[float, float], inside: bool) -> None:
    assert in_fire_arc(m("a", 0, arc=90), point) is inside


def test_fire_arc_boundary_is_inside() -> None:
    viewer = m("a", 0, arc=90)
    assert in_fire_arc(viewer, (10, 10))
    assert in_fire_arc(viewer, (10, -10))
    assert in_fire_arc(m("b", 0, facing=30, arc=60), (5, 8.660254037844386))  # 60 degrees = facing + arc/2
    assert not in_fire_arc(viewer, (10, 10.001))


def test_fire_arc_facing_is_counter_clockwise_from_plus_x() -> None:
    north = m("a", 0, facing=90, arc=90)
    assert in_fire_arc(north, (0, 10))
    assert not in_fire_arc(north, (10, 0.5))
    assert not in_fire_arc(north, (0, -10))


def test_fire_arc_wraps_around_180_degrees() -> None:
    west = m("a", 0, facing=180, arc=40)
    assert in_fire_arc(west, (-10, 1))
    assert in_fire_arc(west, (-10, -1))
    assert not in_fire_arc(m("b", 0, facing=-170, arc=10), (-10, -5))


def test_target_outside_the_arc_is_not_seen() -> None:
    assert not sees(m("a", 0, facing=180, arc=90), m("b", 10), ())


def test_point_at_the_viewers_centre_is_in_its_arc() -> None:
    assert in_fire_arc(m("a", 3, 3, arc=10), (3, 3))


def test_unit_is_seen_when_one_of_its_models_is() -> None:
    unit = Unit("u", "red", (m("hidden", 10), m("visible", 10, 5)))
    assert sees_unit(m("a", 0), unit, WALL)
    assert not sees_unit(m("a", 0), Unit("v", "red", (m("hidden2", 10),)), WALL)
    assert not sees_unit(m("a", 0), Unit("w", "red", ()), ())


def test_polygon_boundary_counts_for_point_in_polygon_but_not_for_interior() -> None:
    assert point_in_polygon((4, 0), SQUARE)
    assert not strictly_inside((4, 0), SQUARE)
    assert strictly_inside((5, 0), SQUARE)
    assert not point_in_polygon((3.9, 0), SQUARE)
