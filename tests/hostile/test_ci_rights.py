"""A pull request's CI runs with the least rights (issue 29, item 4): it can change what its own build
runs, so that build gets no secrets and a read-only token it cannot read back from ``.git/config``, and
no workflow a pull request triggers can publish. Read from every file of ``.github/workflows``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

WORKFLOWS = sorted((Path(__file__).resolve().parents[2] / ".github" / "workflows").glob("*.y*ml"))
PULL_REQUEST_EVENTS = {"pull_request", "pull_request_target", "workflow_run", "issue_comment"}


def _load(path: Path) -> dict[Any, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), path
    return data


def _events(workflow: dict[Any, Any]) -> set[str]:
    on = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    if isinstance(on, str):
        return {on}
    return set(on or ())


def _writes(permissions: object) -> bool:
    if permissions in ("write-all", "read-all"):
        return permissions == "write-all"
    return isinstance(permissions, dict) and "write" in permissions.values()


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_a_workflow_a_pull_request_starts_has_read_rights_and_no_secrets(path: Path) -> None:
    workflow = _load(path)
    events = _events(workflow)
    if not events & PULL_REQUEST_EVENTS:
        return
    assert "pull_request_target" not in events and "workflow_run" not in events
    assert workflow.get("permissions") == {"contents": "read"}
    text = path.read_text(encoding="utf-8")
    assert "secrets." not in text and "secrets[" not in text
    for name, job in workflow["jobs"].items():
        assert not _writes(job.get("permissions", {})), name
        for step in job.get("steps", []):
            if str(step.get("uses", "")).startswith("actions/checkout@"):
                assert step.get("with", {}).get("persist-credentials") is False, name
            # a value a pull request controls (its branch name, its title) never becomes script text
            assert "${{" not in str(step.get("run", "")), step.get("name")


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_a_workflow_that_can_publish_runs_only_on_main(path: Path) -> None:
    workflow = _load(path)
    text = path.read_text(encoding="utf-8")
    jobs = workflow.get("jobs", {}).values()
    if not (_writes(workflow.get("permissions")) or any(_writes(j.get("permissions")) for j in jobs)):
        if "secrets." not in text:
            return
    events = _events(workflow)
    assert not events & PULL_REQUEST_EVENTS, f"{path.name} can publish and runs for pull requests"
    on = workflow.get("on", workflow.get(True))
    push = on.get("push") if isinstance(on, dict) else None
    if push:
        assert push.get("branches", ["main"]) == ["main"] or push.get("tags"), path.name
