"""A pytest plugin that sums the CPU each test module costs: ``pytest -p bench.pytest_cpu ...``.

For each test the CPU (user + system) spent from the end of the previous test to the end of this one is
charged to this test's module: the worker itself, the children it waited for, and its live descendants
(Chromium, chromedriver, a generator's build still running), read from ``/proc``. So a session fixture
is charged to the first module that asks for it, as it is when that module runs first. At the end of
the session (of each xdist worker) the modules are printed, most CPU first, on stderr and, when
``PYTEST_CPU_OUT`` names a file, appended to it as tab-separated lines ``module  user  sys  wall``;
when ``PYTEST_CPU_TESTS`` names a file, each test's own share is appended to it as it ends (``test  user
sys  wall``), to see which tests of a module cost most.

CPU, not wall time, is what the figures in bench/README.md ("The test suite") compare: on a machine
shared with other work, load stretches wall time far more than it changes the CPU a module needs.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from pathlib import Path

import pytest

_TICK = os.sysconf("SC_CLK_TCK")


def _descendants() -> tuple[float, float]:
    """user and system seconds of this process's live descendants (with what they reaped)."""
    parents: dict[int, int] = {}
    times: dict[int, tuple[float, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        pid = int(entry.name)
        parents[pid] = int(fields[1])
        times[pid] = (
            (int(fields[11]) + int(fields[13])) / _TICK,
            (int(fields[12]) + int(fields[14])) / _TICK,
        )
    me = os.getpid()
    user = system = 0.0
    for pid, (u, s) in times.items():
        seen, p = 0, parents.get(pid)
        while p is not None and p > 1 and seen < 64:
            if p == me:
                user += u
                system += s
                break
            p, seen = parents.get(p), seen + 1
    return user, system


def _now() -> tuple[float, float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    user, system = _descendants()
    return own.ru_utime + waited.ru_utime + user, own.ru_stime + waited.ru_stime + system, time.monotonic()


_last: list[tuple[float, float, float]] = []
_spent: dict[str, list[float]] = {}


def pytest_sessionstart(session: pytest.Session) -> None:
    _last[:] = [_now()]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    yield
    now = _now()
    before = _last[0]
    module = item.nodeid.split("::")[0]
    spent = _spent.setdefault(module, [0.0, 0.0, 0.0])
    for index in range(3):
        spent[index] += now[index] - before[index]
    _last[0] = now
    out = os.environ.get("PYTEST_CPU_TESTS")
    if out:
        user, system, wall = (now[i] - before[i] for i in range(3))
        with open(out, "a", encoding="utf-8") as file:
            file.write(f"{item.nodeid}\t{user:.1f}\t{system:.1f}\t{wall:.1f}\n")


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not _spent:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    lines = [
        f"{module}\t{user:.1f}\t{system:.1f}\t{wall:.1f}"
        for module, (user, system, wall) in sorted(_spent.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))
    ]
    total = [sum(v[i] for v in _spent.values()) for i in range(3)]
    print(f"\nCPU per module ({worker}): module, user s, system s, wall s", file=sys.stderr)
    for line in lines:
        print("  " + line, file=sys.stderr)
    print(f"  total\t{total[0]:.1f}\t{total[1]:.1f}\t{total[2]:.1f}", file=sys.stderr)
    out = os.environ.get("PYTEST_CPU_OUT")
    if out:
        with open(out, "a", encoding="utf-8") as file:
            for line in lines:
                file.write(f"{worker}\t{line}\n")
