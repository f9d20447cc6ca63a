"""``rulespy resolve SCENARIO [--json] [--lang LANG]``: resolve a scenario's attack (or firefight) and
explain it.

Exit 0 resolved, 1 the declaration is illegal (nothing rolled), 2 malformed input. Checks run in this
order: the scenario's form, then the declaration's legality, then the scripted dice.
Malformed input prints ``SCENARIO:LINE: message`` on standard error and nothing on standard output;
no input ever prints a Python traceback. Only what resolving needs is imported.

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
    from rulespy.cli.scenario_errors import answer
    from rulespy.i18n import language

    path = str(args.scenario)
    with language(args.lang):
        return answer(path, lambda: _resolve(path, bool(args.json)), "resolving")


def _resolve(path: str, as_json: bool) -> int:
    """Form (exit 2), then legality (exit 1), then the scripted dice (exit 2), in that order."""
    from rulespy.cli.scenario_errors import illegal, print_json
    from rulespy.errors import IllegalDeclaration
    from rulespy.scenario import load_scenario
    from rulespy.sequences.resolution import check_dice_source, resolve

    scenario = load_scenario(path)
    check_dice_source(scenario)
    try:
        resolution = resolve(scenario)
    except IllegalDeclaration as error:
        return illegal(scenario, error, as_json)
    if as_json:
        from rulespy.account import to_json

        print_json(to_json(resolution))
    else:
        from rulespy.account import render

        sys.stdout.write(render(scenario, resolution))
    return 0
