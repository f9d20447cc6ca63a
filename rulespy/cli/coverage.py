"""``rulespy coverage [PATH] [--json] [--verbose] [--no-run] [--mutants]``: what implements and proves each
rule; with ``--mutants``, also what no example pins down, from the results ``make mutants`` cached
(``rulespy/coverage/mutants.py``; nothing is mutated or run for it).

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
    parser.add_argument(
        "--mutants",
        action="store_true",
        help="add, per rule section, the engine mutants no example kills (read from make mutants' cache)",
    )


def run(args: argparse.Namespace) -> int:
    from rulespy.coverage.report import build_report
    from rulespy.coverage.rules import CoverageError

    root = Path(args.path)
    try:
        report = build_report(root, run=not args.no_run)
        mutation = None
        if args.mutants:
            from rulespy.coverage.mutants import load_mutation_report

            mutation = load_mutation_report(root)
    except CoverageError as error:
        print(f"rulespy coverage: {error.located()}", file=sys.stderr)
        return 2
    except (OSError, RecursionError, MemoryError) as error:
        print(f"rulespy coverage: {root}: cannot read the repository: {error}", file=sys.stderr)
        return 2
    if args.json:
        data = report.to_json()
        if mutation is not None:
            data["mutants"] = mutation.to_json()
        print(json.dumps(data, indent=2, sort_keys=False))
    else:
        from rulespy.coverage.text import render

        print(render(report, verbose=bool(args.verbose)))
        if mutation is not None:
            from rulespy.coverage.mutants import render as render_mutants

            print()
            print(render_mutants(mutation))
    return 1 if report.failed or (mutation is not None and mutation.problems) else 0
