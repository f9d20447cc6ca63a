"""``rulespy translations stamp PAGE[#ID]...``: record which English text each translated section
translates (the stamp under its heading; see ``rulespy/check/translations.py``).

Exit 0 stamped (or already current), 2 a page that is not a translation, has no English twin, or lacks
the section named (``PATH:LINE: message`` on standard error; nothing is written for that page).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    stamp = actions.add_parser(
        "stamp",
        help="stamp translated sections with the hash of their English section as it is now",
        description="Stamp each section of PAGE (or only #ID) as translating its English section as it "
        "is now. Run it after bringing the translation up to date; rulespy check then stops reporting it "
        "stale (RS074) until the English section changes again.",
    )
    stamp.add_argument("pages", nargs="+", metavar="PAGE[#ID]", help="e.g. ru/core/damage.md#target-limit")
    stamp.add_argument("--root", default=".", help="the rules repository (default: this folder)")


def run(args: argparse.Namespace) -> int:
    from rulespy.check.translations import StampError, stamp

    status = 0
    for page in args.pages:
        try:
            stamped = stamp(Path(args.root), page)
        except StampError as error:
            print(f"rulespy translations: {error}", file=sys.stderr)
            status = 2
            continue
        done = ", ".join(f"#{anchor}" for anchor in stamped) if stamped else "already current"
        print(f"{page.partition('#')[0]}: {done}")
    return status
