"""The pull-request step of ``.github/workflows/ci.yml`` writes the behaviour summary into the job
summary and fails on an outcome changed without its example (issue 18, item 4): its own script is run
here on the repository made in the test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from tests.coverage.conftest import _git

from .conftest import at

WORKFLOW = Path(__file__).resolve().parents[2] / ".github/workflows/ci.yml"


def _step() -> dict[str, str]:
    jobs = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]
    steps = [s for s in jobs["test"]["steps"] if "rulespy diff" in s.get("run", "")]
    assert len(steps) == 1
    assert steps[0]["if"] == "always() && github.event_name == 'pull_request'"
    return steps[0]


def _run(repo: Path, summary: Path) -> subprocess.CompletedProcess[str]:
    venv = repo / ".venv"
    if not venv.exists():
        venv.symlink_to(Path(sys.executable).parents[1])
    env = {**os.environ, "BASE": "v1.0.0", "GITHUB_STEP_SUMMARY": str(summary)}
    return subprocess.run(
        ["bash", "-e", "-c", _step()["run"]], cwd=repo, env=env, capture_output=True, text=True, check=False
    )


def test_the_pull_request_step_writes_the_summary(tmp_path: Path, editions: Path) -> None:
    repo = tmp_path / "rules"
    shutil.copytree(editions, repo, symlinks=True)
    _git(repo, "checkout", "-q", at(repo, "v1.1.0"))
    summary = tmp_path / "summary.md"
    done = _run(repo, summary)
    assert done.returncode == 0, done.stderr
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("## What this change does to play\n")
    assert (
        "modifier of ~~-2~~ **-1**" in text
        and "| d1 becomes a casualty | 16.7% | 33.3% | +16.7 pts |" in text
    )


def test_the_pull_request_step_fails_on_an_untouched_example(tmp_path: Path, editions: Path) -> None:
    repo = tmp_path / "rules"
    shutil.copytree(editions, repo, symlinks=True)
    _git(repo, "checkout", "-q", at(repo, "v1.1.0"))
    # the engine's -1, the page as it was at v1.0.0
    _git(repo, "checkout", "-q", at(repo, "v1.0.0"), "--", "core/cover.md")
    summary = tmp_path / "summary.md"
    done = _run(repo, summary)
    assert done.returncode == 1
    assert "core/cover.md#heavy-cover[1]: its outcome changed" in done.stderr
    assert "> **Check failed**" in summary.read_text(encoding="utf-8")  # the summary is written all the same
