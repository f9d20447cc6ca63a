"""``rulespy translations stamp PAGE[#ID]...``: record which English text each translated section
translates (the stamp under its heading; see ``rulespy/check/translations.py``).

Exit 0 stamped (or already current), 2 a page that is not a translation, has no English twin, or lacks
the section named (``PATH:LINE: message`` on standard error; nothing is written for that page).

``rulespy translations stale [--since REV] [--format text|markdown] [--link PREFIX]``: every stale
translated section with the English words changed since its stamp (``rulespy/editions/stale.py``), for
a translator; ``--format markdown --since BASE`` is the pull request's job summary. Exit 0 whatever it
lists (a stale translation never refuses a change), 2 a repository it cannot read.
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
    stale = actions.add_parser(
        "stale",
        help="list every stale translated section with the English words changed since its stamp",
        description="List every translated section whose English section changed since it was stamped "
        "(or that has no stamp), with the English words removed and added since then, found in the git "
        "history. It always exits 0: a stale translation is work for a translator, never a reason to "
        "refuse an English change.",
    )
    stale.add_argument("--root", default=".", help="the rules repository (default: this folder)")
    stale.add_argument(
        "--since", metavar="REV", help="mark the sections whose English text changed since REV (a PR's base)"
    )
    stale.add_argument("--format", choices=("text", "markdown"), default="text")
    stale.add_argument(
        "--link",
        default="",
        metavar="PREFIX",
        help="markdown: link each section as PREFIX + path + #Lline (e.g. https://github.com/O/R/blob/SHA/)",
    )


def run(args: argparse.Namespace) -> int:
    if args.action == "stale":
        return _stale(args)
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


def _stale(args: argparse.Namespace) -> int:
    from rulespy.editions.stale import markdown_report, stale_sections, text_report

    root = Path(args.root)
    if not root.is_dir():
        print(f"rulespy translations: {args.root}: no such folder", file=sys.stderr)
        return 2
    if args.since is not None and (not args.since.strip() or args.since.startswith("-")):
        # a revision is handed to git: one that starts with "-" would be read as one of git's options
        print(f"rulespy translations: --since {args.since!r}: not a git revision", file=sys.stderr)
        return 2
    found = stale_sections(root, args.since)
    report = markdown_report(found, args.link) if args.format == "markdown" else text_report(found)
    sys.stdout.write(report)
    return 0
