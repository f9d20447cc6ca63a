"""``rulespy diff REV --format markdown|json [--check]``: the behaviour summary of a change of rules
(issue 18, item 4) on a repository made in the test (``conftest.py``): heavy cover -2 -> -1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rulespy.cli import main
from rulespy.editions.sections import section_texts, show_diff, word_diff
from rulespy.editions.summary import same_outcome, summarise
from rulespy.editions.versions import Release, next_version, releases
from tests.coverage.conftest import _git

from .conftest import at, cover_page, scenario


def test_the_summary_between_two_tags_names_exactly_what_changed(editions: Path) -> None:
    summary = summarise(editions, "v1.0.0", "v1.1.0")
    assert [s.ref for s in summary.sections] == ["core/cover.md#heavy-cover"]
    assert [o.change.name for o in summary.outcomes] == ["core/cover.md#heavy-cover[1]"]
    outcome = summary.outcomes[0]
    assert outcome.change.lines() == [
        "d1 casualty: no -> end_of_attack",
        "d1 wounds: 1 -> 0",
        "shooters->dug_in successes, criticals: [0, 0] -> [1, 0]",
    ]
    assert outcome.sections == ("core/cover.md#heavy-cover",) and outcome.touched
    moved = {o.name: [(s.label, s.show()) for s in o.shifts] for o in summary.odds}
    through_heavy = [
        ("d1 becomes a casualty", ("16.7%", "33.3%", "+16.7 pts")),
        ("expected casualties", ("0.17", "0.33", "+0.17")),
    ]
    # the light-cover example is untouched by the change, in outcome and odds alike
    assert moved == {
        "core/cover.md#heavy-cover[1]": through_heavy,
        "examples/scenarios/critical_through_cover.yaml": through_heavy,
    }
    assert summary.release == "minor"


def test_the_markdown_marks_words_without_colour(
    editions: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(editions)
    _git(editions, "checkout", "-q", at(editions, "v1.1.0"))
    assert main(["diff", "v1.0.0", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "modifier of ~~-2~~ **-1** to every Target Lock roll" in out
    assert "| `core/cover.md#heavy-cover[1]` (changed) | d1 casualty: no -> end_of_attack<br>" in out
    assert "| `core/cover.md#heavy-cover` |" in out
    assert "| d1 becomes a casualty | 16.7% | 33.3% | +16.7 pts |" in out
    assert "light-cover[1]" not in out and "play changes: at least a **minor** release (v1.1.0)" in out


def test_rulespy_diff_compares_two_releases_named_without_a_tag(
    editions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``rulespy diff A B``: from release A to release B, whatever the working tree holds (the names are
    those of the releases the checked-out tree records)."""
    _git(editions, "checkout", "-q", at(editions, "v1.1.0"))
    assert _git(editions, "tag", "--list") == ""
    (editions / "core/cover.md").write_text(cover_page(-3, 1), encoding="utf-8")  # no matter
    try:
        assert main(["diff", "--path", str(editions), "v1.0.0", "v1.1"]) == 0
    finally:
        _git(editions, "checkout", "-q", "--", "core/cover.md")
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "changed: core/cover.md#heavy-cover[1] (core/cover.md:9)"
    old, new = at(editions, "v1.0.0")[:12], at(editions, "v1.1.0")[:12]
    assert out[-1] == (
        f"1 of 3 scenarios and examples changed outcome since v1.0.0 ({old}) up to v1.1; 0 new, 0 gone"
    )
    assert main(["diff", "--path", str(editions), "1.0.0", "v1.1.0", "--format", "markdown"]) == 0
    text = capsys.readouterr().out
    assert f"From 1.0.0 ({old}) to v1.1.0 ({new}): play changes: at least a **minor** release." in text
    assert "modifier of ~~-2~~ **-1** to every Target Lock roll" in text
    assert main(["diff", "--path", str(editions), "v1.1.0", "v1.1.0"]) == 0
    assert capsys.readouterr().out.startswith("0 of 3 scenarios and examples changed outcome")


def test_the_json_carries_exact_fractions(editions: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _git(editions, "checkout", "-q", at(editions, "v1.1.0"))
    assert main(["diff", "v1.0.0", "--path", str(editions), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["release"] == "minor" and data["untouched"] == []
    shift = data["odds"][0]["shifts"][0]
    assert (shift["before"], shift["after"]) == ("1/6", "1/3")
    assert shift["points"] == pytest.approx(100 / 6)
    assert data["sections"][0]["diff"][1:3] == [["-", "-2"], ["+", "-1"]]


def test_a_changed_outcome_whose_example_was_not_touched_fails_the_check(
    tmp_path: Path, editions: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The engine and rule change, but the example still asserts the old outcome."""
    repo = tmp_path / "rules"
    shutil.copytree(editions, repo, symlinks=True)
    _git(repo, "checkout", "-q", at(repo, "v1.0.0"))
    cover = repo / "rulespy/core/cover.py"
    cover.write_text(cover.read_text().replace("Cover.HEAVY: -2}", "Cover.HEAVY: -1}"))
    (repo / "core/cover.md").write_text(cover_page(-1, 1), encoding="utf-8")  # wounds still 1: untouched
    assert main(["diff", "v1.0.0", "--path", str(repo), "--check"]) == 1
    captured = capsys.readouterr()
    assert "changed: core/cover.md#heavy-cover[1] (core/cover.md:" in captured.out
    message = [line for line in captured.err.splitlines() if "its outcome changed" in line]
    assert len(message) == 1
    assert message[0].startswith("rulespy diff: core/cover.md:9: core/cover.md#heavy-cover[1]: its outcome")
    assert message[0].endswith("but the example is unchanged since v1.0.0: update it to show the new outcome")
    # touching the example (its assertion) passes the check
    (repo / "core/cover.md").write_text(cover_page(-1, 0), encoding="utf-8")
    capsys.readouterr()
    assert main(["diff", "v1.0.0", "--path", str(repo), "--check", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)  # --json keeps its own shape under --check
    assert set(data) == {"rev", "commit", "resolved", "changes"}
    assert [c["name"] for c in data["changes"]] == ["core/cover.md#heavy-cover[1]"]


def test_a_section_is_its_prose_up_to_the_next_section() -> None:
    found = section_texts("core/cover.md", cover_page(-2, 1))
    assert list(found) == ["core/cover.md#cover", "core/cover.md#heavy-cover", "core/cover.md#light-cover"]
    assert found["core/cover.md#heavy-cover"].text == (
        "A target in heavy cover gives a modifier of -2 to every Target Lock roll against it."
    )  # the worked example's code is not prose


def test_the_word_diff_shows_only_changed_paragraphs_and_escapes_marks() -> None:
    old = "Same words here.\n\nA target gives -2 to rolls."
    new = "Same words here.\n\nA target gives -1 to 2*3 rolls."
    assert show_diff(word_diff(old, new)) == ["…", r"A target gives ~~-2~~ **-1** to **2\*3** rolls."]


def test_releases_ignore_tags_that_name_no_semantic_version(editions: Path) -> None:
    _git(editions, "tag", "not-a-release")
    _git(editions, "tag", "v1.0")  # not MAJOR.MINOR.PATCH: neither a release nor one that disagrees
    found = releases(editions)
    assert [(r.tag, r.edition) for r in found] == [("v1.0.0", "v1.0"), ("v1.1.0", "v1.1")]
    assert [r.short for r in found] == ["v1.0", "v1.1"]
    assert Release((1, 1, 2), "v1.1.2", "c").short == "v1.1.2"
    assert next_version((1, 1, 0), "minor") == "v1.2.0" and next_version((1, 1, 0), "patch") == "v1.1.1"
    assert next_version(None, "patch") == "v1.0.0"


@pytest.mark.parametrize("options", [["--format", "markdown"], ["--format", "json"], ["--check"]])
def test_a_bad_revision_is_refused_in_every_format(
    editions: Path, options: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["diff", "--path", str(editions), *options, "--", "no-such-tag"]) == 2
    captured = capsys.readouterr()
    assert captured.err == "rulespy diff: not a revision of this repository: 'no-such-tag'\n"
    assert captured.out == ""


def test_a_tree_inside_another_repository_has_no_releases(editions: Path) -> None:
    """A folder rendered inside a repository is not that repository: its tags are not its editions."""
    (editions / "sub").mkdir(exist_ok=True)
    assert releases(editions / "sub") == [] and releases(editions.parent) == []
    assert [r.tag for r in releases(editions)] == ["v1.0.0", "v1.1.0"]


def test_a_new_example_is_listed_when_the_older_rules_made_something_else_of_it(
    tmp_path: Path, editions: Path
) -> None:
    repo = tmp_path / "rules"
    shutil.copytree(editions, repo, symlinks=True)
    _git(repo, "checkout", "-q", at(repo, "v1.1.0"))
    (repo / "examples/scenarios/five_through_heavy.yaml").write_text(scenario("heavy", 5), encoding="utf-8")
    (repo / "examples/scenarios/five_through_light.yaml").write_text(scenario("light", 5), encoding="utf-8")
    summary = summarise(repo, "v1.0.0")
    new = [o for o in summary.outcomes if o.kind == "new"]
    assert [o.change.name for o in new] == ["examples/scenarios/five_through_heavy.yaml"]
    assert "d1 wounds: 1 -> 0" in new[0].change.lines() and new[0].touched
    assert "examples/scenarios/five_through_heavy.yaml" in {o.name for o in summary.odds}
    assert "examples/scenarios/five_through_light.yaml" not in {o.name for o in summary.odds}


def test_an_input_error_changes_only_when_its_numbers_do() -> None:
    moved = {"error": "core/a.md:12:3: 1 scripted dice left over: the attack used 1 of 2"}
    reworded = {"error": "core/a.md:14:3: 1 scripted die left over: the attack used 1 of 2"}
    more = {"error": "core/a.md:14:3: 2 scripted dice left over: the attack used 1 of 3"}
    assert same_outcome(moved, reworded) and not same_outcome(moved, more)
    assert not same_outcome(moved, {"legal": True}) and not same_outcome(None, moved)
