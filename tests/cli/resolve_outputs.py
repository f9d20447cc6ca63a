"""What ``rulespy resolve`` prints for every scenario file and every worked example's scenario, kept in
``resolve_outputs.json`` so that a change to the engine or the account shows as a diff of that file.

For each scenario (the ones ``rulespy diff`` resolves: ``examples/scenarios/*.yaml`` and each YAML
string a worked example plays) the file holds the exit status, standard output and standard error of
``rulespy resolve`` with ``--json`` and without (line by line, so that a diff shows the lines that
changed). Paths are written relative to the repository (scenario
files) or as ``scenario.yaml`` (examples), so the record does not depend on where the tree lives.

After a deliberate change of outcome or wording, rewrite the record and read its diff before committing:

    .venv/bin/python -m tests.cli.resolve_outputs
"""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import rulespy.scenario
from rulespy.cli import main
from rulespy.coverage.diff import jobs
from rulespy.scenario.yamlnodes import Node

ROOT = Path(__file__).resolve().parents[2]
RECORD = Path(__file__).with_name("resolve_outputs.json")


def _run(path: Path, strip: str, *options: str) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["resolve", str(path), *options])
    return {
        "exit": code,
        "stdout": out.getvalue().replace(strip, "").splitlines(),
        "stderr": err.getvalue().replace(strip, "").splitlines(),
    }


#: the runs the record holds: its name for each, and the options of ``rulespy resolve``
RECORDED_RUNS = {"json": ("--json",), "text": ()}


@contextlib.contextmanager
def remembered_parses(known: dict[str, Node] | None = None) -> Iterator[None]:
    """Within it, the scenario loader composes each accepted YAML text once: the pure-Python parse
    (``rulespy.scenario.yamlnodes.parse``) costs more than most resolutions, and every scenario is
    resolved several times here. A text the loader refuses is parsed again each time (its message
    names the caller's path); the located tree of an accepted one names no path and is never changed
    by ``build``, so the same tree serves each run. ``known`` keeps the trees beyond one use (a test
    module's scenarios, across its tests)."""
    parse = rulespy.scenario.parse
    known = {} if known is None else known

    def remembered(text: str, path: str) -> Node:
        tree = known.get(text)
        if tree is None:
            tree = known[text] = parse(text, path)
        return tree

    rulespy.scenario.parse = remembered
    try:
        yield
    finally:
        rulespy.scenario.parse = parse


def outputs(
    root: Path = ROOT, runs: Mapping[str, tuple[str, ...]] = RECORDED_RUNS
) -> dict[str, dict[str, Any]]:
    """Every scenario's answers to ``rulespy resolve`` with each of ``runs``' options (by default its
    ``--json`` and its text answers, as recorded), by their ``rulespy diff`` name."""
    found: dict[str, dict[str, Any]] = {}
    todo, _ = jobs(root)
    with tempfile.TemporaryDirectory(prefix="rulespy-outputs-") as temp, remembered_parses():
        for job in todo:
            path = root / job["path"]
            strip = f"{root}/"
            if not (job["path"].endswith((".yaml", ".yml")) and path.is_file()):
                path = Path(temp) / "scenario.yaml"
                path.write_text(job["yaml"], encoding="utf-8")
                strip = f"{temp}/"
            found[job["id"]] = {name: _run(path, strip, *options) for name, options in runs.items()}
    return found


def recorded() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = json.loads(RECORD.read_text(encoding="utf-8"))
    return data


def write() -> None:
    RECORD.write_text(json.dumps(outputs(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()
