"""Markup a hostile pull request could put in a rule page (issue 29): each class is a finding of
``rulespy check`` at its line, and ``rulespy render`` refuses the page at that line, publishing nothing
(so that no generator and no printer ever reads it, even when the check was skipped)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespy.check.runner import CheckOptions, check_tree
from rulespy.cli import main
from rulespy.render.stage import RenderError, render
from tests.check.helpers import write

from . import cases

HOME = "# Home\n\n[page](core/page.md)\n"
pytestmark = pytest.mark.timeout(60)  # only a guard against a hang; bench/bench_hostile.py times them


@pytest.mark.parametrize("name", sorted(cases.UNSAFE_MARKUP))
def test_unsafe_markup_is_found_by_check_and_refused_by_render(name: str, tmp_path: Path) -> None:
    line, code = cases.UNSAFE_MARKUP[name]
    root = write(tmp_path / "repo", {"index.md": HOME, "core/page.md": cases.page_with(line)})
    found = [(f.path, f.line, f.code) for f in check_tree(root, CheckOptions(use_cache=False))]
    assert ("core/page.md", 5, code) in found
    assert {c for _, _, c in found} <= {"RS006", "RS080", "RS081"}, found
    with pytest.raises(RenderError) as refused:
        render(root, unreleased=False)
    assert any(p.startswith(f"core/page.md:5: {code} ") for p in refused.value.problems)
    assert not (root / "build" / "pages").exists()  # nothing staged for a generator to publish


def test_the_allowed_markup_alone_passes_and_is_published(tmp_path: Path) -> None:
    page = cases.page_with('See <a id="here" href="../index.md#home" title="Home">home</a>, H<sub>2</sub>O.')
    root = write(tmp_path / "repo", {"index.md": HOME, "core/page.md": page})
    assert check_tree(root, CheckOptions(use_cache=False)) == []
    render(root, unreleased=False)
    assert "<sub>2</sub>" in (root / "build" / "pages" / "core" / "page.md").read_text(encoding="utf-8")


def test_a_translated_page_is_refused_under_its_own_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = cases.UNSAFE_MARKUP["script"][0]
    root = write(
        tmp_path / "repo",
        {
            "index.md": HOME,
            "core/page.md": cases.page_with("Fine."),
            "ru/index.md": HOME,
            "ru/core/page.md": cases.page_with(line),
        },
    )
    assert ("ru/core/page.md", 5, "RS080") in [
        (f.path, f.line, f.code) for f in check_tree(root, CheckOptions(use_cache=False))
    ]
    assert main(["render", str(root)]) == 2
    assert "ru/core/page.md:5: RS080 raw HTML <script>" in capsys.readouterr().err


def test_a_line_of_nested_list_markers_is_refused_by_check_and_render_at_its_line(tmp_path: Path) -> None:
    # 2,000 markers on one 4 KB line: the strict mkdocs build ended in a RecursionError
    root = write(tmp_path / "repo", {"index.md": HOME, "core/page.md": cases.nested_markers(2_000)})
    assert ("core/page.md", 3, "RS006") in [
        (f.path, f.line, f.code) for f in check_tree(root, CheckOptions(use_cache=False))
    ]
    with pytest.raises(RenderError) as refused:
        render(root, unreleased=False)
    assert refused.value.problems[0].startswith("core/page.md:3: RS006 nested 49 or more levels deep")


def test_render_links_the_mentions_of_one_paragraph_in_linear_time(tmp_path: Path) -> None:
    # 20,000 mentions in one paragraph: about 20 s when each edit rebuilt the whole line (40,000: 56 s)
    page = cases.mentions(20_000)
    root = write(tmp_path / "repo", {"index.md": HOME, "core/page.md": page, "core/cover.md": "# Cover\n"})
    render(root, unreleased=False)
    staged = (root / "build" / "pages" / "core" / "page.md").read_text(encoding="utf-8")
    assert staged.count("[core/cover.md](cover.md)") == 20_000


REBINDING = (
    """# Page

```{.python}
from rulespy.play import play

S = """
    + '"""'
    + """
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - {id: a, side: blue, models: [{id: a1, at: [0, 0], leader: true, weapons: [rifle]}]}
  - {id: b, side: red, models: [{id: b1, at: [10, 0]}]}
attack: {unit: a, command: shoot, targets: [{unit: b, mark: b1}]}
dice: [6]
"""
    + '"""'
    + """
REBIND
assert play(S).removed == {}
```
"""
)


@pytest.mark.parametrize(
    "rebind",
    ['S = S.replace("dice: [6]", "dice: [1]")', 'S += "seed: 3"', "for S in [S]: pass", "import S"],
)
def test_an_example_that_rebinds_its_scenario_is_refused_and_never_drawn_stale(
    rebind: str, tmp_path: Path
) -> None:
    from rulespy.render.examples import find_examples

    page = REBINDING.replace("REBIND", rebind)
    root = write(tmp_path / "repo", {"index.md": HOME, "core/page.md": page})
    line = page.split("\n").index(rebind) + 1
    assert ("core/page.md", line, "RS085") in [
        (f.path, f.line, f.code) for f in check_tree(root, CheckOptions(use_cache=False))
    ]
    with pytest.raises(RenderError, match=f"core/page.md:{line}: RS085 "):
        render(root, unreleased=False)
    # even asked directly, the site's reader of examples draws no board of the old dice
    assert [e.scenarios for e in find_examples(page)] in ([], [()])


def test_an_example_that_names_its_new_scenario_is_drawn_with_it(tmp_path: Path) -> None:
    from rulespy.render.examples import find_examples

    page = REBINDING.replace("REBIND", 'T = S.replace("dice: [6]", "dice: [1]")')
    [example] = find_examples(page)
    assert example.scenarios[0].dice == (6,)  # the scenario it plays: S, unchanged


@pytest.mark.parametrize("opener", ["!!! note", '??? example "Open me"', "???+ warning"])
def test_markup_inside_an_admonition_is_found_although_commonmark_reads_it_as_code(
    opener: str, tmp_path: Path
) -> None:
    # the site renders an admonition's indented body as markdown; CommonMark alone sees a code block there
    body = '    <iframe src="file:///etc/os-release"></iframe>\n\n    A [link](javascript:x).\n'
    page = f"# Page\n\n{opener}\n\n{body}"
    root = write(tmp_path / "repo", {"index.md": HOME, "core/page.md": page})
    found = [(f.path, f.line, f.code) for f in check_tree(root, CheckOptions(use_cache=False))]
    assert found == [("core/page.md", 5, "RS080"), ("core/page.md", 7, "RS081")]
    with pytest.raises(RenderError, match="core/page.md:5: RS080 raw HTML <iframe>"):
        render(root, unreleased=False)


def test_html_shown_as_code_in_a_plain_indented_block_is_no_finding(tmp_path: Path) -> None:
    page = '# Page\n\nThe tag to avoid:\n\n    <iframe src="x"></iframe>\n'
    root = write(tmp_path / "repo", {"index.md": HOME, "core/page.md": page})
    assert check_tree(root, CheckOptions(use_cache=False)) == []


@pytest.mark.parametrize(
    "name", ["Cover <iframe src='file:///etc/passwd'></iframe>", "Cover [x](javascript:y)", "Cover | x"]
)
def test_a_concept_name_with_markup_is_refused_where_it_is_written(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the site writes concept names into every page, tooltip and the glossary as they are
    concepts = f'owners:\n  core/page.md:\n    - {{concept: "{name}", anchor: page}}\n'
    root = write(
        tmp_path / "repo", {"index.md": HOME, "core/page.md": "# Page {#page}\n", "concepts.yml": concepts}
    )
    assert main(["check", str(root), "--no-cache"]) == 2
    assert main(["render", str(root)]) == 2
    err = capsys.readouterr().err
    assert err.count("concepts.yml:3: concept ") == 2 and "a name is plain words" in err
    assert not (root / "build" / "pages").exists()
