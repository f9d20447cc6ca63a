"""core/line_of_sight.md#blocking-terrain in O(n log n): the fast sight test agrees with the plain one.

``reference_crosses`` is the direct reading of the rule (cut the sight line at every vertex projection
and edge crossing, test each stretch's midpoint against every edge), quadratic in the vertices; the
engine's ``segment_crosses_interior`` must decide exactly as it does, boundary cases included.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rulespy.core.line_of_sight import _edges, segment_crosses_interior, strictly_inside
from rulespy.state import Point


def reference_crosses(a: Point, b: Point, polygon: tuple[Point, ...]) -> bool:
    if a == b:
        return strictly_inside(a, polygon)
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    if length2 == 0.0:  # closer than floats can square: a point, as a == b
        return strictly_inside(a, polygon)
    points = {0.0, 1.0}
    for v in polygon:
        t = ((v[0] - a[0]) * dx + (v[1] - a[1]) * dy) / length2
        points.add(max(0.0, min(1.0, t)))
    for p, q in _edges(polygon):
        ex, ey = q[0] - p[0], q[1] - p[1]
        denom = dx * ey - dy * ex
        if abs(denom) <= 1e-15 * max(length2, ex * ex + ey * ey, 1.0):
            continue
        t = ((p[0] - a[0]) * ey - (p[1] - a[1]) * ex) / denom
        u = ((p[0] - a[0]) * dy - (p[1] - a[1]) * dx) / denom
        if -1e-12 <= u <= 1 + 1e-12:
            points.add(max(0.0, min(1.0, t)))
    ts = sorted(points)
    for t0, t1 in zip(ts, ts[1:], strict=False):
        if t1 > t0:
            mid = (t0 + t1) / 2
            if strictly_inside((a[0] + mid * dx, a[1] + mid * dy), polygon):
                return True
    return False


# Small whole-number coordinates make the boundary cases common: sight lines through vertices, along
# edges, starting on an edge; polygons with collinear and repeated vertices.
coordinate = st.integers(-4, 4).map(float)
point = st.tuples(coordinate, coordinate)


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.lists(point, min_size=3, max_size=8), point, point)
def test_blocking_terrain_fast_sight_test_agrees_with_the_rule_read_directly(
    polygon: list[Point], a: Point, b: Point
) -> None:
    shape = tuple(polygon)
    assert segment_crosses_interior(a, b, shape) == reference_crosses(a, b, shape)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    st.lists(st.tuples(st.floats(-10, 10), st.floats(-10, 10)), min_size=3, max_size=12),
    st.tuples(st.floats(-12, 12), st.floats(-12, 12)),
    st.tuples(st.floats(-12, 12), st.floats(-12, 12)),
)
def test_blocking_terrain_fast_sight_test_agrees_on_any_polygon(
    polygon: list[Point], a: Point, b: Point
) -> None:
    shape = tuple(polygon)
    assert segment_crosses_interior(a, b, shape) == reference_crosses(a, b, shape)


def zigzag(teeth: int, x: float = 10.0) -> tuple[Point, ...]:
    """A thin zigzag wall along y, ``2 * teeth + 2`` vertices, one inch deep at x..x+1."""
    front = [(x + (i % 2) * 0.5, float(i)) for i in range(teeth)]
    back = [(px + 1.0, py) for px, py in reversed(front)]
    return tuple(front + back)


def test_blocking_terrain_zigzag_wall_decides_like_the_rule() -> None:
    wall = zigzag(40)
    for a, b in [((0.0, 5.2), (20.0, 5.2)), ((0.0, -3.0), (20.0, -3.0)), ((10.25, -5.0), (10.25, 50.0))]:
        assert segment_crosses_interior(a, b, wall) == reference_crosses(a, b, wall)
    assert segment_crosses_interior((0.0, 5.2), (20.0, 5.2), wall)
    assert not segment_crosses_interior((0.0, -3.0), (20.0, -3.0), wall)
