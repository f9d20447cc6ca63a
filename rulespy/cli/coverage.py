"""``rulespy coverage [PATH] [--json] [--verbose] [--no-run]``: what implements and proves each rule.

Exit 0 when every owned concept with a mechanic has an executed example in its owner file, every ``Rule:``
citation and ``# exercises:`` marker names an existing section, and the numbered steps agree with the
engine (RS060); 1 otherwise; 2 when it cannot run (bad path, unreadable registry), as ``PATH:LINE:
message`` on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path", nargs="?", default=".", metavar="PATH", help="the rules repository (default: .)"
    )
    parser.add_argument("--json", action="store_true", help="print the whole report as JSON")
    parser.add_argument("-v", "--verbose", action="store_true", help="name each function, example and test")
    parser.add_argument(
        "--no-run", action="store_true", help="do not run the examples (no trace citations; faster)"
    )


def run(args: argparse.Namespace) -> int:
    from rulespy.coverage.report import build_report
    from rulespy.coverage.rules import CoverageError

    root = Path(args.path)
    try:
        report = build_report(root, run=not args.no_run)
    except CoverageError as error:
        print(f"rulespy coverage: {error.located()}", file=sys.stderr)
        return 2
    except (OSError, RecursionError, MemoryError) as error:
        print(f"rulespy coverage: {root}: cannot read the repository: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_json(), indent=2, sort_keys=False))
    else:
        from rulespy.coverage.text import render

        print(render(report, verbose=bool(args.verbose)))
    return 1 if report.failed else 0
