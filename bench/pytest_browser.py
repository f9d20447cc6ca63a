"""A pytest plugin that counts what each test module asks of Chromium: ``pytest -p bench.pytest_browser``.

For each module: the page loads (``driver.get``, ``about:blank`` not counted), the judge's engine
started in a page (its Web Worker, Pyodide with rulespy: ``vsJudge.boots``), told apart by how it
started (``window.vsJudgeBoot``: "fresh", Python started and rulespy imported, or "snapshot", from the
copy the browser saved), and the axe-core runs (an ``axe.run`` script). A page's engine is counted
when the page is left (the next ``driver.get``) or at the end of the test, once per page. At the end of
the session (of each xdist worker) the modules are printed on stderr and, when ``PYTEST_BROWSER_OUT``
names a file, appended to it as tab-separated lines ``worker  module  loads  fresh  snapshot  axe``;
when ``PYTEST_BROWSER_TESTS`` names a file, each test's own counts are appended to it as it ends (``test
loads  fresh  snapshot  axe``).

What a module costs in Chromium is mostly these: a cold engine start is seconds of CPU, a page load
and an axe run a fraction of one. The counts, unlike the CPU, do not move with the machine's load.
"""

from __future__ import annotations

import os
import sys
import weakref
from typing import Any

import pytest

_COUNTS: dict[str, dict[str, int]] = {}
_DRIVERS: weakref.WeakSet[Any] = weakref.WeakSet()
_MODULE = ["(session)"]
_TEST: dict[str, int] = {}
#: the engines started in the open page and not yet counted (marked counted on the page itself)
_BOOTS = """if (!window.vsJudge) return null;
const boots = Number(vsJudge.boots) || 0, seen = window.vsCountedBoots || 0;
window.vsCountedBoots = boots;
return [boots - seen, window.vsJudgeBoot || null];"""


def _count(key: str, n: int = 1) -> None:
    counts = _COUNTS.setdefault(_MODULE[0], {"loads": 0, "fresh": 0, "snapshot": 0, "axe": 0})
    counts[key] += n
    _TEST[key] = _TEST.get(key, 0) + n


def _engines(driver: Any) -> None:
    try:
        found = driver.execute_script(_BOOTS)
    except Exception:  # noqa: BLE001 - a page that is gone, a dialog open: nothing to count
        return
    if isinstance(found, list) and isinstance(found[0], int) and found[0] > 0:
        _count("snapshot" if found[1] == "snapshot" else "fresh", found[0])


def pytest_configure(config: pytest.Config) -> None:
    from selenium.webdriver.remote.webdriver import WebDriver

    get, run = WebDriver.get, WebDriver.execute_async_script

    def counted_get(self: Any, url: str) -> None:
        _DRIVERS.add(self)
        _engines(self)
        if url != "about:blank":
            _count("loads")
        get(self, url)

    def counted_run(self: Any, script: str, *args: Any) -> Any:
        if "axe.run(" in script:
            _count("axe")
        return run(self, script, *args)

    WebDriver.get = counted_get  # type: ignore[method-assign]
    WebDriver.execute_async_script = counted_run  # type: ignore[method-assign]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    _MODULE[0] = item.nodeid.split("::")[0]
    _TEST.clear()
    yield
    out = os.environ.get("PYTEST_BROWSER_TESTS")
    if out:
        counts = "\t".join(str(_TEST.get(k, 0)) for k in ("loads", "fresh", "snapshot", "axe"))
        with open(out, "a", encoding="utf-8") as file:
            file.write(f"{item.nodeid}\t{counts}\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item):  # type: ignore[no-untyped-def]
    yield
    for driver in list(_DRIVERS):
        _engines(driver)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not _COUNTS:
        return
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    keys = ("loads", "fresh", "snapshot", "axe")
    lines = [f"{module}\t" + "\t".join(str(c[k]) for k in keys) for module, c in sorted(_COUNTS.items())]
    totals = [sum(c[k] for c in _COUNTS.values()) for k in keys]
    print(
        f"\nChromium per module ({worker}): module, page loads, engines fresh, from snapshot, axe runs",
        file=sys.stderr,
    )
    for line in lines:
        print("  " + line, file=sys.stderr)
    print("  total\t" + "\t".join(map(str, totals)), file=sys.stderr)
    out = os.environ.get("PYTEST_BROWSER_OUT")
    if out:
        with open(out, "a", encoding="utf-8") as file:
            for line in lines:
                file.write(f"{worker}\t{line}\n")
