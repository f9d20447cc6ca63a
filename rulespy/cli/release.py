"""``rulespy release VERSION [--date YYYY-MM-DD] [--root .]`` and ``rulespy release --tag``: cut a release
(``rulespy.editions.release``).

``VERSION`` is ``X.Y.Z``, or ``major``, ``minor`` or ``patch`` to take the next one after the newest
release heading (``rulespy diff vLATEST --format markdown`` says which a change needs). The command moves
the Unreleased changes of ``CHANGELOG.md`` under ``## [X.Y.Z] - DATE`` (today, UTC, unless ``--date``)
and commits nothing: the commit you make of it is the release. ``--tag`` instead tags every recorded
release that has no tag, at the commit CHANGELOG.md records (tags are optional; they never decide).

Exit 0 done; 2 refused (a version already released or older than the latest, no Unreleased heading or
nothing under it, a bad date; a tag that disagrees with CHANGELOG.md), with one line naming why.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "version", nargs="?", metavar="VERSION", help="X.Y.Z, or major, minor or patch (the next one)"
    )
    parser.add_argument("--date", help="the release date, YYYY-MM-DD (default: today, UTC)")
    parser.add_argument(
        "--tag", action="store_true", help="tag each recorded release without a tag at its commit, and stop"
    )
    parser.add_argument("--root", default=".", help="the rules repository (default: this folder)")


def run(args: argparse.Namespace) -> int:
    from rulespy.editions.release import ReleaseRefused, cut, tag_releases, version_of, write
    from rulespy.editions.versions import CHANGELOG, ReleaseError

    root = Path(args.root)
    try:
        if args.tag:
            if args.version is not None:
                raise ReleaseRefused("--tag tags the releases already committed: give no VERSION")
            made = ", ".join(r.tag for r in tag_releases(root)) or "nothing (every release has its tag)"
            print(f"rulespy release: tagged {made}")
            return 0
        if args.version is None:
            raise ReleaseRefused("give the VERSION to release (X.Y.Z, major, minor or patch), or --tag")
        path = root / CHANGELOG
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise ReleaseRefused(f"{CHANGELOG}: cannot read: {error}") from None
        version = version_of(args.version, text)
        date = args.date or datetime.datetime.now(datetime.UTC).date().isoformat()
        write(path, cut(text, version, date))
    except (ReleaseRefused, ReleaseError) as error:
        for line in str(error).splitlines():
            print(f"rulespy release: {line}", file=sys.stderr)
        return 2
    tag = "v{}.{}.{}".format(*version)
    print(
        f"rulespy release: {CHANGELOG} now has '## [{tag[1:]}] - {date}'; read its diff, then commit it "
        f'(git commit -am "Release {tag}"): that commit is the release. A tag is optional: '
        "rulespy release --tag"
    )
    return 0
