"""Running one tree's engine in a subprocess (examples' scenarios: ``rulespy.check.examples``).

The subprocess runs ``_driver.py`` (passed as source to ``python -c``) with the tree's root first on
``sys.path``, so the working tree and a checked-out revision each run their own engine, and whatever an
example does stays out of the process that reports. Bytecode is not written, so nothing lands in the tree.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from rulespy.check.examples import scenario_texts
from rulespy.coverage.rules import CoverageError

__all__ = ["run_engine", "scenario_texts"]

TIMEOUT = 300.0


def run_engine(
    root: Path, jobs: list[dict[str, Any]], timeout: float = TIMEOUT, odds: bool = False
) -> dict[str, Any]:
    """The driver's answer for ``jobs`` run by the engine of the tree at ``root`` (see ``_driver.py``);
    with ``odds``, each legal scenario's exact odds too."""
    if not jobs:
        return {"results": {}}
    source = Path(__file__).with_name("_driver.py").read_text(encoding="utf-8")
    request = json.dumps({"root": str(root.resolve()), "jobs": jobs, "odds": odds})
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
