"""Hostile repositories (issue 7): findings or a clean error, never a crash or a hang, never a write."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from rulespy.check.findings import CheckError, Finding
from rulespy.check.runner import CheckOptions, check_tree
from rulespy.cli import main

from .helpers import write

HOME = "# Home\n\n[cover](core/cover.md)\n"
COVER = "# Cover {#cover}\n\n## Light cover {#light-cover}\n"


def _repo(root: Path, extra: dict[str, str | bytes] | None = None) -> Path:
    return write(root, {"index.md": HOME, "core/cover.md": COVER, **(extra or {})})


def _check(root: Path, tmp_path: Path) -> list[Finding]:
    """``check_tree`` on a hostile tree. A hang (a followed symlink loop, a parse of the 10 MB file) is
    stopped by pytest-timeout, the suite's hang guard; what is asserted is the findings, never seconds."""
    return check_tree(root, CheckOptions(cache_dir=tmp_path / "cache"))


def _codes(findings: list[Finding]) -> set[tuple[str, str]]:
    return {(f.path, f.code) for f in findings}


def test_symlink_loops_are_not_followed(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo")
    (root / "core" / "loop").symlink_to(root / "core")
    (root / "a").symlink_to(root / "b")
    (root / "b").symlink_to(root / "a")
    (root / "index.md").write_text(HOME + "\n[loop](a/x.md) and [dir loop](core/loop/loop/cover.md)\n")
    findings = _check(root, tmp_path)
    assert ("index.md", "RS001") in _codes(findings)


def test_binary_and_non_utf8_files_are_findings(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", {"core/blob.md": bytes(range(256)) * 4, "image.png": b"\x89PNG\x00\xff"})
    (root / "index.md").write_text(HOME + "\n[blob](core/blob.md) ![img](image.png)\n")
    assert _codes(_check(root, tmp_path)) == {("core/blob.md", "RS040")}


def test_a_ten_megabyte_markdown_file_is_reported_not_parsed(tmp_path: Path) -> None:
    big = "# Big {#big}\n\n" + ("A paragraph of rules text with a [link](cover.md). " * 20 + "\n\n") * 10_000
    root = _repo(tmp_path / "repo", {"core/big.md": big})
    (root / "index.md").write_text(HOME + "\n[big](core/big.md)\n")
    assert len(big) > 10_000_000
    assert _codes(_check(root, tmp_path)) == {("core/big.md", "RS042")}


def test_very_deep_folders(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo")
    deep = root
    for _ in range(300):
        deep = deep / "d"
    deep.mkdir(parents=True)
    (deep / "page.md").write_text("# Deep\n\n[up](/core/cover.md) [nowhere](missing.md)\n")
    findings = _check(root, tmp_path)
    assert {f.code for f in findings if f.path.endswith("page.md")} == {"RS001", "RS020"}


def test_absolute_escaping_encoded_and_case_mismatched_links(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", {"core/my file.md": "# Mine {#mine}\n"})
    (root / "index.md").write_text(
        HOME
        + "\n[abs](/core/cover.md#cover) [enc](core/my%20file.md#mine)\n"
        + "\n[esc](../../../etc/passwd)\n"
        + "\n[case](Core/Cover.md)\n"
        + "\n[abs-esc](/../outside.md)\n"
    )
    by_line = {(f.line, f.code) for f in _check(root, tmp_path) if f.path == "index.md"}
    assert by_line == {(7, "RS002"), (9, "RS001"), (11, "RS002")}


def test_empty_files_and_front_matter_that_is_not_yaml(tmp_path: Path) -> None:
    root = _repo(
        tmp_path / "repo",
        {"core/empty.md": "", "core/fm.md": "---\n: : [\n---\n# FM {#fm}\n", "concepts.yml": ""},
    )
    (root / "index.md").write_text(HOME + "\n[e](core/empty.md) [f](core/fm.md)\n")
    assert _codes(_check(root, tmp_path)) == {("core/fm.md", "RS041")}


@pytest.mark.parametrize(
    "name, text",
    [
        ("concepts.yml", "owners: [unclosed\n"),
        ("concepts.yml", "owners:\n  core/cover.md:\n    - {concept: Cover}\n"),
        ("concepts.yml", "owners: !!python/object/apply:os.system [echo pwned]\n"),
        ("mkdocs.yml", "nav:\n  - a: [b\n"),
    ],
)
def test_bad_configuration_is_a_clean_error_with_its_line(tmp_path: Path, name: str, text: str) -> None:
    root = _repo(tmp_path / "repo", {name: text})
    with pytest.raises(CheckError) as caught:
        _check(root, tmp_path)
    assert caught.value.path == name and caught.value.line


def test_bad_path_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "nope")]) == 2
    assert "no such folder" in capsys.readouterr().err


def _snapshot(root: Path) -> dict[str, tuple[bytes | str, int]]:
    state: dict[str, tuple[bytes | str, int]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            info = path.lstat()
            content: bytes | str = (
                os.readlink(path) if path.is_symlink() else b"" if path.is_dir() else path.read_bytes()
            )
            state[str(path.relative_to(root))] = (content, info.st_mtime_ns)
    return state


@pytest.mark.parametrize("use_cache", [True, False])
def test_check_changes_nothing_inside_the_repository(tmp_path: Path, use_cache: bool) -> None:
    root = _repo(tmp_path / "repo", {"core/bad.md": b"\xff\xfe", "concepts.yml": "owners: {}\n"})
    (root / "loop").symlink_to(root)
    before = _snapshot(root)
    run: Callable[[], list[Finding]] = lambda: check_tree(  # noqa: E731
        root, CheckOptions(use_cache=use_cache, cache_dir=tmp_path / "cache")
    )
    run()
    run()
    assert _snapshot(root) == before


def test_cache_dir_inside_the_repository_is_refused(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo")
    before = _snapshot(root)
    check_tree(root, CheckOptions(cache_dir=root / ".cache"))
    assert _snapshot(root) == before
