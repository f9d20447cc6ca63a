"""Releases recorded in the tree (issue 23, item 1): the CHANGELOG.md headings and the commits that
added them, with no tag; a tag that disagrees is an error, and so is a shallow clone; ``rulespy
release`` writes the heading, ``rulespy release --tag`` makes the optional tags."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulespy.cli import main
from rulespy.editions.release import ReleaseRefused, cut, version_of
from rulespy.editions.versions import Release, ReleaseError, releases, resolve
from tests.coverage.conftest import _git

from .conftest import changelog

_CLI = "import sys; from rulespy.cli import main; sys.exit(main(sys.argv[1:]))"


def _commit(repo: Path, message: str, text: str | None = None) -> str:
    if text is not None:
        (repo / "CHANGELOG.md").write_text(text, encoding="utf-8")
    (repo / f"{re.sub(r'[^a-z0-9]+', '-', message.lower())}.txt").write_text(message, encoding="utf-8")
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", message)
    return _git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture
def history(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A repository of four commits and no tag: the CHANGELOG starts, 1.0.0, an unrelated commit, 1.1.0."""
    repo = tmp_path / "rules"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    commits = {
        "start": _commit(repo, "start", changelog()),
        "1.0.0": _commit(repo, "Release v1.0.0", changelog(("1.0.0", "2026-11-30"))),
        "between": _commit(repo, "tooling only"),
        "1.1.0": _commit(repo, "Release v1.1.0", changelog(("1.1.0", "2026-12-01"), ("1.0.0", "2026-11-30"))),
    }
    return repo, commits


History = tuple[Path, dict[str, str]]


def test_a_release_is_the_commit_that_added_its_changelog_heading(history: History) -> None:
    repo, commits = history
    assert _git(repo, "tag", "--list") == ""
    found = releases(repo)
    assert [(r.tag, r.date, r.commit) for r in found] == [
        ("v1.0.0", "2026-11-30", commits["1.0.0"]),
        ("v1.1.0", "2026-12-01", commits["1.1.0"]),
    ]
    # a past release checked out sees itself and those before it
    _git(repo, "checkout", "-q", commits["between"])
    assert [r.tag for r in releases(repo)] == ["v1.0.0"]


def test_a_date_corrected_later_keeps_the_release_and_a_release_called_off_and_cut_again_moves(
    history: History,
) -> None:
    repo, commits = history
    _commit(repo, "fix the date", changelog(("1.1.0", "2026-12-02"), ("1.0.0", "2026-11-30")))
    latest = releases(repo)[-1]
    assert (latest.tag, latest.date, latest.commit) == ("v1.1.0", "2026-12-02", commits["1.1.0"])
    _commit(repo, "1.1.0 called off", changelog(("1.0.0", "2026-11-30")))
    assert [r.tag for r in releases(repo)] == ["v1.0.0"]
    again = _commit(repo, "Release v1.1.0 again", changelog(("1.1.0", "2026-12-03"), ("1.0.0", "2026-11-30")))
    assert releases(repo)[-1] == Release((1, 1, 0), "v1.1.0", again, "2026-12-03")


def test_a_heading_not_yet_committed_is_not_a_release(history: History) -> None:
    repo, _ = history
    (repo / "CHANGELOG.md").write_text(changelog(("1.2.0", "2026-12-04"), ("1.1.0", "2026-12-01")))
    assert [r.tag for r in releases(repo)] == ["v1.0.0", "v1.1.0"]


def test_a_tag_at_the_release_commit_agrees_and_one_elsewhere_names_both_commits(
    history: History,
) -> None:
    repo, commits = history
    _git(repo, "tag", "-a", "-m", "annotated", "v1.0.0", commits["1.0.0"])
    assert [r.tag for r in releases(repo)] == ["v1.0.0", "v1.1.0"]
    _git(repo, "tag", "v1.1.0", commits["between"])
    with pytest.raises(ReleaseError) as error:
        releases(repo)
    assert str(error.value) == (
        f"the tag v1.1.0 names commit {commits['between'][:12]}, but CHANGELOG.md records v1.1.0 at commit "
        f"{commits['1.1.0'][:12]} (the commit that added its heading): move or delete the tag"
    )


def test_a_tag_without_a_changelog_heading_is_an_error(history: History) -> None:
    repo, commits = history
    _git(repo, "tag", "v0.9.0", commits["start"])
    with pytest.raises(ReleaseError, match=r"^the tag v0\.9\.0 names commit \w{12}, but CHANGELOG.md has no"):
        releases(repo)


def test_rulespy_diff_stops_on_a_disagreeing_tag(
    history: History, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, commits = history
    _git(repo, "tag", "v1.0.0", commits["start"])
    assert main(["diff", "--path", str(repo), "HEAD~1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("rulespy diff: the tag v1.0.0 names commit ")
    assert commits["start"][:12] in err and commits["1.0.0"][:12] in err


def test_a_shallow_clone_is_told_in_one_line_to_fetch_the_history(
    history: History, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _ = history
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", repo.as_uri(), str(shallow)], check=True, capture_output=True
    )
    with pytest.raises(ReleaseError) as error:
        releases(shallow)
    assert "\n" not in str(error.value) and "git fetch --unshallow" in str(error.value)
    assert main(["diff", "--path", str(shallow), "HEAD"]) == 2
    assert capsys.readouterr().err == f"rulespy diff: {error.value}\n"
    render = subprocess.run(
        [sys.executable, "-c", _CLI, "render", str(shallow)], capture_output=True, text=True, check=False
    )
    assert render.returncode == 2
    assert render.stderr.splitlines()[0] == str(error.value)
    assert render.stderr.splitlines()[1:] == ["rulespy render: 1 input error(s): nothing published"]
    _git(shallow, "fetch", "-q", "--unshallow")
    assert [r.tag for r in releases(shallow)] == ["v1.0.0", "v1.1.0"]


def test_a_release_is_named_without_a_tag(history: History) -> None:
    repo, commits = history
    assert resolve(repo, "v1.0.0") == resolve(repo, "1.0.0") == commits["1.0.0"]
    assert resolve(repo, "v1.1") == commits["1.1.0"]  # an edition: its latest release
    assert resolve(repo, "HEAD~2") == "HEAD~2" and resolve(repo, "v2.0.0") == "v2.0.0"


def test_rulespy_release_moves_the_unreleased_changes_under_the_new_heading(
    history: History, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, _ = history
    text = changelog(("1.1.0", "2026-12-01"), ("1.0.0", "2026-11-30")).replace(
        "## [Unreleased]\n", "## [Unreleased]\n\n- `core/cover.md#heavy-cover`: wording.\n"
    )
    (repo / "CHANGELOG.md").write_text(text, encoding="utf-8")
    assert main(["release", "patch", "--date", "2026-12-04", "--root", str(repo)]) == 0
    assert "that commit is the release" in capsys.readouterr().out
    written = (repo / "CHANGELOG.md").read_text(encoding="utf-8")
    assert written.startswith(
        "# Changelog\n\n## [Unreleased]\n\n## [1.1.1] - 2026-12-04\n\n"
        "- `core/cover.md#heavy-cover`: wording.\n\n## [1.1.0] - 2026-12-01\n"
    )
    assert _git(repo, "status", "--porcelain") == " M CHANGELOG.md\n"  # nothing committed
    released = _commit(repo, "Release v1.1.1")
    assert releases(repo)[-1] == Release((1, 1, 1), "v1.1.1", released, "2026-12-04")
    assert main(["release", "--tag", "--root", str(repo)]) == 0
    assert capsys.readouterr().out == "rulespy release: tagged v1.0.0, v1.1.0, v1.1.1\n"
    assert _git(repo, "rev-list", "-n", "1", "v1.1.1").strip() == released
    assert [r.tag for r in releases(repo)] == ["v1.0.0", "v1.1.0", "v1.1.1"]  # the tags agree


@pytest.mark.parametrize(
    ("wanted", "text", "message"),
    [
        ("1.0.0", changelog(("1.0.0", "2026-11-30")), "CHANGELOG.md: 1.0.0 is released already"),
        ("0.9.0", changelog(("1.0.0", "2026-11-30")), "older than the latest release, 1.0.0"),
        ("1.0", changelog(), "'1.0' is not a version X.Y.Z"),
    ],
)
def test_a_version_released_already_older_or_malformed_is_refused(
    wanted: str, text: str, message: str
) -> None:
    with pytest.raises(ReleaseRefused, match=message.replace(".", r"\.").replace("(", r"\(")):
        version_of(wanted, text)


def test_a_release_with_nothing_unreleased_or_no_unreleased_heading_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ReleaseRefused, match=r"^CHANGELOG\.md:3: nothing is listed under Unreleased"):
        cut(changelog(("1.0.0", "2026-11-30")), (1, 1, 0), "2026-12-04")
    with pytest.raises(ReleaseRefused, match=r"^CHANGELOG\.md:1: has no '## \[Unreleased\]' heading"):
        cut("# Changelog\n", (1, 0, 0), "2026-12-04")
    with pytest.raises(ReleaseRefused, match="not a date"):
        cut("## [Unreleased]\n\n- x\n", (1, 0, 0), "2026-13-01")
    (tmp_path / "CHANGELOG.md").write_text(changelog(), encoding="utf-8")
    assert main(["release", "minor", "--root", str(tmp_path)]) == 2
    assert (tmp_path / "CHANGELOG.md").read_text(encoding="utf-8") == changelog()  # nothing written


def test_the_next_version_is_taken_after_the_newest_heading() -> None:
    text = changelog(("1.1.0", "2026-12-01"), ("1.0.0", "2026-11-30"))
    assert version_of("minor", text) == (1, 2, 0)
    assert version_of("patch", text) == (1, 1, 1)
    assert version_of("major", text) == (2, 0, 0)
    assert version_of("v1.3.0", text) == (1, 3, 0)
    assert version_of("minor", changelog()) == (1, 0, 0)


def test_a_heading_added_on_a_branch_or_while_merging_is_released_by_that_commit(tmp_path: Path) -> None:
    repo = tmp_path / "rules"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    _commit(repo, "start", changelog())
    _git(repo, "checkout", "-q", "-b", "side")
    on_side = _commit(repo, "Release v1.0.0 on a branch", changelog(("1.0.0", "2026-11-30")))
    _git(repo, "checkout", "-q", "main")
    _commit(repo, "meanwhile on main")
    _git(repo, "merge", "-q", "--no-edit", "side")
    assert [(r.tag, r.commit) for r in releases(repo)] == [("v1.0.0", on_side)]
    _git(repo, "checkout", "-q", "-b", "other")
    _commit(repo, "other work")
    _git(repo, "checkout", "-q", "main")
    _git(repo, "merge", "-q", "--no-commit", "--no-ff", "other")
    (repo / "CHANGELOG.md").write_text(changelog(("1.1.0", "2026-12-01"), ("1.0.0", "2026-11-30")))
    _git(repo, "commit", "-q", "-am", "Merge other, Release v1.1.0")
    merge = _git(repo, "rev-parse", "HEAD").strip()
    assert [(r.tag, r.commit) for r in releases(repo)] == [("v1.0.0", on_side), ("v1.1.0", merge)]
