"""The scenarios a worked example plays, read from its code with ``ast`` without running it.

A worked example in a rule file passes a scenario's YAML to ``play``, ``refused`` or ``parse_scenario``
(or names a scenario file for ``load_scenario``). The site draws a board from that YAML and
``rulespy coverage`` / ``rulespy diff`` resolve it, so both read it here, the same way.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

from rulespy.errors import InvalidInput

#: Functions whose first argument is a scenario's YAML text (``rulespy.play`` keeps examples short).
SCENARIO_FUNCTIONS = frozenset({"parse_scenario", "play", "refused"})
_FILE_FUNCTION = "load_scenario"
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


def _scenario_file(root: Path, name: str, refused: list[str] | None) -> str | None:
    """The text of the scenario file ``name`` under ``root`` (read by the loader's own reader), or
    ``None`` when it is missing, not a regular file, or refused (said in ``refused``): outside the
    repository (an absolute path, ``..`` or a symlink out), too large or not UTF-8."""
    from rulespy.scenario import read_scenario_text

    base = root.resolve()
    path = (base / name).resolve()
    if not path.is_relative_to(base):
        why = f"load_scenario({name!r}) names a file outside the repository: not read"
    elif not path.is_file():
        return None
    else:
        try:
            return read_scenario_text(path)
        except InvalidInput as error:
            why = f"load_scenario({name!r}): {error.message}"
    if refused is not None:
        refused.append(why)
    return None


def scenario_texts(code: str, root: Path | None = None, refused: list[str] | None = None) -> list[str]:
    """The YAML texts ``code`` passes to a ``SCENARIO_FUNCTIONS`` function, in source order. With
    ``root``, a ``load_scenario("path")`` call contributes that file's text (read from ``root``, never
    from outside it; a refused path is said in ``refused``)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return []
    names: dict[str, str] = {}
    found: list[tuple[int, int, str]] = []
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            value = _text(statement.value, names)
            if isinstance(target, ast.Name) and value is not None:
                names[target.id] = value
        for node in ast.walk(statement):
            if not isinstance(node, ast.Call):
                continue
            callee = _callee(node.func)
            if callee not in SCENARIO_FUNCTIONS and not (callee == _FILE_FUNCTION and root is not None):
                continue
            argument = (
                node.args[0]
                if node.args
                else next((k.value for k in node.keywords if k.arg in ("text", "scenario", "path")), None)
            )
            text = None if argument is None else _text(argument, names)
            if text is not None and callee == _FILE_FUNCTION and root is not None:
                text = _scenario_file(root, text, refused)
            if text is not None:
                found.append((node.lineno, node.col_offset, text))
    return [text for _, _, text in sorted(found)]
