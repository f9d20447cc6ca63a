"""The script diff runs in a subprocess against one tree's own engine (examples run in ``sandbox.py``).

It is passed to ``python -c`` as source text, so it imports nothing from the rulespy that runs it: only
the standard library and the engine of the tree whose root comes first on ``sys.path``. It reads one JSON
request on standard input and writes one JSON answer on standard output.

- ``{"root": R, "jobs": [{"id", "yaml", "path"}]}``: parses and resolves each scenario
  with its own dice. Answer ``{"results": {id: OUTCOME}, "cited": {id: [PATH#ANCHOR, ...]}}``, OUTCOME
  as ``outcome()`` below, ``cited`` the rules the account cites (sorted). With ``"odds": true`` in the
  request, also ``"odds": {id: ODDS}``: the ``odds --json --fractions`` dict of each legal scenario
  the tree's exact engine computes (a tree without one, or a scenario it refuses, has no entry).

An engine that cannot be imported answers ``{"engine_error": "..."}``.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from typing import Any


def outcome(data: dict[str, Any]) -> dict[str, Any]:
    """What play decided, from the ``resolve --json`` dict: no trace wording, no dice."""
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


def _odds(parse_scenario: Any, jobs: list[dict[str, Any]], results: dict[str, Any]) -> dict[str, Any]:
    try:
        from rulespy.odds import odds
    except ImportError:
        return {}
    found: dict[str, Any] = {}
    for job in jobs:
        if not results.get(job["id"], {}).get("legal"):
            continue
        try:
            found[job["id"]] = odds(parse_scenario(job["yaml"], job.get("path", "<scenario>"))).to_json(True)
        except Exception:  # beyond the size limit, or an engine bug: no odds to compare
            continue
    return found


def _resolve(jobs: list[dict[str, Any]], cited: dict[str, Any]) -> dict[str, Any]:
    parse_scenario, module, illegal, rules_error = _engine()
    results: dict[str, Any] = {}
    for job in jobs:
        try:
            scenario = parse_scenario(job["yaml"], job.get("path", "<scenario>"))
            data = module.resolve(scenario).to_json()
            results[job["id"]] = outcome(data)
            cited[job["id"]] = sorted({t["rule"] for t in data.get("trace", []) if t.get("rule")})
        except illegal as error:
            results[job["id"]] = {"legal": False, "rule": error.rule}
        except rules_error as error:
            located = getattr(error, "located", None)
            results[job["id"]] = {"error": located() if callable(located) else str(error)}
        except Exception as error:  # an engine bug is a result too, never a traceback
            results[job["id"]] = {"error": f"engine error: {type(error).__name__}: {error}"}
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
        cited: dict[str, Any] = {}
        results = _resolve(request["jobs"], cited)
        answer: dict[str, Any] = {"results": results, "cited": cited}
        if request.get("odds"):
            answer["odds"] = _odds(_engine()[0], request["jobs"], results)
    except Exception as error:  # an engine that does not import at all
        answer = {"engine_error": f"{type(error).__name__}: {error}"}
    sys.stdout.write(json.dumps(answer))


if __name__ == "__main__":
    main()
