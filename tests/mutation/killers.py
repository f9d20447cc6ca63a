"""The only tests that may kill a mutant of the engine (``make mutants``, ``rulespy/coverage/mutants.py``).

They are what a player can read: every worked example of the English rule pages (the Russian fences are
byte for byte the same code, RS073, so they are counted once), and every scenario file under
``examples/scenarios/`` checked against its ``expect:`` key exactly as ``tests/cli/test_scenarios.py``
checks it. The unit tests are left out on purpose: the question is whether the rulebook pins the engine
down, not whether the test suite does.

The file is not named ``test_*.py``, so ``make test`` does not collect it (the same examples and scenarios
run there already, contained); mutmut names it explicitly. Here an example runs in this process, not in
``rulespy.coverage.sandbox``: mutmut's trampolines switch mutants inside the process, and the examples are
the repository's own code, which the suite runs anyway.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespy.coverage.mutation import rule_examples
from tests.cli.test_scenarios import SCENARIOS, test_scenario_resolves_to_its_expected_outcome

__all__ = ["EXAMPLES", "SCENARIOS", "test_scenario_resolves_to_its_expected_outcome", "test_worked_example"]

#: ``(PATH:LINE, code)`` for every worked example of the English rule files, in file order.
EXAMPLES = rule_examples(Path(__file__).resolve().parents[2])


@pytest.mark.parametrize("code", [code for _, code in EXAMPLES], ids=[name for name, _ in EXAMPLES])
def test_worked_example(code: str) -> None:
    exec(compile(code, "<worked example>", "exec"), {"__name__": "__worked_example__"})
