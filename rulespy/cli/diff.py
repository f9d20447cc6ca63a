"""``rulespy diff REV [--path PATH] [--json]``: what a change of rules does to play.

Resolves every scenario under ``examples/scenarios/`` and every scenario written in a rule file's worked
example, at REV and in the working tree, each by its own engine, and lists those whose outcome
(legality, casualties and their removal, final wounds and statuses, successes) changed, with a short
before -> after. It reports; it is not a gate: exit 0 whenever it ran, 2 for a bad REV or a folder that
is not a git repository (a one-line message, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "rev", metavar="REV", help="the git revision to compare with (e.g. origin/main, HEAD~1)"
    )
    parser.add_argument("--path", default=".", help="a folder inside the rules repository (default: .)")
    parser.add_argument("--json", action="store_true", help="print the changes as JSON")


def run(args: argparse.Namespace) -> int:
    from rulespy.coverage.diff import diff
    from rulespy.coverage.rules import CoverageError

    try:
        commit, changes, total, notes = diff(Path(args.path), str(args.rev))
    except CoverageError as error:
        print(f"rulespy diff: {error.located()}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"rulespy diff: cannot read the repository: {error}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"rulespy diff: {note}", file=sys.stderr)
    if args.json:
        data = {
            "rev": args.rev,
            "commit": commit,
            "resolved": total,
            "changes": [c.to_json() for c in changes],
        }
        print(json.dumps(data, indent=2))
        return 0
    for change in changes:
        print(f"{change.kind}: {change.name} ({change.where})")
        for line in change.lines():
            print(f"    {line}")
    changed = sum(c.kind == "changed" for c in changes)
    print(
        f"{changed} of {total} scenarios and examples changed outcome since {args.rev} ({commit[:12]}); "
        f"{sum(c.kind == 'added' for c in changes)} new, {sum(c.kind == 'removed' for c in changes)} gone"
    )
    return 0
