"""Fixtures shared by the test folders: one headless Chromium for the whole session; and, under
pytest-xdist, the slowest modules first.

Starting Chromium costs seconds on a busy machine, so the browser tests of ``tests/site`` and
``tests/editions`` share one session (``browser``), and each built site is served on one address for the
whole session (``servers``), so that Chromium's caches of it serve every module after the first; what one
test leaves in it that another could read (the browser log) is emptied before each test that uses it. A
test that changes the window or the time-outs of the shared browser keeps within what the others expect:
any window at least 1280 wide.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import Servers, chromium, require_browser, severe


@pytest.fixture(scope="session")
def servers() -> Iterator[Servers]:
    """The built sites' servers, each on one address for the whole session (``tests.browser.Servers``):
    a module that opens a site another module opened before finds it in Chromium's caches."""
    running = Servers()
    yield running
    running.close()


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Headless Chromium driven by selenium, for the whole session (skipped, or failed under CI=true,
    without Chromium and its driver)."""
    require_browser()
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


@pytest.fixture(autouse=True)
def _browser_log_emptied(request: pytest.FixtureRequest) -> None:
    """A test that uses the shared browser reads only its own console messages."""
    if "browser" in request.fixturenames:
        severe(request.getfixturevalue("browser"))


#: The modules that take longest (site builds, Chromium, Pyodide, nested pytest runs), slowest first.
#: ``make test`` hands whole modules to two pytest-xdist workers in collection order
#: (``--dist loadfile --no-loadscope-reorder``); started last, one of these would end the run alone
#: while the other worker waits. The first two do not wait on each other's builds.
SLOW_FIRST = (
    "tests/site/test_browser.py",
    "tests/editions/test_site.py",
    "tests/site/test_judge_browser.py",
    "tests/site/test_judge_player.py",
    "tests/site/test_languages.py",
    "tests/site/test_pdf.py",
    "tests/examples/test_containment.py",
    "tests/check/test_planted_faults.py",
    "tests/examples/test_isolation.py",
)


@pytest.hookimpl(trylast=True)  # after pytest's own order (tests of one fixture parameter together)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In an xdist worker, the SLOW_FIRST modules go first; every other test keeps its place."""
    if not hasattr(config, "workerinput"):
        return

    def rank(item: pytest.Item) -> int:
        path = item.nodeid.split("::")[0]
        return SLOW_FIRST.index(path) if path in SLOW_FIRST else len(SLOW_FIRST)

    items.sort(key=rank)  # stable: the order within a module, and of the rest, stays
