"""The rulebook printer reads only the staged site (issue 29, item 2), even when the checker is bypassed.

A staged page is planted with each class of markup that once printed files of the build machine into
the PDF: an ``<iframe>``, ``<object>``, ``<embed>`` and ``<img>`` with a ``file:`` address, relative
paths that climb out of the staged site (plain, percent-encoded, and through a symlink inside it), a
``<script>`` that replaces the document or navigates it to a file, a ``<meta>`` refresh away from it, and
network addresses (a host name, and another server on this machine). The book is printed by
``print_rulebook`` and read back with pypdf: none of the secrets is in it, while a picture inside the
staged site, planted beside them, is (so the test would see a leak if one happened).
"""

from __future__ import annotations

import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from pypdf import PdfReader

from rulespy.render.pdf import CHROMIUM, print_rulebook
from tests.browser import require_browser

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(300)


def _svg(text: str) -> str:
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="400" height="40"><text y="30">{text}</text></svg>'


class _Secret(http.server.BaseHTTPRequestHandler):
    """Another server on this machine (a network address the page must not reach)."""

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        body = _svg("NETWORK-SECRET").encode() if self.path.endswith(".svg") else b"NETWORK-SECRET"
        self.send_response(200)
        self.send_header("Content-Type", "image/svg+xml" if self.path.endswith(".svg") else "text/html")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - http.server's name
        pass


@pytest.fixture
def network() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Secret)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _planted(tmp_path: Path, network: str) -> Path:
    """A repository root whose one staged page carries every class of hostile markup."""
    root = tmp_path / "repo"
    pages = root / "build" / "pages"
    (pages / "assets").mkdir(parents=True)
    shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    (root / "build" / "nav.yml").write_text("nav:\n  - index.md\n", encoding="utf-8")
    (pages / "assets" / "voidsiege.css").write_text("", encoding="utf-8")
    (pages / "assets" / "inside.svg").write_text(_svg("INSIDE-CONTROL"), encoding="utf-8")
    outside = tmp_path / "beside"  # files of the build machine, outside the staged site
    outside.mkdir()
    for name, secret in (("os-release", "FILE-SECRET"), ("relative.html", "RELATIVE-SECRET")):
        (outside / name).write_text(secret, encoding="utf-8")
    (outside / "picture.svg").write_text(_svg("PICTURE-SECRET"), encoding="utf-8")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[remote] GIT-SECRET", encoding="utf-8")
    (root / "build" / "up.svg").write_text(_svg("CLIMBED-SECRET"), encoding="utf-8")
    (pages / "assets" / "link.svg").symlink_to(outside / "picture.svg")
    files = outside.as_uri()
    planted = [
        "# Planted page",
        "",
        "The rules text stays.",
        "",
        '<img src="assets/inside.svg">',
        f'<iframe src="{files}/os-release"></iframe>',
        f'<object data="{files}/relative.html"></object>',
        f'<embed src="{files}/picture.svg">',
        f'<img src="{files}/picture.svg">',
        '<iframe src="../../.git/config"></iframe>',
        '<iframe src="/..%2f..%2f.git/config"></iframe>',
        '<img src="../up.svg"><img src="/%2e%2e/up.svg">',
        '<img src="assets/link.svg"><img src="/%ff%fe.svg">',
        f'<iframe src="{network}/page"></iframe><img src="{network}/picture.svg">',
        '<img src="http://example.com/picture.svg"><iframe src="https://example.com/"></iframe>',
        '<script>document.body.innerHTML = "SCRIPT-REPLACED";</script>',
        f'<script>location.href = "{files}/os-release";</script>',
        f'<meta http-equiv="refresh" content="0; url={network}/page">',
        "",
    ]
    (pages / "index.md").write_text("\n".join(planted), encoding="utf-8")
    return root


def test_the_printer_prints_nothing_from_outside_the_staged_site(
    tmp_path: Path, network: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if not CHROMIUM.exists():
        require_browser()
    root = _planted(tmp_path, network)
    book = print_rulebook(root, tmp_path / "site")
    text = " ".join(page.extract_text() for page in PdfReader(book).pages)
    assert "The rules text stays." in text
    assert "INSIDE-CONTROL" in text  # a picture of the staged site is printed: the reader sees pictures
    leaked = [
        secret
        for secret in (
            "FILE-SECRET",
            "RELATIVE-SECRET",
            "PICTURE-SECRET",
            "GIT-SECRET",
            "CLIMBED-SECRET",
            "NETWORK-SECRET",
            "SCRIPT-REPLACED",
        )
        if secret in text
    ]
    assert not leaked
    said = capsys.readouterr().err  # what was refused is named
    assert "the printer refused what is not in the staged site" in said
    assert "http://example.com/picture.svg" in said and network in said
    assert "Traceback" not in said
