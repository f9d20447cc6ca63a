"""``rulespy odds SCENARIO [--json] [--fractions] [--exact] [--seed N] [--lang LANG]``: the probabilities
of an attack's outcome, exact where the exact engine takes the attack on, else sampled and said to be.

Every die is enumerated with its probability through the same state machine ``rulespy resolve`` runs;
the scenario's ``dice`` and ``seed`` are ignored. Exit 0 computed, 1 the declaration is illegal, 2
malformed input or an attack beyond the exact engine's size limit (distinct states held at once,
chance transitions and allocation deals in all; ``rulespy.odds.exact``), checked before the work that
would pass them starts, so a refusal comes quickly instead of a hang; and before the engine starts,
limits on the models a unit, the dice a weapon and the estimated work (``rulespy.odds.limits``, printed
by ``--help``), so that an answer or a refusal comes within 2 s and 200 MB. Errors print
``SCENARIO:LINE: message`` on standard error, never a Python traceback.

An attack the exact engine refuses for its size is sampled instead (``rulespy.odds.sampled``): the text
says "Sampled, not exact" first, and ``--json`` keeps every key of the exact answer and adds
``"method": "sampled"``, ``trials``, ``seed`` and ``intervals`` (an exact answer says ``"method":
"exact"``). ``--exact`` keeps the refusal (exit 2), as before sampling existed. ``--fractions`` has no
fractions to give for a sampled answer, which is printed as decimals.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from rulespy.odds.exact import DEAL_OVERHEAD, MAX_DEALS, MAX_STATES, MAX_TRANSITIONS
from rulespy.odds.limits import HELP as LIMITS_HELP
from rulespy.odds.sampled import HELP as SAMPLED_HELP
from rulespy.odds.sampled import SEED

if TYPE_CHECKING:
    from rulespy.state import Scenario

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
    parser.add_argument(
        "--exact",
        action="store_true",
        help="refuse (exit 2) an attack too large for exact odds instead of sampling it",
    )
    parser.add_argument(
        "--seed", type=int, default=SEED, help=f"the seed of a sampled answer's dice (default {SEED})"
    )
    from rulespy.cli.resolve import add_language

    add_language(parser)
    parser.epilog = HELP_LIMIT + " " + LIMITS_HELP + " " + SAMPLED_HELP


def run(args: argparse.Namespace) -> int:
    from rulespy.cli.scenario_errors import answer

    path = str(args.scenario)
    from rulespy.i18n import language

    options = (bool(args.json), bool(args.fractions), bool(args.exact), int(args.seed))
    with language(args.lang):
        return answer(path, lambda: _odds(path, *options), "computing odds for")


def _odds(path: str, as_json: bool, fractions: bool, exact: bool = False, seed: int = SEED) -> int:
    """Form (exit 2), then legality (exit 1), then the size limit: exit 2 with ``exact``, else sampled."""
    from rulespy.cli.scenario_errors import illegal, print_json
    from rulespy.errors import IllegalDeclaration
    from rulespy.odds import TooLarge, odds
    from rulespy.scenario import load_scenario

    scenario = load_scenario(path)
    try:
        result = odds(scenario)
    except IllegalDeclaration as error:
        return illegal(scenario, error, as_json)
    except TooLarge:
        if exact:
            raise
        return _sampled(scenario, as_json, seed)
    if as_json:
        print_json(result.to_json(fractions))
    else:
        from rulespy.odds.render import render_text

        sys.stdout.write(render_text(result, fractions))
    return 0


def _sampled(scenario: Scenario, as_json: bool, seed: int) -> int:
    """The sampled answer for an attack too large for exact odds (its legality is already judged)."""
    from rulespy.cli.scenario_errors import print_json
    from rulespy.odds.sampled import sample

    found = sample(scenario, seed)
    if as_json:
        print_json(found.to_json())
    else:
        from rulespy.odds.render import render_sampled

        sys.stdout.write(render_sampled(found))
    return 0
