"""A worked example's board as an inline SVG, drawn from the scenario's own data (the scenario format
that `rulespy resolve` reads: inches, +y up, facing in degrees counter-clockwise from +x).

Drawn: terrain polygons by kind, models as circles of their base diameter (a ring marks the leader,
cross-hairs the marked model), sight lines from the firing models to each mark, fire arcs, and range
rings where they matter (a target near the edge of a weapon's range, or a minimum range). Colours
come from CSS classes (rulespy/render/assets/voidsiege.css) so both palettes read well.

The sides differ by more than colour, so that a board reads in greyscale and for a colour-blind
reader: the first side's bases are solid and dark, the second's lighter and striped, a third's dotted
(``SIDE_LOOKS``), and the caption says which is which. Under the drawing, a table (folded in a
``<details>``, "The board as text") lists every model's side, unit, position, wounds, cover and
whether it is marked or leads its unit: the board's text alternative, also for screen readers, whose
``<title>`` names the same table.

Ids: every id the SVG holds starts with the ``key`` its caller gives, unique on the page and across the
rulebook (``key(page, number)``: ``vs-board-core-damage-2`` for the third example of
``core/damage.md``); the judge gives each editor its own.
"""

from __future__ import annotations

import dataclasses
import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from rulespy.core.cover import model_cover
from rulespy.core.measuring import distance
from rulespy.core.shooting import declared_weapons
from rulespy.errors import RulesError
from rulespy.state import Model, Scenario, Terrain

MARGIN = 1.5  # inches of board shown around everything drawn
MAX_WIDTH_PX = 640.0
MAX_SCALE = 40.0  # px per inch
BOARD_INCHES = 240.0
"""The widest board drawn (20 feet): a scenario spread wider is not drawn (the site warns, the judge says
so), so that no scenario makes a drawing of millions of pixels or grid lines."""
SIDE_LOOKS = ("solid", "striped", "dotted")
"""How each side's bases look, beyond their colour (the first three sides; a fourth is solid again)."""


def too_wide(scenario: Scenario) -> bool:
    """Whether the scenario's models and terrain spread wider than ``BOARD_INCHES`` either way."""
    points = [m.at for u in scenario.battlefield.units for m in u.models]
    points += [v for t in scenario.battlefield.terrain for v in t.polygon]
    xs, ys = [p[0] for p in points] or [0.0], [p[1] for p in points] or [0.0]
    return max(xs) - min(xs) > BOARD_INCHES or max(ys) - min(ys) > BOARD_INCHES


def key(page: str, number: int) -> str:
    """The id prefix of the ``number``-th board (from 0) of rule page ``page``, unique across the site
    and the rulebook, which prints every page into one document.

    >>> key("core/target_lock.md", 2)
    'vs-board-core-target_lock-2'
    """
    stem = page.removesuffix(".md").replace("/", "-")
    return f"vs-board-{''.join(c if c.isalnum() or c in '-_' else '-' for c in stem)}-{number}"


@dataclass(frozen=True, kw_only=True)
class Piece(Model):
    """A model as drawn (so rulespy measures it): its unit, its side's colour and its hover text."""

    unit: str
    side: int
    side_name: str
    label: str


Sight = tuple[Piece, Piece, tuple[str, ...]]  # firing model, mark, weapons
Ring = tuple[Piece, float, str, bool]  # centre, radius in inches, label, minimum range?


def _pieces(scenario: Scenario) -> list[Piece]:
    sides: list[str] = []
    pieces: list[Piece] = []
    for unit in scenario.battlefield.units:
        if unit.side not in sides:
            sides.append(unit.side)
        for model in unit.models:
            cover = model_cover(model, scenario.battlefield.terrain).name.lower()
            extras = sorted(str(s) for s in model.status) + [f"{model.wounds} wounds", f"cover: {cover}"]
            fields = {f.name: getattr(model, f.name) for f in dataclasses.fields(Model)}
            pieces.append(
                Piece(
                    **fields,
                    unit=unit.id,
                    side=sides.index(unit.side),
                    side_name=unit.side,
                    label=f'{model.id} ({unit.id}, {unit.side}) at {_f(model.at[0])}", {_f(model.at[1])}": '
                    + ", ".join(extras),
                )
            )
    return pieces


def _firing(scenario: Scenario, pieces: list[Piece]) -> list[Sight]:
    """(firing model, mark, weapons) for every declared target and a Snap Fire response."""
    by_id = {p.id: p for p in pieces}
    attack = scenario.attack
    targets = attack.targets
    try:  # the engine's own reading of which model fires which weapon at which target
        declared = declared_weapons(scenario.battlefield.unit(attack.unit), targets)
    except (RulesError, KeyError):
        declared = tuple(() for _ in targets)  # a faulty declaration (an example of one): no sight lines
    lines: list[Sight] = []
    for target, pairs in zip(targets, declared, strict=True):
        mark = by_id.get(target.mark)
        if mark is None:
            continue
        weapons: dict[str, list[str]] = {}
        for model_id, weapon in pairs:
            weapons.setdefault(model_id, []).append(weapon)
        lines += [(by_id[m], mark, tuple(w)) for m, w in weapons.items() if not by_id[m].holds_fire]
    response = scenario.response
    if response is not None and targets and response.mark in by_id:
        answering = targets[0].unit
        mark = by_id[response.mark]
        lines += [
            (p, mark, p.weapons) for p in pieces if p.unit == answering and p.weapons and not p.holds_fire
        ]
    return lines


def _rings(scenario: Scenario, lines: list[Sight], pieces: list[Piece]) -> list[Ring]:
    """Range rings worth drawing: (centre, radius in inches, label, minimum?)."""
    weapons = {w.name: w for w in scenario.battlefield.weapons}
    rings: dict[tuple[str, str, bool], Ring] = {}
    for shooter, mark, names in lines:
        target_unit = [p for p in pieces if p.unit == mark.unit]
        closest = min(distance(shooter, p) for p in target_unit)
        for name in names:
            weapon = weapons.get(name)
            if weapon is None:
                continue
            reach = weapon.range
            if reach and abs(closest - reach) <= max(3.0, 0.25 * reach):
                rings[(shooter.id, name, False)] = (
                    shooter,
                    reach + shooter.radius,
                    f'{name} {reach:g}"',
                    False,
                )
            if weapon.minimum_range:
                n = weapon.minimum_range
                rings[(shooter.id, name, True)] = (shooter, n + shooter.radius, f'min {n:g}"', True)
    return list(rings.values())


class _Canvas:
    """Board inches to SVG pixels (y flipped so that +y points up the page)."""

    def __init__(self, xs: list[float], ys: list[float]) -> None:
        self.x0, self.x1 = min(xs) - MARGIN, max(xs) + MARGIN
        self.y0, self.y1 = min(ys) - MARGIN, max(ys) + MARGIN
        span = max(self.x1 - self.x0, 6.0)
        self.x1 = self.x0 + span
        self.scale = min(MAX_SCALE, MAX_WIDTH_PX / span)
        self.width = span * self.scale
        self.height = (self.y1 - self.y0) * self.scale

    def point(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * self.scale, (self.y1 - y) * self.scale


def _f(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _sub(parent: ET.Element, tag: str, css: str | None = None, **attrs: str) -> ET.Element:
    element = ET.SubElement(parent, tag, {k.replace("_", "-"): v for k, v in attrs.items()})
    if css:
        element.set("class", css)
    return element


def render(scenario: Scenario, key: str) -> ET.Element:
    """A ``<figure>`` holding the board of ``scenario`` (a scenario the loader accepted, so every position
    is finite and within its stated board size); ``key`` makes its ids unique on the page."""
    pieces = _pieces(scenario)
    terrain = list(scenario.battlefield.terrain)
    points = [(p.at[0] + d * p.radius, p.at[1] + d * p.radius) for p in pieces for d in (-1, 1)]
    points += [v for t in terrain for v in t.polygon]
    canvas = _Canvas([x for x, _ in points] or [0.0], [y for _, y in points] or [0.0])
    lines = _firing(scenario, pieces)
    figure = ET.Element("figure", {"class": "vs-board"})
    svg = _sub(
        figure,
        "svg",
        "vs-board-svg",
        viewBox=f"0 0 {_f(canvas.width)} {_f(canvas.height)}",
        role="img",
        aria_labelledby=f"{key}-title",
        data_frame=f"{canvas.x0!r} {canvas.y1!r} {canvas.scale!r}",  # inches from pixels, for dragging
    )
    title = _sub(svg, "title", id=f"{key}-title")
    title.text = "Board (also as a table below it): " + "; ".join(p.label for p in pieces)
    defs = _sub(svg, "defs")
    for side, look in enumerate(SIDE_LOOKS[1:], start=1):  # the second side striped, the third dotted
        if not any(p.side % len(SIDE_LOOKS) == side for p in pieces):
            continue
        fill = _sub(defs, "pattern", id=f"{key}-side-{side}", width="6", height="6")
        fill.set("patternUnits", "userSpaceOnUse")
        if look == "striped":
            fill.set("patternTransform", "rotate(45)")
            _sub(fill, "rect", f"vs-pattern-ground vs-side-{side}-fill", width="6", height="6")
            _sub(fill, "rect", "vs-pattern-ink", width="2", height="6")
        else:
            _sub(fill, "rect", f"vs-pattern-ground vs-side-{side}-fill", width="6", height="6")
            _sub(fill, "circle", "vs-pattern-ink", cx="3", cy="3", r="1.3")
    clip = _sub(defs, "clipPath", id=f"{key}-clip")
    _sub(clip, "rect", x="0", y="0", width=_f(canvas.width), height=_f(canvas.height))
    hatch = _sub(
        defs,
        "pattern",
        id=f"{key}-hatch",
        width="8",
        height="8",
        patternUnits="userSpaceOnUse",
        patternTransform="rotate(45)",
    )
    _sub(hatch, "line", "vs-hatch", x1="0", y1="0", x2="0", y2="8")
    board = _sub(svg, "g", clip_path=f"url(#{key}-clip)")
    _sub(board, "rect", "vs-ground", x="0", y="0", width=_f(canvas.width), height=_f(canvas.height))
    _grid(board, canvas)
    for area in terrain:
        kind = str(area.kind)
        corners = " ".join("{},{}".format(*map(_f, canvas.point(*v))) for v in area.polygon)
        shape = _sub(board, "polygon", f"vs-terrain vs-terrain-{kind}", points=corners)
        if kind == "heavy":
            _sub(board, "polygon", "vs-terrain-hatch", points=corners, fill=f"url(#{key}-hatch)")
        _sub(shape, "title").text = f"{kind} terrain"
    for centre, radius, label, minimum in _rings(scenario, lines, pieces):
        cx, cy = canvas.point(*centre.at)
        _sub(
            board,
            "circle",
            "vs-ring vs-ring-min" if minimum else "vs-ring",
            cx=_f(cx),
            cy=_f(cy),
            r=_f(radius * canvas.scale),
        )
        text = _sub(board, "text", "vs-ring-label", x=_f(cx), y=_f(cy - radius * canvas.scale + 12))
        text.text = label
    for piece in pieces:
        if piece.arc is not None and piece.arc < 360:
            _sub(board, "path", "vs-arc", d=_wedge(canvas, piece))
    for shooter, mark, names in lines:
        (x1, y1), (x2, y2) = canvas.point(*shooter.at), canvas.point(*mark.at)
        line = _sub(
            board, "line", f"vs-sight vs-sight-{shooter.side}", x1=_f(x1), y1=_f(y1), x2=_f(x2), y2=_f(y2)
        )
        _sub(line, "title").text = f"{shooter.id} to {mark.id}: {', '.join(names)}"
    marks = {sight[1].id for sight in lines}
    for piece in pieces:
        _model(board, canvas, piece, piece.id in marks, key)
    ET.SubElement(figure, "figcaption").text = _legend(pieces, terrain, lines, canvas)
    figure.append(_as_text(pieces, terrain, marks))
    return figure


def _as_text(pieces: list[Piece], terrain: list[Terrain], marks: set[str]) -> ET.Element:
    """The board's text alternative: one row a model (side, unit, position, wounds, cover, mark)."""
    folded = ET.Element("details", {"class": "vs-board-text"})
    ET.SubElement(folded, "summary").text = "The board as text"
    table = ET.SubElement(folded, "table")
    head = ET.SubElement(ET.SubElement(table, "thead"), "tr")
    for name in ("model", "side", "unit", "position", "wounds", "cover", "marked"):
        ET.SubElement(head, "th", {"scope": "col"}).text = name
    body = ET.SubElement(table, "tbody")
    terrain_pieces = tuple(terrain)
    for piece in pieces:
        row = ET.SubElement(body, "tr")
        look = SIDE_LOOKS[piece.side % len(SIDE_LOOKS)]
        cells = (
            piece.id + (" (leader)" if piece.leader else ""),
            f"{piece.side_name} ({look})",
            piece.unit,
            f'{_f(piece.at[0])}", {_f(piece.at[1])}"',
            str(piece.wounds),
            model_cover(piece, terrain_pieces).name.lower(),
            "marked" if piece.id in marks else "no",
        )
        for number, cell in enumerate(cells):
            heading = number == 0
            ET.SubElement(row, "th" if heading else "td", {"scope": "row"} if heading else {}).text = cell
    return folded


def _legend(pieces: list[Piece], terrain: list[Terrain], lines: list[Sight], canvas: _Canvas) -> str:
    """The key to what this board shows, naming only what is on it."""
    parts = ["Bases to scale", f'grid {_f(_grid_step(canvas))}"']
    sides = dict.fromkeys((p.side, p.side_name) for p in pieces)
    parts += [f"{SIDE_LOOKS[side % len(SIDE_LOOKS)]}: {name}" for side, name in sides]
    if any(p.leader for p in pieces):
        parts.append("ringed \u2605: leader")
    if lines:
        parts += ["cross-hairs: marked model", "dashed lines: sight from each firing model to its mark"]
    kinds = {str(t.kind) for t in terrain}
    names = {
        "blocking": "grey: blocking terrain",
        "light": "green: light cover",
        "heavy": "hatched: heavy cover",
    }
    parts += [names[k] for k in ("blocking", "light", "heavy") if k in kinds]
    if any(p.arc is not None and p.arc < 360 for p in pieces):
        parts.append("wedge: fire arc")
    return "; ".join(parts) + "."


def _grid_step(canvas: _Canvas) -> float:
    return 1.0 if canvas.x1 - canvas.x0 <= 24 else 6.0


def _grid(board: ET.Element, canvas: _Canvas) -> None:
    step = _grid_step(canvas)
    group = _sub(board, "g", "vs-grid")
    x = math.ceil(canvas.x0 / step) * step
    while x <= canvas.x1:
        px, _ = canvas.point(x, 0)
        _sub(group, "line", x1=_f(px), y1="0", x2=_f(px), y2=_f(canvas.height))
        x += step
    y = math.ceil(canvas.y0 / step) * step
    while y <= canvas.y1:
        _, py = canvas.point(0, y)
        _sub(group, "line", x1="0", y1=_f(py), x2=_f(canvas.width), y2=_f(py))
        y += step


def _wedge(canvas: _Canvas, piece: Piece) -> str:
    arc = piece.arc or 0.0
    reach = max(3.0, 4 * piece.radius) * canvas.scale
    cx, cy = canvas.point(*piece.at)
    ends = []
    for angle in (piece.facing - arc / 2, piece.facing + arc / 2):
        rad = math.radians(angle)
        ends.append((cx + reach * math.cos(rad), cy - reach * math.sin(rad)))
    large = 1 if arc > 180 else 0
    (ax, ay), (bx, by) = ends
    return f"M{_f(cx)},{_f(cy)} L{_f(ax)},{_f(ay)} A{_f(reach)},{_f(reach)} 0 {large} 0 {_f(bx)},{_f(by)} Z"


def _model(board: ET.Element, canvas: _Canvas, piece: Piece, marked: bool, key: str) -> None:
    cx, cy = canvas.point(*piece.at)
    r = piece.radius * canvas.scale
    group = _sub(board, "g", f"vs-model vs-side-{piece.side}" + (" vs-leader" if piece.leader else ""))
    group.set("data-model", piece.id)
    _sub(group, "title").text = (
        piece.label + (" (leader)" if piece.leader else "") + (" (marked)" if marked else "")
    )
    if piece.leader:
        _sub(group, "circle", "vs-leader-ring", cx=_f(cx), cy=_f(cy), r=_f(r + 4))
    base = _sub(group, "circle", "vs-base", cx=_f(cx), cy=_f(cy), r=_f(r))
    if SIDE_LOOKS[piece.side % len(SIDE_LOOKS)] != "solid":
        base.set("style", f"fill: url(#{key}-side-{piece.side % len(SIDE_LOOKS)})")  # over the CSS colour
    if marked:
        for dx, dy in ((1, 0), (0, 1)):
            _sub(
                group,
                "line",
                "vs-mark",
                x1=_f(cx - dx * (r + 8)),
                y1=_f(cy - dy * (r + 8)),
                x2=_f(cx + dx * (r + 8)),
                y2=_f(cy + dy * (r + 8)),
            )
        _sub(group, "circle", "vs-mark", cx=_f(cx), cy=_f(cy), r=_f(r + 6))
    label = _sub(group, "text", "vs-label", x=_f(cx), y=_f(cy + r + 14))
    label.text = piece.id + (" ★" if piece.leader else "")
