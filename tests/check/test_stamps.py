"""File stamps (``rulespy/check/stamps.py``): an unchanged file is not read again, yet no edit is missed.

The never-stale walk of ``test_incremental.py`` runs with every file "racily clean" (written within
the last seconds), so it hashes every file; these tests make stamps trusted (``RACY_NS`` 0, or a clock
that stands still) and then edit files in the ways a stamp could hide.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulespy.check import runner, stamps
from rulespy.check.files import Tree
from rulespy.check.runner import CheckOptions, run_check
from tests.calls import recorded

from .helpers import agree, codes, write

FILES = {
    "index.md": "# Home\n\n[cover](core/cover.md) and [shoot](commands/shoot.md)\n",
    "core/cover.md": "# Cover {#cover}\n\n## Light Cover {#light-cover}\n\nText.\n",
    "commands/shoot.md": "# Shoot {#shoot}\n\nSee [light](../core/cover.md#light-cover).\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, CheckOptions]:
    root = write(tmp_path / "repo", FILES)
    return root, CheckOptions(cache_dir=tmp_path / "cache")


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path ``Tree.read`` opens from now on."""
    return recorded(monkeypatch, Tree, "read", lambda tree, path: path)


def test_unchanged_files_are_known_by_their_stamps(
    repo: tuple[Path, CheckOptions], reads: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, options = repo
    monkeypatch.setattr(stamps, "RACY_NS", 0)
    run_check(root, options)
    reads.clear()
    assert run_check(root, options).findings == ()
    assert reads == []  # nothing changed: no file opened
    write(root, {"commands/shoot.md": "# Shoot {#shoot}\n\nSee [light](../core/cover.md#gone).\n"})
    assert run_check(root, options).findings[0].code == "RS003"
    assert reads == ["commands/shoot.md"]


@pytest.mark.parametrize("atomic_save", [False, True], ids=["in-place", "replaced"])
def test_an_edit_that_keeps_size_and_modification_time_is_seen(
    repo: tuple[Path, CheckOptions], monkeypatch: pytest.MonkeyPatch, atomic_save: bool
) -> None:
    """Written in place, or as a new file renamed over the old one (an editor's atomic save), with the
    modification time set back as ``touch -d`` or ``cp -p`` would: the change time still differs."""
    root, options = repo
    monkeypatch.setattr(stamps, "RACY_NS", 0)
    assert codes(agree(root, options)) == []
    page = root / "core" / "cover.md"
    before = page.stat()
    written = page.with_suffix(".new") if atomic_save else page
    written.write_text(FILES["core/cover.md"].replace("light-cover", "lightxcover"))
    os.utime(written, ns=(before.st_atime_ns, before.st_mtime_ns))
    if atomic_save:
        os.replace(written, page)
    after = page.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert codes(agree(root, options)) == [("commands/shoot.md", "RS003")]


def _still_clock(monkeypatch: pytest.MonkeyPatch, now: int, stamped: int) -> None:
    """A filesystem clock that does not move: every file keeps times ``stamped``; runs start at ``now``."""
    monkeypatch.setattr(stamps.time, "time_ns", lambda: now)
    monkeypatch.setattr(stamps, "stamp_of", lambda st: (stamped, stamped, st.st_size, st.st_ino, st.st_dev))


def _edit_within_one_tick(root: Path, options: CheckOptions) -> list[tuple[str, str]]:
    run_check(root, options)
    page = root / "core" / "cover.md"
    page.write_text(FILES["core/cover.md"].replace("light-cover", "lightxcover"))
    return [(f.path, f.code) for f in run_check(root, options).findings]


@pytest.mark.parametrize("racy_rule", [True, False], ids=["racy-rule", "without-it"])
def test_a_racily_clean_edit_is_seen(
    repo: tuple[Path, CheckOptions], monkeypatch: pytest.MonkeyPatch, racy_rule: bool
) -> None:
    """Written within ``RACY_NS`` of the run's start, the stamp is not remembered and the file is hashed
    again; without that rule (``RACY_NS`` 0) the same edit hides behind its stamp: the stale answer."""
    root, options = repo
    now = 10**18
    _still_clock(monkeypatch, now, now - stamps.RACY_NS)
    if not racy_rule:
        monkeypatch.setattr(stamps, "RACY_NS", 0)
    expected = [("commands/shoot.md", "RS003")] if racy_rule else []
    assert _edit_within_one_tick(root, options) == expected


def test_a_file_changed_while_the_run_reads_it_restarts_the_run(
    repo: tuple[Path, CheckOptions], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, options = repo
    monkeypatch.setattr(stamps, "RACY_NS", 0)
    run_check(root, options)
    (root / "index.md").write_text(FILES["index.md"] + "\nOne more line.\n")  # re-checks index.md
    calls = []
    real = runner.read_checked

    def changed_once(tree: Tree, path: str, key: bytes) -> bytes:
        calls.append(path)
        if len(calls) == 1:
            raise stamps.ChangedWhileRead(path)
        return real(tree, path, key)

    monkeypatch.setattr(runner, "read_checked", changed_once)
    for stale in (root / "..").resolve().joinpath("cache").glob("*[0-9a-f].pickle"):
        stale.unlink()  # the parsed documents: unchanged files must now be read again
    assert codes(agree(root, options)) == []
    assert calls, "the run should have read a file known only by its stamp"


def test_a_recheck_with_nothing_changed_imports_no_parser(repo: tuple[Path, CheckOptions]) -> None:
    """The start-up cost of ``rulespy check``: with nothing changed it walks, stats and answers from the
    cache without importing markdown-it-py, Python-Markdown, YAML or the checks."""
    import subprocess
    import sys

    root, options = repo
    run_check(root, options)
    heavy = ("markdown_it", "markdown", "yaml", "rulespy.check.parse", "rulespy.check.incremental")
    script = (
        "import sys; from rulespy.cli import main; code = main(['check', sys.argv[1]]);"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {heavy[:3]!r} or m in {heavy[3:]!r}))"
    )
    env = {**os.environ, "RULESPY_CACHE_DIR": str(options.cache_dir)}
    done = subprocess.run([sys.executable, "-c", script, str(root)], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
    (root / "index.md").write_text(FILES["index.md"] + "\nChanged.\n")  # now it must parse
    done = subprocess.run([sys.executable, "-c", script, str(root)], capture_output=True, text=True, env=env)
    assert "'markdown_it'" in done.stdout.splitlines()[-1]
