"""``rulespy check`` output formats, exit statuses, and a cache that never goes stale."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulespy.check.runner import CheckOptions, check_tree
from rulespy.cli import main

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULESPY_CACHE_DIR", str(tmp_path / "cache"))


def test_text_output_is_path_line_column_code_message_and_a_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(FIXTURES / "RS001")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("index.md:5:3: RS001 link core/missing.md")
    assert lines[-1] == "rulespy check: 1 finding in 2 files checked"


def test_clean_repository_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(FIXTURES / "clean"), "--no-cache"]) == 0
    assert capsys.readouterr().out == "rulespy check: 0 findings in 2 files checked\n"


def test_github_format_prints_workflow_annotations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(FIXTURES / "RS003"), "--format", "github"]) == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(
        "::error file=index.md,line=5,col=5,title=RS003::RS003 link core/cover.md#heavy-cover"
    )


def test_json_format(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(FIXTURES / "RS020"), "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["total"] == 1
    assert document["findings"][0] | {"message": ""} == {
        "path": "core/lonely.md",
        "line": 1,
        "column": 1,
        "code": "RS020",
        "name": "orphan-page",
        "severity": "error",  # RS074 (a stale translation) is the one "warning"
        "message": "",
    }


def test_bad_config_exits_2_with_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "clean", repo)
    (repo / "concepts.yml").write_text("owners:\n  core/cover.md:\n    - {concept: Cover, anchor: [oops\n")
    assert main(["check", str(repo)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("rulespy check: concepts.yml:4: not valid YAML")
    assert "Traceback" not in captured.err


def test_the_cache_sees_an_edit_and_no_cache_agrees(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "clean", repo)
    options = CheckOptions(cache_dir=tmp_path / "c")
    assert check_tree(repo, options) == []
    assert check_tree(repo, options) == []  # warm
    page = repo / "core" / "cover.md"
    page.write_text(page.read_text().replace("{#light-cover}", "{#lighter-cover}"))
    warm = check_tree(repo, options)
    assert [(f.path, f.code) for f in warm] == [("index.md", "RS003")]
    assert warm == check_tree(repo, CheckOptions(use_cache=False))
    page.write_text(page.read_text().replace("{#lighter-cover}", "{#light-cover}"))
    assert check_tree(repo, options) == []


def test_a_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    options = CheckOptions(cache_dir=tmp_path / "c")
    check_tree(FIXTURES / "RS001", options)
    for cache_file in (tmp_path / "c").iterdir():
        cache_file.write_bytes(b"\x80\x05not a pickle")
    assert [f.code for f in check_tree(FIXTURES / "RS001", options)] == ["RS001"]


def test_the_remembered_result_goes_stale_when_any_file_appears_or_disappears(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(FIXTURES / "clean", repo)
    (repo / "map.png").write_bytes(b"\x89PNG")
    (repo / "index.md").write_text((repo / "index.md").read_text() + "\n![map](map.png)\n")
    options = CheckOptions(cache_dir=tmp_path / "c")
    assert check_tree(repo, options) == check_tree(repo, options) == []
    (repo / "map.png").unlink()
    assert [(f.path, f.code) for f in check_tree(repo, options)] == [("index.md", "RS001")]
