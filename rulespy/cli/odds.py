"""``rulespy odds SCENARIO [--json] [--fractions] [--exact] [--seed N] [--lang LANG]``: the probabilities
of an attack's outcome, exact where the exact engine takes the attack on, else sampled and said to be.

Every die is enumerated with its probability through the same state machine ``rulespy resolve`` runs;
the scenario's ``dice`` and ``seed`` are ignored. Exit 0 computed, 1 the declaration is illegal, 2
malformed input or an attack beyond the exact engine's size limit (distinct states held at once,
chance transitions and allocation deals in all; ``rulespy.odds.exact``), checked before the work that
would pass them starts, so a refusal comes quickly instead of a hang; and before the engine starts,
limits on the models a unit, the dice a weapon and the estimated work (``rulespy.odds.limits``, printed
by ``--help``), so that an answer or a refusal comes within 2 s and 200 MB. Errors print
``SCENARIO:LINE: message`` on standard error, never a Python traceback. What is printed is
``rulespy.api.odds_file``'s answer, the same the site's rules judge shows.

An attack the exact engine refuses for its size is sampled instead (``rulespy.odds.sampled``): the text
says "Sampled, not exact" first, and ``--json`` keeps every key of the exact answer and adds
``"method": "sampled"``, ``trials``, ``seed`` and ``intervals`` (an exact answer says ``"method":
"exact"``). ``--exact`` keeps the refusal (exit 2), as before sampling existed. ``--fractions`` has no
fractions to give for a sampled answer, which is printed as decimals.
"""

from __future__ import annotations

import argparse
import sys

from rulespy.odds.exact import DEAL_OVERHEAD, MAX_DEALS, MAX_STATES, MAX_TRANSITIONS
from rulespy.odds.limits import HELP as LIMITS_HELP
from rulespy.odds.sampled import HELP as SAMPLED_HELP
from rulespy.odds.sampled import SEED

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
    """Print what ``rulespy.api.odds_file`` answers: only the output asked for is made."""
    from rulespy.api import odds_file

    as_json = bool(args.json)
    answer = odds_file(
        str(args.scenario),
        ("json",) if as_json else ("text",),
        fractions=bool(args.fractions),
        exact=bool(args.exact),
        seed=int(args.seed),
        language=args.lang,
    )
    sys.stdout.write(answer.printed(as_json))
    sys.stderr.write(answer.error)
    return answer.exit
