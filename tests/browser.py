"""Headless Chromium for the tests that look at a built site (tests/site, tests/editions): a static server
for a folder, one Chromium driven by selenium, and a wait that re-finds what it looks at.

A built site is served on one address for the whole session (``Servers``): Chromium keeps what a site's
origin gathered (its HTTP and compiled-code caches, the service worker with its copy of every page, the
judge's saved engine and the note that its runtime was fetched), so that only the first module to open a
site pays for them. A test that needs an origin of its own (one that stops its server, or serves other
files under the same names) starts its own server with ``serving``.

Needs Debian's Chromium and its driver (``apt-get install chromium chromium-driver``, which ``.ci/run``
does). Without them the browser tests are skipped with that message, except under ``CI=true``, where a
missing browser is a failure. The fixtures that use these (one Chromium for the whole session, the sites
built once per generator) are in ``tests/conftest.py`` and ``tests/site/conftest.py``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from rulespy.render.pdf import CHROMIUM  # the same Chromium prints the rulebook

CHROMEDRIVER = Path("/usr/bin/chromedriver")
INSTALL = "apt-get install chromium chromium-driver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,1000",
)
#: seconds a browser test waits for a condition (a page under load on a busy 2-core machine)
PATIENCE = 15.0


def require_browser() -> None:
    """Skip the test without Chromium and its driver; under ``CI=true`` fail it instead."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not p.exists()]
    if not missing:
        return
    message = f"headless browser test needs {' and '.join(missing)}: {INSTALL}"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (CI=true: a missing browser is a failure)")
    pytest.skip(message)


class Quiet(SimpleHTTPRequestHandler):
    """A static file handler that logs nothing."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


@contextlib.contextmanager
def serving(directory: Path, handler: type[SimpleHTTPRequestHandler] = Quiet) -> Iterator[str]:
    """A static server for ``directory`` on 127.0.0.1 (any free port), as its base URL; ``handler``
    answers each request (a ``Quiet`` static file handler unless told otherwise)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class Site(Quiet):
    """A built site, whose ``sitemap.xml`` names this server's own address where the build wrote
    ``site_url``'s (``mkdocs.yml``: port 8000), as a site published at its ``site_url`` reads: Material's
    instant navigation takes a link for one of the site's pages only when its address is the sitemap's."""

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        found = Path(self.directory) / path.lstrip("/")
        if not path.endswith("/sitemap.xml") or not found.is_file():
            return super().do_GET()
        port = self.server.server_address[1]
        body = found.read_bytes().replace(b"http://127.0.0.1:8000/", f"http://127.0.0.1:{port}/".encode())
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None


class Servers:
    """One server per folder and handler, started on first use and kept until ``close``: the same
    address each time a module asks for the same built site (``tests/conftest.py``'s ``servers``)."""

    def __init__(self) -> None:
        self._stack = contextlib.ExitStack()
        self._urls: dict[tuple[Path, type[SimpleHTTPRequestHandler]], str] = {}

    def url(self, directory: Path, handler: type[SimpleHTTPRequestHandler] = Quiet) -> str:
        """The base URL serving ``directory`` with ``handler``."""
        key = (directory.resolve(), handler)
        if key not in self._urls:
            self._urls[key] = self._stack.enter_context(serving(key[0], handler))
        return self._urls[key]

    def close(self) -> None:
        self._stack.close()
        self._urls.clear()


@contextlib.contextmanager
def chromium(profile: Path) -> Iterator[Any]:
    """Headless Chromium driven by selenium, with its browser log kept."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()


def wait(driver: Any, condition: Callable[[Any], Any], seconds: float = PATIENCE) -> Any:
    """What ``condition(driver)`` returns once it is truthy. A condition that finds elements must find
    them afresh on each call: an element the page replaced meanwhile (a search list redrawn as results
    arrive, a page that finished loading) is stale, and a stale element counts as "not yet", never as
    a failure, until the time is up."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    ignored = (NoSuchElementException, StaleElementReferenceException)
    return WebDriverWait(driver, seconds, ignored_exceptions=ignored).until(condition)


def loaded(driver: Any, url: str | None = None) -> bool:
    """The page (at ``url``, when given) has finished loading: what a test finds on it now stays."""
    if url is not None and driver.current_url != url:
        return False
    return bool(driver.execute_script("return document.readyState") == "complete")


def click(driver: Any, selector: str) -> None:
    """Find the element at ``selector`` and click it as a script does (no scrolling), in one condition:
    found again if the page replaced it between the find and the click."""
    from selenium.webdriver.common.by import By

    def clicked(d: Any) -> bool:
        d.execute_script("arguments[0].click();", d.find_element(By.CSS_SELECTOR, selector))
        return True

    wait(driver, clicked)


def severe(driver: Any) -> list[str]:
    """The browser log's SEVERE messages since the last call (reading the log empties it)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


#: the search dialog Zensical draws in a shadow root (Material has a plain search box in its header)
SEARCH_HOST = """return [...document.querySelectorAll('*')].find(
    e => e.shadowRoot && e.shadowRoot.querySelector('dialog[aria-label=Search]')) || null;"""
#: "button" when the site's search (Pagefind) put its button in the header, "theme" when the page found
#: no index (``assets/search.js`` asked once per visit), null while it is still asking
PAGEFIND = """if (document.querySelector('.vs-search-open')) return 'button';
if (!document.querySelector('script[src*="assets/search.js"]')) return 'theme';
const asked = Object.keys(sessionStorage).find(k => k.startsWith('vs-pagefind:'));
return asked && sessionStorage.getItem(asked) === 'no' ? 'theme' : null;"""
_RESULTS = """const pagefind = document.querySelector('dialog.vs-search');
if (pagefind) return [...pagefind.querySelectorAll('.pagefind-ui__result-link')].map(a => a.href);
const host = [...document.querySelectorAll('*')].find(
    e => e.shadowRoot && e.shadowRoot.querySelector('dialog[aria-label=Search]'));
const links = host ? host.shadowRoot.querySelectorAll('a')
                   : document.querySelectorAll('.md-search-result__list a');
return [...links].map(a => a.href);"""


def search(driver: Any, words: str, wanted: str) -> list[str]:
    """Type ``words`` into the open page's search and wait until a result's address contains ``wanted``:
    those addresses. The site's search is Pagefind's, in the dialog the header's search button opens
    (``assets/search.js``); a site built without its index has the theme's (Material's box in the
    header, or the button opening Zensical's dialog). Each step finds its element again; the result
    list, redrawn as results arrive, is read in one script."""
    from selenium.webdriver.common.by import By

    pagefind = wait(driver, lambda d: d.execute_script(PAGEFIND) or None)
    material = bool(driver.find_elements(By.CSS_SELECTOR, "input.md-search__input"))

    def box(d: Any) -> Any:
        if pagefind == "button":
            found = d.find_elements(By.CSS_SELECTOR, "dialog.vs-search[open] input")
            return found[0] if found and found[0].is_displayed() else None
        if material:
            found = d.find_element(By.CSS_SELECTOR, "input.md-search__input")
            return found if found.is_displayed() else None
        host = d.execute_script(SEARCH_HOST)
        return host.shadow_root.find_element(By.CSS_SELECTOR, "input") if host else None

    if pagefind == "button":
        click(driver, ".vs-search-open")
    elif not material:
        click(driver, ".md-search__button")
    elif not box(driver):  # a narrow window: the search box opens from the header's icon
        click(driver, "label.md-header__button[for='__search']")

    def typed(d: Any) -> bool:
        found = box(d)
        if found is None:
            return False
        found.click()
        found.send_keys(words)
        return True

    wait(driver, typed)
    return list(wait(driver, lambda d: [href for href in d.execute_script(_RESULTS) if wanted in href]))
