"""``rulespy resolve SCENARIO [--json]``: resolve a scenario's attack (or firefight) and explain it.

Exit 0 resolved, 1 the declaration is illegal (nothing rolled), 2 malformed input. Checks run in this
order: the scenario's form, then the declaration's legality, then the scripted dice.
Malformed input prints ``SCENARIO:LINE: message`` on standard error and nothing on standard output;
no input ever prints a Python traceback. Only what resolving needs is imported.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", metavar="SCENARIO", help="the scenario file (YAML)")
    parser.add_argument(
        "--json", action="store_true", help="print the resolution as JSON instead of the account"
    )


def run(args: argparse.Namespace) -> int:
    from rulespy.cli.scenario_errors import answer

    path = str(args.scenario)
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
