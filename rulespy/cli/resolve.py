"""``rulespy resolve SCENARIO [--json] [--lang LANG]``: resolve a scenario's attack (or firefight) and
explain it.

Exit 0 resolved, 1 the declaration is illegal (nothing rolled), 2 malformed input. Checks run in this
order: the scenario's form, then the declaration's legality, then the scripted dice.
Malformed input prints ``SCENARIO:LINE: message`` on standard error and nothing on standard output;
no input ever prints a Python traceback. Only what resolving needs is imported. What is printed is
``rulespy.api.resolve_file``'s answer, the same the site's rules judge shows.

``--lang ru`` words the account, the JSON ``trace[].text``, the outcome and a refusal in Russian, each line
citing the Russian title of its rule section (``rulespy.i18n``); the default, English, is the source
text. The JSON's keys and values other than words (ids, rules, numbers) are the same in every language,
and a malformed scenario's ``SCENARIO:LINE: message`` stays English.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", metavar="SCENARIO", help="the scenario file (YAML)")
    parser.add_argument(
        "--json", action="store_true", help="print the resolution as JSON instead of the account"
    )
    add_language(parser)


def add_language(parser: argparse.ArgumentParser) -> None:
    """``--lang LANG``: the language of the account (``resolve``) or of the odds (``odds``)."""
    from rulespy.i18n import LANGUAGES, SOURCE

    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=SOURCE,
        help=f"the language of the words printed: {', '.join(LANGUAGES)} (default {SOURCE})",
    )


def run(args: argparse.Namespace) -> int:
    """Print what ``rulespy.api.resolve_file`` answers: only the output asked for is made."""
    from rulespy.api import resolve_file

    as_json = bool(args.json)
    answer = resolve_file(str(args.scenario), ("json",) if as_json else ("text",), language=args.lang)
    sys.stdout.write(answer.printed(as_json))
    sys.stderr.write(answer.error)
    return answer.exit
