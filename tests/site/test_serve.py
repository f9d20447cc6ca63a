"""``make serve``: an edit to a rule file reaches the served page without a restart (render/serve.py)."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COPIED = ("index.md", "concepts.yml", "mkdocs.yml", "core", "sequences", "timing", "commands", "examples")
pytestmark = pytest.mark.timeout(180)


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


def test_an_edited_rule_file_is_rendered_again_and_served(tmp_path: Path) -> None:
    for name in COPIED:
        source = ROOT / name
        (shutil.copytree if source.is_dir() else shutil.copy)(source, tmp_path / name)
    address = f"127.0.0.1:{_free_port()}"
    url = f"http://{address}/core/melee/"
    server = subprocess.Popen(
        [sys.executable, "-m", "rulespy.render.serve", "zensical", address],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 90
        while "Melee" not in _page(url):
            assert time.monotonic() < deadline and server.poll() is None, "the site was never served"
            time.sleep(0.3)
        page = tmp_path / "core" / "melee.md"
        page.write_text(page.read_text(encoding="utf-8") + "\nA line written while serving.\n")
        deadline = time.monotonic() + 30
        while "A line written while serving." not in _page(url):
            assert time.monotonic() < deadline, "the edit never reached the served page"
            time.sleep(0.2)
    finally:
        server.terminate()
        server.wait(timeout=20)
