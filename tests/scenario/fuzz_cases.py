"""Hypothesis strategies for fuzzing the scenario path: random YAML documents and mutated valid scenarios.

Shared by tests/scenario/test_fuzz_scenarios.py (a few hundred cases) and bench/bench_fuzz.py (10,000).
``check_case`` runs one document through ``rulespy resolve`` (or ``odds``) in-process and says what went
wrong, if anything.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from rulespy.cli import main

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples" / "scenarios").glob("*.yaml"))
BASES = [yaml.safe_load(path.read_text(encoding="utf-8")) for path in EXAMPLES]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(
        ["shoot", "snap_fire", "d1", "r1", "rangers", "carbine", "heavy", "critical 5", "pinned"]
    ),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=10), inner, max_size=5)
    ),
    max_leaves=25,
)
extreme = st.sampled_from([0, -1, -(10**20), 10**20, 1e308, -1e308, 1e-300, 2**63, 7, 13, 361, 0.5, True])


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


@st.composite
def mutated_scenario(draw: st.DrawFn) -> str:
    """A valid example scenario with one to three mutations, dumped back to YAML (sometimes then garbled)."""
    document = yaml.safe_load(yaml.safe_dump(draw(st.sampled_from(BASES))))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(document) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, last = _get(document, path[:-1]), path[-1]
        action = draw(st.sampled_from(["drop", "rename", "retype", "extreme", "unicode", "huge", "swap"]))
        if action == "drop":
            del parent[last]
        elif action == "rename" and isinstance(parent, dict):
            parent[draw(st.text(min_size=1, max_size=10))] = parent.pop(last)
        elif action == "retype":
            parent[last] = draw(values)
        elif action == "extreme":
            parent[last] = draw(extreme)
        elif action == "unicode":
            parent[last] = draw(st.text(min_size=1, max_size=8))
        elif action == "huge" and isinstance(parent[last], list) and parent[last]:
            parent[last] = parent[last] * draw(st.integers(50, 1000))
        elif action == "swap":
            other = _get(document, draw(st.sampled_from(paths)))
            parent[last] = yaml.safe_load(yaml.safe_dump(other))
    text = yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
    if draw(st.integers(0, 9)) == 0:  # sometimes garble the text itself
        at = draw(st.integers(0, max(len(text) - 1, 0)))
        text = (
            text[:at]
            + draw(st.sampled_from(["", ":", "[", "{", "- ", "\t", "&a ", "*a", "!!python/none ", "'"]))
            + text[at + 1 :]
        )
    return text


random_document = st.one_of(
    values.map(lambda value: yaml.safe_dump(value, allow_unicode=True)),
    st.text(max_size=200),
)
cases = st.one_of(mutated_scenario(), mutated_scenario(), random_document)

_LOCATED = re.compile(r"(?P<path>.+?):(?P<line>\d+): \S")


def check_case(text: str, path: Path, command: str = "resolve") -> str | None:
    """Run ``rulespy COMMAND`` (resolve or odds) on ``text`` (written to ``path``) in-process; a
    description of the problem, or None."""
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([command, str(path)])
        except BaseException as error:  # noqa: BLE001 - a fuzz finding, reported below
            return f"raised {type(error).__name__}: {error}"
    printed, complaint = out.getvalue(), err.getvalue()
    if "Traceback" in printed + complaint:
        return "printed a traceback"
    if code not in (0, 1, 2):
        return f"exit {code}"
    if code == 2:
        located = _LOCATED.match(complaint)
        if printed or not located or located.group("path") != str(path):
            return f"exit 2 without FILE:LINE: message (stdout {printed[:80]!r}, stderr {complaint[:120]!r})"
        if "internal error" in complaint:
            return f"internal error: {complaint.strip()[:300]}"
    elif complaint or not printed:
        return f"exit {code} with stderr {complaint[:120]!r} and stdout of {len(printed)} characters"
    return None
