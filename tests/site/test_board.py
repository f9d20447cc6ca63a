"""A board's text alternative, sides told apart beyond colour, and ids unique across the site and the
rulebook (``rulespy/render/board.py``; issues 26 and 27)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from rulespy.render import board
from rulespy.scenario import parse_scenario

SCENE = """
weapons:
  rifle: {range: 24, dice: 2, lock: 4, damage: 1}
units:
  - id: shooters
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, weapons: [rifle]}
  - id: targets
    side: red
    models:
      - {id: t1, at: [12, 0], wounds: 2}
      - {id: t2, at: [12.5, 3]}
terrain:
  - {kind: light, polygon: [[11, 2], [14, 2], [14, 4], [11, 4]]}
attack: {unit: shooters, command: shoot, targets: [{unit: targets, mark: t1}]}
dice: [4, 6]
"""


def _figure(key: str = "vs-board-core-cover-0") -> ET.Element:
    return board.render(parse_scenario(SCENE), key)


def test_the_board_as_text_lists_each_models_side_position_wounds_cover_and_mark() -> None:
    table = _figure().find("details/table")
    assert table is not None
    heads = [th.text for th in table.findall("thead/tr/th")]
    assert heads == ["model", "side", "unit", "position", "wounds", "cover", "marked"]
    rows = [[cell.text for cell in row] for row in table.findall("tbody/tr")]
    assert rows == [
        ["s1 (leader)", "blue (solid)", "shooters", '0", 0"', "1", "none", "no"],
        ["t1", "red (striped)", "targets", '12", 0"', "2", "none", "marked"],
        ["t2", "red (striped)", "targets", '12.5", 3"', "1", "light", "no"],
    ]


def test_the_title_gives_positions_and_cover() -> None:
    title = _figure().find("svg/title")
    assert title is not None and title.text is not None
    assert 't2 (targets, red) at 12.5", 3": 1 wounds, cover: light' in title.text


def test_the_second_side_is_striped_and_the_first_solid_as_the_caption_says() -> None:
    figure = _figure("k")
    models = [g for g in figure.iter("g") if g.get("data-model")]
    bases = {g.get("data-model"): g.find("circle[@class='vs-base']") for g in models}
    assert bases["s1"] is not None and bases["s1"].get("style") is None  # solid: the CSS colour
    assert all(bases[m] is not None and bases[m].get("style") == "fill: url(#k-side-1)" for m in ("t1", "t2"))
    pattern = figure.find("svg/defs/pattern[@id='k-side-1']")
    assert pattern is not None and pattern.get("patternTransform") == "rotate(45)"
    assert figure.find("svg/defs/pattern[@id='k-side-2']") is None  # no third side, no dots
    caption = figure.find("figcaption")
    assert caption is not None and "solid: blue; striped: red" in str(caption.text)


def test_every_id_starts_with_the_key_and_keys_differ_across_pages_and_examples() -> None:
    text = ET.tostring(_figure("vs-board-core-cover-3"), encoding="unicode")
    ids = re.findall(r'\bid="([^"]+)"', text)
    assert ids and all(i.startswith("vs-board-core-cover-3-") for i in ids)
    assert len(ids) == len(set(ids))
    pages = ("core/cover.md", "core/damage.md", "ru/core/cover.md")
    keys = {board.key(page, n) for page in pages for n in range(3)}
    assert len(keys) == 9
    assert board.key("core/cover.md", 1) == "vs-board-core-cover-1"
