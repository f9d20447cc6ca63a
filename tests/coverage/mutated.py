"""A repository as ``make mutants`` leaves it: one engine module, mutmut's mutated copy and its verdicts."""

from __future__ import annotations

import json
from pathlib import Path


def mutated_repo(
    root: Path, module: str, files: tuple[str, str], keys: dict[str, int | None], page: tuple[str, str]
) -> Path:
    """``rulespy/core/MODULE.py`` (``files``: its source and mutmut's mutated copy of it), mutmut's verdicts
    ``keys`` beside the copy, the rule file ``page`` (its path and text) and an empty ``tests/mutation``."""
    source, mutated = files
    (root / "rulespy/core").mkdir(parents=True)
    (root / f"rulespy/core/{module}.py").write_text(source, encoding="utf-8")
    (root / "mutants/rulespy/core").mkdir(parents=True)
    (root / f"mutants/rulespy/core/{module}.py").write_text(mutated, encoding="utf-8")
    meta = {"exit_code_by_key": keys, "durations_by_key": {}, "estimated_durations_by_key": {}}
    (root / f"mutants/rulespy/core/{module}.py.meta").write_text(json.dumps(meta), encoding="utf-8")
    (root / page[0]).parent.mkdir(parents=True, exist_ok=True)
    (root / page[0]).write_text(page[1], encoding="utf-8")
    (root / "tests/mutation").mkdir(parents=True)
    return root
