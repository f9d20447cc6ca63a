"""The script coverage and diff run in a subprocess, against one tree's own engine.

It is passed to ``python -c`` as source text, so it imports nothing from the rulespy that runs it: only
the standard library and the engine of the tree whose root comes first on ``sys.path``. It reads one JSON
request on standard input and writes one JSON answer on standard output.

- ``{"root": R, "mode": "trace", "jobs": [{"id", "code", "path", "continues"}]}``: runs each worked
  example's code (as pytest-markdown-docs would) with ``resolve`` wrapped so that every rule its trace
  cites is recorded, and the rule of an illegal declaration too. A job that ``continues`` the one before
  it (a ``continuation`` fence) runs its own code in that job's namespace, and its answer counts the
  rules and the error of the whole chain, as if the chain had run again; so a chain costs linear time.
  Answer ``{"results": {id: {"rules": [...], "error": E}}}``.
- ``{"root": R, "mode": "resolve", "jobs": [{"id", "yaml", "path"}]}``: parses and resolves each scenario
  with its own dice. Answer ``{"results": {id: OUTCOME}}``, OUTCOME as ``outcome()`` below.

An engine that cannot be imported answers ``{"engine_error": "..."}``.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import sys
from typing import Any


def outcome(data: dict[str, Any]) -> dict[str, Any]:
    """What play decided, from the contract's ``resolve --json`` dict: no trace wording, no dice."""
    successes = {}
    for attack in data.get("attacks", []):
        for target in attack.get("targets", []):
            key = f"{attack.get('unit')}->{target.get('unit')}"
            successes[key] = [target.get("successes"), target.get("criticals")]
    return {
        "legal": True,
        "casualties": {c["model"]: c["removed"] for c in data.get("casualties", [])},
        "wounds": {m: v.get("wounds") for m, v in data.get("models", {}).items()},
        "status": {m: v.get("status") for m, v in data.get("models", {}).items() if v.get("status")},
        "successes": successes,
    }


def _engine() -> tuple[Any, Any, Any, Any]:
    from rulespy.errors import IllegalDeclaration, RulesError
    from rulespy.scenario import parse_scenario

    try:
        module = importlib.import_module("rulespy.sequences.resolution")
    except ImportError:
        module = importlib.import_module("rulespy.sequences.shooting_sequence")
    return parse_scenario, module, IllegalDeclaration, RulesError


def _resolve(jobs: list[dict[str, Any]]) -> dict[str, Any]:
    parse_scenario, module, illegal, rules_error = _engine()
    results: dict[str, Any] = {}
    for job in jobs:
        try:
            scenario = parse_scenario(job["yaml"], job.get("path", "<scenario>"))
            results[job["id"]] = outcome(module.resolve(scenario).to_json())
        except illegal as error:
            results[job["id"]] = {"legal": False, "rule": error.rule}
        except rules_error as error:
            located = getattr(error, "located", None)
            results[job["id"]] = {"error": located() if callable(located) else str(error)}
        except Exception as error:  # an engine bug is a result too, never a traceback
            results[job["id"]] = {"error": f"engine error: {type(error).__name__}: {error}"}
    return results


def _trace(jobs: list[dict[str, Any]]) -> dict[str, Any]:
    _, module, illegal, _ = _engine()
    import rulespy.sequences.shooting_sequence as sequence

    seen: set[str] = set()
    original = module.resolve

    def recording(*args: Any, **kwargs: Any) -> Any:
        try:
            result = original(*args, **kwargs)
        except illegal as error:
            seen.add(error.rule)
            raise
        seen.update(event.rule for event in result.trace)
        return result

    module.resolve = recording
    if sequence is not module:
        sequence.resolve = recording  # type: ignore[assignment]
    for name, loaded in list(sys.modules.items()):  # helpers that imported resolve already
        if name.startswith("rulespy") and getattr(loaded, "resolve", None) is original:
            loaded.resolve = recording  # type: ignore[attr-defined]
    results: dict[str, Any] = {}
    namespace: dict[str, Any] = {}
    error = None
    for job in jobs:
        if not job.get("continues"):
            seen.clear()
            namespace = {"__name__": "__main__"}
            error = None
        if error is None:  # a chain that failed stays failed, with the error where it stopped
            try:
                code = compile(job["code"], job.get("path", "<example>"), "exec")
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(code, namespace)  # noqa: S102 - the repository's own examples
            except KeyboardInterrupt:
                raise
            except BaseException as failure:  # noqa: BLE001 - a failing example is reported, not fatal
                error = f"{type(failure).__name__}: {failure}"[:300]
        results[job["id"]] = {"rules": sorted(seen), "error": error}
    return results


def main() -> None:
    request = json.load(sys.stdin)
    root = request["root"]
    sys.path.insert(0, root)
    os.chdir(root)
    try:
        import rulespy

        where = os.path.dirname(os.path.abspath(rulespy.__file__))
        if os.path.dirname(where) != os.path.abspath(root):
            raise ImportError(f"rulespy was imported from {where}, not from {root}")
        results = _trace(request["jobs"]) if request["mode"] == "trace" else _resolve(request["jobs"])
        answer: dict[str, Any] = {"results": results}
    except Exception as error:  # an engine that does not import at all
        answer = {"engine_error": f"{type(error).__name__}: {error}"}
    sys.stdout.write(json.dumps(answer))


if __name__ == "__main__":
    main()
