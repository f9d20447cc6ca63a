"""``rulespy render``: write the site's pages into the staging folder the generators build from.

Exit codes: 0 rendered; 1 rendered with warnings under ``--strict``; 2 input that cannot be
published (each problem printed as ``path:line: message``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("root", nargs="?", default=".", help="the rules repository (default: .)")
    parser.add_argument(
        "--out", help="staging folder of the English site alone (default: ROOT/build/pages, and each "
        "translation's in ROOT/build/LANGUAGE/pages)"
    )
    parser.add_argument("--nav", help="navigation file mkdocs.yml inherits (default: ROOT/build/nav.yml)")
    parser.add_argument("--strict", action="store_true", help="a warning fails the render (exit 1)")
    parser.add_argument("--quiet", action="store_true", help="print only warnings and errors")


def run(args: argparse.Namespace) -> int:
    from rulespy.check.findings import CheckError
    from rulespy.render.stage import RenderError, render, render_all

    started = time.perf_counter()
    try:
        if args.out or args.nav:
            report = render(Path(args.root), args.out and Path(args.out), args.nav and Path(args.nav))
        else:  # the English site and each translation (ru/ into build/ru/)
            report = render_all(Path(args.root))
    except RenderError as error:
        from rulespy.check.findings import printable  # a file name or a page may hold control characters

        for problem in error.problems:
            print(printable(problem), file=sys.stderr)
        print(f"rulespy render: {len(error.problems)} input error(s): nothing published", file=sys.stderr)
        return 2
    except CheckError as error:  # the tree cannot be read at all (no such folder, a bad concepts.yml)
        print(f"rulespy render: {error.located()}", file=sys.stderr)
        return 2
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if not args.quiet:
        seconds = time.perf_counter() - started
        print(
            f"rulespy render: {len(report.rendered)} page(s) rendered, {len(report.written)} file(s) "
            f"written, {len(report.removed)} removed, in {seconds:.2f} s"
        )
    return 1 if args.strict and report.warnings else 0
