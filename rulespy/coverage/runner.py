"""Running one tree's engine in a subprocess, and finding the scenarios written in worked examples.

The subprocess runs ``_driver.py`` (passed as source to ``python -c``) with the tree's root first on
``sys.path``, so the working tree and a checked-out revision each run their own engine, and whatever an
example does stays out of the process that reports. Bytecode is not written, so nothing lands in the tree.
"""

from __future__ import annotations

import ast
import inspect
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from rulespy.coverage.rules import CoverageError

TIMEOUT = 300.0


def run_engine(root: Path, mode: str, jobs: list[dict[str, Any]], timeout: float = TIMEOUT) -> dict[str, Any]:
    """The driver's answer for ``jobs`` run by the engine of the tree at ``root`` (see ``_driver.py``)."""
    if not jobs:
        return {"results": {}}
    source = Path(__file__).with_name("_driver.py").read_text(encoding="utf-8")
    request = json.dumps({"root": str(root.resolve()), "mode": mode, "jobs": jobs})
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    try:
        done = subprocess.run(
            [sys.executable, "-c", source],
            input=request,
            capture_output=True,
            text=True,
            cwd=root,
            env=env,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise CoverageError(f"the engine at {root} took more than {timeout:.0f} s") from None
    try:
        answer = json.loads(done.stdout)
    except json.JSONDecodeError:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return {"engine_error": f"the engine at {root} stopped: {tail}"}
    if not isinstance(answer, dict):
        return {"engine_error": "the engine answered nonsense"}
    return answer


#: Functions whose first argument is a scenario's YAML text (``rulespy.play`` keeps examples short).
SCENARIO_FUNCTIONS = {"parse_scenario", "play", "refused"}
_TEXT_HELPERS = {"dedent": textwrap.dedent, "cleandoc": inspect.cleandoc}
_TEXT_METHODS = {"strip", "lstrip", "rstrip"}


def _callee(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _text(node: ast.expr, names: dict[str, str]) -> str | None:
    """The string ``node`` evaluates to, for a literal, a module-level name or dedent/strip of those."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Call) and len(node.args) == 1 and _callee(node.func) in _TEXT_HELPERS:
        inner = _text(node.args[0], names)
        return None if inner is None else _TEXT_HELPERS[str(_callee(node.func))](inner)
    if isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute):
        if node.func.attr in _TEXT_METHODS:
            inner = _text(node.func.value, names)
            return None if inner is None else getattr(inner, node.func.attr)()
    return None


def scenario_texts(code: str) -> list[str]:
    """The YAML strings an example passes to a ``SCENARIO_FUNCTIONS`` function, in order (with ``ast``)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return []
    names: dict[str, str] = {}
    found: list[str] = []
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            value = _text(statement.value, names)
            if isinstance(target, ast.Name) and value is not None:
                names[target.id] = value
        for node in ast.walk(statement):
            if isinstance(node, ast.Call) and _callee(node.func) in SCENARIO_FUNCTIONS:
                argument = (
                    node.args[0]
                    if node.args
                    else next((k.value for k in node.keywords if k.arg in ("text", "scenario")), None)
                )
                text = None if argument is None else _text(argument, names)
                if text is not None:
                    found.append(text)
    return found
