"""The incremental state is saved as small changes appended to a journal (issue 15, item 4): a run that
changes one file writes that file's entries, not the state of every file, and a change made on an older
state (two checks at once) is never applied to a newer one."""

from __future__ import annotations

from pathlib import Path

from rulespy.check.cache import DocumentCache
from rulespy.check.runner import CheckOptions, run_check

from .helpers import write

COLD = CheckOptions(use_cache=False)


def _cache(tmp_path: Path, directory: Path) -> DocumentCache:
    return DocumentCache(tmp_path / "repo", "salt", directory=directory)  # never inside the repository


def _saved(tmp_path: Path) -> Path:
    """The state file of a first run, which saved ``v0`` whole (there was nothing to append to)."""
    target = tmp_path / "cache" / "x.state.pickle"
    first = _cache(tmp_path, tmp_path / "cache")
    first.load_journaled(target, "state")
    first.save_journaled(target, "state", ("v0", "x" * 4000), "ignored: nothing to append to yet")
    return target


def _kept(tmp_path: Path, target: Path, value: str, change: str) -> bool:
    """Whether the next run reads back what the last ``save_journaled(value, change)`` saved."""
    stored, changes = _cache(tmp_path, tmp_path / "cache").load_journaled(target, "state")
    return changes[-1:] == [change] or (stored is not None and stored[0] == value and changes == [])


def test_state_journal_a_change_is_appended_and_read_back(tmp_path: Path) -> None:
    target = _saved(tmp_path)
    loaded = _cache(tmp_path, tmp_path / "cache")
    assert loaded.load_journaled(target, "state") == (("v0", "x" * 4000), [])
    loaded.save_journaled(target, "state", ("v1", "x" * 4000), "c1")
    assert _cache(tmp_path, tmp_path / "cache").load_journaled(target, "state") == (
        ("v0", "x" * 4000),
        ["c1"],
    )


def test_state_journal_a_change_made_on_an_older_state_is_never_applied_nor_appended_behind(
    tmp_path: Path,
) -> None:
    target = _saved(tmp_path)
    one, two = _cache(tmp_path, tmp_path / "cache"), _cache(tmp_path, tmp_path / "cache")
    one.load_journaled(target, "state")
    two.load_journaled(target, "state")  # both read the same state, as two checks at once would
    one.save_journaled(target, "state", ("v1", "x" * 4000), "from one")
    two.save_journaled(target, "state", ("v2", "x" * 4000), "from two")
    three = _cache(tmp_path, tmp_path / "cache")
    assert three.load_journaled(target, "state")[1] == ["from one"]
    # the change that lost the race stays in the journal: the next check's own change must not be
    # appended behind it, where no later run would ever apply it
    three.save_journaled(target, "state", ("v3", "x" * 4000), "from three")
    assert _kept(tmp_path, target, "v3", "from three")


def test_state_journal_one_file_changed_appends_and_stays_exact(tmp_path: Path) -> None:
    names = [f"core/rule_{i:02d}.md" for i in range(40)]
    files = {
        name: f"# Rule {i} {{#r{i}}}\n\n[next]({names[(i + 1) % 40].split('/')[1]}#r{(i + 1) % 40})\n"
        for i, name in enumerate(names)
    }
    root = write(tmp_path / "repo", {"index.md": "# Home\n\n[first](core/rule_00.md)\n", **files})
    options = CheckOptions(cache_dir=tmp_path / "cache")
    assert run_check(root, options) == run_check(root, COLD)
    [state] = (tmp_path / "cache").glob("*.state.pickle")
    before = state.stat()
    for i in (3, 7, 3):
        page = root / names[i]
        page.write_text(page.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
        assert run_check(root, options) == run_check(root, COLD)
    assert (state.stat().st_ino, state.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert state.with_name(state.name.replace(".pickle", ".changes.pickle")).stat().st_size > 0
    renamed = "# Renamed {#other}\n\n[next](rule_06.md#r6)\n"  # rule 4's link to #r5 breaks
    (root / names[5]).write_text(renamed, encoding="utf-8")
    assert [f.code for f in run_check(root, options).findings] == ["RS003"]
    assert run_check(root, options) == run_check(root, COLD)


def test_state_journal_a_save_after_a_torn_append_is_kept(tmp_path: Path) -> None:
    target = _saved(tmp_path)
    journal = target.with_name("x.state.changes.pickle")
    with journal.open("ab") as handle:
        handle.write(b"\x00\x01 a record cut short by a killed check")
    after = _cache(tmp_path, tmp_path / "cache")
    assert after.load_journaled(target, "state") == (("v0", "x" * 4000), [])
    after.save_journaled(target, "state", ("v1", "x" * 4000), "c1")
    assert _kept(tmp_path, target, "v1", "c1")
