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
