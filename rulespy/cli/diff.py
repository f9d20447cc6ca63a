"""``rulespy diff REV [REV2] [--path PATH] [--json] [--format text|markdown|json] [--check]``: what a
change of rules does to play.

Resolves every scenario under ``examples/scenarios/`` and every scenario written in a rule file's worked
example, at REV and in the working tree, each by its own engine, and lists those whose outcome
(legality, casualties and their removal, final wounds and statuses, successes) changed, with a short
before -> after. Exit 0 whenever it ran, 2 for a bad REV or a folder that is not a git repository (a
one-line message, never a traceback).

``REV2``: compare REV with that revision instead of the working tree (``rulespy diff v1.0.0 v1.1.0``:
what changed between two releases). A revision may name a release as ``CHANGELOG.md`` records it
(``v1.0.0``, ``1.0.0``, or an edition ``v1.0``, its latest release), whether or not a tag exists
(``rulespy.editions.versions``): one of the releases the checked-out ``CHANGELOG.md`` records, so a
release made after the checked-out commit is named by its commit or tag instead. Releases are read
first, so a ``vX.Y.Z`` tag that disagrees with ``CHANGELOG.md`` stops every diff (exit 2, naming both
commits), as a shallow clone does.

``--format markdown`` and ``--format json`` print the whole behaviour summary (``rulespy.editions``):
the rule sections whose words changed, with a word diff; the outcomes that changed, with the changed
sections each exercises; the odds that moved, in percentage points; and the release the change needs
(minor when play changes, patch when only words do). ``--format text`` (the default) and ``--json``
print the outcome list as they always have.

``--check`` makes it a gate: exit 1, naming each one on standard error as ``path:line: ...``, when an
outcome changed while the example that shows it was not touched (``rulespy.editions.summary`` says what
touching means). The report is printed all the same.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "rev", metavar="REV", help="the git revision or release to compare with (e.g. origin/main, v1.0.0)"
    )
    parser.add_argument(
        "rev2",
        metavar="REV2",
        nargs="?",
        help="compare REV with this revision or release instead of the working tree (e.g. v1.1.0)",
    )
    parser.add_argument("--path", default=".", help="a folder inside the rules repository (default: .)")
    parser.add_argument("--json", action="store_true", help="print the changes as JSON")
    parser.add_argument(
        "--format",
        choices=("text", "markdown", "json"),
        default="text",
        help="text: the outcome list (default); markdown, json: the whole behaviour summary",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="exit 1 when an outcome changed but the example that shows it was not touched",
    )


def run(args: argparse.Namespace) -> int:
    from rulespy.coverage.diff import repository_root
    from rulespy.coverage.rules import CoverageError
    from rulespy.editions.versions import ReleaseError, releases, resolve

    try:
        repo = repository_root(Path(args.path))
        releases(repo)  # a tag that disagrees with CHANGELOG.md, or a shallow clone, stops every diff
        old = resolve(repo, str(args.rev))
        if args.format != "text" or args.check or args.rev2 is not None:
            return _summary(args, repo)
        from rulespy.coverage.diff import diff

        commit, changes, total, notes = diff(Path(args.path), old)
    except CoverageError as error:
        print(f"rulespy diff: {error.located()}", file=sys.stderr)
        return 2
    except ReleaseError as error:
        for line in str(error).splitlines():
            print(f"rulespy diff: {line}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"rulespy diff: cannot read the repository: {error}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"rulespy diff: {note}", file=sys.stderr)
    _print_changes(changes, total, args.rev, commit, bool(args.json))
    return 0


def _print_changes(
    changes: list[Any], total: int, rev: str, commit: str, as_json: bool, rev2: str | None = None
) -> None:
    """The outcome list, as text or as the ``--json`` dict (with ``rev2``: up to that revision)."""
    if as_json:
        data: dict[str, Any] = {"rev": rev, "commit": commit, "resolved": total}
        if rev2 is not None:
            data["rev2"] = rev2
        data["changes"] = [c.to_json() for c in changes]
        print(json.dumps(data, indent=2))
        return
    for change in changes:
        print(f"{change.kind}: {change.name} ({change.where})")
        for line in change.lines():
            print(f"    {line}")
    changed = sum(c.kind == "changed" for c in changes)
    print(
        f"{changed} of {total} scenarios and examples changed outcome since {rev} ({commit[:12]})"
        f"{'' if rev2 is None else ' up to ' + rev2}; "
        f"{sum(c.kind == 'added' for c in changes)} new, {sum(c.kind == 'removed' for c in changes)} gone"
    )


def _summary(args: argparse.Namespace, repo: Path) -> int:
    """The behaviour summary (``--format markdown|json``, ``--check``, two revisions); ``run`` reports
    its errors."""
    from rulespy.editions.report import check_failures, markdown
    from rulespy.editions.summary import summarise

    summary = summarise(repo, str(args.rev), None if args.rev2 is None else str(args.rev2))
    for note in summary.notes:
        print(f"rulespy diff: {note}", file=sys.stderr)
    if args.format == "markdown":
        sys.stdout.write(markdown(summary))
    elif args.format == "json":
        print(json.dumps(summary.to_json(), indent=2))
    else:
        changes = [o.change for o in summary.outcomes]
        _print_changes(changes, summary.resolved, args.rev, summary.old_commit, bool(args.json), args.rev2)
    failures = check_failures(summary) if args.check else []
    for failure in failures:
        print(f"rulespy diff: {failure}", file=sys.stderr)
    return 1 if failures else 0
