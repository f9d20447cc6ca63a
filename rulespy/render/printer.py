"""Headless Chromium printing one document of a loopback server, and nothing else, to PDF.

The rulebook's HTML (``rulespy.render.pdf``) is made from staged pages, and a page may carry markup
that slipped past ``rulespy check`` (an ``<iframe>``, ``<object>`` or ``<img>`` with a ``file:``
address, a relative path that climbs out of the staged site, a ``<script>``, a network address). So the
printer never opens a ``file://`` document and never lets the page reach anything but its own server:

- the document is served over HTTP on 127.0.0.1 (any free port) by a server that answers only ``GET``
  and ``HEAD`` of the document itself and of regular files inside the staged folder (a path that
  resolves outside it, through ``..``, an encoded ``..`` or a symlink, is a 404, and so is a folder);
  a page served over HTTP may not load ``file:`` addresses at all (Chromium's own rule);
- Chromium is driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``: no debugging
  port another program could reach), with ``Fetch.enable`` intercepting every request: a request for
  any address but the server's own origin is refused (a document with "204 No Content", which leaves
  its frame empty, anything else failed) and recorded in ``Printer.refused``, and so is any navigation
  of the page away from the rulebook;
- scripts never run (``Emulation.setScriptExecutionDisabled``), so a ``<script>`` cannot replace the
  document or navigate it elsewhere; and ``--host-resolver-rules`` makes every host name unresolvable,
  and ``--proxy-server`` sends every connection but to loopback to a proxy that is not there: two more
  walls, should the interception ever miss a request (a ``<link rel="preconnect">`` is no request).

``Page.printToPDF`` then prints with the document's own ``@page`` size and margin boxes (page numbers),
with backgrounds and the document outline. A ``Printer`` prints as many versions of the document as it
is given (the rulebook is printed again with its page numbers filled in) from one browser, and as many
documents: ``serve`` points its server at another folder (each language's rulebook is served from its
own staged pages).
"""

from __future__ import annotations

import base64
import contextlib
import http.server
import json
import os
import select
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlsplit

from rulespy.errors import BookError

DOCUMENT = "/voidsiege-rules.html"
"""The address, on the loopback server, of the document printed."""
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-extensions",
    "--disable-sync",
    "--disable-default-apps",
    "--mute-audio",
    # no host name nor address resolves but the server's own 127.0.0.1 ...
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    # ... and every connection but to loopback (which Chromium never proxies) goes to a proxy that is
    # not there (port 9, discard): not even a preconnect reaches the network
    "--proxy-server=http://127.0.0.1:9",
)


class PrintError(BookError):
    """Chromium could not print the document; the message says why."""


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, folder: Path) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.folder = folder.resolve()
        self.document = b""

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a connection the page dropped halfway: nothing to report, and no traceback


class _Handler(http.server.BaseHTTPRequestHandler):
    """The document at ``DOCUMENT``; regular files inside the served folder; a 404 for anything else."""

    server: _Server

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        self._answer(with_body=True)

    def do_HEAD(self) -> None:  # noqa: N802 - http.server's name
        self._answer(with_body=False)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - http.server's name
        pass

    def _answer(self, with_body: bool) -> None:
        try:
            path = unquote(urlsplit(self.path).path, errors="strict")
        except (ValueError, UnicodeDecodeError):
            path = ""  # not an address of the site: a 404
        body, kind = (self.server.document, "text/html; charset=utf-8") if path == DOCUMENT else (None, "")
        if body is None:
            body, kind = _inside(self.server.folder, path)
        status = 200 if body is not None else 404
        body = body if body is not None else b""  # a 404 says nothing a page could print
        self.send_response(status)
        self.send_header("Content-Type", kind or "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if with_body:
            self.wfile.write(body)


def _inside(folder: Path, path: str) -> tuple[bytes | None, str]:
    """The bytes and type of the regular file ``path`` names inside ``folder``, or ``(None, "")``."""
    import mimetypes

    if "\x00" in path or not path.startswith("/"):
        return None, ""
    try:
        target = (folder / path.lstrip("/")).resolve()
    except (OSError, ValueError):
        return None, ""
    if not target.is_relative_to(folder) or not target.is_file():
        return None, ""
    try:
        data = target.read_bytes()
    except OSError:
        return None, ""
    return data, mimetypes.guess_type(target.name)[0] or "application/octet-stream"


class Printer:
    """One headless Chromium and one loopback server of ``folder``, as a context manager."""

    def __init__(self, chromium: Path, folder: Path, seconds: float) -> None:
        self.chromium, self.folder, self.seconds = chromium, folder, seconds
        self.refused: list[str] = []
        self._next = 0
        self._buffer = b""
        self._loaded = False
        self._session: str | None = None
        self._frame = ""

    def __enter__(self) -> Printer:
        self._work = tempfile.TemporaryDirectory(prefix="vs-printer-")
        self.server = _Server(self.folder)  # bound now, served from a thread started after the launch
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        to_browser, self._out = os.pipe()  # Chromium reads commands on its fd 3 ...
        self._in, from_browser = os.pipe()  # ... and writes answers and events on its fd 4

        def pipes() -> None:  # in the child, before exec: no thread of ours runs yet
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        command = [
            str(self.chromium),
            *CHROMIUM_FLAGS,
            "--remote-debugging-pipe",
            f"--user-data-dir={Path(self._work.name) / 'profile'}",
            "about:blank",
        ]
        try:
            self.process = subprocess.Popen(  # noqa: S603 - a fixed command line
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(3, 4),
                start_new_session=True,  # its own process group, stopped whole at the end
                preexec_fn=pipes,  # noqa: PLW1509 - before any thread is started
            )
        except OSError as error:
            self._close_pipes(to_browser, from_browser)
            self.server.server_close()
            self._work.cleanup()
            raise PrintError(f"Chromium could not be started: {error}") from None
        os.close(to_browser)
        os.close(from_browser)
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()
        self._deadline = time.monotonic() + self.seconds
        try:
            target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
            self._frame = target  # a page target's id is its main frame's
            self._session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})[
                "sessionId"
            ]
            self._call("Fetch.enable", {"patterns": [{"urlPattern": "*"}]}, self._session)
            self._call("Emulation.setScriptExecutionDisabled", {"value": True}, self._session)
            self._call("Page.enable", {}, self._session)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        try:  # Chromium closes its own processes (renderers, zygote) when asked to
            self._send({"id": self._next + 1, "method": "Browser.close", "params": {}})
            self.process.wait(timeout=10)
        except (PrintError, subprocess.TimeoutExpired):
            pass
        with contextlib.suppress(ProcessLookupError):  # and the rest of its process group is stopped
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self._close_pipes(self._in, self._out)
        self.server.shutdown()
        self.server.server_close()
        self._work.cleanup()

    @staticmethod
    def _close_pipes(*fds: int) -> None:
        for fd in fds:
            try:
                os.close(fd)
            except OSError:
                pass

    def serve(self, folder: Path) -> None:
        """Serve ``folder`` instead from now on (the next book's staged pages; every answer of the server
        says ``no-store``, so nothing of the last folder is taken from Chromium's cache)."""
        self.folder = folder
        self.server.folder = folder.resolve()

    def print(self, html: str) -> bytes:
        """The PDF of ``html`` served as ``DOCUMENT`` (its ``@page`` rules decide size and margins)."""
        self.server.document = html.encode("utf-8")
        self._loaded = False
        self._deadline = time.monotonic() + self.seconds
        went = self._call("Page.navigate", {"url": self.origin + DOCUMENT}, self._session)
        if went.get("errorText"):
            raise PrintError(f"Chromium could not open the rulebook: {went['errorText']}")
        while not self._loaded:
            self._receive()
        frame = self._call("Page.getFrameTree", {}, self._session)["frameTree"]["frame"]
        if frame.get("url") != self.origin + DOCUMENT:
            raise PrintError(f"the rulebook was replaced by {frame.get('url')!r} before it was printed")
        options = {
            "printBackground": True,
            "preferCSSPageSize": True,
            "displayHeaderFooter": False,
            "generateDocumentOutline": True,
            "generateTaggedPDF": True,
        }
        return base64.b64decode(self._call("Page.printToPDF", options, self._session)["data"])

    # The DevTools protocol on a pipe: JSON messages, each ended by a NUL byte.

    def _call(self, method: str, params: dict[str, Any], session: str | None = None) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        self._send(message)
        while True:
            answer = self._receive()
            if answer.get("id") == message["id"]:
                if "error" in answer:
                    raise PrintError(f"Chromium refused {method}: {answer['error'].get('message')}")
                result: dict[str, Any] = answer.get("result", {})
                return result

    def _send(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode("utf-8") + b"\x00"
        try:
            while data:
                data = data[os.write(self._out, data) :]
        except OSError as error:
            raise PrintError(f"Chromium stopped: {error}") from None

    def _receive(self) -> dict[str, Any]:
        """The next message, after answering any request the page makes (which may come first)."""
        while b"\x00" not in self._buffer:
            left = self._deadline - time.monotonic()
            if left <= 0:
                raise PrintError(f"Chromium did not print within {self.seconds:.0f} s")
            ready, _, _ = select.select([self._in], [], [], left)
            if ready:
                chunk = os.read(self._in, 1 << 20)
                if not chunk:
                    raise PrintError("Chromium stopped before printing")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\x00")
        message: dict[str, Any] = json.loads(line)
        method = message.get("method")
        if method == "Fetch.requestPaused":
            self._decide(message["params"])
        elif method == "Page.loadEventFired":
            self._loaded = True
        return message

    def _decide(self, paused: dict[str, Any]) -> None:
        """Let a request for the server's own origin through; refuse every other one, and record it.

        A document refused (a frame's, or the page's own navigation away from the rulebook, by a
        ``<meta http-equiv="refresh">`` say) is answered "204 No Content", which leaves the frame as it
        was, instead of an error page that would take the frame's place; other requests fail."""
        url = str(paused.get("request", {}).get("url", ""))
        parts = urlsplit(url)
        ours = f"{parts.scheme}://{parts.netloc}" == self.origin
        document = paused.get("resourceType") == "Document"
        leaving = document and paused.get("frameId") == self._frame and url != self.origin + DOCUMENT
        request = {"requestId": paused["requestId"]}
        if ours and not leaving:
            self._send_quietly("Fetch.continueRequest", request)
            return
        self.refused.append(url)
        if document:
            self._send_quietly("Fetch.fulfillRequest", {**request, "responseCode": 204, "body": ""})
        else:
            self._send_quietly("Fetch.failRequest", {**request, "errorReason": "AccessDenied"})

    def _send_quietly(self, method: str, params: dict[str, Any]) -> None:
        """A command whose answer nobody waits for (``_call`` skips answers of other ids)."""
        self._next += 1
        self._send({"id": self._next, "method": method, "params": params, "sessionId": self._session})
