"""The Python the site's rules judge calls inside Pyodide: the command line itself, on the reader's text.

The page (``assets/judge.js``) hands the scenario the reader edited to ``resolve``, ``odds`` and
``board``. The first two run ``rulespy resolve`` and ``rulespy odds`` through ``rulespy.cli.main`` on
that text saved as ``scenario.yaml`` in a scratch folder, so the page shows exactly what the command line
prints: the same JSON byte for byte, the same account, the same ``scenario.yaml:LINE: message`` for a
malformed scenario and the same rule for an illegal declaration (``tests/site/test_judge.py`` proves it
for every scenario ``tests/cli/resolve_outputs.json`` records). Each answer is one JSON string, which is
all the page has to read.

```python
import json
from rulespy.render.web import resolve

answer = json.loads(resolve("units: [}"))
assert answer["exit"] == 2 and answer["stderr"].startswith("scenario.yaml:1: ")
```
"""

from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import tempfile
import zlib

SCENARIO = "scenario.yaml"
"""The name the reader's scenario has in messages, as in ``tests/cli/resolve_outputs.json``."""


def run(arguments: list[str], text: str) -> tuple[int, str, str]:
    """``rulespy ARGUMENTS[0] scenario.yaml ARGUMENTS[1:]`` on ``text``: exit status, stdout, stderr."""
    from rulespy.cli import main

    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="rulespy-judge-") as folder:
        with open(os.path.join(folder, SCENARIO), "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main([arguments[0], SCENARIO, *arguments[1:]])
        finally:
            os.chdir(here)
    return code, out.getvalue(), err.getvalue()


def resolve(text: str) -> str:
    """``rulespy resolve --json`` and ``rulespy resolve`` on ``text``, as one JSON document:
    ``{"exit", "json", "account", "stderr"}`` (``json`` and ``account`` the two standard outputs)."""
    code, as_json, err = run(["resolve", "--json"], text)
    account = ""
    if code in (0, 1):
        _, account, _ = run(["resolve"], text)
    return json.dumps({"exit": code, "json": as_json, "account": account, "stderr": err})


def odds(text: str) -> str:
    """``rulespy odds --json`` and ``rulespy odds`` on ``text``: ``{"exit", "json", "text", "stderr"}``."""
    code, as_json, err = run(["odds", "--json"], text)
    shown = ""
    if code == 0:
        _, shown, _ = run(["odds"], text)
    return json.dumps({"exit": code, "json": as_json, "text": shown, "stderr": err})


def board(text: str) -> str:
    """The board of the scenario in ``text`` as the site draws it (inline SVG), or "" when the loader
    refuses the scenario (the page then shows the loader's message from ``resolve``)."""
    import xml.etree.ElementTree as ET

    from rulespy.errors import RulesError
    from rulespy.render.board import render
    from rulespy.scenario import parse_scenario

    try:
        scenario = parse_scenario(text, SCENARIO)
        return ET.tostring(render(scenario, "vs-judge"), encoding="unicode")
    except (RulesError, ValueError, RecursionError):
        return ""


def encode(text: str) -> str:
    """A scenario's text as the page address carries it: raw DEFLATE, then base64url without padding
    (the page decodes it with the browser's ``DecompressionStream("deflate-raw")``).

    >>> decode(encode("dice: [6, 2]\\n"))
    'dice: [6, 2]\\n'
    """
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def decode(code: str) -> str:
    """The text ``encode`` packed into ``code``."""
    packed = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    return zlib.decompress(packed, -15).decode("utf-8")


def move(text: str, model: str, x: float, y: float) -> str:
    """``text`` with ``model``'s position (its ``at``) written as ``[x, y]``, everything else kept as
    the reader wrote it; ``text`` unchanged when it does not parse or has no such model with an ``at``.

    >>> move("units:\\n- {id: u, models: [{id: m1, at: [0, 0]}]}\\n", "m1", 12.5, -3)
    'units:\\n- {id: u, models: [{id: m1, at: [12.5, -3]}]}\\n'
    """
    import yaml

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return text
    found = _position_node(root, model)
    if found is None:
        return text
    lines = text.split("\n")
    start = found.start_mark
    end = found.end_mark if found.flow_style or not found.value else found.value[-1].end_mark
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    begin, finish = offsets[start.line] + start.column, offsets[end.line] + end.column
    return text[:begin] + f"[{x:g}, {y:g}]" + text[finish:]


def _value(node: object, key: str) -> object:
    import yaml

    if isinstance(node, yaml.MappingNode):
        for name, value in node.value:
            if isinstance(name, yaml.ScalarNode) and name.value == key:
                return value
    return None


def _position_node(root: object, model: str):  # type: ignore[no-untyped-def]
    import yaml

    units = _value(root, "units")
    for unit in units.value if isinstance(units, yaml.SequenceNode) else []:
        models = _value(unit, "models")
        for node in models.value if isinstance(models, yaml.SequenceNode) else []:
            name = _value(node, "id")
            at = _value(node, "at")
            if (
                isinstance(name, yaml.ScalarNode)
                and name.value == model
                and isinstance(at, yaml.SequenceNode)
            ):
                return at
    return None


def add_model(text: str, unit: str, side: str, x: float, y: float, weapon: str, profile: str) -> str:
    """The Judge page's "Add a model" form: ``text`` with a model at ``[x, y]`` added to ``unit`` (a new
    unit of ``side`` when there is none; its first model is its leader), armed with ``weapon`` (its
    profile, a JSON object, added to ``weapons`` when the scenario lacks it; "" for an unarmed model).
    The scenario is written out again by PyYAML (comments are not kept); an answer starting
    ``scenario.yaml:`` is the loader's message when ``text`` does not parse.

    >>> print(add_model("units: []\\n", "scouts", "red", 3, 4, "", ""), end="")
    units:
    - id: scouts
      side: red
      models:
      - id: scouts1
        at: [3, 4]
        leader: true
    """
    import yaml

    try:
        data = yaml.safe_load(text) or {}
    except yaml.YAMLError as error:
        return f"{SCENARIO}: {error}"
    if not isinstance(data, dict):
        return f"{SCENARIO}:1: a scenario is a mapping of weapons, units, attack and dice"
    units = data.setdefault("units", [])
    found = next((u for u in units if isinstance(u, dict) and u.get("id") == unit), None)
    if found is None:
        found = {"id": unit, "side": side, "models": []}
        units.append(found)
    models = found.setdefault("models", [])
    taken = {str(m.get("id")) for u in units if isinstance(u, dict) for m in u.get("models") or []}
    number = 1
    while f"{unit}{number}" in taken:
        number += 1
    model: dict[str, object] = {"id": f"{unit}{number}", "at": [x, y]}
    if not models:
        model["leader"] = True
    if weapon:
        model["weapons"] = [weapon]
        weapons = data.setdefault("weapons", {})
        if weapon not in weapons and profile:
            weapons[weapon] = json.loads(profile)
    models.append(model)
    return str(yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100, allow_unicode=True))


def roll(text: str, seed: int | None) -> str:
    """``text`` with its dice set to seeded random dice ``seed: SEED`` (replacing ``dice`` or ``seed``),
    everything else kept as written; ``None`` keeps the text as it is (its scripted dice).

    >>> roll("attack: {unit: a}\\ndice: [6,\\n  2]\\nexpect: {}\\n", 7)
    'attack: {unit: a}\\nseed: 7\\nexpect: {}\\n'
    """
    import yaml

    if seed is None:
        return text
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return text
    lines = text.split("\n")
    pairs = root.value if isinstance(root, yaml.MappingNode) else []
    keys = [(key, value) for key, value in pairs if getattr(key, "value", None) in ("dice", "seed")]
    for key, value in reversed(keys):
        end = value.end_mark.line + (1 if value.end_mark.column else 0)
        del lines[key.start_mark.line : max(end, key.start_mark.line + 1)]
    at = keys[0][0].start_mark.line if keys else len(lines) - (1 if lines and lines[-1] == "" else 0)
    lines.insert(at, f"seed: {seed}")
    return "\n".join(lines)
