"""Tests of core/cover.md: cover from terrain or the model itself, and its Target Lock modifier."""

import pytest

from rulespy.core.cover import cover_modifier, model_cover, target_unit_cover
from rulespy.state import Cover, Model, Terrain, TerrainKind

SQUARE = ((0.0, 0.0), (4.0, 0.0), (4.0, 4.0), (0.0, 4.0))
RIGHT_HALF = ((2.0, 0.0), (4.0, 0.0), (4.0, 4.0), (2.0, 4.0))
LIGHT = Terrain(TerrainKind.LIGHT, SQUARE)
HEAVY = Terrain(TerrainKind.HEAVY, RIGHT_HALF)


def m(x: float, y: float, cover: Cover | None = None) -> Model:
    return Model("m", (x, y), cover=cover)


def test_model_in_the_open_has_no_cover() -> None:
    assert model_cover(m(10, 10), (LIGHT, HEAVY)) is Cover.NONE


def test_centre_inside_light_terrain_gives_light_cover() -> None:
    assert model_cover(m(1, 1), (LIGHT, HEAVY)) is Cover.LIGHT


def test_heavy_cover_wins_over_light() -> None:
    assert model_cover(m(3, 1), (LIGHT, HEAVY)) is Cover.HEAVY
    assert model_cover(m(3, 1), (HEAVY, LIGHT)) is Cover.HEAVY


def test_cover_polygon_boundary_counts_as_inside() -> None:
    assert model_cover(m(0, 2), (LIGHT,)) is Cover.LIGHT
    assert model_cover(m(4, 4), (LIGHT,)) is Cover.LIGHT
    assert model_cover(m(2, 1), (LIGHT, HEAVY)) is Cover.HEAVY


def test_only_the_centre_counts_not_the_base() -> None:
    assert model_cover(m(-0.4, 2), (LIGHT,)) is Cover.NONE  # its 1" base overlaps the terrain


def test_blocking_terrain_gives_no_cover() -> None:
    assert model_cover(m(1, 1), (Terrain(TerrainKind.BLOCKING, SQUARE),)) is Cover.NONE


def test_model_cover_value_overrides_terrain() -> None:
    assert model_cover(m(10, 10, Cover.HEAVY), (LIGHT,)) is Cover.HEAVY
    assert model_cover(m(3, 1, Cover.NONE), (LIGHT, HEAVY)) is Cover.NONE
    assert model_cover(m(3, 1, Cover.LIGHT), (LIGHT, HEAVY)) is Cover.LIGHT


def test_target_unit_cover_is_the_marked_models_cover() -> None:
    assert target_unit_cover(m(3, 1), (LIGHT, HEAVY)) is Cover.HEAVY


@pytest.mark.parametrize(("cover", "modifier"), [(Cover.NONE, 0), (Cover.LIGHT, -1), (Cover.HEAVY, -2)])
def test_cover_modifier_light_minus_one_heavy_minus_two(cover: Cover, modifier: int) -> None:
    assert cover_modifier(cover) == modifier
