"""A re-check with nothing changed answers from the remembered result even when the checks looked outside
the walk (a link into an excluded folder, the anchors of a page that is not checked), and those answers
are compared again first, so the result is never stale (issue 15, item 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespy.check import incremental
from rulespy.check.runner import CheckOptions, run_check

from .helpers import agree, write


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, CheckOptions]:
    files = {
        "index.md": "# Home\n\n[cover](core/cover.md) and [the example](examples/attack.md#setup)\n",
        "core/cover.md": "# Cover {#cover}\n\nSee [.notes](../.notes.md#why) and [examples](../examples/).\n",
        ".notes.md": "# Notes\n\n## Why {#why}\n",
        "examples/attack.md": "# Attack\n\n## Setup {#setup}\n",
    }
    root = write(tmp_path / "repo", files)
    options = CheckOptions(cache_dir=tmp_path / "cache")
    assert agree(root, options).findings == ()
    return root, options


def test_outside_answers_unchanged_reuse_the_remembered_result(
    repo: tuple[Path, CheckOptions], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, options = repo

    def refuse(*args: object) -> None:
        raise AssertionError("checked again although nothing changed")

    monkeypatch.setattr(incremental, "Incremental", refuse)
    assert run_check(root, options).findings == ()


def test_outside_answers_that_change_are_seen(repo: tuple[Path, CheckOptions]) -> None:
    root, options = repo
    example, notes = root / "examples" / "attack.md", root / ".notes.md"
    example.write_text("# Attack\n\n## Set-up {#set-up}\n", encoding="utf-8")  # excluded, not checked
    assert [f.code for f in agree(root, options).findings] == ["RS003"]
    example.write_text("# Attack\n\n## Setup {#setup}\n", encoding="utf-8")
    assert agree(root, options).findings == ()
    notes.write_text("# Notes\n", encoding="utf-8")  # a hidden page: walked, never checked itself
    assert [f.code for f in agree(root, options).findings] == ["RS003"]
    notes.write_text("# Notes\n\n## Why {#why}\n", encoding="utf-8")
    assert agree(root, options).findings == ()
    example.unlink()
    assert {f.code for f in agree(root, options).findings} == {"RS001"}
    write(root, {"examples/attack.md": "# Attack\n\n## Setup {#setup}\n"})
    assert agree(root, options).findings == ()
    (root / "examples" / "attack.md").unlink()
    (root / "examples").rmdir()
    assert {f.code for f in agree(root, options).findings} == {"RS001"}


def test_a_folder_the_walk_skips_appearing_beside_checked_files_is_seen(tmp_path: Path) -> None:
    # core/ is walked, so core/.drafts is looked up in core's listing: its absence is an answer from
    # outside the walk's fingerprint too (a hidden folder, node_modules, a symlink to a folder)
    root = write(
        tmp_path / "repo",
        {"index.md": "# Home\n\n[drafts](core/.drafts/), [cover](core/cover.md)\n", "core/cover.md": "# C\n"},
    )
    options = CheckOptions(cache_dir=tmp_path / "cache")
    assert [f.code for f in agree(root, options).findings] == ["RS001"]
    (root / "core" / ".drafts").mkdir()
    assert agree(root, options).findings == ()
    (root / "core" / ".drafts").rmdir()
    (root / "core" / "drafts").mkdir()
    (root / "core" / ".drafts").symlink_to("drafts")
    assert agree(root, options).findings == ()
