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


#: The modules that take longest, longest first: every module of at least 9 s of wall time in a whole
#: ``make test`` (the per-module profile of ``-p bench.pytest_cpu`` on main, 2026-12-07, in which the
#: two workers ended within 4 s of each other). ``make test`` and ``make test-fast`` hand whole modules
#: to two pytest-xdist workers in collection order (``--dist loadfile --no-loadscope-reorder``), each
#: worker taking the next module as it runs out; started last, one of these would end the run alone
#: while the other worker waits, whereas the hundred-odd short modules after them fill in whichever
#: worker is ahead. The first two do not wait on each other's builds (the site's and the editions').
SLOW_FIRST = (
    "tests/site/test_browser.py",
    "tests/editions/test_site.py",
    "tests/site/test_accessibility.py",
    "tests/site/test_judge_player.py",
    "tests/site/test_pdf.py",
    "tests/site/test_offline.py",
    "tests/site/test_russian_words.py",
    "tests/site/test_judge_browser.py",
    "tests/site/test_languages.py",
    "tests/site/test_search_questions.py",
    "tests/site/test_serve.py",
    "tests/site/test_judge.py",
    "tests/odds/test_sampled.py",
    "tests/cli/test_resolve_ru.py",
    "tests/odds/test_joint.py",
    "tests/editions/test_summary.py",
    "tests/editions/test_page.py",
    "tests/site/test_stage.py",
    "tests/site/test_book.py",
    "tests/examples/test_containment.py",
    "tests/scenario/test_fuzz_scenarios.py",
    "tests/cli/test_resolve_outputs.py",
    "tests/editions/test_workflow.py",
    "tests/check/test_incremental.py",
    "tests/examples/test_isolation.py",
    "tests/coverage/test_report.py",
    "tests/hostile/test_hostile_odds.py",
    "tests/cli/test_scenarios.py",
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
