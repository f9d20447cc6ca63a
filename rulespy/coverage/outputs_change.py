"""How ``rulespy resolve``'s recorded answers change under a mutant: a decision, only a sentence, or nothing.

Standalone (the standard library only), because ``make mutants`` loads it by its path into a process
that imports the engine from mutmut's mutated copy in ``mutants/`` (``mutation.classify_message``).
"""

from __future__ import annotations

import json

#: The keys of ``rulespy resolve --json`` whose values are sentences (a refusal's ``message``, a trace
#: line's ``text``); every other value (the exit status, a rule, a die, a model, a count) is a decision.
TEXT_KEYS = frozenset({"message", "text"})


def _decisions(value: object) -> object:
    """A ``--json`` answer with every sentence blanked (``TEXT_KEYS``): what it decides."""
    if isinstance(value, dict):
        return {k: None if k in TEXT_KEYS else _decisions(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decisions(v) for v in value]
    return value


def _json_answer(run: dict[str, object]) -> object:
    try:
        return json.loads("\n".join(run.get("stdout") or ()))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return run.get("stdout")  # no JSON (a malformed file's answer): compared as it stands


def outputs_change(now: dict[str, dict[str, dict[str, object]]], record: dict[str, dict[str, object]]) -> str:
    """How ``rulespy resolve``'s answers under a mutant (``now``) differ from the ``record``, both as
    ``tests/cli/resolve_outputs.py`` writes them (per scenario: ``json`` and ``text`` runs, each its exit,
    stdout and stderr lines): ``"decision"`` when any exit status or any value of a ``--json`` answer but
    its sentences differs (or a scenario is missing), else ``"message"`` when some sentence, account line
    or error line differs, else ``"same"``.

    >>> run = lambda out, code=0: {"exit": code, "stdout": out, "stderr": []}
    >>> record = {"a": {"json": run(['{"legal": false, "error": {"rule": "r", "message": "m"}}'], 1),
    ...                 "text": run(["Forbidden: m"], 1)}}
    >>> reworded = {"a": {"json": run(['{"legal": false, "error": {"rule": "r", "message": "n"}}'], 1),
    ...                   "text": run(["Forbidden: n"], 1)}}
    >>> other_rule = {"a": {"json": run(['{"legal": false, "error": {"rule": "s", "message": "m"}}'], 1),
    ...                     "text": run(["Forbidden: m"], 1)}}
    >>> outputs_change(reworded, record), outputs_change(other_rule, record), outputs_change(record, record)
    ('message', 'decision', 'same')
    """
    if sorted(now) != sorted(record):
        return "decision"
    worded = False
    for name, recorded in record.items():
        for mode in ("json", "text"):
            a, b = now[name].get(mode) or {}, recorded.get(mode) or {}
            if not isinstance(a, dict) or not isinstance(b, dict) or a.get("exit") != b.get("exit"):
                return "decision"
            if mode == "json" and _decisions(_json_answer(a)) != _decisions(_json_answer(b)):
                return "decision"
            worded = worded or a != b
    return "message" if worded else "same"
