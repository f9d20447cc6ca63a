"""How ``resolve`` and ``odds`` answer a scenario they cannot work on (``SCENARIO:LINE: message`` on
standard error, exit 2, never a Python traceback) and a declaration the rules forbid (exit 1)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulespy.errors import IllegalDeclaration
    from rulespy.state import Scenario


def answer(path: str, work: Callable[[], int], doing: str) -> int:
    """Run ``work`` (which returns the exit status); turn every failure into a located message.

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
    except Exception as error:  # never a traceback
        print(
            f"{path}:1: internal error in rulespy while {doing} this scenario "
            f"({type(error).__name__}: {error}); please report it with the scenario file",
            file=sys.stderr,
        )
    return 2


def illegal(scenario: Scenario, error: IllegalDeclaration, as_json: bool) -> int:
    """Exit 1 for an illegal declaration: the JSON document, or the account of what the rules forbid."""
    if as_json:
        refusal = {"rule": error.rule, "message": error.message}
        if error.response:  # a refused response: its own rule (the attack alone is legal)
            refusal["response"] = error.response
        print_json({"legal": False, "error": refusal})
    else:
        from rulespy.account import render_illegal

        sys.stdout.write(render_illegal(scenario, error))
    return 1


def print_json(data: object) -> None:
    import json  # only --json needs it: the text answer stays off this import

    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
