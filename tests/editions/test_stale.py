"""A stale translation never blocks an English change, and says what to do (issue 28, item 6): the
translator's ``rulespy translations stale`` lists every stale section with the English words changed since
its stamp; the pull request's job summary lists the sections the change made stale, linked; the pre-commit
hook and CI pass ``--warnings-ok``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulespy.cli import main
from rulespy.editions.stale import stale_sections
from tests.coverage.conftest import _git

REPO = Path(__file__).resolve().parents[2]

ENGLISH = """\
# Damage {#damage-page}

How many wounds a hit takes.

## Target Limit {#target-limit}

A model loses no more wounds than it has left.

## Armour {#armour}

Armour subtracts ARMOUR from the damage of each hit.
"""

RUSSIAN = """\
# Урон {#damage-page}

Сколько ран снимает попадание.

## Предел цели {#target-limit}

Модель теряет не больше ран, чем у неё осталось.

## Броня {#armour}

Броня вычитает своё значение из урона каждого попадания.
"""


def _write(root: Path, path: str, text: str) -> None:
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(text, encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """One English rule page and its stamped Russian twin, committed; then the English #armour reworded
    in a second commit (the base of the "pull request" is the first)."""
    root = tmp_path / "rules"
    root.mkdir()
    _write(root, "index.md", "# Home {#home}\n\nThe rules.\n")
    _write(root, "ru/index.md", "# Главная {#home}\n\nПравила.\n")
    _write(root, "core/damage.md", ENGLISH.replace("ARMOUR", "its value"))
    _write(root, "ru/core/damage.md", RUSSIAN)
    assert main(["translations", "stamp", "--root", str(root), "ru"]) == 0
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "first")
    _write(root, "core/damage.md", ENGLISH.replace("ARMOUR", "its whole value"))
    _git(root, "commit", "-q", "-am", "reworded")
    return root


def test_stale_lists_the_english_words_changed_since_the_stamp(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (found,) = stale_sections(repo)
    assert (found.page, found.anchor, found.line, found.english_line) == (
        "ru/core/damage.md",
        "armour",
        11,
        9,
    )
    assert found.reason == "changed" and found.found
    assert found.diff == ("Armour subtracts its **whole** value from the damage of each hit.",)
    assert main(["translations", "stale", "--root", str(repo)]) == 0  # listed, never a failure
    out = capsys.readouterr().out
    assert "ru/core/damage.md:11: #armour translates core/damage.md:9" in out
    assert "its **whole** value" in out
    assert "then: rulespy translations stamp ru/core/damage.md#armour" in out
    assert out.rstrip().endswith("1 stale section")


def test_stale_without_the_stamped_text_in_history_shows_the_whole_section(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(repo, "core/damage.md", ENGLISH.replace("ARMOUR", "half its value"))
    assert main(["translations", "stamp", "--root", str(repo), "ru/core/damage.md#armour"]) == 0
    _write(repo, "core/damage.md", ENGLISH.replace("ARMOUR", "a third of its value"))  # never committed
    (found,) = stale_sections(repo)
    assert not found.found
    assert found.diff == ("Armour subtracts a third of its value from the damage of each hit.",)
    main(["translations", "stale", "--root", str(repo)])
    assert "not in this repository's history" in capsys.readouterr().out


def test_an_unstamped_section_is_listed_with_its_english_text(repo: Path) -> None:
    text = (repo / "ru/core/damage.md").read_text(encoding="utf-8")
    lines = [line for line in text.split("\n") if "translates: core/damage.md#target-limit" not in line]
    _write(repo, "ru/core/damage.md", "\n".join(lines))
    reasons = {item.anchor: item.reason for item in stale_sections(repo)}
    assert reasons == {"target-limit": "unstamped", "armour": "changed"}


def test_the_summary_marks_what_the_change_made_stale_with_links(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = "https://github.com/o/r/blob/abc/"
    assert (
        main(["translations", "stale", "--root", str(repo), "--since", "HEAD", "--format", "markdown"]) == 0
    )
    assert "None: no translated section falls behind" in capsys.readouterr().out  # stale before HEAD
    args = ["translations", "stale", "--root", str(repo), "--since", "HEAD~1", "--format", "markdown"]
    assert main([*args, "--link", link]) == 0
    out = capsys.readouterr().out
    row = f"| [ru/core/damage.md#armour]({link}ru/core/damage.md#L11) | [Armour]({link}core/damage.md#L9) |"
    assert row in out and "its **whole** value" in out


def test_stale_refuses_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["translations", "stale", "--root", str(tmp_path / "nowhere")]) == 2
    assert "nowhere: no such folder" in capsys.readouterr().err


def test_stale_refuses_a_revision_git_would_read_as_an_option(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    written = repo / "written"
    assert main(["translations", "stale", "--root", str(repo), f"--since=--output={written}"]) == 2
    assert "not a git revision" in capsys.readouterr().err and not written.exists()


def test_the_pull_request_summary_step_runs_and_never_fails(repo: Path, tmp_path: Path) -> None:
    steps = yaml.safe_load((REPO / ".github/workflows/ci.yml").read_text(encoding="utf-8"))["jobs"]["test"]
    (step,) = [s for s in steps["steps"] if "translations stale" in s.get("run", "")]
    assert step["if"] == "always() && github.event_name == 'pull_request'"
    (repo / ".venv").symlink_to(Path(sys.executable).parents[1])
    summary = tmp_path / "summary.md"
    env = {**os.environ, "BASE": "HEAD~1", "LINK": "https://x/", "GITHUB_STEP_SUMMARY": str(summary)}
    done = subprocess.run(
        ["bash", "-e", "-c", step["run"]], cwd=repo, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "[ru/core/damage.md#armour](https://x/ru/core/damage.md#L11)" in summary.read_text(
        encoding="utf-8"
    )


def test_the_hook_and_ci_let_a_stale_translation_pass() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8"))["repos"][0][
        "hooks"
    ]
    (check,) = [h for h in hooks if h["id"] == "rulespy-check"]
    assert check["entry"].split()[1:] == ["check", ".", "--warnings-ok"] and check["verbose"] is True
    ci = (REPO / ".github/workflows/ci.yml").read_text(encoding="utf-8")
    commands = [line for line in ci.split("\n") if "rulespy check" in line and "run:" in line]
    assert commands and all("--warnings-ok" in line for line in commands)
