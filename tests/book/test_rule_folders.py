"""The rule folders are written in one place, the ``check: rule_dirs`` setting of ``concepts.yml`` that the
book reads (``Book.rule_dirs``): a tree with a fifth rule folder in its setting is seen by the site's
navigation, pages and judge (``judge.js`` included), the live-reload watch, mutation testing and What
changed, none of which keeps a list of its own (issue 25, item 3)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from rulespy.book.book import Book

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = ("core", "sequences", "timing", "commands", "lore")
EXAMPLE = """# Legends {#legends}

Told at the table. See core/cover.md.

## The First Siege {#first-siege}

```{.python}
assert 1 + 1 == 2
```
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    (repo / "core").mkdir(parents=True)
    (repo / "lore").mkdir()
    (repo / "concepts.yml").write_text(f"check:\n  rule_dirs: [{', '.join(FOLDERS)}]\n", encoding="utf-8")
    (repo / "index.md").write_text("# Home {#home}\n\ncore/cover.md and lore/legends.md.\n", encoding="utf-8")
    (repo / "core" / "cover.md").write_text("# Cover {#cover}\n\nSee lore/legends.md.\n", encoding="utf-8")
    (repo / "lore" / "legends.md").write_text(EXAMPLE, encoding="utf-8")
    shutil.copy(ROOT / "mkdocs.yml", repo / "mkdocs.yml")
    return repo


def test_the_book_reads_the_fifth_folder_from_the_setting(repo: Path) -> None:
    book = Book.open(repo)
    assert book.rule_dirs == FOLDERS
    assert book.rule_paths() == ["core/cover.md", "lore/legends.md"]


def test_the_site_publishes_navigates_and_links_the_fifth_folder(repo: Path, tmp_path: Path) -> None:
    from rulespy.render.stage import render

    out, nav = tmp_path / "pages", tmp_path / "nav.yml"
    render(repo, out, nav, unreleased=False)
    assert "lore/legends.md" in nav.read_text(encoding="utf-8")  # a navigation section of its own
    cover = (out / "core" / "cover.md").read_text(encoding="utf-8")
    assert "(../lore/legends.md)" in cover  # the mention linked, as core/ mentions are
    legends = (out / "lore" / "legends.md").read_text(encoding="utf-8")
    assert "Referenced by" in legends or "vs-referenced" in legends  # a rule page's footer
    words = (out / "assets" / "judge-words.js").read_text(encoding="utf-8")
    site = json.loads(words.split("window.vsJudgeSite = ", 1)[1].rstrip().removesuffix(";"))
    assert site["rules"] == list(FOLDERS)
    assert site["titles"]["lore/legends.md#first-siege"] == "The First Siege"


def test_judge_js_links_the_rules_of_the_folders_it_is_given() -> None:
    """``judge.js`` builds its pattern of a cited rule from ``vsJudgeSite.rules`` (run in node)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = (ROOT / "rulespy/render/assets/judge.js").read_text(encoding="utf-8")
    assert not re.search(r"core\|sequences|sequences\|timing", script)  # no folder list of its own
    function = re.search(r"  function rulePattern\(folders\) \{.*?\n  \}\n", script, re.DOTALL)
    assert function is not None
    probe = (
        function.group(0)
        + "const text = 'core/cover.md#cover, lore/legends.md#first-siege, notes/x.md#y';\n"
        + "const cited = (folders) =>\n"
        + "  [...text.matchAll(rulePattern(folders))].map((m) => m[1] + '#' + m[2]);\n"
        + f"console.log(JSON.stringify([cited({json.dumps(FOLDERS)}), cited([])]));\n"
    )
    done = subprocess.run([node, "-e", probe], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [["core/cover#cover", "lore/legends#first-siege"], []]


def test_the_live_reload_watches_the_fifth_folder(repo: Path) -> None:
    from rulespy.render.serve import sources_state

    watched = sources_state(repo)
    assert str(repo / "lore" / "legends.md") in watched
    (repo / "concepts.yml").write_text("check:\n  rule_dirs: [core]\n", encoding="utf-8")
    assert str(repo / "lore" / "legends.md") not in sources_state(repo)  # the setting read again


def test_mutation_testing_copies_and_runs_the_fifth_folder(repo: Path) -> None:
    from rulespy.coverage.mutation import copied, rule_examples

    assert copied(repo) == (*FOLDERS, "examples", "tests")
    assert rule_examples(repo) == [("lore/legends.md:7", "assert 1 + 1 == 2\n")]


def test_mutmut_copies_every_rule_folder_of_this_repository() -> None:
    """mutmut reads its own ``also_copy`` (pyproject.toml), which cannot read concepts.yml: it must list
    every rule folder of the setting."""
    from rulespy.check.registry import load_registry

    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    also_copy = settings["tool"]["mutmut"]["also_copy"]
    assert {f"{folder}/" for folder in load_registry(ROOT).layout.rule_dirs} <= set(also_copy)


def test_what_changed_hashes_the_fifth_folder(repo: Path) -> None:
    from rulespy.editions.page import _tree_digest

    before = _tree_digest(repo, Book.open(repo))
    assert _tree_digest(repo) == before
    (repo / "lore" / "legends.md").write_text(EXAMPLE + "\nMore.\n", encoding="utf-8")
    assert _tree_digest(repo, Book.open(repo)) != before
    assert _tree_digest(repo) != before


def test_the_catalogues_take_the_section_titles_of_the_fifth_folder(repo: Path) -> None:
    """``make messages`` copies each translated rule section's title into the catalogue: the book reads
    them in the folders of the setting (``rulespy.book.messages``) and hands them to ``rulespy.i18n``,
    which sits below the book and reads no setting."""
    from rulespy import i18n
    from rulespy.book.messages import section_titles

    (repo / "ru" / "lore").mkdir(parents=True)
    (repo / "ru" / "notes").mkdir()
    (repo / "ru" / "index.md").write_text("# Главная {#home}\n", encoding="utf-8")
    legends = "# Легенды {#legends}\n\n## Первая осада {#first-siege}\n"
    (repo / "ru" / "lore" / "legends.md").write_text(legends, encoding="utf-8")
    (repo / "ru" / "notes" / "x.md").write_text("# Заметки {#notes}\n", encoding="utf-8")  # no rule folder
    titles = section_titles(repo, "ru")
    assert titles == {"lore/legends.md#legends": "Легенды", "lore/legends.md#first-siege": "Первая осада"}
    (repo / "babel.cfg").write_text("[python: **.py]\n", encoding="utf-8")
    (repo / "rulespy").mkdir()
    template = i18n.extract(repo, {"ru": titles})
    assert {str(m.id) for m in template if m.context == i18n.SECTION} == set(titles)


def test_no_reader_of_the_rule_book_keeps_a_list_of_the_rule_folders() -> None:
    """The folder names appear together once among the book's readers: the default of the setting
    (``Layout``). ``rulespy.i18n`` (the message catalogues' section titles) sits below the book, so it
    is handed the titles the book reads (``rulespy.book.messages``) and keeps no list of its own."""
    package = ROOT / "rulespy"
    listed = re.compile(r"""["']core/?["'],\s*["']sequences/?["']|core\|sequences""")
    found = sorted(
        path.relative_to(ROOT).as_posix()
        for path in [*package.rglob("*.py"), *package.rglob("*.js")]
        if "node_modules" not in path.parts and listed.search(path.read_text(encoding="utf-8"))
    )
    assert found == ["rulespy/check/files.py"], found
