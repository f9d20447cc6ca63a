"""``make serve`` (render/serve.py): an edit to a rule file reaches the served page without a restart, and
the rules judge's runtime (Pyodide and rulespy.zip) is served with it by both generators."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from rulespy.render import judge, serve

ROOT = Path(__file__).resolve().parents[2]
COPIED = (
    *("index.md", "questions.md", "rule-writers.md", "concepts.yml", "mkdocs.yml"),
    *("core", "sequences", "timing", "commands", "examples"),
)
pytestmark = pytest.mark.timeout(180)  # the hang guard of the waits below: none is timed


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _page(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return str(answer.read().decode("utf-8"))
    except OSError:
        return ""


def _file(url: str) -> tuple[str, bytes]:
    """The Content-Type and the bytes served at ``url``."""
    with urllib.request.urlopen(url, timeout=60) as answer:
        return str(answer.headers.get("Content-Type")), bytes(answer.read())


def _copy(tmp_path: Path) -> None:
    for name in COPIED:
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)


def _with_runtime(tmp_path: Path) -> Path | None:
    """The Pyodide package installed for the repository (what ``make site`` installs), copied into the
    copy's ``build/pyodide`` so that serving it needs no network; None without npm, except in CI."""
    try:
        package = judge.install_runtime(ROOT)
    except judge.JudgeError as error:
        if error.no_npm and os.environ.get("CI") != "true":
            return None
        raise
    target = tmp_path / judge.INSTALL
    (target / "node_modules" / "pyodide").mkdir(parents=True)
    shutil.copy(ROOT / judge.INSTALL / "package-lock.json", target / "package-lock.json")
    for name in judge.RUNTIME_FILES:
        shutil.copy(package / name, target / "node_modules" / "pyodide" / name)
    return package


@pytest.mark.parametrize("generator", ["zensical", "mkdocs"])
def test_the_served_site_has_the_rules_judge_and_an_edit_is_rendered_again(
    tmp_path: Path, generator: str
) -> None:
    """Try it works under ``make serve``: each generator's server answers the runtime the built site
    has (the WebAssembly with its type, which browsers require), and an edited rule file reaches its
    page (Zensical, the default, rebuilds only that page) while the runtime stays served."""
    _copy(tmp_path)
    package = _with_runtime(tmp_path)
    address = f"127.0.0.1:{_free_port()}"
    url = f"http://{address}/core/melee/"
    server = subprocess.Popen(
        [sys.executable, "-m", "rulespy.render.serve", generator, address],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while "Melee" not in _page(url):  # until served; a server that never serves: the hang guard
            assert server.poll() is None, "the server stopped before it served the site"
            time.sleep(0.3)
        base = f"http://{address}/judge/"
        if package is None:  # no npm here: the pages are served without the runtime
            with pytest.raises(urllib.error.HTTPError, match="404"):
                _file(base + "pyodide/pyodide.js")
        else:
            assert _file(base + "pyodide/pyodide.js")[1] == (package / "pyodide.js").read_bytes()
            assert _file(base + "pyodide/pyodide.asm.wasm")[0] == "application/wasm"
            assert _file(base + judge.BUNDLE) == ("application/zip", judge.bundle())
        if generator != "zensical":
            return
        page = tmp_path / "core" / "melee.md"
        page.write_text(page.read_text(encoding="utf-8") + "\nA line written while serving.\n")
        while "A line written while serving." not in _page(url):  # never reached: the hang guard
            assert server.poll() is None, "the server stopped before the edit reached the page"
            time.sleep(0.2)
        if package is not None:
            assert _file(base + judge.BUNDLE)[1] == judge.bundle()  # the render left the runtime in place
    finally:
        server.terminate()
        server.wait(timeout=20)


def test_without_npm_serve_says_try_it_is_unavailable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No npm: the pages are served all the same (``main`` goes on to start the server) and the reader
    is told why Try it does not work there."""
    monkeypatch.setattr(judge.shutil, "which", lambda name: None)
    assert serve.publish_judge(tmp_path) is False
    err = capsys.readouterr().err
    assert err.startswith("Try it is unavailable in this preview: ") and "npm is not installed" in err
    assert not (tmp_path / "build" / "pages" / "judge").exists()


def test_a_changed_rulespy_is_bundled_again(tmp_path: Path) -> None:
    """rulespy.zip in the served pages follows rulespy's sources: a stale bundle is written again, an
    up-to-date one left alone."""
    bundle = tmp_path / "build" / "pages" / judge.SITE_FOLDER / judge.BUNDLE
    bundle.parent.mkdir(parents=True)
    bundle.write_bytes(b"a bundle of an older rulespy")
    assert serve.rebundle(tmp_path) is True
    assert bundle.read_bytes() == judge.bundle()
    assert serve.rebundle(tmp_path) is False
    assert set(judge.bundled_sources()) >= {"rulespy/render/web.py", "yaml/__init__.py"}
    assert str(judge.bundled_sources()["rulespy/render/web.py"]) in serve.engine_state()


def test_the_front_server_answers_a_bad_request_and_serves_only_the_site(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """Zensical's front server (``serve._Front``): an address HTTP cannot carry on (a control or non-ASCII
    character) is answered 400, a reader hanging up is no error, both without a traceback; a connection
    that sends nothing is closed; only the runtime's own paths are read from the pages, any other path
    (``..`` included) is Zensical's to answer."""
    import http.server
    import threading

    class Upstream(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = f"zensical: {self.path}".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    pages = tmp_path / "pages"
    (pages / judge.SITE_FOLDER).mkdir(parents=True)
    (pages / judge.SITE_FOLDER / judge.BUNDLE).write_bytes(b"the bundle")
    (tmp_path / "secret").write_text("not the site")
    monkeypatch.setattr(serve._FrontHandler, "timeout", 1)
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    front = serve._Front(("127.0.0.1", 0), upstream.server_address[:2], pages)  # type: ignore[arg-type]
    for server in (upstream, front):
        threading.Thread(target=server.serve_forever, daemon=True).start()

    own = f"127.0.0.1:{front.server_address[1]}".encode()

    def ask(raw: bytes, host: bytes = own) -> bytes:
        with socket.create_connection(front.server_address[:2], timeout=10) as connection:  # type: ignore[arg-type]
            connection.sendall(raw + b" HTTP/1.1\r\nHost: " + host + b"\r\nConnection: close\r\n\r\n")
            return b"".join(iter(lambda: connection.recv(65536), b""))

    try:
        # only its own address: a rebound domain, another port, no Host at all are refused (421)
        port = str(front.server_address[1]).encode()
        assert ask(b"GET /core/melee/", b"localhost:" + port).endswith(b"zensical: /core/melee/")
        for host in (b"evil.example:" + port, b"127.0.0.1:1", b"localhost", b""):
            assert ask(b"GET /core/melee/", host).startswith(b"HTTP/1.1 421 "), host
        assert ask(b"GET /judge/" + judge.BUNDLE.encode()).endswith(b"\r\n\r\nthe bundle")
        assert ask(b"GET /core/melee/").endswith(b"zensical: /core/melee/")
        assert ask(b"GET /judge/../secret").endswith(b"zensical: /judge/../secret")
        for path in (b"/caf\xc3\xa9", b"/a\x01b"):
            assert ask(b"GET " + path).startswith(b"HTTP/1.1 400 "), path
        with socket.create_connection(front.server_address[:2], timeout=10) as connection:  # type: ignore[arg-type]
            connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and then nothing
            connection.settimeout(None)  # kept waiting forever instead: the hang guard stops the test
            assert connection.recv(65536) == b""  # closed by the front server (after its 1 s timeout)
        with socket.create_connection(front.server_address[:2], timeout=10) as connection:  # type: ignore[arg-type]
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
            request = b"GET /judge/" + judge.BUNDLE.encode() + b" HTTP/1.1\r\nHost: " + own + b"\r\n\r\n"
            connection.sendall(request)
            time.sleep(0.2)  # a reset while the front server waits for the next request
        time.sleep(0.3)
    finally:
        for server in (front, upstream):
            server.shutdown()
            server.server_close()
    assert "Traceback" not in capfd.readouterr().err


def test_an_unknown_generator_is_refused_before_anything_is_rendered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``make serve SERVE_GENERATOR=Zensical`` (a typo) says which generators there are, exit 2, instead
    of serving with mkdocs."""
    monkeypatch.chdir(tmp_path)
    assert serve.main(["Zensical"]) == 2
    assert capsys.readouterr().err == "rulespy serve: no generator 'Zensical': mkdocs or zensical\n"
    assert not (tmp_path / "build").exists()
