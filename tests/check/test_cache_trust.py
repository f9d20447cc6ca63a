"""Issue 13 item 5: a cache that cannot lie. Answers cached by another checker, or bytes changed in the
cache, are misses: every run answers what ``--no-cache`` answers."""

from __future__ import annotations

import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import rulespy
from rulespy.check import cache as cache_module
from rulespy.check.runner import CheckOptions, check_tree

from .helpers import write

ROOT = Path(rulespy.__file__).resolve().parent
FILES = {
    "index.md": "# Home\n\n[cover](core/cover.md) [gone](core/gone.md) [x](core/cover.md#nope)\n",
    "core/cover.md": "# Cover {#cover}\n\n## Light cover {#light-cover}\n",
    "concepts.yml": "owners:\n  core/cover.md:\n    - {concept: Cover, anchor: cover}\n",
}


def _repo(tmp_path: Path) -> tuple[Path, CheckOptions]:
    return write(tmp_path / "repo", FILES), CheckOptions(cache_dir=tmp_path / "cache")


def _cold(root: Path) -> list[str]:
    return [str(f) for f in check_tree(root, CheckOptions(use_cache=False))]


def test_a_cache_written_by_a_patched_checker_is_ignored(tmp_path: Path) -> None:
    """Another checker (here: this one with a changed message) fills the cache; this one never reads it."""
    root, options = _repo(tmp_path)
    patched = tmp_path / "patched"
    shutil.copytree(ROOT, patched / "rulespy", ignore=shutil.ignore_patterns("__pycache__"))
    links = patched / "rulespy" / "check" / "checks_links.py"
    links.write_text(links.read_text(encoding="utf-8").replace("does not exist", "PATCHED"), encoding="utf-8")
    script = (
        "import sys; sys.path.insert(0, sys.argv[1]); from pathlib import Path\n"
        "from rulespy.check.runner import CheckOptions, check_tree\n"
        "print(*check_tree(Path(sys.argv[2]), CheckOptions(cache_dir=Path(sys.argv[3]))), sep='\\n')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(patched), str(root), str(options.cache_dir)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "PATCHED" in done.stdout  # the patched checker really answered differently, and cached it
    assert [str(f) for f in check_tree(root, options)] == _cold(root)


def test_the_code_key_follows_the_sources_and_the_parser_versions() -> None:
    key = cache_module.code_key()
    assert key == cache_module.code_key() and len(key) == 24
    assert "VERSION" not in vars(cache_module)  # no hand-bumped version string any more


@pytest.mark.parametrize(
    ("suffix", "text", "drop"),
    [
        (".result.pickle", b"index.md", ()),
        (".state.pickle", b"index.md", (".result.pickle",)),
        (".pickle", b"core/gone.md", (".result.pickle", ".state.pickle")),
        (".config.pickle", b"core/cover.md", (".result.pickle", ".state.pickle")),
    ],
)
def test_a_flipped_bit_in_any_cache_file_is_a_miss(
    tmp_path: Path, suffix: str, text: bytes, drop: tuple[str, ...]
) -> None:
    """The issue's reproduction: one flipped bit turned index.md into iBdex.md in every later report.
    ``drop`` removes the cache files that would answer before the one with the flipped bit is read."""
    root, options = _repo(tmp_path)
    expected = _cold(root)
    assert [str(f) for f in check_tree(root, options)] == expected
    files = {p.name.partition(".")[2]: p for p in options.cache_dir.iterdir()}
    data = files[suffix[1:]].read_bytes()
    at = data.index(text)
    files[suffix[1:]].write_bytes(data[:at] + bytes([data[at] ^ 0x20]) + data[at + 1 :])
    for name in drop:
        files[name[1:]].unlink()
    assert [str(f) for f in check_tree(root, options)] == expected


def test_a_flipped_byte_in_the_journal_is_a_miss(tmp_path: Path) -> None:
    root, options = _repo(tmp_path)
    check_tree(root, options)
    write(root, {"core/extra.md": "# Extra {#extra}\n\n[home](../index.md)\n"})
    check_tree(root, options)  # the new document goes to the journal
    [journal] = list(options.cache_dir.glob("*.journal.pickle"))
    data = journal.read_bytes()
    at = data.rfind(b"extra")
    journal.write_bytes(data[:at] + b"eXtra" + data[at + 5 :])
    for blob in options.cache_dir.glob("*.result.pickle"):
        blob.unlink()
    for blob in options.cache_dir.glob("*.state.pickle"):
        blob.unlink()
    assert [str(f) for f in check_tree(root, options)] == _cold(root)


def test_cache_files_are_private_and_a_failed_write_leaves_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, options = _repo(tmp_path)
    check_tree(root, options)
    write(root, {"core/extra.md": "# Extra {#extra}\n"})
    check_tree(root, options)
    for path in options.cache_dir.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    failing = tmp_path / "failing"

    def refuse(*_: object, **__: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cache_module.os, "replace", refuse)
    check_tree(root, CheckOptions(cache_dir=failing))
    assert not [p.name for p in failing.iterdir() if p.name.endswith(".tmp")]
