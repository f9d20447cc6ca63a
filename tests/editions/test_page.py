"""The "What changed" page ``rulespy render`` stages, and the "changed in" marks (issue 18, items 2 and
5), on the repository made in the test: heavy cover -2 at v1.0.0, -1 at v1.1.0."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from rulespy.editions.page import changes
from rulespy.editions.site import versions_json
from rulespy.render.stage import render
from tests.coverage.conftest import _git

from .conftest import at, cover_page


@pytest.fixture(scope="module")
def staged(editions: Path) -> Path:
    _git(editions, "checkout", "-q", at(editions, "v1.1.0"))
    render(editions)
    return editions / "build"


def _entry(page: str, title: str) -> str:
    start = page.index(f"\n## {title} {{#")
    end = page.find("\n## ", start + 1)
    return page[start : end if end >= 0 else None]


def test_the_release_entry_lists_exactly_the_changed_section_outcome_and_odds(staged: Path) -> None:
    page = (staged / "pages/changes.md").read_text(encoding="utf-8")
    entry = _entry(page, "v1.1.0 of 2026-12-01 (from v1.0.0)")
    sections = re.findall(r"^#### \[([^\]]+)\]", entry, re.MULTILINE)
    assert sections == ["core/cover.md#heavy-cover"]
    assert "modifier of ~~-2~~ **-1** to every Target Lock roll" in entry
    outcomes = re.findall(r"^\| `([^`]+)` \((?:changed|added|removed)\)", entry, re.MULTILINE)
    assert outcomes == ["core/cover.md#heavy-cover[1]"]
    assert "| d1 casualty: no -> end_of_attack<br>d1 wounds: 1 -> 0<br>" in entry
    odds = re.findall(r"^\| (`[^`]*`)? ?\| ([^|]+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", entry, re.MULTILINE)
    assert [row[1:] for row in odds] == [
        ("d1 becomes a casualty", "16.7%", "33.3%", "+16.7 pts"),
        ("expected casualties", "0.17", "0.33", "+0.17"),
        ("d1 becomes a casualty", "16.7%", "33.3%", "+16.7 pts"),
        ("expected casualties", "0.17", "0.33", "+0.17"),
    ]
    assert [row[0] for row in odds if row[0]] == [
        "`core/cover.md#heavy-cover[1]`",
        "`examples/scenarios/critical_through_cover.yaml`",
    ]
    assert "light-cover" not in entry
    assert "\n## v1.0.0 of 2026-11-30 {#v1-0-0}\n\nThe first edition.\n" in page
    nav = yaml.safe_load((staged / "nav.yml").read_text(encoding="utf-8"))["nav"]
    assert nav[-1] == {"What changed": "changes.md"}
    versions = json.loads((staged / "pages/versions.json").read_text(encoding="utf-8"))
    assert [v["version"] for v in versions] == ["..", "v1.1", "v1.0"]


def test_the_changed_section_carries_a_mark_linked_to_its_entry(staged: Path) -> None:
    cover = (staged / "pages/core/cover.md").read_text(encoding="utf-8").split("\n")
    at = cover.index("## Heavy Cover {#heavy-cover}")
    mark = (
        '<small class="vs-changed">[changed in v1.1](../changes.md#v1-1-0-core-cover-md-heavy-cover)</small>'
    )
    assert cover[at + 2] == mark
    assert sum("vs-changed" in line for line in cover) == 1  # light cover did not change
    page = (staged / "pages/changes.md").read_text(encoding="utf-8")
    assert "(changed) {#v1-1-0-core-cover-md-heavy-cover}" in page


def test_unreleased_changes_get_their_own_entry_and_mark(tmp_path: Path, editions: Path) -> None:
    _git(editions, "checkout", "-q", at(editions, "v1.1.0"))
    (editions / "core/cover.md").write_text(
        cover_page(-1, 0).replace("heavy cover gives", "heavy cover always gives")
    )
    try:
        found = changes(editions)
    finally:
        _git(editions, "checkout", "-q", "--", "core/cover.md")
    entry = _entry(found.text, "Unreleased (since v1.1.0)")
    assert "only words change: a **patch** release (v1.1.1)" in entry
    assert "heavy cover **always** gives" in entry
    assert found.marks == {
        "core/cover.md": {
            "heavy-cover": [
                ("changed since v1.1", "unreleased-core-cover-md-heavy-cover"),
                ("changed in v1.1", "v1-1-0-core-cover-md-heavy-cover"),
            ]
        }
    }


def test_without_a_release_the_page_says_so(tmp_path: Path) -> None:
    assert "No edition has been released yet: the first will be v1.0.0." in changes(tmp_path).text
    assert json.loads(versions_json(tmp_path)) == [{"version": "..", "title": "current rules", "aliases": []}]


def test_unreleased_changes_that_change_no_rule_say_so_briefly(editions: Path) -> None:
    _git(editions, "checkout", "-q", at(editions, "v1.1.0"))
    (editions / "index.md").write_text("# Rules {#rules}\n\nStart with the [Cover rules](core/cover.md).\n")
    try:
        found = changes(editions)
    finally:
        _git(editions, "checkout", "-q", "--", "index.md")
    assert "\n## Unreleased (since v1.1.0) {#unreleased}\n\nNo change.\n" in found.text
    assert found.marks["core/cover.md"]["heavy-cover"] == [
        ("changed in v1.1", "v1-1-0-core-cover-md-heavy-cover")
    ]
