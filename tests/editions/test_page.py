"""The "What changed" page ``rulespy render`` stages, and the "changed in" marks (issue 18, items 2 and
5), on the repository made in the test: heavy cover -2 at v1.0.0, -1 at v1.1.0."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import yaml

from rulespy.check import files, registry
from rulespy.editions.page import Changes, changes, comparisons
from rulespy.editions.site import versions_json
from rulespy.editions.versions import Release
from rulespy.render.currency import Built, line
from rulespy.render.pdf import book_html
from rulespy.render.stage import render, render_all
from tests.calls import recorded
from tests.coverage.conftest import _git

from .conftest import at, changelog, cover_page

#: what the ``staged`` render read: each tree walked (``Tree.walk``), each config file read, by folder
READ: dict[str, list[tuple[Path, str]]] = {}


@pytest.fixture(scope="module")
def staged(editions: Path) -> Path:
    _git(editions, "checkout", "-q", at(editions, "v1.1.0"))
    with pytest.MonkeyPatch.context() as patch:  # counted as it runs, for the test below
        walks = recorded(patch, files.Tree, "walk", lambda tree: (Path(tree.root).resolve(), ""))
        reads = recorded(patch, registry, "read_config", lambda root, name: (Path(root).resolve(), name))
        render_all(editions)
    READ.update(walks=walks, reads=reads)
    return editions / "build"


def test_the_render_of_both_languages_reads_each_tree_once(staged: Path) -> None:
    """Work counted, never seconds: ``render_all`` (English, Russian, What changed with its release
    entry compared afresh: no cache yet) walks each tree once and reads each ``concepts.yml`` once: the
    repository's English and Russian editions (one ``concepts.yml`` for both) and the two releases' trees
    What changed compares. Before, it walked 10 trees: each release's tree once for its jobs, again for
    their answers, for its sections and for its Russian sections, each with a book of its own."""
    repo = staged.parent.resolve()
    walks = [root for root, _ in READ["walks"]]
    configs = [root for root, name in READ["reads"] if name == "concepts.yml"]
    assert sorted(walks) == sorted(set(walks)) and len(walks) == 4, walks
    assert {repo, repo / "ru"} <= set(walks)
    assert sorted(configs) == sorted(set(walks) - {repo / "ru"}), configs


def _entry(page: str, title: str) -> str:
    start = page.index(f"\n## {title} {{#")
    end = page.find("\n## ", start + 1)
    return page[start : end if end >= 0 else None]


def test_the_release_entry_lists_exactly_the_changed_section_outcome_and_odds(staged: Path) -> None:
    page = (staged / "pages/changes.md").read_text(encoding="utf-8")
    entry = _entry(page, "v1.1.0 of 2026-12-01 (from v1.0.0)")
    sections = re.findall(r"^#### \[([^\]]+)\]", entry, re.MULTILINE)
    assert sections == ["core/cover.md#heavy-cover"]
    assert "modifier of ~~-2~~ **-1** to every Target Lock roll" in entry
    outcomes = re.findall(r"^\| `([^`]+)` \((?:changed|added|removed)\)", entry, re.MULTILINE)
    assert outcomes == ["core/cover.md#heavy-cover[1]"]
    assert "| d1 casualty: no -> end_of_attack<br>d1 wounds: 1 -> 0<br>" in entry
    odds = re.findall(r"^\| (`[^`]*`)? ?\| ([^|]+) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$", entry, re.MULTILINE)
    assert [row[1:] for row in odds] == [
        ("d1 becomes a casualty", "16.7%", "33.3%", "+16.7 pts"),
        ("expected casualties", "0.17", "0.33", "+0.17"),
        ("d1 becomes a casualty", "16.7%", "33.3%", "+16.7 pts"),
        ("expected casualties", "0.17", "0.33", "+0.17"),
    ]
    assert [row[0] for row in odds if row[0]] == [
        "`core/cover.md#heavy-cover[1]`",
        "`examples/scenarios/critical_through_cover.yaml`",
    ]
    assert "light-cover" not in entry
    assert "\n## v1.0.0 of 2026-11-30 {#v1-0-0}\n\nThe first edition.\n" in page
    nav = yaml.safe_load((staged / "nav.yml").read_text(encoding="utf-8"))["nav"]
    assert nav[-1] == {"What changed": "changes.md"}
    versions = json.loads((staged / "pages/versions.json").read_text(encoding="utf-8"))
    assert [v["version"] for v in versions] == ["..", "v1.1", "v1.0"]


def test_the_changed_section_carries_a_mark_linked_to_its_entry(staged: Path) -> None:
    cover = (staged / "pages/core/cover.md").read_text(encoding="utf-8").split("\n")
    at = cover.index("## Heavy Cover {#heavy-cover}")
    mark = (
        '<small class="vs-changed">[changed in v1.1](../changes.md#v1-1-0-core-cover-md-heavy-cover)</small>'
    )
    assert cover[at + 2] == mark
    assert sum("vs-changed" in line for line in cover) == 1  # light cover did not change
    page = (staged / "pages/changes.md").read_text(encoding="utf-8")
    assert "(changed) {#v1-1-0-core-cover-md-heavy-cover}" in page


def test_unreleased_changes_get_their_own_entry_and_mark(tmp_path: Path, editions: Path) -> None:
    _git(editions, "checkout", "-q", at(editions, "v1.1.0"))
    (editions / "core/cover.md").write_text(
        cover_page(-1, 0).replace("heavy cover gives", "heavy cover always gives")
    )
    try:
        found = changes(editions)
    finally:
        _git(editions, "checkout", "-q", "--", "core/cover.md")
    entry = _entry(found.text, "Unreleased (since v1.1.0)")
    assert "only words change: a **patch** release (v1.1.1)" in entry
    assert "heavy cover **always** gives" in entry
    assert found.marks == {
        "core/cover.md": {
            "heavy-cover": [
                ("changed since v1.1", "unreleased-core-cover-md-heavy-cover"),
                ("changed in v1.1", "v1-1-0-core-cover-md-heavy-cover"),
            ]
        }
    }


def test_without_a_release_the_page_says_so(tmp_path: Path) -> None:
    assert "No edition has been released yet: the first will be v1.0.0." in changes(tmp_path).text
    assert json.loads(versions_json(tmp_path)) == [{"version": "..", "title": "current rules", "aliases": []}]


def test_unreleased_changes_that_change_no_rule_say_so_briefly(editions: Path) -> None:
    _git(editions, "checkout", "-q", at(editions, "v1.1.0"))
    (editions / "index.md").write_text("# Rules {#rules}\n\nStart with the [Cover rules](core/cover.md).\n")
    try:
        found = changes(editions)
    finally:
        _git(editions, "checkout", "-q", "--", "index.md")
    assert "\n## Unreleased (since v1.1.0) {#unreleased}\n\nNo change.\n" in found.text
    assert found.marks["core/cover.md"]["heavy-cover"] == [
        ("changed in v1.1", "v1-1-0-core-cover-md-heavy-cover")
    ]


def test_every_staged_page_names_its_edition_date_and_commit_in_both_languages(staged: Path) -> None:
    """The release checked out as released: the line names it and the commit, and no change since."""
    commit = at(staged.parent, "v1.1.0")[:12]
    line = f'<small class="vs-edition">Edition v1.1.0 of 2026-12-01 · built from commit `{commit}`</small>'
    for page in ("index.md", "core/cover.md", "glossary.md", "changes.md", "judge.md"):
        lines = (staged / "pages" / page).read_text(encoding="utf-8").split("\n")
        title = next(i for i, text in enumerate(lines) if text.startswith("# "))
        assert lines[title + 1 : title + 4] == ["", line, ""], page
        assert sum("vs-edition" in text for text in lines) == 1
    ru = (staged / "ru/pages/index.md").read_text(encoding="utf-8")
    assert f'"vs-edition">Редакция v1.1.0 от 2026-12-01 · собрано из коммита `{commit}`</small>' in ru


def test_unreleased_changes_are_counted_and_linked_from_every_page(tmp_path: Path, editions: Path) -> None:
    repo = tmp_path / "rules"
    shutil.copytree(editions, repo, symlinks=True)
    _git(repo, "checkout", "-q", at(repo, "v1.1.0"))
    always = cover_page(-1, 0).replace("heavy cover gives", "heavy cover always gives")
    (repo / "core/cover.md").write_text(always)
    render_all(repo)
    commit = at(repo, "v1.1.0")[:12]
    cover = (repo / "build/pages/core/cover.md").read_text(encoding="utf-8")
    assert (
        '"vs-edition">Edition v1.1.0 of 2026-12-01 · [1 change since](../changes.md#unreleased) · '
        f"built from commit `{commit}` with uncommitted changes</small>"
    ) in cover
    ru = (repo / "build/ru/pages/index.md").read_text(encoding="utf-8")
    assert "[изменений с тех пор: 1](changes.md#unreleased)" in ru
    listed = (repo / "build/pages/changes.md").read_text("utf-8")
    assert "\n## Unreleased (since v1.1.0) {#unreleased}\n" in listed
    # committed: the line follows the new commit, the pages' rendering is kept (only the line rewritten)
    _git(repo, "commit", "-q", "-am", "always")
    report = render(repo)
    head = _git(repo, "rev-parse", "HEAD")[:12]
    assert f"built from commit `{head}`</small>" in (repo / "build/pages/core/cover.md").read_text()
    assert "core/cover.md" in report.written and "core/cover.md" not in report.rendered


def test_the_edition_line_without_a_release_or_outside_git(tmp_path: Path) -> None:
    nothing = Changes("", latest=None)
    assert line(nothing, Built(None, False), "core/cover.md") == (
        '<small class="vs-edition">No edition released yet (the first will be v1.0.0)</small>'
    )
    release = Release((1, 0, 0), "v1.0.0", "a" * 40, "2026-11-30")
    later = Changes("", latest=release, unreleased=None)  # make serve: not counted
    assert line(later, Built("b" * 40, True), "index.md", "ru") == (
        '<small class="vs-edition">Редакция v1.0.0 от 2026-11-30 · '
        "[Что изменилось с тех пор](changes.md#unreleased) · "
        "собрано из коммита `bbbbbbbbbbbb` с незафиксированными изменениями</small>"
    )
    three = Changes("", latest=release, unreleased=3)
    assert "[3 changes since](changes.md#unreleased)" in line(three, Built("b" * 40, False), "a.md")


def test_the_comparison_table_links_each_pair_of_releases() -> None:
    found = [Release((1, n, 0), f"v1.{n}.0", str(n), f"2026-12-0{n + 1}") for n in range(3)]
    assert comparisons(found) == [
        "| From ↓ to → | v1.1.0 | v1.2.0 |",
        "|---|---|---|",
        "| v1.0.0 (2026-12-01) | [v1.0.0 → v1.1.0](#v1-1-0) | [v1.0.0 → v1.2.0](#v1-0-0-to-v1-2-0) |",
        "| v1.1.0 (2026-12-02) |  | [v1.1.0 → v1.2.0](#v1-2-0) |",
        "",
    ]
    assert comparisons(found[:1]) == ["One release so far: nothing to compare it with yet.", ""]


def test_releases_further_apart_get_an_entry_of_their_own(tmp_path: Path, editions: Path) -> None:
    repo = tmp_path / "rules"
    shutil.copytree(editions, repo, symlinks=True)
    _git(repo, "checkout", "-q", "main")
    much = cover_page(-1, 0).replace("makes hits harder", "makes hits much harder")
    (repo / "core/cover.md").write_text(much)
    (repo / "CHANGELOG.md").write_text(
        changelog(("1.1.1", "2026-12-02"), ("1.1.0", "2026-12-01"), ("1.0.0", "2026-11-30"))
    )
    _git(repo, "commit", "-q", "-am", "Release v1.1.1: wording")
    page = changes(repo).text
    entry = _entry(page, "v1.0.0 to v1.1.1")
    assert "{#v1-0-0-to-v1-1-1}" in entry
    assert "modifier of ~~-2~~ **-1**" in entry and "makes hits **much** harder" in entry
    assert "[v1.0.0 → v1.1.1](#v1-0-0-to-v1-1-1)" in page and "[v1.1.0 → v1.1.1](#v1-1-1)" in page
    assert "makes hits **much** harder" in _entry(page, "v1.1.1 of 2026-12-02 (from v1.1.0)")


def test_the_rulebook_cover_names_the_edition_once(staged: Path) -> None:
    commit = at(staged.parent, "v1.1.0")[:12]
    for language, said in (
        (None, "Edition v1.1.0 of 2026-12-01 · built from commit"),
        ("ru", "Редакция v1.1.0 от 2026-12-01 · собрано из коммита"),
    ):
        html = book_html(staged.parent, language)
        cover = html[html.index('<section class="vs-cover">') : html.index("</section>")]
        assert f'<small class="vs-edition">{said} <code>{commit}</code></small>' in cover
        assert html.count('class="vs-edition"') == 1  # on the cover only, not on every page of the book
