"""Released editions of the rules: git tags ``vMAJOR.MINOR.PATCH`` (semantic versioning of play).

A change that alters any outcome or odds of an existing scenario or example is at least a minor
release; a change of wording only is a patch; a major release (a change that breaks scenario files or
the command line players rely on) is the writer's call. Other tags are ignored. An edition of the site
is a minor version (``/v1.0/``): it shows the latest patch released under it.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

_TAG = re.compile(r"^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")


@dataclass(frozen=True, order=True)
class Release:
    version: tuple[int, int, int]
    tag: str
    commit: str

    @property
    def edition(self) -> str:
        """The site folder of this release's edition: ``v1.1``."""
        return f"v{self.version[0]}.{self.version[1]}"

    @property
    def short(self) -> str:
        """How a "changed in" mark names it: ``v1.1`` for ``v1.1.0``, the whole tag for a patch."""
        return self.edition if self.version[2] == 0 else self.tag


def parse(tag: str) -> tuple[int, int, int] | None:
    found = _TAG.match(tag)
    return None if found is None else (int(found[1]), int(found[2]), int(found[3]))


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str] | None:
    try:
        return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)
    except OSError:  # no git, or no such folder: no releases
        return None


def releases(repo: Path) -> list[Release]:
    """Every release tag the checked-out commit contains (``git for-each-ref --merged HEAD``), oldest
    version first: a past edition checked out from its tag sees itself and the releases before it.
    A folder that is not the top of a git repository (a tree inside another one) has none."""
    top = _git(repo, "rev-parse", "--show-toplevel")
    if top is None or top.returncode != 0 or Path(top.stdout.strip()).resolve() != Path(repo).resolve():
        return []
    form = "--format=%(refname:short) %(objectname) %(*objectname)"
    done = _git(repo, "for-each-ref", "--merged", "HEAD", form, "refs/tags/v*")
    if done is None:
        return []
    found = []
    for line in done.stdout.splitlines():
        tag, commit, *peeled = line.split(" ")
        version = parse(tag)
        if version is not None:
            found.append(Release(version, tag, peeled[0] if peeled and peeled[0] else commit))
    return sorted(found)


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


def head(repo: Path) -> str | None:
    """The checked-out commit, when the tree holds no change to a tracked file (else None)."""
    status = _git(repo, "status", "--porcelain", "--untracked-files=no")
    done = _git(repo, "rev-parse", "HEAD")
    if status is None or done is None or status.returncode or status.stdout.strip() or done.returncode:
        return None
    return done.stdout.strip()
