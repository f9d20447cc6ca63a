"""The odds and resolve benches under Pyodide in headless Chromium (issue 15, item 5), each against the same
measurement in CPython taken in the same run.

``measure`` runs, with a given clock, the measurement functions of ``bench_odds.py`` (the exact odds of
the bench attack, of the alternating-profiles attack and of the Snap Fire Firefight, each after a bare
loop of 1,000,000 iterations; the dice-pool core and the Target Lock step's ``Fraction`` multinomial on
the bench attack's two profiles) and of ``bench_resolve.py`` (the in-process resolve of the 1,000-die
attack). The same function runs in four passes a round, ``--rounds`` rounds alternating so that load
from other jobs falls on every side (``SIDES``):

- CPython (this interpreter), CPU time (``time.process_time``), what the two benches report;
- Pyodide in a page of headless Chromium, CPU time: Pyodide has no process CPU time (its
  ``time.process_time`` is Emscripten's ``clock()``, a wall clock), so the page asks the bench's server,
  which reads the CPU time of Chromium's renderer main thread (the thread that runs Pyodide) from
  ``/proc`` (``page_clock``). Each reading costs that thread about 0.45 ms, reported as "the clock's own
  cost"; a page figure under ``RESOLUTION`` times it is not reported;
- CPython, wall time (``time.perf_counter``);
- Pyodide, wall time by the page's ``performance.now()``. The page is served cross-origin isolated (COOP
  and COEP headers), so the browser rounds ``performance.now()`` to 5 us rather than 100 us.

The ratios are Pyodide over CPython, CPU time and wall time, of the medians over all runs (the bests for
the dice pool, which takes microseconds).

The page is the smallest that runs the judge's runtime: ``rulespy.render.judge.publish`` copies Pyodide
(from ``build/pyodide/``, installed by ``npm ci`` once, as ``make site`` does) and ``rulespy.zip`` into a
temporary folder, beside an HTML page that starts Pyodide, unpacks the zip, and writes this script,
``bench_odds.py``, ``bench_resolve.py`` and ``odds_attacks.py`` into the page's file system.

Run: ``.venv/bin/python bench/bench_pyodide.py [--rounds N] [--runs N]`` (Linux only: ``/proc``; needs
Debian's chromium and chromium-driver, and npm the first time).
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHIPPED = ("bench_pyodide.py", "bench_odds.py", "bench_resolve.py", "odds_attacks.py")
"""The bench modules the page imports (``measure`` and the functions it calls)."""
POOL_RUNS = 20
"""The dice pool takes microseconds: the best of this many runs, as ``bench_odds.py --runs`` does."""

PAGE = """<!doctype html>
<meta charset="utf-8">
<title>rulespy benches under Pyodide</title>
<script src="judge/pyodide/pyodide.js"></script>
<script>
/* Start Pyodide once, unpack rulespy.zip as the judge does, write the bench modules beside it. */
function benchStart(files) {
  if (!window.vsBench) {
    window.vsBench = (async () => {
      const started = performance.now();
      const py = await loadPyodide({ indexURL: new URL("judge/pyodide/", location).href });
      const zip = await fetch("judge/rulespy.zip");
      py.unpackArchive(await zip.arrayBuffer(), "zip", { extractDir: "/judge/lib" });
      py.FS.mkdir("/bench");
      for (const [name, text] of Object.entries(files)) py.FS.writeFile("/bench/" + name, text);
      py.runPython("import sys; sys.path[:0] = ['/judge/lib', '/bench']; import bench_pyodide");
      return { py, loadMs: performance.now() - started };
    })();
  }
  return window.vsBench;
}
</script>
"""

START = """
const done = arguments[arguments.length - 1];
benchStart(arguments[0]).then(b => done({ loadMs: b.loadMs, version: b.py.version,
  python: b.py.runPython("import sys; sys.version.split()[0]") }), e => done({ error: String(e) }));
"""

MEASURE = """
const done = arguments[arguments.length - 1];
benchStart(null).then(b => {
  const bench = b.py.pyimport("bench_pyodide");
  const result = bench.measure(arguments[0], bench.page_clock(arguments[1]));
  done({ result: b.py.pyimport("json").dumps(result) });
}).catch(e => done({ error: String(e) }));
"""


def measure(runs: int, clock: Callable[[], float]) -> dict[str, Any]:
    """One pass of every measurement, timed by ``clock`` (seconds): the exact odds of each attack
    (``runs`` runs, each after a bare loop), the dice pool (best of ``POOL_RUNS``) and the 1,000-die
    resolve (median of ``runs``). Runs in CPython and in the page alike."""
    import bench_odds
    import bench_resolve

    exact = {}
    for name in bench_odds.ATTACKS:
        gc.collect()  # the garbage of the measurement before is not this one's to collect
        times, loops, answer = bench_odds.time_exact(name, runs, clock)
        exact[name] = {"times": times, "loops": loops, "answer": answer}
    gc.collect()
    pool = {
        f"dice pool, {dice} {name} dice": {"core": core, "fraction": listed}
        for name, dice, _, core, listed in bench_odds.time_pool(POOL_RUNS, clock)
    }
    gc.collect()
    resolved, _, dice = bench_resolve.in_process(runs, clock)
    empty = min(bench_odds.cpu(lambda: None, clock)[0] for _ in range(POOL_RUNS))
    return {"exact": exact, "pool": pool, "resolve": {"seconds": resolved, "dice": dice}, "clock": empty}


def page_clock(kind: str) -> Callable[[], float]:
    """In the page, a clock in seconds: ``"wall"``, the page's ``performance.now()``; ``"cpu"``, the CPU
    time of the page's thread (Chromium's renderer main thread, which runs Pyodide), which the bench's
    server reads from ``/proc`` when the page asks (a synchronous request to ``/cpu``)."""
    import js  # Pyodide's bridge to the page

    def thread_cpu() -> float:
        request = js.XMLHttpRequest.new()
        request.open("GET", "/cpu", False)
        request.send()
        return int(request.responseText) / 1e9

    return thread_cpu if kind == "cpu" else lambda: js.performance.now() / 1000


def thread_cpu_ns(pid: int) -> int:
    """CPU nanoseconds used so far by the main thread of process ``pid`` (``/proc``'s schedstat)."""
    return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[0])


class _Isolated(SimpleHTTPRequestHandler):
    """A quiet static server whose pages are cross-origin isolated (finer ``performance.now()``), and
    which answers ``/cpu`` with the CPU nanoseconds of the main thread of its ``server.renderer``."""

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        if self.path != "/cpu":
            super().do_GET()
            return
        body = str(thread_cpu_ns(self.server.renderer)).encode()  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self) -> None:
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass


@contextmanager
def runtime_page() -> Iterator[ThreadingHTTPServer]:
    """The judge's runtime published into a temporary folder with the bench page (``index.html``),
    served on 127.0.0.1."""
    from rulespy.render import judge

    with tempfile.TemporaryDirectory(prefix="vs-bench-pyodide-") as folder:
        judge.publish(ROOT, Path(folder))
        (Path(folder) / "index.html").write_text(PAGE, encoding="utf-8")
        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Isolated, directory=folder))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            yield server
        finally:
            server.shutdown()
            server.server_close()


def _renderers(root: int) -> list[int]:
    """The Chromium renderer processes among the descendants of process ``root``."""
    parents, renderers = {}, set()
    for entry in Path("/proc").iterdir():
        try:
            parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            if b"--type=renderer" in (entry / "cmdline").read_bytes():
                renderers.add(int(entry.name))
        except (OSError, ValueError, IndexError):
            continue
    tree, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grown = bool(more)
    return sorted(renderers & tree)


SIDES = {
    "CPython CPU": ("cpython", time.process_time),
    "Pyodide CPU": ("page", "cpu"),
    "CPython wall": ("cpython", time.perf_counter),
    "Pyodide wall": ("page", "wall"),
}
"""The passes of a round, in order: where ``measure`` runs, and its clock there."""
ROWS = {
    "CPU": ("CPython CPU", "Pyodide CPU"),
    "wall": ("CPython wall", "Pyodide wall"),
}
CLOCK_ROW = "the clock's own cost (empty work)"
RESOLUTION = 20
"""A page figure under this many times its clock's own cost (the page's CPU clock asks the server, some
400 us of the thread's time) is not reported."""


def _merge(passes: list[dict[str, Any]]) -> dict[str, list[float]]:
    """Every timed run of the passes by measurement: exact odds and resolve in seconds (all runs), the
    dice pool's bests."""
    rows: dict[str, list[float]] = {}
    for done in passes:
        for name, exact in done["exact"].items():
            rows.setdefault(name, []).extend(exact["times"])
            rows.setdefault("baseline: bare loop of 1,000,000 iterations", []).extend(exact["loops"])
        for name, pool in done["pool"].items():
            rows.setdefault(name + ", engine core", []).append(pool["core"])
            rows.setdefault(name + ", Fraction multinomial", []).append(pool["fraction"])
        rows.setdefault(f"resolve in process, {done['resolve']['dice']} dice", []).append(
            done["resolve"]["seconds"]
        )
        rows.setdefault(CLOCK_ROW, []).append(done["clock"])
    return rows


def _figure(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds >= 0.001 else f"{seconds * 1e6:.0f} us"


def report(sides: dict[str, list[dict[str, Any]]]) -> None:
    """The table: each measurement's median (the best for the dice pool, which takes microseconds) on
    each side, and Pyodide over CPython, CPU time and wall time."""
    merged = {side: _merge(passes) for side, passes in sides.items()}
    print("| measurement | CPython CPU | Pyodide CPU | ratio | CPython wall | Pyodide wall | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name in merged["Pyodide wall"]:
        pick = min if "dice pool" in name or name == CLOCK_ROW else statistics.median
        line = f"| {name} "
        for here, there in ROWS.values():
            a, b = pick(merged[here][name]), pick(merged[there][name])
            cost = min(merged[there][CLOCK_ROW])
            if name == CLOCK_ROW:
                line += f"| {_figure(a)} | {_figure(b)} | "
            elif b < RESOLUTION * cost:
                line += f"| {_figure(a)} | n/a | "
            else:
                line += f"| {_figure(a)} | {_figure(b)} | {b / a:.1f}x "
        print(line + "|")
    print(f"n/a: under {RESOLUTION}x the cost of the page's clock itself (the last row), so not measured")
    for name, exact in sides["Pyodide wall"][0]["exact"].items():
        same = all(p["exact"][name]["answer"] == exact["answer"] for ps in sides.values() for p in ps)
        print(f"{name}: {exact['answer']}" + ("" if same else " (not the same on every side!)"))


def _in_page(driver: Any, script: str, *arguments: object) -> dict[str, Any]:
    """Run one of the page scripts; ``RuntimeError`` with the page's message when it failed."""
    done = driver.execute_async_script(script, *arguments)
    if "error" in done:
        raise RuntimeError(done["error"])
    return dict(done)


def _pass(driver: Any, side: str, runs: int) -> dict[str, Any]:
    """One ``measure`` pass of ``side`` (``SIDES``), here or in the page."""
    where, clock = SIDES[side]
    if where == "cpython":
        return measure(runs, clock)  # type: ignore[arg-type]
    return dict(json.loads(_in_page(driver, MEASURE, runs, clock)["result"]))


def _start(driver: Any, server: Any) -> str:
    """Start Pyodide in the page with the bench modules, point the server's ``/cpu`` at the renderer
    that ran it (the one whose main thread worked most), and describe both interpreters."""
    files = {name: (HERE / name).read_text(encoding="utf-8") for name in SHIPPED}
    driver.get(f"http://127.0.0.1:{server.server_address[1]}/index.html")
    started = _in_page(driver, START, files)
    renderers = _renderers(driver.service.process.pid)  # chromedriver's descendants: Chromium's processes
    server.renderer = max(renderers, key=thread_cpu_ns)
    return (
        f"Pyodide {started['version']} (Python {started['python']}) in Chromium "
        f"{driver.capabilities.get('browserVersion', '?')}, started with rulespy imported in "
        f"{started['loadMs'] / 1000:.2f} s; CPython {sys.version.split()[0]}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the four passes, alternating")
    parser.add_argument("--runs", type=int, default=3, help="runs of each attack and resolve in a pass")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.browser import chromium

    sides: dict[str, list[dict[str, Any]]] = {side: [] for side in SIDES}
    load = os.getloadavg()[0]
    with runtime_page() as server, tempfile.TemporaryDirectory(prefix="vs-bench-chromium-") as profile:
        with chromium(Path(profile)) as driver:
            driver.set_script_timeout(1800)
            try:
                print(_start(driver, server) + f"; {args.rounds} rounds of {args.runs} runs")
                for side in SIDES:  # one untimed pass of each, the same warm-up on every side
                    _pass(driver, side, 1)
                for _ in range(args.rounds):
                    for side in SIDES:
                        sides[side].append(_pass(driver, side, args.runs))
            except RuntimeError as error:
                print(f"the page failed: {error}", file=sys.stderr)
                return 1
    print(f"load average (1 minute) at the start: {load:.1f}, at the end: {os.getloadavg()[0]:.1f}")
    report(sides)
    return 0


if __name__ == "__main__":
    sys.exit(main())
