"""Cutting a release: the ``## [X.Y.Z] - DATE`` heading written into ``CHANGELOG.md`` (``rulespy
release``), and, as a convenience, the tags that name the commits CHANGELOG.md records.

``cut`` moves what stands under ``## [Unreleased]`` under a new heading ``## [X.Y.Z] - DATE`` placed right
below it, leaving Unreleased empty (Keep a Changelog's way). It writes the file and nothing else: the
commit a writer makes of it (``git commit -am "Release vX.Y.Z"``, after reading the diff) is the release,
because it is the commit that adds the heading (``rulespy.editions.versions``). Committing is left to the
writer on purpose: the release commit should hold the CHANGELOG as it was read and nothing staged by
accident, and a hook or a signed commit works as for any other commit.

``tag_releases`` makes a tag ``vX.Y.Z`` at the commit of each recorded release that has none; it never
moves a tag (one that disagrees stops it, as it stops ``make site``).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from rulespy.editions.versions import CHANGELOG, Release, headings, next_version, parse, releases
from rulespy.errors import BookError

_UNRELEASED = re.compile(r"^## \[Unreleased\][ \t]*$", re.IGNORECASE)
_DATE = re.compile(r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$")


class ReleaseRefused(BookError):
    """A release that cannot be cut (``CHANGELOG.md:LINE: message``); nothing was written."""


def version_of(wanted: str, text: str) -> tuple[int, int, int]:
    """``X.Y.Z`` (or ``vX.Y.Z``), or ``major``/``minor``/``patch`` after the newest heading of ``text``."""
    listed = sorted(headings(text))
    last = listed[-1] if listed else None
    if wanted in ("minor", "patch"):
        found = parse(next_version(last, wanted))
    elif wanted == "major":
        found = (last[0] + 1, 0, 0) if last else (1, 0, 0)
    else:
        found = parse(wanted if wanted.startswith("v") else f"v{wanted}")
    if found is None:
        raise ReleaseRefused(f"{wanted!r} is not a version X.Y.Z (nor major, minor or patch)")
    if found in listed:
        raise ReleaseRefused(f"{CHANGELOG}: {'{}.{}.{}'.format(*found)} is released already")
    if last is not None and found < last:
        raise ReleaseRefused(
            f"{CHANGELOG}: {'{}.{}.{}'.format(*found)} is older than the latest release, "
            f"{'{}.{}.{}'.format(*last)}"
        )
    return found


def cut(text: str, version: tuple[int, int, int], date: str) -> str:
    """``text`` (a CHANGELOG) with the Unreleased changes moved under ``## [X.Y.Z] - DATE``.

    >>> print(cut("# Changelog\\n\\n## [Unreleased]\\n\\n- Heavy cover -1.\\n\\n## [1.0.0] - 2026-11-30\\n",
    ...           (1, 1, 0), "2026-12-04"))
    # Changelog
    <BLANKLINE>
    ## [Unreleased]
    <BLANKLINE>
    ## [1.1.0] - 2026-12-04
    <BLANKLINE>
    - Heavy cover -1.
    <BLANKLINE>
    ## [1.0.0] - 2026-11-30
    <BLANKLINE>
    """
    if not _DATE.match(date):
        raise ReleaseRefused(f"{date!r} is not a date YYYY-MM-DD")
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if _UNRELEASED.match(line)), None)
    if start is None:
        raise ReleaseRefused(f"{CHANGELOG}:1: has no '## [Unreleased]' heading to release from")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    body = lines[start + 1 : end]
    if not any(line.strip() for line in body):
        raise ReleaseRefused(
            f"{CHANGELOG}:{start + 1}: nothing is listed under Unreleased: say what the release changes first"
        )
    while body and not body[-1].strip():
        body.pop()
    while body and not body[0].strip():
        body.pop(0)
    heading = "## [{}.{}.{}] - {}".format(*version, date)
    rest = lines[end:]
    return "\n".join([*lines[: start + 1], "", heading, "", *body, *([""] if rest else []), *rest])


def write(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` at once (a temporary file renamed over it): never half a CHANGELOG."""
    temporary = path.with_name(f".{path.name}.release.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def tag_releases(repo: Path) -> list[Release]:
    """Tag each recorded release that has no tag yet, at its commit; the releases tagged."""
    found = releases(repo)  # ReleaseError on a tag that disagrees: never moved here
    listed = subprocess.run(["git", "tag", "--list", "v*"], cwd=repo, capture_output=True, text=True)
    existing = set(listed.stdout.split())
    made = []
    for release in found:
        if release.tag not in existing:
            made.append(release)
            tag = ["git", "tag", release.tag, release.commit]
            subprocess.run(tag, cwd=repo, check=True, capture_output=True)
    return made
