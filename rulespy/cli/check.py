"""``rulespy check [PATH]``: print the checker's findings; exit 0 clean, 1 findings, 2 cannot run.

Warning findings (severity ``warning`` in ``FINDING_CODES``: a stale translation, RS074) are printed like
the others, their message starting with ``warning:``, and counted apart in the total line; they fail the
check like any finding unless ``--warnings-ok`` is given (``make test`` and ``make site`` give it), so a
lagging translation is listed on every run without stopping the build.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from rulespy.check.findings import code_table

    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "finding codes:\n" + code_table(width=96)
    parser.add_argument("path", nargs="?", default=".", help="the rules repository (default: this folder)")
    parser.add_argument(
        "--format",
        choices=("text", "github", "json"),
        default="text",
        help="text: PATH:LINE:COLUMN: CODE message; github: workflow annotations; json: one document",
    )
    parser.add_argument("--no-cache", action="store_true", help="parse every file again (a cold run)")
    parser.add_argument(
        "--warnings-ok",
        action="store_true",
        help="exit 0 when every finding is a warning (RS074 stale translation); they are still listed",
    )


def _escape(value: str, property_value: bool = False) -> str:
    """A workflow command's value: first ``printable`` (no control or bidirectional character reaches the
    log), then GitHub's own escapes for what is left (``%``, and ``:`` ``,`` in properties)."""
    from rulespy.check.findings import printable

    value = printable(value).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        value = value.replace(":", "%3A").replace(",", "%2C")
    return value


def run(args: argparse.Namespace) -> int:
    from rulespy.check.findings import WARNINGS, CheckError
    from rulespy.check.runner import CheckOptions, run_check

    try:
        report = run_check(Path(args.path), CheckOptions(use_cache=not args.no_cache))
    except CheckError as error:
        print(f"rulespy check: {error.located()}", file=sys.stderr)
        return 2
    findings = report.findings
    warnings = sum(1 for f in findings if f.code in WARNINGS)
    counted = f" ({warnings} warning{'s' if warnings != 1 else ''})" if warnings else ""
    total = (
        f"{len(findings)} finding{'s' if len(findings) != 1 else ''}{counted} in {report.files} files checked"
    )
    out = sys.stdout
    if args.format == "json":
        import json

        findings_list = [f.as_dict() for f in findings]
        document = {"findings": findings_list, "total": len(findings), "files": report.files}
        json.dump(document, out, indent=2)
        out.write("\n")
    elif args.format == "github":
        for f in findings:
            where = f"file={_escape(f.path, True)},line={f.line},col={f.column},title={f.code}"
            level = "warning" if f.code in WARNINGS else "error"
            out.write(f"::{level} {where}::{_escape(f'{f.code} {f.message}')}\n")
        out.write(f"rulespy check: {total}\n")
    else:
        for f in findings:
            out.write(f"{f}\n")
        out.write(f"rulespy check: {total}\n")
    failing = [f for f in findings if not (args.warnings_ok and f.code in WARNINGS)]
    return 1 if failing else 0
