"""The site tests' shared step: the repository's pages rendered into build/ by the command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def staged() -> Path:
    """Run ``rulespy render . --strict`` (what ``make site`` runs) and return the repository root."""
    done = subprocess.run(
        [str(Path(sys.executable).parent / "rulespy"), "render", ".", "--strict", "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, f"rulespy render failed:\n{done.stdout}\n{done.stderr}"
    return ROOT
