"""Every release tag of this repository has its entry in ``CHANGELOG.md`` (issue 18, item 1)."""

from __future__ import annotations

import re
from pathlib import Path

from rulespy.editions.versions import releases

ROOT = Path(__file__).resolve().parents[2]
ENTRY = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", re.MULTILINE)


def entries(text: str) -> list[str]:
    return ENTRY.findall(text)


def test_each_release_tag_has_a_changelog_entry() -> None:
    listed = entries((ROOT / "CHANGELOG.md").read_text(encoding="utf-8"))
    missing = [r.tag for r in releases(ROOT) if r.tag[1:] not in listed]
    assert missing == [], f"CHANGELOG.md has no '## [X.Y.Z] - DATE' entry for {missing}"


def test_an_entry_is_a_dated_version_and_unreleased_is_not_one() -> None:
    text = "## [Unreleased]\n\n## [1.1.0] - 2026-12-01\n\n## [1.0.0] - 2026-11-30\n## [2.0.0]\n"
    assert entries(text) == ["1.1.0", "1.0.0"]
