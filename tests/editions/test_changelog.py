"""This repository's own releases (issue 23, item 2): v1.0.0 is found from CHANGELOG.md's history, at
the commit that released it, with no tag; and the CHANGELOG's headings keep the form releases are read
from (issue 18, item 1)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from rulespy.editions.versions import headings, releases

ROOT = Path(__file__).resolve().parents[2]
ENTRY = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", re.MULTILINE)


def test_v1_0_0_is_the_commit_that_released_it() -> None:
    released = subprocess.run(
        ["git", "log", "--format=%H", "--grep=^Release v1.0.0", "HEAD"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()
    found = {r.tag: r for r in releases(ROOT)}
    assert found["v1.0.0"].commit == released[-1] and found["v1.0.0"].date == "2026-11-30"


def test_every_committed_heading_of_the_changelog_has_its_release_commit() -> None:
    committed = subprocess.run(
        ["git", "show", "HEAD:CHANGELOG.md"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    listed = sorted(ENTRY.findall(committed), key=lambda v: [int(n) for n in v.split(".")])
    assert [r.number for r in releases(ROOT)] == listed


def test_an_entry_is_a_dated_version_and_unreleased_is_not_one() -> None:
    text = "## [Unreleased]\n\n## [1.1.0] - 2026-12-01\n\n## [1.0.0] - 2026-11-30\n## [2.0.0]\n"
    text += "## [01.0.0] - 2026-01-01\n"
    assert ENTRY.findall(text) == ["1.1.0", "1.0.0", "01.0.0"]
    assert list(headings(text)) == [(1, 1, 0), (1, 0, 0)]  # no leading zeros: not semantic versioning
