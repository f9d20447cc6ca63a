"""``Sandbox.run_file``: how ``rulespy coverage`` runs a rule file's examples, one child per file, each
example within its own time limit (issue 12: linear in a chain; issue 13: contained, never green when it
failed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespy.coverage.sandbox import Sandbox

pytestmark = pytest.mark.timeout(60)

HANG = (
    "import signal\n"
    "signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "while True: pass\n"  # one line: the kill may land on the loop's test or its body
)


@pytest.fixture
def sandbox(tmp_path: Path):  # type: ignore[no-untyped-def]
    box = Sandbox(tmp_path)
    yield box
    box.close()


def test_each_example_of_a_file_is_answered_a_continuation_in_its_chain(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    steps = [
        ("x = 1\n", 3, False),
        ("x += 1\nassert x == 2\n", 8, True),  # its own code only, in the chain's namespace
        ("assert 'x' not in globals()\n", 13, False),  # a new chain: a new namespace
        ("assert False, 'wrong'\n", 18, False),
        ("y = 1\n", 23, True),  # the rest of a failed chain fails with it
        ("open('left.txt', 'w').write('x')\n", 28, False),  # relative writes land in a scratch folder
    ]
    outcomes = sandbox.run_file(steps, str(tmp_path / "core/rule.md"))
    assert [o.ok for o in outcomes] == [True, True, True, False, False, True]
    assert outcomes[3].error == outcomes[4].error == "AssertionError: wrong"
    assert not (tmp_path / "left.txt").exists()


def test_a_hang_that_ignores_signals_fails_at_its_line_and_the_next_chain_still_runs(
    sandbox: Sandbox, tmp_path: Path
) -> None:
    steps = [
        ("a = 1\n", 3, False),
        (HANG, 7, True),
        ("b = 1\n", 15, True),
        ("import os\nos._exit(0)\n", 20, False),  # an exit is a failure, never a pass
        ("c = 1\n", 25, False),
    ]
    outcomes = sandbox.run_file(steps, str(tmp_path / "core/rule.md"), limit=0.5)
    assert [o.ok for o in outcomes] == [True, False, False, False, True]
    assert outcomes[1].error.startswith("Timeout: the example ran longer than its limit of 0.5 s")
    assert 'core/rule.md", line 11' in outcomes[1].error  # the loop, at its line of the rule file
    assert outcomes[2].error == outcomes[1].error
    assert "ended its process (exit status 0)" in outcomes[3].error
