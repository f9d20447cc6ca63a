"""Released editions of the rules, recorded in the tree: each ``## [X.Y.Z] - YYYY-MM-DD`` heading of
``CHANGELOG.md`` is a release, and the commit whose change of ``CHANGELOG.md`` gave the file that
heading is the released commit. Every clone that carries the history sees the same releases; no git
tag is needed (tags do not travel with a branch push, a mirror, a fork or most CI checkouts).

How the commit is found (``git log --reverse -p -U0 -- CHANGELOG.md``, one git call): the file's
history is read oldest first (parents before children), and each commit's diff says which release
headings it added and which it removed (a merge's, against its first parent: a heading written while
resolving a conflict is the merge's). A heading is released by the commit that added it while no
heading of that version stood; a commit that removes a heading and adds one of the same version (a
date corrected, the heading moved) keeps the release where it was; a heading removed for good (a
release called off) and added again later is released by the later commit. The releases are the
headings of ``CHANGELOG.md`` as committed at ``HEAD`` (an uncommitted heading is not a release yet),
with the date that heading gives.

Tags are an optional convenience: a tag ``vX.Y.Z`` must name the commit the CHANGELOG gives (else
``ReleaseError``, naming both commits), and a ``vX.Y.Z`` tag inside ``HEAD``'s history without a heading
in ``CHANGELOG.md`` is an error too. A shallow clone lacks the history the commits are found in: with
any release heading, ``ReleaseError`` says to ``git fetch --unshallow``.

Versions are semantic versioning of play: a change that alters any outcome or odds of an existing
scenario or example is at least a minor release; a change of wording only is a patch; a major release
(a change that breaks scenario files or the command line players rely on) is the writer's call. An
edition of the site is a minor version (``/v1.0/``): it shows the latest patch released under it.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from rulespy.errors import BookError

CHANGELOG = "CHANGELOG.md"
UNSHALLOW = "git fetch --unshallow"
_VERSION = r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
_TAG = re.compile(rf"^v{_VERSION}$")
#: A release heading of CHANGELOG.md (Keep a Changelog's form); ``## [Unreleased]`` is not one.
HEADING = re.compile(rf"^## \[{_VERSION}\] - (\d{{4}}-\d{{2}}-\d{{2}})[ \t]*$")


class ReleaseError(BookError):
    """The releases cannot be told: a tag that disagrees with CHANGELOG.md, or a shallow clone. The
    message is one line per problem; ``make site`` and ``rulespy diff`` stop on it."""


@dataclass(frozen=True, order=True)
class Release:
    version: tuple[int, int, int]
    tag: str
    commit: str
    date: str = field(default="", compare=False)  # the CHANGELOG heading's, YYYY-MM-DD

    @property
    def edition(self) -> str:
        """The site folder of this release's edition: ``v1.1``."""
        return f"v{self.version[0]}.{self.version[1]}"

    @property
    def short(self) -> str:
        """How a "changed in" mark names it: ``v1.1`` for ``v1.1.0``, the whole tag for a patch."""
        return self.edition if self.version[2] == 0 else self.tag

    @property
    def number(self) -> str:
        """``1.1.0``: how the CHANGELOG heading writes it."""
        return self.tag[1:]


def parse(tag: str) -> tuple[int, int, int] | None:
    found = _TAG.match(tag)
    return None if found is None else (int(found[1]), int(found[2]), int(found[3]))


def headings(text: str) -> dict[tuple[int, int, int], str]:
    """The release headings of a CHANGELOG text: version -> date.

    >>> headings("## [Unreleased]\\n\\n## [1.1.0] - 2026-12-01\\n\\n## [1.0.0] - 2026-11-30\\n## [2.0.0]\\n")
    {(1, 1, 0): '2026-12-01', (1, 0, 0): '2026-11-30'}
    """
    found: dict[tuple[int, int, int], str] = {}
    for line in text.split("\n"):
        match = HEADING.match(line.rstrip("\r"))
        if match:
            found.setdefault((int(match[1]), int(match[2]), int(match[3])), match[4])
    return found


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)
    except OSError:  # no git, or no such folder: no releases
        return None


def is_top(repo: Path) -> bool:
    """Whether ``repo`` is the top of a git repository (a tree inside another one has no releases)."""
    top = _git(repo, "rev-parse", "--show-toplevel")
    if top is None or top.returncode != 0:
        return False
    return Path(top.stdout.strip()).resolve() == Path(repo).resolve()


def release_commits(repo: Path) -> dict[tuple[int, int, int], str]:
    """For each release heading CHANGELOG.md's history holds now, the commit that released it (the
    module's docstring says how)."""
    done = _git(
        repo, "log", "--reverse", "--topo-order", "--format=%x00%H", "-p", "-U0", "--no-color",
        "--no-ext-diff", "--no-renames", "--diff-merges=first-parent", "HEAD", "--", CHANGELOG,
    )
    standing: dict[tuple[int, int, int], str] = {}
    if done is None or done.returncode != 0:
        return standing
    for chunk in done.stdout.split("\x00")[1:]:
        commit, _, patch = chunk.partition("\n")
        added: set[tuple[int, int, int]] = set()
        removed: set[tuple[int, int, int]] = set()
        for line in patch.split("\n"):
            if line[:1] in "+-" and line[1:4] == "## ":
                for version in headings(line[1:]):
                    (added if line[0] == "+" else removed).add(version)
        for version in removed - added:
            standing.pop(version, None)
        for version in added:
            standing.setdefault(version, commit.strip())
    return standing


def _tags(repo: Path, *merged: str) -> list[tuple[str, str]]:
    """``vX.Y.Z`` tags and the commits they name (annotated tags peeled)."""
    form = "--format=%(refname:short) %(objectname) %(*objectname)"
    done = _git(repo, "for-each-ref", *merged, form, "refs/tags/v*")
    found = []
    for line in done.stdout.splitlines() if done is not None and done.returncode == 0 else []:
        tag, commit, *peeled = line.split(" ")
        if parse(tag) is not None:
            found.append((tag, peeled[0] if peeled and peeled[0] else commit))
    return found


def releases(repo: Path) -> list[Release]:
    """Every release recorded in ``CHANGELOG.md`` at ``HEAD``, oldest version first: a past edition
    checked out at its release commit sees itself and the releases before it. A folder that is not the
    top of a git repository has none. ``ReleaseError`` for a tag that disagrees or a shallow clone."""
    if not is_top(repo):
        return []
    shown = _git(repo, "show", f"HEAD:{CHANGELOG}")
    listed = headings(shown.stdout) if shown is not None and shown.returncode == 0 else {}
    if listed:
        shallow = _git(repo, "rev-parse", "--is-shallow-repository")
        if shallow is not None and shallow.stdout.strip() == "true":
            raise ReleaseError(
                f"this clone is shallow: {CHANGELOG}'s releases are found in its history; "
                f"run `{UNSHALLOW}` first"
            )
    commits = release_commits(repo) if listed else {}
    found: list[Release] = []
    problems: list[str] = []
    for version, date in listed.items():
        tag = "v{}.{}.{}".format(*version)
        if version not in commits:  # a history rewritten or grafted: the heading has no commit
            problems.append(f"{CHANGELOG}: no commit in the history adds the heading of {tag}")
            continue
        found.append(Release(version, tag, commits[version], date))
    by_version = {r.version: r for r in found}
    for tag, commit in _tags(repo):
        release = by_version.get(parse(tag))  # type: ignore[arg-type]
        if release is not None and release.commit != commit:
            problems.append(
                f"the tag {tag} names commit {commit[:12]}, but {CHANGELOG} records {tag} at commit "
                f"{release.commit[:12]} (the commit that added its heading): move or delete the tag"
            )
    for tag, commit in _tags(repo, "--merged", "HEAD"):
        if parse(tag) not in listed:
            problems.append(
                f"the tag {tag} names commit {commit[:12]}, but {CHANGELOG} has no heading "
                f"'## [{tag[1:]}] - DATE': add the heading or delete the tag"
            )
    if problems:
        raise ReleaseError("\n".join(problems))
    return sorted(found)


def resolve(repo: Path, rev: str) -> str:
    """A release's name (``v1.0.0``, ``1.0.0``, or an edition ``v1.0``: its latest release) as its
    commit, so that ``rulespy diff v1.0.0`` needs no tag; any other revision as given."""
    wanted = rev if rev.startswith("v") else f"v{rev}"
    found = releases(repo) if parse(wanted) or re.fullmatch(r"v\d+\.\d+", wanted) else []
    named = [r for r in found if wanted in (r.tag, r.edition)]
    return named[-1].commit if named else rev


def next_version(last: tuple[int, int, int] | None, release: str) -> str:
    """The tag the next release takes after ``last`` for a ``minor`` or ``patch`` change."""
    if last is None:
        return "v1.0.0"
    major, minor, patch = last
    return f"v{major}.{minor + 1}.0" if release == "minor" else f"v{major}.{minor}.{patch + 1}"


def editions(found: list[Release]) -> list[Release]:
    """The latest release of each minor version, oldest first: what the site keeps under ``/vX.Y/``."""
    latest: dict[str, Release] = {}
    for release in found:
        latest[release.edition] = release
    return sorted(latest.values())


def checked_out(repo: Path) -> tuple[str | None, bool]:
    """The checked-out commit (None: no git, or no commit yet) and whether a tracked file differs from it."""
    status = _git(repo, "status", "--porcelain", "--untracked-files=no")
    done = _git(repo, "rev-parse", "--verify", "--quiet", "HEAD")
    commit = done.stdout.strip() if done is not None and done.returncode == 0 else None
    dirty = status is None or status.returncode != 0 or bool(status.stdout.strip())
    return commit, dirty


def head(repo: Path) -> str | None:
    """The checked-out commit, when the tree holds no change to a tracked file (else None)."""
    commit, dirty = checked_out(repo)
    return None if dirty else commit
