"""``make serve``: the generator's own live-reloading server on the staged pages, kept fresh by a watcher.

``python -m rulespy.render.serve [mkdocs|zensical] [ADDRESS]`` renders once, starts ``mkdocs serve``
(or ``zensical serve``) on ADDRESS (default 127.0.0.1:8000), and polls the rule files, ``concepts.yml`` and
``examples/scenarios/`` twice a second. On a change it renders again: only the pages whose inputs
changed are rewritten, the generator sees those files change in ``build/pages`` and rebuilds and
reloads the browser. Polling (no extra dependency) keeps the watcher trivially portable.

The rules judge's runtime (Pyodide and ``rulespy.zip``, ``rulespy.render.judge``) is published once,
before the server starts, into ``build/pages/judge/``, where the render leaves it and both generators
serve it like any other file of the pages, so "Try it" and the Judge page work in the preview. When a
``.py`` file of rulespy changes, ``rulespy.zip`` is bundled again (reload the page to run the new
engine). Without npm (or when ``npm ci`` fails) the pages are served all the same, and the server says
that Try it is unavailable and why. Zensical's server (0.0.73) sends ``.wasm`` files as
``application/octet-stream``, which browsers refuse to compile as WebAssembly, so a small front server
(``_Front``) listens on ADDRESS: it sends the runtime's files itself, with their types, and passes every
other request, live reload included (Zensical's WebSocket, mkdocs' long polls), to the generator's server
on a private port. It stands in front of both generators because it also answers only requests whose
``Host`` is its own address (``localhost``, an IP address, the host it was started on, with its port):
neither generator's server checks it, so a web page whose domain was made to resolve to 127.0.0.1 (DNS
rebinding) could otherwise read the preview. A connection that sends nothing is closed after
``IDLE_SECONDS``, a live-reload tunnel that carries nothing either way after ``TUNNEL_IDLE_SECONDS``, and
at most ``MAX_TUNNELS`` are open at once.
"""

from __future__ import annotations

import http.client
import http.server
import ipaddress
import mimetypes
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlsplit

from . import judge
from .build import GENERATORS, UnsafeBuild, refuse_unsafe
from .stage import OUT, SCENARIOS, RenderError, render

POLL_SECONDS = 0.5
IDLE_SECONDS = 60
"""How long the front server keeps a connection that sends nothing."""
TUNNEL_IDLE_SECONDS = 3600
"""How long a live-reload tunnel may carry nothing either way before the front server ends it (Zensical's
page then connects again and reloads itself once: an hour keeps that rare for a reader, while a tunnel
whose browser went away is not kept for ever)."""
MAX_TUNNELS = 32
"""Live-reload tunnels open at once; one more is answered 503 (each holds two threads and sockets)."""
ADDRESS = "127.0.0.1:8000"


def sources_state(root: Path) -> dict[str, tuple[int, int]]:
    """(mtime, size) of every file a render reads, by path: the home page, ``concepts.yml``, the rule
    folders it sets (``check: rule_dirs``, ``rule_folders``) and the scenarios."""
    tops = [root / "index.md", root / "concepts.yml"]
    folders = [root / name for name in (*rule_folders(root), str(SCENARIOS))]
    return _state(tops + [p for folder in folders if folder.is_dir() for p in sorted(folder.rglob("*"))])


def rule_folders(root: Path) -> tuple[str, ...]:
    """The rule folders of ``root``'s ``check: rule_dirs`` setting (``load_registry(root).layout``), read
    again only when ``concepts.yml`` changes (the watch polls twice a second); the default folders while
    it cannot be read (the render says why)."""
    try:
        info = (root / "concepts.yml").stat()
        key = (info.st_mtime_ns, info.st_size)
    except OSError:
        key = (0, -1)
    return _rule_folders(root, key)


@lru_cache(maxsize=4)
def _rule_folders(root: Path, key: tuple[int, int]) -> tuple[str, ...]:
    from rulespy.check.findings import CheckError
    from rulespy.check.registry import load_registry

    try:
        return load_registry(root).layout.rule_dirs
    except CheckError:
        from rulespy.check.files import Layout

        return Layout().rule_dirs


def engine_state() -> dict[str, tuple[int, int]]:
    """(mtime, size) of every file ``rulespy.zip`` bundles, by path."""
    return _state(list(judge.bundled_sources().values()))


def _state(paths: list[Path]) -> dict[str, tuple[int, int]]:
    state: dict[str, tuple[int, int]] = {}
    for path in paths:
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


def publish_judge(root: Path) -> bool:
    """Publish the rules judge's runtime into the staged pages (``npm ci`` installs Pyodide the first
    time); False, after saying why on standard error, when it cannot be had."""
    try:
        judge.publish(root, root / OUT)
    except (judge.JudgeError, OSError) as error:
        print(
            f"Try it is unavailable in this preview: {error}. The pages are served without the rules judge.",
            file=sys.stderr,
        )
        return False
    where = OUT / judge.SITE_FOLDER
    print(f"rulespy serve: the rules judge (Pyodide {judge.pinned_version()}) is served from {where}")
    return True


def rebundle(root: Path) -> bool:
    """Write ``rulespy.zip`` again into the staged pages when rulespy's sources bundle differently."""
    path = root / OUT / judge.SITE_FOLDER / judge.BUNDLE
    data = judge.bundle()
    if path.is_file() and path.read_bytes() == data:
        return False
    path.write_bytes(data)
    print(f"rulespy serve: rulespy changed, {judge.BUNDLE} bundled again (reload the page)")
    return True


_HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "transfer-encoding",
    "upgrade",
    "proxy-connection",
    "te",
    "trailer",
}


class _Front(http.server.ThreadingHTTPServer):
    """In front of Zensical's server (at ``upstream``): the rules judge's runtime from ``pages``, with
    its types (``application/wasm``), and everything else from Zensical. Only the runtime's own paths
    (``judge.RUNTIME_PATHS``) are read from disk; a request it cannot pass on is answered 400, and a
    connection that sends nothing for ``IDLE_SECONDS`` is closed."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], upstream: tuple[str, int], pages: Path) -> None:
        super().__init__(address, _FrontHandler)
        self.upstream, self.pages = upstream, pages
        self.host = address[0]
        self.tunnels = threading.BoundedSemaphore(MAX_TUNNELS)

    def own_host(self, host: str | None) -> bool:
        """Whether a request's ``Host`` names this server: ``localhost``, an IP address or the host it
        was started on, with its port. Any other name (a DNS rebinding: a web page's own domain made to
        resolve to 127.0.0.1) is refused, so that no page of the web can read the preview."""
        if not host:
            return False
        name, _, port = host.strip().rpartition(":")
        if not name or not port.isdigit() or int(port) != self.server_address[1]:
            return False
        name = name.lower().removeprefix("[").removesuffix("]")
        if name in ("localhost", self.host.lower()):
            return True
        try:
            ipaddress.ip_address(name)
        except ValueError:
            return False
        return True

    def handle_error(self, request: object, client_address: tuple[str, int]) -> None:
        """A reader's browser that hangs up or goes quiet is no error of the preview; anything else is
        said in one line, never with a traceback."""
        error = sys.exc_info()[1]
        if not isinstance(error, OSError):
            print(f"rulespy serve: a request from {client_address[0]} failed: {error!r}", file=sys.stderr)


class _FrontHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: each request of a connection is looked at here
    timeout = IDLE_SECONDS  # a connection that sends nothing (or stops half-way) is closed, not kept
    server: _Front

    def do_GET(self) -> None:
        self._answer(with_body=True)

    def do_HEAD(self) -> None:
        self._answer(with_body=False)

    def log_message(self, format: str, *args: object) -> None:  # Zensical logs what matters
        pass

    def _answer(self, with_body: bool) -> None:
        if not self.server.own_host(self.headers.get("Host")):
            self.send_error(421, "this server answers only for its own address (Host)")
            return
        path = unquote(urlsplit(self.path).path).lstrip("/")
        if path in judge.RUNTIME_PATHS:
            self._runtime(self.server.pages / path, with_body)
        elif self.headers.get("Upgrade"):
            self._tunnel()
        else:
            self._relay(with_body)

    def _runtime(self, path: Path, with_body: bool) -> None:
        try:
            data = path.read_bytes()
        except OSError:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", mimetypes.guess_type(path.name)[0] or "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-cache")  # rulespy.zip changes while serving
        self.end_headers()
        if with_body:
            self.wfile.write(data)

    def _relay(self, with_body: bool) -> None:
        headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP}
        upstream = http.client.HTTPConnection(*self.server.upstream, timeout=120)
        try:
            try:
                upstream.request(self.command, self.path, headers=headers)
            except (ValueError, http.client.InvalidURL):  # a control or non-ASCII character, a bad header
                self.send_error(400, "the request has characters HTTP cannot carry on to Zensical's server")
                return
            answer = upstream.getresponse()
            data = answer.read()
        except (OSError, http.client.HTTPException) as error:
            self.send_error(502, f"Zensical's server does not answer: {error}")
            return
        finally:
            upstream.close()
        self.send_response(answer.status, answer.reason)
        for key, value in answer.getheaders():
            if key.lower() not in _HOP_BY_HOP and (key.lower() != "content-length" or not with_body):
                self.send_header(key, value)
        if with_body:
            self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if with_body:
            self.wfile.write(data)

    def _tunnel(self) -> None:
        """The live-reload WebSocket: the handshake and every frame after it, both ways, unread; at most
        ``MAX_TUNNELS`` at once, each ended after ``TUNNEL_IDLE_SECONDS`` without a byte either way."""
        self.close_connection = True
        if not self.server.tunnels.acquire(blocking=False):
            self.send_error(503, "too many live-reload connections")
            return
        try:
            try:
                upstream = socket.create_connection(self.server.upstream, timeout=10)
            except OSError:
                self.send_error(502)
                return
            # live reload's socket is quiet between changes: the idle limit is long, but there is one
            upstream.settimeout(TUNNEL_IDLE_SECONDS)
            self.connection.settimeout(TUNNEL_IDLE_SECONDS)
            lines = "".join(f"{k}: {v}\r\n" for k, v in self.headers.items())
            head = self.requestline + "\r\n" + lines + "\r\n"
            with upstream:
                upstream.sendall(head.encode("latin-1"))
                other = threading.Thread(target=_pipe, args=(self.connection, upstream), daemon=True)
                other.start()
                _pipe(upstream, self.connection)
                other.join()
        finally:
            self.server.tunnels.release()


def _pipe(source: socket.socket, target: socket.socket) -> None:
    """Copy ``source`` to ``target`` until either ends or stays quiet past its timeout; then end both
    directions of both, so that the other pipe of the tunnel stops too."""
    try:
        while chunk := source.recv(65536):
            target.sendall(chunk)
    except OSError:  # a reset, or the idle limit
        pass
    finally:
        for end in (source, target):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def _free_address() -> tuple[str, int]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return "127.0.0.1", int(probe.getsockname()[1])


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    generator = args[0] if args else "mkdocs"
    address = args[1] if len(args) > 1 else ADDRESS
    if generator not in GENERATORS:
        print(f"rulespy serve: no generator {generator!r}: {' or '.join(GENERATORS)}", file=sys.stderr)
        return 2
    root = Path(".")
    try:  # the generator's server reads mkdocs.yml: refused like the build's (RS082-RS084, RS045)
        refuse_unsafe(root, root / "site")
    except UnsafeBuild as error:
        print(f"rulespy serve: {error}", file=sys.stderr)
        return 2
    rerender(root)
    with_judge = publish_judge(root)
    upstream = _free_address()
    private = "{}:{}".format(*upstream)
    if generator == "zensical":
        command = [sys.executable, "-m", "zensical", "serve", "--dev-addr", private]
    else:
        command = [sys.executable, "-m", "mkdocs", "serve", "--dev-addr", private, "--livereload"]
    host, _, port = address.rpartition(":")
    try:
        front = _Front((host.strip("[]"), int(port)), upstream, root / OUT)
    except (OSError, ValueError) as error:
        print(f"rulespy serve: cannot serve on {address}: {error}", file=sys.stderr)
        return 2
    threading.Thread(target=front.serve_forever, daemon=True).start()
    print(f"rulespy serve: open http://{address}/ ({generator}'s own server is behind it, on {private})")
    server = subprocess.Popen(command, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    signal.signal(signal.SIGTERM, _stop)  # so that the server is stopped with us, never left behind
    seen = sources_state(root)
    engine = engine_state() if with_judge else {}
    try:
        while server.poll() is None:
            time.sleep(POLL_SECONDS)
            now = sources_state(root)
            if now != seen:
                seen = now
                rerender(root)
            if with_judge and engine != (engine_now := engine_state()):
                engine = engine_now
                rebundle(root)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        front.shutdown()
        front.server_close()
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
