"""Line of Sight: fire arcs and blocking terrain, plus the polygon geometry they share with cover.

Rule: core/line_of_sight.md#line-of-sight

Boundary decisions (all with the tolerance ``EPSILON`` of core/measuring.md, 1e-9 inch):

* A sight line is blocked only where it passes through the *interior* of a blocking polygon. Touching a
  vertex, touching an edge, or running along an edge does not block. A sight line that dips into the
  interior by no more than the tolerance does not block either.
* A model whose centre is strictly inside a blocking polygon can neither see nor be seen along any line
  that leaves through that interior (the first stretch of the line is inside); a centre on the polygon's
  boundary is outside it.
* Models never block sight. A point (model centre) at the viewer's own centre is inside its fire arc.
* The fire arc includes its two boundary rays: a centre within 1e-9 inch of a boundary ray is inside.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterator

from rulespy.core.measuring import EPSILON
from rulespy.state import Model, Point, Terrain, TerrainKind, Unit

Polygon = tuple[Point, ...]


def _edges(polygon: Polygon) -> Iterator[tuple[Point, Point]]:
    """The polygon's edges, closing it (a repeated first vertex at the end is harmless)."""
    count = len(polygon)
    for i in range(count):
        yield polygon[i], polygon[(i + 1) % count]


def _point_segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return math.hypot(p[0] - ax, p[1] - ay)
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def on_boundary(point: Point, polygon: Polygon) -> bool:
    """Whether ``point`` lies on the polygon's boundary (within the tolerance).

    Rule: core/line_of_sight.md#blocking-terrain
    """
    return any(_point_segment_distance(point, a, b) <= EPSILON for a, b in _edges(polygon))


def _crossings_odd(point: Point, polygon: Polygon) -> bool:
    """Even-odd ray casting; only meaningful for a point not on the boundary."""
    x, y = point
    inside = False
    for (xi, yi), (xj, yj) in _edges(polygon):
        if (yi > y) != (yj > y):
            x_cross = xi + (y - yi) * (xj - xi) / (yj - yi)
            if x < x_cross:
                inside = not inside
    return inside


def point_in_polygon(point: Point, polygon: Polygon) -> bool:
    """Whether ``point`` is inside the polygon, its boundary counting as inside (used by cover).

    Rule: core/cover.md#cover
    """
    return on_boundary(point, polygon) or _crossings_odd(point, polygon)


def strictly_inside(point: Point, polygon: Polygon) -> bool:
    """Whether ``point`` is in the polygon's interior: inside, farther than the tolerance from the boundary.

    Rule: core/line_of_sight.md#blocking-terrain
    """
    return not on_boundary(point, polygon) and _crossings_odd(point, polygon)


def _bounds(polygon: Polygon) -> tuple[float, float, float, float]:
    xs = [x for x, _ in polygon]
    ys = [y for _, y in polygon]
    return min(xs), min(ys), max(xs), max(ys)


def _near_segment(a: Point, b: Point, p: Point, q: Point) -> bool:
    """Whether edge ``p``-``q`` may come within the tolerance of segment ``a``-``b`` (a bounding-box test)."""
    return not (
        max(p[0], q[0]) < min(a[0], b[0]) - EPSILON
        or min(p[0], q[0]) > max(a[0], b[0]) + EPSILON
        or max(p[1], q[1]) < min(a[1], b[1]) - EPSILON
        or min(p[1], q[1]) > max(a[1], b[1]) + EPSILON
    )


def _shadow(a: Point, d: Point, length2: float, p: Point, q: Point) -> tuple[float, float]:
    """Parameters along ``a + t*d`` outside of which a point is farther than the tolerance from ``p``-``q``.

    The points within the tolerance of the edge project onto the line within the tolerance of the
    edge's own projection, and lie within the tolerance of the edge's line: both bound the range.
    """
    length = math.sqrt(length2)
    tp = ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / length2
    tq = ((q[0] - a[0]) * d[0] + (q[1] - a[1]) * d[1]) / length2
    lo, hi = min(tp, tq) - EPSILON / length, max(tp, tq) + EPSILON / length
    ex, ey = q[0] - p[0], q[1] - p[1]
    edge = math.hypot(ex, ey)
    if edge > 0.0:
        # signed distance of a + t*d from the edge's line: (c0 + t*c1) / edge
        c0 = (ex * (a[1] - p[1]) - ey * (a[0] - p[0])) / edge
        c1 = (ex * d[1] - ey * d[0]) / edge
        if abs(c1) > 1e-15:
            t1, t2 = (-EPSILON - c0) / c1, (EPSILON - c0) / c1
            lo, hi = max(lo, min(t1, t2)), min(hi, max(t1, t2))
    return lo, hi


def segment_crosses_interior(a: Point, b: Point, polygon: Polygon) -> bool:
    """Whether the segment ``a``-``b`` passes through the interior of ``polygon``.

    Rule: core/line_of_sight.md#blocking-terrain

    Touching a vertex or an edge, or running along an edge, is not passing through the interior.

    The segment is cut at every parameter where it may enter or leave the polygon (edge crossings, and
    the projections of the vertices of the edges near it); each stretch between two cuts is wholly
    interior, exterior or on the boundary, and its midpoint decides. In O(n log n) for n vertices, so
    that a long wall costs no more than its vertices: a bounding-box test first; a midpoint is inside
    when an odd number of edges cross the segment's own line beyond it (even-odd rule along that line,
    a vertex exactly on it counting as below); it is on the boundary when within the tolerance of an
    edge whose tolerance band it is in.
    """
    if len(polygon) < 3:
        return False
    x0, y0, x1, y1 = _bounds(polygon)
    if (
        max(a[0], b[0]) < x0 - EPSILON
        or min(a[0], b[0]) > x1 + EPSILON
        or max(a[1], b[1]) < y0 - EPSILON
        or min(a[1], b[1]) > y1 + EPSILON
    ):
        return False
    d = (b[0] - a[0], b[1] - a[1])
    length2 = d[0] * d[0] + d[1] * d[1]
    if length2 == 0.0:  # one point (two models on one spot), or closer than floats can square
        return strictly_inside(a, polygon)
    # each vertex's side of the line (once per vertex, so the crossings agree with each other)
    side = [d[0] * (v[1] - a[1]) - d[1] * (v[0] - a[0]) > 0.0 for v in polygon]
    along = [((v[0] - a[0]) * d[0] + (v[1] - a[1]) * d[1]) / length2 for v in polygon]
    count = len(polygon)
    crossings: list[float] = []
    cuts = {0.0, 1.0}
    near: list[tuple[Point, Point]] = []
    for i in range(count):
        j = (i + 1) % count
        p, q = polygon[i], polygon[j]
        if side[i] != side[j]:
            sp = d[0] * (p[1] - a[1]) - d[1] * (p[0] - a[0])
            sq = d[0] * (q[1] - a[1]) - d[1] * (q[0] - a[0])
            t = along[i] + (along[j] - along[i]) * sp / (sp - sq)
            crossings.append(t)
            if 0.0 < t < 1.0:
                cuts.add(t)
        if _near_segment(a, b, p, q):
            near.append((p, q))
            cuts.add(max(0.0, min(1.0, along[i])))
            cuts.add(max(0.0, min(1.0, along[j])))
    crossings.sort()
    ts = sorted(cuts)
    mids = [(t0 + t1) / 2 for t0, t1 in zip(ts, ts[1:], strict=False) if t1 > t0]
    on_edge = [False] * len(mids)
    for p, q in near:
        lo, hi = _shadow(a, d, length2, p, q)
        for k in range(bisect_left(mids, lo), bisect_right(mids, hi)):
            if not on_edge[k]:
                point = (a[0] + mids[k] * d[0], a[1] + mids[k] * d[1])
                on_edge[k] = _point_segment_distance(point, p, q) <= EPSILON
    total = len(crossings)
    for k, mid in enumerate(mids):
        if not on_edge[k] and (total - bisect_right(crossings, mid)) % 2 == 1:
            return True
    return False


def segment_blocked(a: Point, b: Point, terrain: tuple[Terrain, ...]) -> bool:
    """Whether the sight line ``a``-``b`` passes through the interior of any blocking terrain polygon.

    Rule: core/line_of_sight.md#blocking-terrain

    Only terrain of kind ``blocking`` blocks; light and heavy cover never block sight. Touching an edge or
    a vertex, or running along an edge, does not block (see the module docstring for every boundary case).
    """
    return any(t.kind is TerrainKind.BLOCKING and segment_crosses_interior(a, b, t.polygon) for t in terrain)


def _near_ray(v: Point, angle_deg: float) -> bool:
    """Whether the offset ``v`` lies within the tolerance of the ray leaving the origin at ``angle_deg``."""
    rad = math.radians(angle_deg)
    cx, cy = math.cos(rad), math.sin(rad)
    along = v[0] * cx + v[1] * cy
    return along >= -EPSILON and abs(cx * v[1] - cy * v[0]) <= EPSILON


def in_fire_arc(viewer: Model, point: Point) -> bool:
    """Whether ``point`` lies inside the viewer's fire arc: within +-arc/2 degrees of its facing.

    Rule: core/line_of_sight.md#fire-arc

    A model without an arc (or with an arc of 360 degrees or more) sees all round. Facing is in degrees,
    0 along +x, counter-clockwise. The boundary rays are inside (within 1e-9 inch); the viewer's own
    centre is inside.
    """
    arc = viewer.arc
    if arc is None or arc >= 360.0:
        return True
    v = (point[0] - viewer.at[0], point[1] - viewer.at[1])
    if math.hypot(*v) <= EPSILON:
        return True
    bearing = math.degrees(math.atan2(v[1], v[0]))
    offset = (bearing - viewer.facing + 180.0) % 360.0 - 180.0
    if abs(offset) <= arc / 2:
        return True
    return _near_ray(v, viewer.facing + arc / 2) or _near_ray(v, viewer.facing - arc / 2)


def sees(viewer: Model, target: Model, terrain: tuple[Terrain, ...]) -> bool:
    """Line of Sight from ``viewer`` to ``target``: the target's centre is in the viewer's fire arc and the
    segment between the centres passes through no blocking terrain interior. Models never block.

    Rule: core/line_of_sight.md#line-of-sight
    """
    return in_fire_arc(viewer, target.at) and not segment_blocked(viewer.at, target.at, terrain)


def sees_unit(viewer: Model, unit: Unit, terrain: tuple[Terrain, ...]) -> bool:
    """A model sees a unit if it sees at least one of the unit's models in play.

    Rule: core/line_of_sight.md#line-of-sight
    """
    return any(sees(viewer, model, terrain) for model in unit.models)
