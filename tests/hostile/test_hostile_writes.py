"""Nothing is lost (issue 29): ``translations stamp`` and ``rulespy render`` write each file whole, one
run at a time, and a full disk gives a message naming the file with nothing left behind."""

from __future__ import annotations

import errno
import os
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from rulespy.check import translations
from rulespy.cli import main
from rulespy.render.stage import RenderError, render

FIXTURE = Path(__file__).resolve().parents[1] / "check" / "fixtures" / "translated"
PAGE = "ru/core/damage.md"


def _unstamped(tmp_path: Path) -> Path:
    """The translated fixture with the stamps of its page removed."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    page = root / PAGE
    kept = [line for line in page.read_text(encoding="utf-8").split("\n") if "translates:" not in line]
    page.write_text("\n".join(kept), encoding="utf-8")
    return root


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every file written under ``tmp_path`` through ``os.fdopen`` fails with ENOSPC on its first write."""
    real = os.fdopen

    class Full:
        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def write(self, data: bytes) -> int:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name: str) -> Any:
            return getattr(self.handle, name)

    def fdopen(fd: int, *args: Any, **kwargs: Any) -> Any:
        handle = real(fd, *args, **kwargs)
        if os.readlink(f"/proc/self/fd/{fd}").startswith(str(tmp_path)):
            return Full(handle)
        return handle

    monkeypatch.setattr(os, "fdopen", fdopen)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to tell the test's files apart")
def test_stamp_on_a_full_disk_names_the_page_and_leaves_it_and_nothing_else(
    tmp_path: Path, full_disk: None, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _unstamped(tmp_path)
    before = _files(root)
    assert main(["translations", "stamp", PAGE, "--root", str(root)]) == 2
    err = capsys.readouterr().err
    assert f"{PAGE}:1: cannot write: No space left on device; the page is unchanged" in err
    assert "internal error" not in err
    assert _files(root) == before  # no temporary file beside the page, the page as it was


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to tell the test's files apart")
def test_render_on_a_full_disk_names_the_file_and_leaves_no_temporary_file(
    tmp_path: Path, full_disk: None
) -> None:
    root = _unstamped(tmp_path)
    with pytest.raises(RenderError, match="cannot write: No space left on device") as refused:
        render(root, unreleased=False)
    assert str(root / "build") in refused.value.problems[0]
    leftovers = [p for p in root.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []


def test_two_stamps_of_one_page_at_once_both_keep_their_stamp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _unstamped(tmp_path)
    real = translations.read_page

    def slow(*args: Any, **kwargs: Any) -> Any:  # both runs read the page before either writes it
        page = real(*args, **kwargs)
        time.sleep(0.2)
        return page

    monkeypatch.setattr(translations, "read_page", slow)
    results: list[object] = []

    def run(section: str) -> None:
        results.append(translations.stamp(root, f"{PAGE}#{section}"))

    threads = [threading.Thread(target=run, args=(s,)) for s in ("target-limit", "armour")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(map(str, results)) == ["['armour']", "['target-limit']"]
    text = (root / PAGE).read_text(encoding="utf-8")
    assert "core/damage.md#target-limit sha256:" in text and "core/damage.md#armour sha256:" in text
