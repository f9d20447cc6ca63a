"""The Python the site's rules judge calls inside Pyodide: the command line's answers, on the reader's text.

The page (``assets/judge.js``) hands the scenario the reader edited to ``resolve``, ``odds`` and
``board``. The first two return what ``rulespy.api`` answers for that text, named ``scenario.yaml``: the
library function the command line prints from, so the page shows exactly what ``rulespy resolve`` and
``rulespy odds`` print: the same JSON byte for byte, the same account, the same ``scenario.yaml:LINE:
message`` for a malformed scenario and the same rule for an illegal declaration
(``tests/site/test_judge.py`` proves it for every scenario ``tests/cli/resolve_outputs.json`` records).
No file, folder, working directory or argument list is involved. Each answer is one JSON string, which
is all the page has to read.

The Judge page's forms (``assets/judge-page.js``) edit the YAML through the helpers below and judge it
again: ``form`` reads the scenario back into the forms (the loader's own list of ``commands``, the units
and models, the declared attack), ``declare`` writes the attack, ``move`` a model's position (typed or
dragged), ``weapon`` a weapon typed in, ``add_model`` a model, ``roll`` seeded dice and ``script``
scripted dice. Each rewrites only its own part of the text (``add_model`` the ``units`` block and, for
a new profile, ``weapons``; a scenario in flow style whole) and leaves any error in the reader's values
to the loader, which names its line.

```python
import json
from rulespy.render.web import resolve

answer = json.loads(resolve("units: [}"))
assert answer["exit"] == 2 and answer["stderr"].startswith("scenario.yaml:1: ")
```
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from typing import Any

SCENARIO = "scenario.yaml"
"""The name the reader's scenario has in messages, as in ``tests/cli/resolve_outputs.json``."""


def warm() -> None:
    """Import what the first judgement needs, while the page still says the engine is starting."""
    import rulespy.account
    import rulespy.api
    import rulespy.odds
    import rulespy.odds.sampled
    import rulespy.render.board
    import rulespy.scenario
    import rulespy.sequences.resolution  # noqa: F401


def resolve(text: str, language: str = "en") -> str:
    """``rulespy resolve --json`` and ``rulespy resolve`` on ``text``, as one JSON document:
    ``{"exit", "json", "account", "stderr", "start"}`` (``json`` and ``account`` the two standard
    outputs, as ``rulespy.api.resolve`` gives them from one resolution; ``start`` each model's unit,
    side and wounds before the attack, for the outcome's table). ``language``: the words' language
    (``--lang``; the judge on /ru/ passes ``"ru"``)."""
    from rulespy.api import resolve as answer_to

    answer = answer_to(text, SCENARIO, language=language)
    start: dict[str, dict[str, object]] = {}
    if answer.scenario is not None:
        for unit in answer.scenario.battlefield.units:
            for model in unit.models:
                start[model.id] = {"unit": unit.id, "side": unit.side, "wounds": model.wounds}
    return json.dumps(
        {
            "exit": answer.exit,
            "json": answer.json or "",
            "account": answer.text or "",
            "stderr": answer.error,
            "start": start,
        }
    )


def odds(text: str, language: str = "en") -> str:
    """``rulespy odds --json`` and ``rulespy odds`` on ``text``: ``{"exit", "json", "text", "stderr"}``
    (``text`` only for odds computed: "" for an illegal declaration); exact where the exact engine takes
    the attack on, else sampled once for both (the JSON's ``method`` says which). ``language`` as for
    ``resolve``."""
    from rulespy.api import odds as answer_to

    answer = answer_to(text, SCENARIO, language=language)
    shown = (answer.text or "") if answer.exit == 0 else ""
    return json.dumps({"exit": answer.exit, "json": answer.json or "", "text": shown, "stderr": answer.error})


def board(text: str, key: str = "vs-judge", language: str = "en") -> str:
    """The board of the scenario in ``text`` as the site draws it (inline SVG), or "" when the loader
    refuses the scenario (the page then shows the loader's message from ``resolve``). ``key`` starts
    every id of the drawing: each editor on a page gives its own, so that two open boards never share a
    pattern or clip path. ``language``: the words of the note that replaces a board too wide to draw."""
    import xml.etree.ElementTree as ET

    from rulespy.errors import RulesError
    from rulespy.i18n import _
    from rulespy.i18n import language as speaking
    from rulespy.render.board import BOARD_INCHES, render, too_wide
    from rulespy.scenario import parse_scenario

    try:
        scenario = parse_scenario(text, SCENARIO)
        if too_wide(scenario):
            with speaking(language):
                note = _("The board is wider than {inches:g} inches: not drawn.", inches=BOARD_INCHES)
            return f'<p class="vs-judge-note">{note}</p>'
        return ET.tostring(render(scenario, key), encoding="unicode")
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
    root = _compose(text)
    if root is False:
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
    Only the ``units`` block (and ``weapons``, when a profile is added) is written again, by PyYAML
    (comments inside it are not kept); the rest stays as the reader wrote it. An answer starting
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

    data = _mapping(text)
    if isinstance(data, str):
        return data
    if not _shaped(data):
        return text  # a model cannot be added to it: the loader names what is wrong
    units = data["units"] = data.get("units") or []  # `units:` with nothing after it too
    found = next((u for u in units if isinstance(u, dict) and u.get("id") == unit), None)
    if found is None:
        found = {"id": unit, "side": side, "models": []}
        units.append(found)
    models = found["models"] = found.get("models") or []
    taken = {str(m.get("id")) for u in units if isinstance(u, dict) for m in u.get("models") or []}
    number = 1
    while f"{unit}{number}" in taken:
        number += 1
    model: dict[str, object] = {"id": f"{unit}{number}", "at": [x, y]}
    if not models:
        model["leader"] = True
    weapons = dict(data.get("weapons") or {})
    if weapon:
        model["weapons"] = [weapon]
    models.append(model)
    written = _set_top(text, ("units",), _block({"units": units}).rstrip("\n"))
    if weapon and weapon not in weapons and profile:
        weapons[weapon] = json.loads(profile)
        written = _set_top(written, ("weapons",), _weapons_block(weapons), first=True)
    if written == text:  # not a block mapping (a scenario in flow style): write it all again
        if weapons:
            data["weapons"] = weapons
        written = _block(data)
    return written


def _block(data: dict[str, Any]) -> str:
    """``data`` as block YAML, its innermost collections in flow style."""
    import yaml

    return str(yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=100, allow_unicode=True))


def _shaped(data: dict[str, Any]) -> bool:
    """``units`` a list of units, each one's ``models`` a list of models, and ``weapons`` a mapping, or
    absent: what ``add_model`` can add to."""
    units = data.get("units") or []
    return (
        isinstance(units, list)
        and isinstance(data.get("weapons") or {}, dict)
        and all(
            isinstance(u, dict)
            and isinstance(u.get("models") or [], list)
            and all(isinstance(m, dict) for m in u.get("models") or [])
            for u in units
        )
    )


def roll(text: str, seed: int | None) -> str:
    """``text`` with its dice set to seeded random dice ``seed: SEED`` (replacing ``dice`` or ``seed``),
    everything else kept as written; ``None`` keeps the text as it is (its scripted dice).

    >>> roll("attack: {unit: a}\\ndice: [6,\\n  2]\\nexpect: {}\\n", 7)
    'attack: {unit: a}\\nseed: 7\\nexpect: {}\\n'
    """
    if seed is None:
        return text
    return _set_top(text, ("dice", "seed"), f"seed: {seed}")


def script(text: str, typed: str) -> str:
    """The Judge page's scripted roll: ``text`` with ``dice`` set to the faces typed in ``typed``
    (separated by commas or spaces, in Dice Order), replacing ``dice`` or ``seed``. A face that is not a
    whole number is written as typed, so the loader refuses it with its line, as the command line would.

    >>> script("seed: 3\\n", "4, 6 2")
    'dice: [4, 6, 2]\\n'
    """
    faces = [_scalar(face) for face in re.split(r"[\s,\[\]]+", typed) if face]
    return _set_top(text, ("dice", "seed"), _flow({"dice": faces}))


def weapon(text: str, name: str, fields: str) -> str:
    """The Judge page's typed weapon: ``text`` with weapon ``name`` defined (or redefined) by ``fields``,
    a JSON object of the scenario format's weapon keys (``range``, ``dice``, ``lock``, ``damage``, each as
    typed, and ``traits``, a text of traits separated by commas such as ``"heavy, critical 5"``). Values
    are read as YAML scalars, so a wrong one reaches the loader, which names its line. Only the
    ``weapons`` block is written again; ``text`` unchanged when it does not parse (Run then shows why).

    >>> print(weapon("units: []\\n", "lance", '{"range": "36", "dice": "1", "lock": "3",'
    ...     ' "damage": "3", "traits": "heavy"}'), end="")
    weapons:
      lance: {range: 36, dice: 1, lock: 3, damage: 3, traits: [heavy]}
    units: []
    """
    data = _mapping(text)
    if isinstance(data, str) or not isinstance(data.get("weapons") or {}, dict):
        return text  # nothing to write into: the loader names what is wrong
    profile: dict[str, object] = {}
    for key, value in json.loads(fields).items():
        if key == "traits":
            traits = [" ".join(t.split()) for t in str(value).split(",") if t.strip()]
            if traits:
                profile["traits"] = traits
        elif str(value).strip():
            profile[key] = _scalar(str(value))
    table = dict(data.get("weapons") or {})
    table[name] = profile
    return _set_top(text, ("weapons",), _weapons_block(table), first=True)


def _weapons_block(table: dict[str, Any]) -> str:
    """The ``weapons`` block of ``table``: one line of YAML for each profile."""
    return "\n".join(["weapons:", *(f"  {_flow({n: p})}" for n, p in table.items())])


def commands() -> tuple[str, ...]:
    """The commands an attack may be declared with: the scenario loader's own list."""
    from rulespy.scenario.declaration import ATTACK_COMMANDS

    return ATTACK_COMMANDS


def form(text: str) -> str:
    """What the Judge page's forms show for the scenario in ``text``, as JSON: the ``commands`` the
    loader knows, each unit with its side and models (``id``, ``at``, ``weapons``), the weapon profiles,
    and the declared attack as the declaration form holds it: its ``unit``, ``command``, ``main`` target
    (the target that takes every weapon not sent elsewhere, else the first), the ``marks`` by target
    unit and ``split``, the target unit of each ``MODEL/WEAPON`` fired elsewhere ("" for one declared
    nowhere). Only the commands and an ``error`` for text that is no mapping; the loader judges the rest.

    >>> json.loads(form("units: [{id: a, side: red, models: [{id: a1, weapons: [gun]}]}]\\n"))["units"]
    [{'id': 'a', 'side': 'red', 'models': [{'id': 'a1', 'at': None, 'weapons': ['gun']}]}]
    """
    data = _mapping(text)
    if isinstance(data, str):
        return json.dumps({"commands": list(commands()), "error": data})
    units: list[dict[str, Any]] = []
    for unit in _list(data.get("units")):
        if isinstance(unit, dict) and "id" in unit:
            models = [
                {"id": str(m["id"]), "at": m.get("at"), "weapons": [str(w) for w in _list(m.get("weapons"))]}
                for m in _list(unit.get("models"))
                if isinstance(m, dict) and "id" in m
            ]
            units.append({"id": str(unit["id"]), "side": str(unit.get("side", "")), "models": models})
    weapons = data.get("weapons")
    attack = data.get("attack")
    return json.dumps(
        {
            "commands": list(commands()),
            "units": units,
            "weapons": weapons if isinstance(weapons, dict) else {},
            "attack": _declared(attack, units) if isinstance(attack, dict) else {},
        },
        default=str,
    )


def _declared(attack: dict[str, Any], units: list[dict[str, Any]]) -> dict[str, object]:
    """The declaration form's reading of ``attack``: which target each weapon of the firing unit fires at."""
    targets = [t for t in _list(attack.get("targets")) if isinstance(t, dict) and "unit" in t]
    open_targets = [t for t in targets if "models" not in t and "weapons" not in t]
    main = str((open_targets or targets or [{"unit": ""}])[0]["unit"])
    firing: dict[str, Any] = next((u for u in units if u["id"] == str(attack.get("unit"))), {"models": []})
    split: dict[str, str] = {}
    for model in firing["models"]:
        for name in model["weapons"]:
            pair = f"{model['id']}/{name}"
            at = next((str(t["unit"]) for t in targets if _fires_at(t, model["id"], pair)), None)
            if at is None and not open_targets:
                split[pair] = ""  # declared nowhere: it does not fire
            elif at is not None and at != main:
                split[pair] = at
    return {
        "unit": str(attack.get("unit", "")),
        "command": str(attack.get("command", "")),
        "main": main,
        "marks": {str(t["unit"]): str(t.get("mark", "")) for t in targets},
        "split": split,
    }


def _fires_at(target: dict[str, object], model: str, pair: str) -> bool:
    return pair in [str(p) for p in _list(target.get("weapons"))] or model in [
        str(m) for m in _list(target.get("models"))
    ]


def declare(text: str, unit: str, command: str, main: str, marks: str, split: str) -> str:
    """The Judge page's declaration form: ``text`` with its ``attack`` written again as ``unit`` firing
    with ``command`` at the ``main`` target, every weapon of ``split`` (a JSON object of ``MODEL/WEAPON``
    to a target unit, or to "" for a weapon declared nowhere, which does not fire) at its own target
    instead (core/shooting.md#split-target), each target with its
    mark from ``marks`` (a JSON object of target unit to model, in the order the targets are declared:
    Dice Order follows it). Everything but the ``attack`` block is kept as written; the loader then
    judges the declaration.

    >>> print(declare("dice: [6]\\n", "a", "shoot", "b", '{"b": "b1", "c": "c1"}', '{"a2/gun": "c"}'), end="")
    dice: [6]
    attack:
      unit: a
      command: shoot
      targets:
        - {unit: b, mark: b1}
        - {unit: c, mark: c1, weapons: [a2/gun]}
    """
    chosen, elsewhere = json.loads(marks), json.loads(split)
    fired: dict[str, list[str]] = {main: []}
    for pair, target in elsewhere.items():
        if target and target != main:
            fired.setdefault(target, []).append(pair)
    open_target = "" not in elsewhere.values()
    if not open_target:  # a weapon declared nowhere: the main target's weapons are listed too
        fired[main] = [p for p in _pairs(text, unit) if elsewhere.get(p, main) == main]
    order = [u for u in chosen if u in fired] + [u for u in fired if u not in chosen]
    lines = ["attack:", f"  {_flow({'unit': unit})}", f"  {_flow({'command': command})}", "  targets:"]
    for target in order:
        declared: dict[str, object] = {"unit": target, "mark": chosen.get(target, "")}
        if target != main or not open_target:
            if not fired[target]:
                continue
            declared["weapons"] = fired[target]
        lines.append(f"    - {{{_flow(declared)}}}")
    return _set_top(text, ("attack",), "\n".join(lines))


def _pairs(text: str, unit: str) -> list[str]:
    """Every ``MODEL/WEAPON`` of ``unit`` in the scenario ``text``."""
    found = json.loads(form(text)).get("units", [])
    models: list[dict[str, Any]] = next((u["models"] for u in found if u["id"] == unit), [])
    return [f"{m['id']}/{w}" for m in models for w in m["weapons"]]


def _compose(text: str) -> Any:
    """``text`` composed into YAML nodes under the scenario loader's budgets (its size, and the nodes and
    depth of ``rulespy.yamlbudget``, every alias counted as all it names), or False when it does not
    parse or passes a budget: the forms never read what the loader would refuse for its size."""
    import yaml

    from rulespy import yamlbudget
    from rulespy.scenario.yamlnodes import MAX_BYTES

    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        return False
    try:
        return yamlbudget.compose(text, portable=True)
    except (yaml.YAMLError, yamlbudget.YAMLTooLarge, RecursionError):
        return False


def _mapping(text: str) -> dict[str, Any] | str:
    """The scenario in ``text`` as plain data, read by the scenario loader's YAML reader
    (``rulespy.scenario.yamlnodes``: its budgets, plain data only, no duplicate key), or the loader's
    ``scenario.yaml:LINE: message`` when it refuses the text or the text is not a mapping. Only the form
    is judged here: whether the values make a valid scenario is the loader's question at Run."""
    from rulespy.errors import InvalidInput
    from rulespy.scenario.yamlnodes import Map, parse, plain

    try:
        root = parse(text, SCENARIO)
    except InvalidInput as error:
        if error.message == "the scenario is empty":  # nothing but comments: the forms start it
            return {}
        return error.located()
    except RecursionError:
        return f"{SCENARIO}:1: the scenario is too deeply nested to be read"
    if not isinstance(root, Map):
        return f"{SCENARIO}:1: a scenario is a mapping of weapons, units, attack and dice"
    data: dict[str, Any] = plain(root)
    return data


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


def _scalar(typed: str) -> object:
    """A value typed in a form field, read as YAML reads it (``4`` a number, ``four`` a text)."""
    import yaml

    try:
        value = yaml.safe_load(typed)
    except yaml.YAMLError:
        return typed
    return value if isinstance(value, int | float | str) else typed


def _flow(data: dict[str, object]) -> str:
    """``data``'s entries as one line of YAML, its collections in flow style, without the outer braces."""
    import yaml

    return str(
        yaml.safe_dump(data, sort_keys=False, default_flow_style=True, width=10_000, allow_unicode=True)
    )[1:-2]


def _set_top(text: str, keys: tuple[str, ...], block: str, first: bool = False) -> str:
    """``text`` with its top-level ``keys`` (each key's lines through the end of its value) replaced by
    ``block``, written where the first of them was, or else at the end (at the first top-level key when
    ``first``). Everything else is kept as written; ``text`` unchanged when it does not parse as a block
    mapping (the loader then names what is wrong)."""
    import yaml

    root = _compose(text)
    if root is False:
        return text
    if root is None:
        root = yaml.MappingNode("tag:yaml.org,2002:map", [], flow_style=False)
    if not isinstance(root, yaml.MappingNode) or root.flow_style:
        return text
    lines = text.split("\n")
    found = [(key, value) for key, value in root.value if getattr(key, "value", None) in keys]
    for key, value in reversed(found):
        end = _end(value)
        del lines[key.start_mark.line : max(end.line + (1 if end.column else 0), key.start_mark.line + 1)]
    if found:
        at = found[0][0].start_mark.line
    elif first and root.value:
        at = root.value[0][0].start_mark.line
    else:
        at = len(lines) - (1 if lines and lines[-1] == "" else 0)
    written = block.split("\n")
    anchor = _anchor(text, found[0][1]) if len(found) == 1 else None
    if anchor and written[0].rstrip().endswith(":"):  # `weapons: &kit` keeps its anchor
        written[0] = f"{written[0].rstrip()} &{anchor}"
    lines[at:at] = written
    result = "\n".join(lines)
    if _compose(result) is False:  # an alias of an anchor the block held would break: keep the text
        return text
    return result


def _anchor(text: str, node: Any) -> str | None:
    """The anchor written on ``node`` (``&kit``), which PyYAML's nodes do not keep: read at its start."""
    found = re.match(r"&([^\s,\[\]{}]+)", text[node.start_mark.index :])
    return found.group(1) if found else None


def _end(node: Any) -> Any:
    """Where ``node``'s own text ends: a block collection ends with its last item (a comment after it
    belongs to what follows)."""
    import yaml

    if isinstance(node, yaml.CollectionNode) and not node.flow_style and node.value:
        last = node.value[-1]
        return _end(last[1] if isinstance(last, tuple) else last)
    return node.end_mark
