"""The site offline at the table, in a real browser, with either generator and in both editions: one
visit, then the server is stopped (no network at all), and an unvisited page opens, search answers and,
after "Keep the judge for offline use", Try it runs. The worker, the manifest and what they hold are
``rulespy/render/offline.py``'s; the page's side is ``assets/offline.js``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest

from rulespy.render import offline
from tests.browser import Quiet, require_browser, search, serving, wait

pytestmark = pytest.mark.timeout(900)
LOAD_SECONDS = 180  # a cold Pyodide start on a busy 2-core machine

_PRECACHED = """const done = arguments[arguments.length - 1];
navigator.serviceWorker.ready
  .then(() => caches.keys())
  .then((keys) => Promise.all(keys.filter((k) => k.includes('precache'))
    .map((k) => caches.open(k).then((c) => c.keys()))))
  .then((lists) => done(lists.reduce((n, l) => n + l.length, 0)), () => done(-1));"""


def _entries(sw: Path) -> int:
    """How many files Workbox's ``sw.js`` precaches (its manifest's entries)."""
    return len(re.findall(r"\{url:\"", sw.read_text(encoding="utf-8")))


def test_the_kept_bundle_writes_the_worker_generate_sw_writes_byte_for_byte(tmp_path: Path) -> None:
    """``publish`` writes ``sw.js`` from the bundle kept in ``build/offline/bundles`` (made once, by
    ``keep_bundle``); Workbox's ``generateSW`` in full, run on a copy of the same site, writes the same
    ``sw.js`` and runtime, for file names that terser prints otherwise than JSON does too."""
    import os
    import shutil
    import subprocess

    from tests.installs import root_installs

    root = root_installs()
    assert offline.keep_bundle(root)
    kept = sorted((root / offline.INSTALL / offline.BUNDLES).iterdir())
    sites = [tmp_path / "kept", tmp_path / "full"]
    for name, text in [
        ("index.html", "<h1>Rules</h1>"),
        ("core/cover/index.html", "<h1>Cover</h1>"),
        ("assets/it's \"odd\" <!--x-->.js", "let a = 1;"),
        ("assets/правила.css", "h1 {}"),
        ("ru/index.html", "<h1>Правила</h1>"),
        ("ru/core/cover/index.html", "<h1>Укрытие</h1>"),
    ]:
        (sites[0] / name).parent.mkdir(parents=True, exist_ok=True)
        (sites[0] / name).write_text(text, encoding="utf-8")
    said = offline.publish(root, sites[0], ["ru"])
    # the pages, the odd script and style, the manifest; the Russian pages and manifest
    assert [line.split(": ")[1].split(",")[0] for line in said] == ["5 files", "3 files"]
    assert sorted((root / offline.INSTALL / offline.BUNDLES).iterdir()) == kept  # no bundle made again
    shutil.copytree(sites[0], sites[1], ignore=shutil.ignore_patterns("sw.js", "workbox-*.js"))
    script, modules = root / offline.INSTALL / offline.SCRIPT, root / offline.INSTALL / "node_modules"
    options = [offline.config(sites[1], ["ru"]), offline.config(sites[1] / "ru", [])]
    subprocess.run(  # no folder of bundles: generateSW for each edition, as before bundles were kept
        ["node", str(script), json.dumps(options)],
        check=True,
        capture_output=True,
        env={**os.environ, "NODE_PATH": str(modules)},
    )
    for edition in ("", "ru"):
        written = sorted(p.name for p in (sites[1] / edition).glob("*.js"))
        assert written[0] == "sw-judge.js" and written[1] == "sw.js" and written[2].startswith("workbox-")
        for name in written:
            assert (sites[0] / edition / name).read_bytes() == (sites[1] / edition / name).read_bytes(), name
    worker = (sites[0] / "sw.js").read_text(encoding="utf-8")
    assert "правила.css" in worker and "odd" in worker and "ru/index.html" not in worker


def test_each_edition_has_a_manifest_icons_and_a_worker_that_leaves_out_the_judge_runtime(
    built: Path,
) -> None:
    for edition, language in ((built, "en"), (built / "ru", "ru")):
        manifest = json.loads((edition / "manifest.webmanifest").read_text(encoding="utf-8"))
        assert manifest["lang"] == language and manifest["start_url"] == "./"
        assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
        for icon in manifest["icons"]:
            assert (edition / icon["src"]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        worker = (edition / "sw.js").read_text(encoding="utf-8")
        assert "index.html" in worker and "search" in worker
        assert "pyodide" not in worker and "rulespy.zip" not in worker and ".pdf" not in worker
        kept = (edition / "sw-judge.js").read_text(encoding="utf-8")
        for path in offline.JUDGE_FILES:
            assert json.dumps(("../" if language == "ru" else "") + path) in kept
    # the English worker does not hold the Russian pages: those have a worker of their own
    assert '"ru/index.html"' not in (built / "sw.js").read_text(encoding="utf-8")


@pytest.mark.parametrize("language", [None, "ru"])
def test_after_one_visit_an_unvisited_page_opens_search_answers_and_the_kept_judge_runs_offline(
    browser: Any, built: Path, language: str | None
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    require_browser()
    edition = built / language if language else built
    expected = _entries(edition / "sw.js")
    browser.set_script_timeout(LOAD_SECONDS)
    with serving(built) as url:
        home = urljoin(url, f"{language}/" if language else "")
        browser.get(home)
        # the first visit: every page, the search index and the assets are cached
        wait(browser, lambda d: d.execute_async_script(_PRECACHED) >= expected, LOAD_SECONDS)
        wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, ".vs-keep-judge button"))
        browser.find_element(By.CSS_SELECTOR, ".vs-keep-judge button").click()
        kept = ".vs-keep-judge [role=status]"
        WebDriverWait(browser, LOAD_SECONDS).until(
            lambda d: any(w in d.find_element(By.CSS_SELECTOR, kept).text for w in ("kept", "сохранён"))
        )
    # the server is gone: nothing answers on its port any more
    browser.get(urljoin(home, "core/cover/"))
    heading = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".md-content h1").text)
    assert heading in ("Cover", "Укрытие")
    assert search(browser, "Target Limit" if language is None else "Предел цели", "/core/damage/")
    browser.get(urljoin(home, "core/damage/"))
    box = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".vs-try .vs-try-button"))
    box.click()
    panel = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".vs-try .vs-judge"), LOAD_SECONDS)
    panel.find_element(By.CSS_SELECTOR, ".vs-judge-run").click()
    WebDriverWait(browser, LOAD_SECONDS).until(
        lambda d: panel.get_attribute("data-state") in ("resolved", "done")
    )
    assert "Outcome" in panel.text or "Исход" in panel.text


class _Publishing(Quiet):
    """The built site, whose ``sw.js`` (each edition's) becomes a new build's once ``published`` is set:
    the same worker with one more line, as a new ``make site`` writes a new precache manifest."""

    published = False

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        path = self.path.split("?", 1)[0]
        if not (self.published and path.endswith("/sw.js")):
            return super().do_GET()
        body = (Path(self.directory) / path.lstrip("/")).read_bytes() + b"\n// a new edition\n"
        self.send_response(200)
        self.send_header("Content-Type", "text/javascript")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)
        return None


_CONTROLLED = "return !!navigator.serviceWorker.controller;"
_WORKERS = """const done = arguments[arguments.length - 1];
navigator.serviceWorker.getRegistration().then((r) => done(r ? {
  waiting: !!r.waiting, installing: !!r.installing,
  active: r.active ? r.active.state : null} : null), () => done(null));"""


@pytest.mark.parametrize("language", [None, "ru"])
def test_a_new_build_says_new_rules_are_available_and_reload_brings_it_in(
    browser: Any, built: Path, language: str | None
) -> None:
    """The "new rules available, reload" notice (``assets/offline.js``): a reader whose page is served by
    one build's worker sees it once a new build's worker has installed, and its Reload button lets the
    new worker take over and reloads the page, which then shows no notice."""
    from selenium.webdriver.common.by import By

    require_browser()
    browser.set_script_timeout(LOAD_SECONDS)
    _Publishing.published = False
    try:
        with serving(built, _Publishing) as url:
            home = urljoin(url, f"{language}/" if language else "")
            browser.get(home)
            wait(browser, lambda d: d.execute_script(_CONTROLLED), LOAD_SECONDS)
            assert not browser.find_elements(By.CSS_SELECTOR, ".vs-update")  # one build: no notice
            _Publishing.published = True  # a new edition is published
            browser.get(urljoin(home, "core/cover/"))  # the next page the reader opens checks for it
            notice = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".vs-update"), LOAD_SECONDS)
            assert ("New rules are available." if language is None else "Вышла новая редакция правил.") in (
                notice.text
            )
            assert notice.get_attribute("role") == "status"
            assert browser.execute_async_script(_WORKERS)["waiting"]
            browser.execute_script("document.querySelector('.vs-update button').click();")
            # the new worker takes over and the page reloads: no notice, nothing waiting any more
            wait(browser, lambda d: not d.execute_async_script(_WORKERS)["waiting"], LOAD_SECONDS)
            wait(browser, lambda d: d.execute_script("return document.readyState") == "complete")
            assert wait(browser, lambda d: d.execute_script(_CONTROLLED))
            assert not browser.find_elements(By.CSS_SELECTOR, ".vs-update")
            heading = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".md-content h1").text)
            assert heading in ("Cover", "Укрытие")
    finally:
        _Publishing.published = False
