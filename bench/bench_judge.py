"""The rules judge in headless Chromium: time from "Try it" to the first result (cold, and with the
runtime in the browser's cache), the time to recompute every example after an edit (resolve, account and
board; goal: each under 300 ms), the exact odds of every example (the heaviest named), the time the
Judge page takes to its judged starting board (runtime cached), and the bytes a reader downloads. The
baseline is the same resolve in CPython in this process, taken in the same run.

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
vsJudge.judge().then(w => done(arguments[0].map(t => {
  const a = performance.now(); w.resolve(t); w.board(t); const b = performance.now();
  const o = arguments[1] ? (w.odds(t), performance.now() - b) : null;
  return [b - a, o];
})));"""


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
            page = base + examples[0][0]
            cold = _try_it(driver, page)
            cached = _try_it(driver, page)
            judge_page = _judge_page(driver, base + "judge/")
            times = driver.execute_async_script(TIMES, texts, True)
    recompute = [t[0] for t in times]
    odds = [t[1] for t in times]
    heaviest = max(range(len(odds)), key=lambda i: odds[i])
    ratio = statistics.median(recompute) / (1000 * statistics.median(baseline))
    print(f"page: {examples[0][0]} ({len(examples)} examples in all)")
    print(f"Try it to first result: cold {cold[0]:.2f} s, cached {cached[0]:.2f} s")
    print(f"Try it to the odds too: cold {cold[1]:.2f} s, cached {cached[1]:.2f} s")
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
