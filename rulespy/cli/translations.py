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
    stamp.add_argument(
        "pages",
        nargs="+",
        metavar="PAGE[#ID]",
        help="e.g. ru/core/damage.md#target-limit; a folder (ru/) stamps every page in it, for a first "
        "translation",
    )
    stamp.add_argument("--root", default=".", help="the rules repository (default: this folder)")


def run(args: argparse.Namespace) -> int:
    from rulespy.check.translations import StampError, stamp

    root = Path(args.root)
    pages: list[str] = []
    for page in args.pages:
        folder = root / page
        if "#" not in page and folder.is_dir():
            found = sorted(p.relative_to(root).as_posix() for p in folder.rglob("*.md") if p.is_file())
            pages += [p for p in found if not any(part.startswith(".") for part in p.split("/"))]
        else:
            pages.append(page)
    status = 0
    for page in pages:
        try:
            stamped = stamp(root, page)
        except StampError as error:
            print(f"rulespy translations: {error}", file=sys.stderr)
            status = 2
            continue
        done = ", ".join(f"#{anchor}" for anchor in stamped) if stamped else "already current"
        print(f"{page.partition('#')[0]}: {done}")
    return status
