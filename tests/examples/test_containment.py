"""Issue 13, item 2: no worked example can make a failing suite pass or leave anything behind.

Each case writes a small rule file into a folder of its own, and pytest runs them in a subprocess with the
repository's conftest.py (the helpers of ``test_isolation.py``): the cases of this module share one run
(``shared``), and each test reads its own items' outcomes and report lines from it. The case about the
exit status of a run in which nothing failed (fewer examples run than collected) has a run of its own;
the daemon and the write outside the folder are asked of the sandbox directly.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from rulespy.coverage.sandbox import Sandbox, landlock_abi
from tests.examples.test_isolation import CaseRun, example, line_of, run_cases

SECRET = {"LEAKS_SECRET": "token"}  # in the environment of the shared run, never in an example's


def _exits(folder: Path) -> None:
    (folder / "exit.md").write_text(
        "# Exit\n\n"
        + example('import os, sys\nif "pytest" in sys.modules or True:\n    os._exit(0)')
        + "\n"
        + example("assert 1 + 1 == 3, 'a failing example'"),
        encoding="utf-8",
    )
    (folder / "test_unit.py").write_text("def test_fails():\n    assert False\n", encoding="utf-8")


def _quits(folder: Path) -> None:
    (folder / "quit.md").write_text(
        "# Quit\n\n"
        + example("import sys\nsys.exit(0)")
        + "\n"
        + example("import pytest\npytest.skip('no')"),
        encoding="utf-8",
    )


def _stubborn(folder: Path) -> None:
    code = (
        "import signal\nfor s in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT):\n"
        "    signal.signal(s, signal.SIG_IGN)\nwhile True:\n    pass"
    )
    (folder / "stubborn.md").write_text(
        "# Stubborn\n\n" + example(code) + "\n" + example("assert True"), encoding="utf-8"
    )


def _environment(folder: Path) -> None:
    code = (
        "import os\n"
        "assert 'LEAKS_SECRET' not in os.environ, 'the environment leaked'\n"
        f"assert not os.getcwd().startswith({str(folder.parent)!r}), 'it runs where pytest runs'\n"
        "open('written.txt', 'w').write('x')\n"
    )
    (folder / "env.md").write_text("# Env\n\n" + example(code), encoding="utf-8")


def _symlinked(folder: Path) -> None:
    outside = folder.parent.parent / f"{folder.parent.name}-outside"  # beside the run's folder
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\n" + example("assert False, 'read from outside'"))
    root = folder / "repo"
    root.mkdir()
    (root / "page.md").write_text("# Page\n\n" + example("assert True"), encoding="utf-8")
    (root / "notes.md").symlink_to(outside / "secret.md")


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> dict[str, CaseRun]:
    """The module's cases in one run (the per-example limit 2 s, for the one that ignores signals)."""
    cases = {
        "exit": _exits,
        "quit": _quits,
        "stubborn": _stubborn,
        "env": _environment,
        "symlink": _symlinked,
    }
    root = tmp_path_factory.mktemp("shared")
    return run_cases(root / "run", cases, "-o", "markdown_example_limit=2", env=SECRET)


def test_an_example_that_exits_the_process_fails_and_the_run_fails(shared: dict[str, CaseRun]) -> None:
    run = shared["exit"]
    assert run.status == 1, run.whole
    assert run.summary == "3 failed", run.whole
    assert run.outcomes["exit/test_unit.py::test_fails"] == "FAILED", run.whole
    assert "ended its process (exit status 0)" in run.report, run.whole
    assert f'exit.md", line {line_of(run.folder / "exit.md", "1 + 1 == 3")}' in run.report, run.whole


def test_sys_exit_and_pytest_skip_inside_an_example_are_failures(shared: dict[str, CaseRun]) -> None:
    run = shared["quit"]
    assert run.status == 1 and run.summary == "2 failed", run.whole


def test_an_example_that_ignores_signals_is_killed_at_its_limit(shared: dict[str, CaseRun]) -> None:
    run = shared["stubborn"]  # a run the kill did not end is stopped by the hang guard
    assert run.status == 1 and run.summary == "1 failed, 1 passed", run.whole
    assert "Timeout" in run.report and "limit of 2 s" in run.report, run.whole


def test_fewer_examples_run_than_collected_fails_the_run(tmp_path: Path) -> None:
    """A plugin that skips every example (a hostile conftest, a skip marker): nothing failed, yet the run
    must not pass. A run of its own: the count fails only a run that would otherwise pass."""

    def hidden(folder: Path) -> None:
        (folder / "rules").mkdir()
        (folder / "rules" / "page.md").write_text("# Page\n\n" + example("assert False"), encoding="utf-8")
        (folder / "rules" / "conftest.py").write_text(
            "import pytest\n\ndef pytest_runtest_setup(item):\n    pytest.skip('hidden')\n", encoding="utf-8"
        )

    run = run_cases(tmp_path / "run", {"hidden": hidden})["hidden"]
    assert run.status == 1 and run.summary == "1 skipped", run.whole
    assert "1 of 1 collected worked examples did not run" in run.whole, run.whole


def test_an_example_sees_a_scrubbed_environment_and_a_temporary_folder(shared: dict[str, CaseRun]) -> None:
    run = shared["env"]
    assert run.summary == "1 passed", run.whole
    assert not list(run.folder.parent.rglob("written.txt"))


def test_a_daemon_an_example_starts_does_not_outlive_it(tmp_path: Path) -> None:
    """A double-forked, setsid daemon (out of the example's process group) is killed when it ends; the
    example prints the daemon's pid, which the sandbox hands back as the example's output."""
    code = (
        "import os, sys, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        print('daemon', os.getpid(), flush=True)\n"
        "        time.sleep(600)\n"
        "    os._exit(0)\n"
        "time.sleep(0.5)\n"
    )
    sandbox = Sandbox(tmp_path)
    try:
        outcome = sandbox.run(code, str(tmp_path / "daemon.md"))
    finally:
        sandbox.close()
    assert outcome.ok, outcome.report
    pid = int(outcome.output.split()[1])
    while _alive(pid):  # killed when the example ended; one that lives on is stopped by the hang guard
        time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(") ", 1)[1][:1] != "Z"
    except (OSError, IndexError):
        return False


def test_a_rule_file_symlinked_outside_is_not_collected(shared: dict[str, CaseRun]) -> None:
    run = shared["symlink"]
    assert run.summary == "1 passed", run.whole
    assert list(run.outcomes) == ["symlink/repo/page.md::[CodeFence#1][line:3]"], run.whole
    assert "read from outside" not in run.whole, run.whole


def test_an_example_cannot_write_outside_its_folder(tmp_path: Path) -> None:
    """Landlock: writing, creating or removing through an absolute path fails; reading still works."""
    target = tmp_path / "written-by-an-example.txt"
    kept = tmp_path / "kept.txt"
    kept.write_text("still here", encoding="utf-8")
    code = (
        "import os\n"
        f"assert open({str(kept)!r}).read() == 'still here'\n"
        "for attempt in (\n"
        f"    lambda: open({str(target)!r}, 'w'),\n"
        f"    lambda: os.remove({str(kept)!r}),\n"
        f"    lambda: open({str(kept)!r}, 'a'),\n"
        "):\n"
        "    try:\n"
        "        attempt()\n"
        "    except PermissionError:\n"
        "        continue\n"
        "    raise AssertionError('written outside')\n"
        "open('inside.txt', 'w').write('fine')\n"
    )
    if not landlock_abi():
        pytest.skip("this kernel has no Landlock: absolute writes cannot be refused here")
    sandbox = Sandbox(tmp_path)
    try:
        outcome = sandbox.run(code, str(tmp_path / "page.md"))
    finally:
        sandbox.close()
    assert outcome.ok, outcome.report
    assert not target.exists() and kept.read_text(encoding="utf-8") == "still here"
