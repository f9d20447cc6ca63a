"""How ``resolve`` and ``odds`` answer a scenario they cannot work on: ``SCENARIO:LINE: message`` on
standard error, exit 2, never a Python traceback."""

from __future__ import annotations

import sys
from collections.abc import Callable


def answer(path: str, work: Callable[[], int], doing: str) -> int:
    """Run ``work`` (which returns the exit status); turn every failure into the contract's message.

    ``doing`` names the work for the messages, e.g. "resolving" or "computing odds for".
    """
    from rulespy.errors import InvalidInput, RulesError

    try:
        return work()
    except InvalidInput as error:
        if error.path is None:
            error.path = path
        print(error.located(), file=sys.stderr)
    except RulesError as error:
        print(f"{path}:1: {error}", file=sys.stderr)
    except RecursionError:
        print(f"{path}:1: the scenario is too deeply nested for {doing} it", file=sys.stderr)
    except MemoryError:
        print(f"{path}:1: the scenario is too large for {doing} it in memory", file=sys.stderr)
    except Exception as error:  # the contract: never a traceback
        print(
            f"{path}:1: internal error in rulespy while {doing} this scenario "
            f"({type(error).__name__}: {error}); please report it with the scenario file",
            file=sys.stderr,
        )
    return 2
