"""Issue 13, item 2: no worked example can make a failing suite pass or leave anything behind.

Each test runs pytest on a small rule file in a subprocess with the repository's conftest.py (the helpers
of ``test_isolation.py``) and reads the exit status and report.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from rulespy.coverage.sandbox import Sandbox, landlock_abi
from tests.examples.test_isolation import example, line_of, run_pytest

LIMIT = ("-o", "markdown_example_limit=2")


def test_an_example_that_exits_the_process_fails_and_the_run_fails(tmp_path: Path) -> None:
    page = tmp_path / "exit.md"
    page.write_text(
        "# Exit\n\n"
        + example('import os, sys\nif "pytest" in sys.modules or True:\n    os._exit(0)')
        + "\n"
        + example("assert 1 + 1 == 3, 'a failing example'"),
        encoding="utf-8",
    )
    (tmp_path / "test_unit.py").write_text("def test_fails():\n    assert False\n", encoding="utf-8")
    status, report = run_pytest(tmp_path)
    assert status == 1, report
    assert "3 failed" in report, report
    assert "ended its process (exit status 0)" in report, report
    assert f'exit.md", line {line_of(page, "1 + 1 == 3")}' in report, report


def test_sys_exit_and_pytest_skip_inside_an_example_are_failures(tmp_path: Path) -> None:
    page = tmp_path / "quit.md"
    page.write_text(
        "# Quit\n\n"
        + example("import sys\nsys.exit(0)")
        + "\n"
        + example("import pytest\npytest.skip('no')"),
        encoding="utf-8",
    )
    status, report = run_pytest(tmp_path)
    assert status == 1 and "2 failed" in report, report


def test_an_example_that_ignores_signals_is_killed_at_its_limit(tmp_path: Path) -> None:
    page = tmp_path / "stubborn.md"
    code = (
        "import signal\nfor s in (signal.SIGALRM, signal.SIGTERM, signal.SIGINT):\n"
        "    signal.signal(s, signal.SIG_IGN)\nwhile True:\n    pass"
    )
    page.write_text("# Stubborn\n\n" + example(code) + "\n" + example("assert True"), encoding="utf-8")
    status, report = run_pytest(tmp_path, *LIMIT)  # a run the kill did not end is stopped by the hang guard
    assert status == 1 and "1 failed, 1 passed" in report, report
    assert "Timeout" in report and "limit of 2 s" in report, report


def test_fewer_examples_run_than_collected_fails_the_run(tmp_path: Path) -> None:
    """A plugin that skips every example (a hostile conftest, a skip marker): nothing failed, yet the run
    must not pass."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "page.md").write_text("# Page\n\n" + example("assert False"), encoding="utf-8")
    (tmp_path / "rules" / "conftest.py").write_text(
        "import pytest\n\ndef pytest_runtest_setup(item):\n    pytest.skip('hidden')\n", encoding="utf-8"
    )
    status, report = run_pytest(tmp_path)
    assert status == 1, report
    assert "1 of 1 collected worked examples did not run" in report, report


def test_an_example_sees_a_scrubbed_environment_and_a_temporary_folder(tmp_path: Path) -> None:
    page = tmp_path / "env.md"
    code = (
        "import os\n"
        "assert 'LEAKS_SECRET' not in os.environ, 'the environment leaked'\n"
        f"assert os.getcwd() != {str(tmp_path)!r}\n"
        "open('written.txt', 'w').write('x')\n"
    )
    page.write_text("# Env\n\n" + example(code), encoding="utf-8")
    os.environ["LEAKS_SECRET"] = "token"
    try:
        status, report = run_pytest(tmp_path)
    finally:
        del os.environ["LEAKS_SECRET"]
    assert status == 0 and "1 passed" in report, report
    assert not list(tmp_path.rglob("written.txt"))


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


def test_a_rule_file_symlinked_outside_is_not_collected(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\n" + example("assert False, 'read from outside'"))
    root = tmp_path / "repo"
    root.mkdir()
    (root / "page.md").write_text("# Page\n\n" + example("assert True"), encoding="utf-8")
    (root / "notes.md").symlink_to(outside / "secret.md")
    status, report = run_pytest(root)
    assert status == 0 and "1 passed" in report and "read from outside" not in report, report


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
