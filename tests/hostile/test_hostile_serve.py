"""``make serve``'s front server against a hostile page or client (issue 29): it answers only its own
Host (no DNS rebinding), ends a live-reload tunnel that stays quiet past its idle limit, and keeps at
most ``MAX_TUNNELS`` open."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulespy.render import serve

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def front(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[serve._Front]:
    """A front server before an upstream that accepts every connection and never says anything."""
    monkeypatch.setattr(serve, "TUNNEL_IDLE_SECONDS", 1)
    monkeypatch.setattr(serve, "MAX_TUNNELS", 2)
    listener = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    server = serve._Front(("127.0.0.1", 0), listener.getsockname()[:2], tmp_path)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()
    listener.close()
    for connection in held:
        connection.close()


def _upgrade(front: serve._Front, host: str | None = None) -> socket.socket:
    connection = socket.create_connection(front.server_address[:2], timeout=10)  # type: ignore[arg-type]
    host = host or f"127.0.0.1:{front.server_address[1]}"
    request = f"GET /livereload HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
    connection.sendall(request.encode())
    return connection


def test_a_tunnel_quiet_past_the_idle_limit_is_ended(front: serve._Front) -> None:
    with _upgrade(front) as connection:
        connection.settimeout(30)  # only a guard against a hang: the front server ends it after 1 s
        assert connection.recv(65536) == b""  # ended by the front server, not kept for ever


def test_a_tunnel_past_the_limit_of_open_ones_is_refused(front: serve._Front) -> None:
    opened = [_upgrade(front), _upgrade(front)]
    time.sleep(0.3)  # both taken
    with _upgrade(front) as third:
        assert third.recv(65536).startswith(b"HTTP/1.1 503 ")
    for connection in opened:
        connection.close()


def test_a_tunnel_for_another_host_is_refused(front: serve._Front) -> None:
    with _upgrade(front, f"rebound.example:{front.server_address[1]}") as connection:
        assert connection.recv(65536).startswith(b"HTTP/1.1 421 ")


@pytest.mark.parametrize(
    ("host", "own"),
    [("127.0.0.1:{port}", True), ("localhost:{port}", True), ("LOCALHOST:{port}", True),
     ("[::1]:{port}", True), ("10.0.0.7:{port}", True), ("attacker.example:{port}", False),
     ("127.0.0.1:{other}", False), ("127.0.0.1", False), ("", False), ("localhost:{port}x", False)],
)  # fmt: skip
def test_only_its_own_address_is_its_host(front: serve._Front, host: str, own: bool) -> None:
    port = front.server_address[1]
    assert front.own_host(host.format(port=port, other=port + 1)) is own


def test_serve_refuses_an_unsafe_configuration_before_any_server_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "index.md").write_text("# Home\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nhooks: [evil.py]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert serve.main(["mkdocs", "127.0.0.1:0"]) == 2
    assert "mkdocs.yml:2:1: RS082 hooks" in capsys.readouterr().err
    assert not (tmp_path / "build").exists()  # nothing rendered, no generator started
