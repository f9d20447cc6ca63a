"""Fixtures shared by the test folders: one headless Chromium for the whole session.

Starting Chromium costs seconds on a busy machine, so the browser tests of ``tests/site`` and
``tests/editions`` share one session (``browser``); what one test leaves in it that another could read
(the browser log) is emptied before each test that uses it. A test that changes the window or the
time-outs of the shared browser keeps within what the others expect: any window at least 1280 wide.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import chromium, require_browser, severe


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
