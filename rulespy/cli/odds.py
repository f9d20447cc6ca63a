"""``rulespy odds SCENARIO [--json] [--fractions]``: the exact probabilities of an attack's outcome.

Every die is enumerated with its probability through the same state machine ``rulespy resolve`` runs;
the scenario's ``dice`` and ``seed`` are ignored. Exit 0 computed, 1 the declaration is illegal, 2
malformed input or an attack beyond the exact engine's size limit (distinct states held at once,
chance transitions and allocation deals in all; ``rulespy.odds.exact``), checked before the work that
would pass them starts, so a refusal comes quickly instead of a hang; and before the engine starts,
limits on the models a unit, the dice a weapon and the estimated work (``rulespy.odds.limits``, printed
by ``--help``), so that an answer or a refusal comes within 2 s and 200 MB. Errors print
``SCENARIO:LINE: message`` on standard error, never a Python traceback.
"""

from __future__ import annotations

import argparse
import sys

from rulespy.odds.exact import DEAL_OVERHEAD, MAX_DEALS, MAX_STATES, MAX_TRANSITIONS
from rulespy.odds.limits import HELP as LIMITS_HELP

HELP_LIMIT = (
    f"Size limit of the exact engine: at most {MAX_STATES:,} distinct intermediate states at once, "
    f"{MAX_TRANSITIONS:,} chance transitions and {MAX_DEALS:,} allocation deals (each counted once per "
    f"model in play and {DEAL_OVERHEAD} more, in an attack no firefight follows) in all; a larger attack "
    "is refused with exit 2 before the work that would pass the limit starts."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scenario", metavar="SCENARIO", help="the scenario file (YAML); dice, seed ignored")
    parser.add_argument("--json", action="store_true", help="print the odds as JSON instead of text")
    parser.add_argument(
        "--fractions", action="store_true", help="print exact fractions such as 1/4 instead of decimals"
    )
    parser.epilog = HELP_LIMIT + " " + LIMITS_HELP


def run(args: argparse.Namespace) -> int:
    from rulespy.cli.scenario_errors import answer

    path = str(args.scenario)
    return answer(path, lambda: _odds(path, bool(args.json), bool(args.fractions)), "computing odds for")


def _odds(path: str, as_json: bool, fractions: bool) -> int:
    """Form (exit 2), then legality (exit 1), then the size limit (exit 2)."""
    from rulespy.cli.scenario_errors import illegal, print_json
    from rulespy.errors import IllegalDeclaration
    from rulespy.odds import odds
    from rulespy.scenario import load_scenario

    scenario = load_scenario(path)
    try:
        result = odds(scenario)
    except IllegalDeclaration as error:
        return illegal(scenario, error, as_json)
    if as_json:
        print_json(result.to_json(fractions))
    else:
        from rulespy.odds.render import render_text

        sys.stdout.write(render_text(result, fractions))
    return 0
