"""Cover: how much cover a model has, and the Target Lock modifier it gives.

Rule: core/cover.md#cover

Boundary decisions: a model is in a cover polygon when its centre is inside it or on its boundary (within
1e-9 inch). A model inside both light and heavy terrain has heavy cover. A model's own ``cover`` value,
when given, replaces whatever the terrain says (it can also lower it, e.g. ``cover: none``).
"""

from __future__ import annotations

from rulespy.core.line_of_sight import point_in_polygon
from rulespy.state import Cover, Model, Terrain, TerrainKind

TERRAIN_COVER: dict[TerrainKind, Cover] = {
    TerrainKind.LIGHT: Cover.LIGHT,
    TerrainKind.HEAVY: Cover.HEAVY,
}
"""The cover each terrain kind gives to a model standing in it (blocking terrain gives none)."""

COVER_MODIFIERS: dict[Cover, int] = {Cover.NONE: 0, Cover.LIGHT: -1, Cover.HEAVY: -2}
"""Target Lock modifier of the target unit's cover (the table of core/cover.md#cover)."""


def model_cover(model: Model, terrain: tuple[Terrain, ...]) -> Cover:
    """The cover a model is in: its own ``cover`` value if set, else the best terrain cover under its centre.

    Rule: core/cover.md#cover

    Heavy wins over light; the polygon's boundary counts as inside.

    >>> scrub = Terrain(TerrainKind.LIGHT, ((0, 0), (4, 0), (4, 4), (0, 4)))
    >>> [model_cover(Model("m", at), (scrub,)).name for at in ((4, 2), (5, 2))]  # the edge counts
    ['LIGHT', 'NONE']
    """
    if model.cover is not None:
        return model.cover
    best = Cover.NONE
    for piece in terrain:
        level = TERRAIN_COVER.get(piece.kind)
        if level is not None and level > best and point_in_polygon(model.at, piece.polygon):
            best = level
    return best


def target_unit_cover(marked: Model, terrain: tuple[Terrain, ...]) -> Cover:
    """The whole target unit's cover is the cover of its Marked Model.

    Rule: core/cover.md#target-unit-cover
    """
    return model_cover(marked, terrain)


def cover_modifier(cover: Cover) -> int:
    """The Target Lock modifier for a target unit in ``cover``: none 0, light -1, heavy -2.

    Rule: core/cover.md#light-cover
    Rule: core/cover.md#heavy-cover
    Rule: core/cover.md#cover

    >>> [cover_modifier(c) for c in (Cover.NONE, Cover.LIGHT, Cover.HEAVY)]
    [0, -1, -2]
    """
    return COVER_MODIFIERS[cover]
