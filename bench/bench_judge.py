"""The rules judge in headless Chromium: time from "Try it" to the first result (cold, with the runtime
in the browser's cache and the engine's memory snapshot saved, and with the runtime cached but no
snapshot), the time to recompute every example after an edit (resolve, account and
board, through the page's Web Worker; goal: median at most 300 ms), the exact odds of every example (the
heaviest named), the time the Judge page takes to its judged starting board (runtime cached), the
longest task on the page's main thread while the engine starts and judges (Long Tasks API; goal: none
over 200 ms), and the bytes a reader downloads.

Two baselines, both taken in the same run: the bare Pyodide runtime fetched and instantiated in a Web
Worker by the same browser from the same server (cold and cached; the goal is "Try it" within 1.5 times
the cold one, and within 1 s once cached), and the same resolve-and-board work in CPython.

Run: ``.venv/bin/python bench/bench_judge.py`` from the repository root (needs Debian's chromium and
chromium-driver). It renders and builds the site with mkdocs into ``build/site-bench-judge/``.
"""

from __future__ import annotations

import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rulespy.render import web
from rulespy.render.build import build
from rulespy.render.stage import render

ROOT = Path(__file__).resolve().parents[1]
TRY = re.compile(r'<div class="vs-try" data-scenario="([\w-]+)"></div>')
BYTES = (
    "return performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))"
    ".reduce((n, e) => n + (e.encodedBodySize || 0), 0);"
)
TIMES = """
const done = arguments[arguments.length - 1];
vsJudge.judge().then(async w => {
  const out = [];
  for (const t of arguments[0]) {
    const a = performance.now(); await w.resolve(t); await w.board(t, "bench"); const b = performance.now();
    const o = arguments[1] ? (await w.odds(t), performance.now() - b) : null;
    out.push([b - a, o]);
  }
  done(out);
});"""
BARE = """
const done = arguments[arguments.length - 1];
const base = arguments[0];
const source = `importScripts("${base}judge/pyodide/pyodide.js");
loadPyodide({indexURL: "${base}judge/pyodide/"}).then(() => postMessage("ok"), e => postMessage(String(e)));`;
const started = performance.now();
const worker = new Worker(URL.createObjectURL(new Blob([source], {type: "text/javascript"})));
worker.onmessage = (e) => { worker.terminate(); done([e.data, (performance.now() - started) / 1000]); };
"""
LONG_TASKS = """
window.vsLongTasks = [];
try {
  new PerformanceObserver((list) => list.getEntries().forEach((e) => window.vsLongTasks.push(e.duration)))
    .observe({ type: "longtask", buffered: true });
} catch (e) { window.vsLongTasks = null; }
"""


def _bare(driver: Any, base: str) -> float:
    """Seconds the browser takes to fetch and instantiate the bare Pyodide runtime in a Web Worker."""
    driver.get(base + "404.html")
    state, seconds = driver.execute_async_script(BARE, base)
    if state != "ok":
        raise RuntimeError(f"bare Pyodide did not start: {state}")
    return float(seconds)


def _examples() -> list[tuple[str, str]]:
    pages = ROOT / "build" / "pages"
    found = []
    for page in sorted(pages.rglob("*.md")):
        for code in TRY.findall(page.read_text(encoding="utf-8")):
            found.append((page.relative_to(pages).with_suffix("").as_posix() + "/", code))
    return found


def _try_it(driver: Any, url: str) -> tuple[float, float, int, int]:
    """Open ``url``, press its first Try it: seconds to the account, to the odds, bytes of the page
    before and after."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    before = int(driver.execute_script(BYTES))
    driver.execute_script("window.vsLongTasks && (window.vsLongTasks.length = 0);")
    button = driver.find_element("css selector", ".vs-try-button")
    started = time.perf_counter()
    button.click()
    # the editor opens once the page has decoded the example's scenario, asynchronously
    panel = WebDriverWait(driver, 60, 0.02).until(lambda d: d.find_elements("css selector", ".vs-judge"))[0]
    WebDriverWait(driver, 300, 0.02).until(
        lambda d: panel.get_attribute("data-state") in ("done", "resolved")
    )
    first = time.perf_counter() - started
    WebDriverWait(driver, 300, 0.02).until(lambda d: panel.get_attribute("data-state") == "done")
    odds = time.perf_counter() - started
    return first, odds, before, int(driver.execute_script(BYTES))


SAVED = """
const done = arguments[arguments.length - 1];
vsJudge.judge().then((w) => w.snapshot()).then(() => done(window.vsJudgeBoot), (e) => done(String(e)));
"""
FORGET = """
const done = arguments[arguments.length - 1];
caches.delete("vs-judge-engine").then(done, () => done(false));
"""


def _saved(driver: Any) -> str:
    """Wait until the page's worker has saved its engine's snapshot (after its first odds): how it started."""
    return str(driver.execute_async_script(SAVED))


def _judge_page(driver: Any, url: str) -> float:
    """Open the Judge page at ``url``: seconds until its starting board is judged (the page starts the
    engine as it opens, so that its forms can be filled from the scenario)."""
    from selenium.webdriver.support.ui import WebDriverWait

    started = time.perf_counter()
    driver.get(url)
    panel = WebDriverWait(driver, 60, 0.02).until(lambda d: d.find_elements("css selector", ".vs-judge"))[0]
    WebDriverWait(driver, 300, 0.02).until(
        lambda d: panel.get_attribute("data-state") not in (None, "", "running")
    )
    elapsed = time.perf_counter() - started
    state = panel.get_attribute("data-state")
    if state not in ("resolved", "done"):  # a page that failed is no time to report
        raise RuntimeError(f"the Judge page's starting board ended {state!r}, not judged")
    return elapsed


def main() -> int:
    render(ROOT)
    site = ROOT / "build" / "site-bench-judge"
    done = build("mkdocs", ROOT, site)
    if done.returncode:
        print(done.stderr, file=sys.stderr)
        return 1
    examples = _examples()
    texts = [web.decode(code) for _, code in examples]
    baseline = []
    for text in texts:
        started = time.perf_counter()
        web.resolve(text)
        web.board(text)
        baseline.append(time.perf_counter() - started)
    sys.path.insert(0, str(ROOT))
    from tests.browser import chromium, serving  # the tests' static server and headless Chromium

    with serving(site) as base, tempfile.TemporaryDirectory(prefix="vs-bench-judge-") as profile:
        with chromium(Path(profile)) as driver:
            driver.set_script_timeout(600)
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": LONG_TASKS})
            page = base + examples[0][0]
            driver.execute_cdp_cmd("Network.clearBrowserCache", {})
            bare_cold = _bare(driver, base)
            bare_cached = _bare(driver, base)
            driver.execute_cdp_cmd("Network.clearBrowserCache", {})
            cold = _try_it(driver, page)
            cold_tasks = driver.execute_script("return window.vsLongTasks;") or []
            boots = [_saved(driver)]
            cached = _try_it(driver, page)  # a new page load: the engine from its snapshot
            cached_tasks = driver.execute_script("return window.vsLongTasks;") or []
            boots.append(_saved(driver))
            driver.execute_async_script(FORGET)  # the runtime still in the HTTP cache, no snapshot
            unsaved = _try_it(driver, page)
            boots.append(_saved(driver))
            judge_page = _judge_page(driver, base + "judge/")
            boots.append(_saved(driver))
            times = driver.execute_async_script(TIMES, texts, True)
    recompute = [t[0] for t in times]
    odds = [t[1] for t in times]
    heaviest = max(range(len(odds)), key=lambda i: odds[i])
    ratio = statistics.median(recompute) / (1000 * statistics.median(baseline))
    print(f"page: {examples[0][0]} ({len(examples)} examples in all)")
    print(f"baseline, bare Pyodide fetched and instantiated in a worker: cold {bare_cold:.2f} s,"
          f" cached {bare_cached:.2f} s")
    print(f"Try it to first result: cold {cold[0]:.2f} s ({cold[0] / bare_cold:.2f}x the cold baseline),"
          f" cached {cached[0]:.2f} s ({cached[0] / bare_cached:.2f}x the cached baseline),"
          f" cached without the engine's snapshot {unsaved[0]:.2f} s")
    print(f"how each engine started (cold, cached, without snapshot, Judge page): {', '.join(boots)}")
    print(f"longest main-thread task: cold start {max(cold_tasks, default=0):.0f} ms"
          f" ({sum(t > 200 for t in cold_tasks)} over 200 ms), cached {max(cached_tasks, default=0):.0f} ms")
    print(f"Try it to the odds too: cold {cold[1]:.2f} s, cached {cached[1]:.2f} s,"
          f" without snapshot {unsaved[1]:.2f} s")
    print(f"the Judge page, opened with the runtime cached, to its judged starting board: {judge_page:.2f} s")
    print(f"bytes: the page {cold[2] / 1024:.0f} KB; after Try it {(cold[3] - cold[2]) / 1024:.0f} KB more")
    print(
        f"recompute (resolve twice, account, board) per example:"
        f" median {statistics.median(recompute):.0f} ms,"
        f" max {max(recompute):.0f} ms, over 300 ms: {sum(t > 300 for t in recompute)}"
    )
    print(
        f"CPython baseline, same work: median {1000 * statistics.median(baseline):.1f} ms; ratio {ratio:.1f}x"
    )
    print(
        f"odds: heaviest example {odds[heaviest]:.0f} ms ({examples[heaviest][0]}), median"
        f" {statistics.median(odds):.0f} ms; all {len(odds)} examples {sum(odds) / 1000:.1f} s"
    )
    print(json.dumps({"recompute_ms": [round(t) for t in recompute]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
