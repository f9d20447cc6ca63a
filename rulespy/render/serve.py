"""``make serve``: the generator's own live-reloading server on the staged pages, kept fresh by a watcher.

``python -m rulespy.render.serve [mkdocs|zensical] [ADDRESS]`` renders once, starts ``mkdocs serve``
(or ``zensical serve``) on ADDRESS (default 127.0.0.1:8000), and polls the rule files, ``concepts.yml`` and
``examples/scenarios/`` twice a second. On a change it renders again: only the pages whose inputs
changed are rewritten, the generator sees those files change in ``build/pages`` and rebuilds and
reloads the browser. Polling (no extra dependency) keeps the watcher trivially portable.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from .pages import RULE_FOLDERS
from .stage import SCENARIOS, RenderError, render

POLL_SECONDS = 0.5
ADDRESS = "127.0.0.1:8000"


def sources_state(root: Path) -> dict[str, tuple[int, int]]:
    """(mtime, size) of every file a render reads, by path."""
    state: dict[str, tuple[int, int]] = {}
    tops = [root / "index.md", root / "concepts.yml"]
    folders = [root / name for name in (*RULE_FOLDERS, str(SCENARIOS))]
    for path in tops + [p for folder in folders if folder.is_dir() for p in sorted(folder.rglob("*"))]:
        try:
            info = path.stat()
        except OSError:
            continue
        state[str(path)] = (info.st_mtime_ns, info.st_size)
    return state


def rerender(root: Path) -> None:
    started = time.perf_counter()
    try:
        report = render(root, unreleased=False)  # the unreleased changes take seconds: `make site` lists them
    except RenderError as error:
        print("\n".join(error.problems), file=sys.stderr)
        return
    for warning in report.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"rulespy render: {len(report.written)} file(s) rewritten in {time.perf_counter() - started:.2f} s")


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    generator = args[0] if args else "mkdocs"
    address = args[1] if len(args) > 1 else ADDRESS
    root = Path(".")
    rerender(root)
    if generator == "zensical":
        command = [sys.executable, "-m", "zensical", "serve", "--dev-addr", address]
    else:
        command = [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", address, "--livereload"]
    server = subprocess.Popen(command, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    signal.signal(signal.SIGTERM, _stop)  # so that the server is stopped with us, never left behind
    seen = sources_state(root)
    try:
        while server.poll() is None:
            time.sleep(POLL_SECONDS)
            now = sources_state(root)
            if now != seen:
                seen = now
                rerender(root)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
