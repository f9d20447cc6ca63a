"""Hostile inputs (issue 12): each class is answered or cleanly refused, in bounded time and memory.

One small case a class, sized so that the tool handles it in well under a second, while the unbounded
code it replaces took many seconds (the sizes of each are in the comments; the full-size cases and their
time and memory are in ``bench/bench_hostile.py`` and ``bench/README.md``). Each test asserts the answer
or the refusal, with its file and line; the timeout is only a guard against a hang.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulespy.check.findings import CheckError
from rulespy.check.parse import Terms, parse_markdown
from rulespy.check.runner import CheckOptions, check_tree
from rulespy.cli import main
from rulespy.coverage.code import anchor_index, anchors_named
from rulespy.coverage.report import build_report
from rulespy.coverage.rules import parse_rule_file
from rulespy.coverage.sandbox import Sandbox
from rulespy.errors import IllegalDeclaration, InvalidInput
from rulespy.odds import TooLarge, odds
from rulespy.render.stage import MAX_PAGE_HEADINGS, RenderError, read_text
from rulespy.scenario import parse_scenario
from rulespy.sequences.resolution import resolve
from tests.check.helpers import write

from . import cases

pytestmark = pytest.mark.timeout(30)
ROOT = Path(__file__).resolve().parents[2]

HOME = "# Home\n\n[page](core/page.md)\n"


def _check(tmp_path: Path, page: str, extra: dict[str, str] | None = None) -> list[tuple[str, int, str]]:
    root = write(tmp_path / "repo", {"index.md": HOME, "core/page.md": page, **(extra or {})})
    findings = check_tree(root, CheckOptions(use_cache=False))
    return [(f.path, f.line, f.code) for f in findings]


# --- rulespy check: markdown -------------------------------------------------------------------------


def test_identical_headings_get_their_toc_anchors_in_linear_time() -> None:
    # 8,000 identical headings: about 8 s when each repeat rescanned every suffix before it
    document = parse_markdown("core/page.md", cases.identical_headings(8_000))
    anchors = [heading.anchor for heading in document.headings]
    assert anchors[:3] == ["t", "same", "same_1"]
    assert anchors[-1] == "same_7999" and len(set(anchors)) == 8_001


def test_a_run_of_reference_definitions_is_refused_at_its_first_line(tmp_path: Path) -> None:
    # 2,000 definitions without a blank line: about 8 s in markdown-it-py
    assert _check(tmp_path, cases.reference_definitions(2_000)) == [("core/page.md", 3, "RS044")]


def test_a_paragraph_of_link_labels_is_refused_at_its_line(tmp_path: Path) -> None:
    # 8,000 labels that never become links, in one 840 KB paragraph: about 7 s in markdown-it-py
    assert _check(tmp_path, cases.bracket_runs(8_000)) == [("core/page.md", 3, "RS044")]


def test_a_paragraph_of_emphasis_openers_is_refused_at_its_line(tmp_path: Path) -> None:
    # 12,000 unmatched "*a _b" openers: about 9 s joining markdown-it-py's text fragments
    assert _check(tmp_path, cases.emphasis_openers(12_000)) == [("core/page.md", 3, "RS044")]


def test_markup_under_the_budget_is_checked_as_usual(tmp_path: Path) -> None:
    page = "# Page\n\n" + "*a _b " * 300 + "[gone](missing.md)\n\n" + cases.reference_definitions(50)[8:]
    found = _check(tmp_path, page)
    assert ("core/page.md", 3, "RS001") in found and ("core/page.md", 5, "RS001") in found
    assert {code for _, _, code in found} == {"RS001"}


def test_many_ownership_claims_are_each_read_in_bounded_time() -> None:
    # 5,000 claims in one paragraph: about 11 s when the text before each claim was searched again
    document = parse_markdown("core/page.md", cases.repeated_claims(5_000), Terms(concepts=("damage",)))
    assert len(document.claims) == 5_000
    assert {(claim.concept, claim.owner) for claim in document.claims} == {("X", "core/damage.md")}


def test_a_long_capitalised_run_before_a_claim_is_read_from_a_bounded_window() -> None:
    # a 40 KB line of capitalised words: about 22 s of regular-expression backtracking
    document = parse_markdown("core/page.md", cases.capitalised_run(20_000))
    assert document.claims == ()  # "a is owned by": no capitalised name right before the claim
    long_name = "# Run\n\n" + "A " * 20_000 + "Cover is owned by core/cover.md\n"
    document = parse_markdown("core/page.md", long_name)
    [claim] = document.claims
    assert claim.concept.endswith("A A Cover") and len(claim.concept) <= 120


# --- YAML aliases ------------------------------------------------------------------------------------


def _is_alias_line(text: str, line: int | None) -> bool:
    """Whether ``line`` of ``text`` is one of its lines of aliases (where the budget is passed)."""
    return line is not None and "*a" in text.splitlines()[line - 1]


def test_a_concepts_yml_alias_bomb_is_refused_at_the_alias(tmp_path: Path) -> None:
    bomb = cases.concepts_alias_bomb(7)
    with pytest.raises(CheckError) as caught:
        _check(tmp_path, "# Page\n", {"concepts.yml": bomb})
    assert caught.value.path == "concepts.yml" and "expands to more than" in caught.value.message
    assert _is_alias_line(bomb, caught.value.line)


def test_a_mkdocs_nav_alias_bomb_is_refused_at_the_alias(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bomb = cases.nav_alias_bomb(7)
    files: dict[str, str | bytes] = {"index.md": HOME, "core/page.md": "# Page\n", "mkdocs.yml": bomb}
    assert main(["check", str(write(tmp_path / "repo", files)), "--no-cache"]) == 2
    where, _, message = capsys.readouterr().err.removeprefix("rulespy check: ").partition(": ")
    assert message.startswith("the document expands to more than"), message
    assert where.startswith("mkdocs.yml:") and _is_alias_line(bomb, int(where.split(":")[1]))


def test_a_scenario_alias_bomb_is_refused_at_the_alias() -> None:
    bomb = cases.scenario_alias_bomb(7)
    with pytest.raises(InvalidInput) as caught:
        parse_scenario(bomb, "bomb.yaml")
    assert "expands to more than" in caught.value.message and _is_alias_line(bomb, caught.value.line)


def test_an_alias_inside_the_value_it_names_is_refused() -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_scenario("weapons:\n  gun: &g {range: 1, more: [*g]}\n", "loop.yaml")
    assert caught.value.line == 2 and "inside the value it names" in caught.value.message


# --- rulespy coverage --------------------------------------------------------------------------------


def test_a_long_chain_of_continuation_examples_costs_linear_memory() -> None:
    # 1,500 continuation fences of 270 bytes: each example held every fence before it, 300 MB of text
    text = cases.continuation_file(1_500)
    rule = parse_rule_file("core/generated.md", text)
    held = sum(len(value) for e in rule.examples for value in vars(e).values() if isinstance(value, str))
    assert len(rule.examples) == 1_500 and held < 2 * len(text)
    last = rule.examples[-1]
    assert last.code.count("x = 1\n") == 1_500  # what the suite runs: the whole chain, built on demand


def test_a_chain_of_continuation_examples_runs_each_fence_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 148 s on 2 x 2,000 fences before: one process per example, each running its whole chain again,
    # so the code run (and sent to the sandbox) grew with the square of the chain
    (tmp_path / "rulespy").symlink_to(ROOT / "rulespy", target_is_directory=True)
    text = cases.counting_chain(300)
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "chain.md").write_text(text, encoding="utf-8")
    (tmp_path / "concepts.yml").write_text("owners: {}\n", encoding="utf-8")
    sent: list[str] = []
    ask = Sandbox._ask

    def recording(self: Sandbox, request: dict[str, Any], wait: float) -> Any:
        sent.append(json.dumps(request))
        return ask(self, request, wait)

    monkeypatch.setattr(Sandbox, "_ask", recording)
    monkeypatch.setattr(Sandbox, "run", lambda *args, **kwargs: pytest.fail("a process per example"))
    runs = build_report(tmp_path).example_runs
    assert len(runs) == 300 and [name for name, run in runs.items() if run["error"]] == []
    assert len(sent) == 1 and len(sent[0]) < 2 * len(text)  # the chain's code once: linear, not square


def test_tests_are_matched_to_anchors_through_an_index() -> None:
    # 3,000 tests against 3,000 anchors: one regular expression per pair took many seconds
    index = anchor_index({f"rule-{i}" for i in range(3_000)})
    names = cases.unit_test_names(3_000, 3_000)
    assert [anchors_named(name, index) for name in names[:2]] == [{"rule-0"}, {"rule-1"}]
    assert all(anchors_named(name, index) == {f"rule-{i}"} for i, name in enumerate(names))


# --- rulespy odds ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "models, dice, snap_fire, why",
    [
        (1_000, 100, False, "unit 'horde' has 1,000 models"),  # answered after 95 s before
        (90, 300, False, "weapon 'gun' rolls 300 dice"),
        (1_000, 100, True, "unit 'horde' has 1,000 models"),  # a firefight refused after 477 s before
        (60, 50, False, "estimated work"),
    ],
)
def test_an_odds_request_too_large_is_refused_before_the_work(
    models: int, dice: int, snap_fire: bool, why: str
) -> None:
    scenario = parse_scenario(cases.big_unit(models, dice, snap_fire), "big.yaml")
    with pytest.raises(TooLarge) as caught:
        odds(scenario)
    assert why in caught.value.message and caught.value.located().startswith("big.yaml:1: ")


def test_an_odds_request_under_the_limits_is_answered() -> None:
    result = odds(parse_scenario(cases.big_unit(10, 30), "ten.yaml"))
    assert sum(p for _, p in result.casualties) == Fraction(1)
    assert [count for count, _ in result.casualties] == list(range(11))


# --- rulespy resolve: sight past a long wall ---------------------------------------------------------


def test_blocking_terrain_of_4000_vertices_resolves_a_sight_line_past_it() -> None:
    # 110 s before: every stretch of the sight line was tested against every edge
    result = resolve(parse_scenario(cases.zigzag_wall(4_000, past=True), "wall.yaml"))
    assert list(result.removed) == ["t1"]


def test_blocking_terrain_of_4000_vertices_blocks_a_sight_line_through_it() -> None:
    with pytest.raises(IllegalDeclaration) as caught:
        resolve(parse_scenario(cases.zigzag_wall(4_000, past=False), "wall.yaml"))
    assert caught.value.rule.startswith("core/")


# --- site build: the pages the generator is given ----------------------------------------------------


def test_a_page_of_too_many_headings_is_refused_before_the_site_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 10,000 identical headings: 5 s in Material's search plugin (its table-of-contents walk is square)
    root = write(
        tmp_path / "repo", {"index.md": HOME, "core/page.md": cases.identical_headings(MAX_PAGE_HEADINGS)}
    )
    assert main(["render", str(root), "--strict"]) == 2
    said = capsys.readouterr()
    assert (
        f"core/page.md:{2 * MAX_PAGE_HEADINGS + 1}: 1,001 headings, more than the 1,000"
        in said.out + said.err
    )
    assert "Traceback" not in said.out + said.err
    assert not (root / "build" / "pages" / "core" / "page.md").exists()


def test_heading_marks_inside_fences_do_not_count_as_headings(tmp_path: Path) -> None:
    # exactly MAX_PAGE_HEADINGS headings, and twice as many `#` lines in a fence: the block parse counts
    fence = "```python\n" + "# a comment\n" * (2 * MAX_PAGE_HEADINGS) + "```\n"
    text = cases.identical_headings(MAX_PAGE_HEADINGS - 1) + fence
    (tmp_path / "page.md").write_text(text, encoding="utf-8")
    assert read_text(tmp_path, "page.md") == text


def test_a_page_of_many_marks_on_few_lines_is_not_parsed_for_its_headings(tmp_path: Path) -> None:
    # the guard parses a page's blocks only when more lines than MAX_PAGE_HEADINGS could be headings:
    # a long page's minus signs, rules and comments on a few lines cost no parse
    from rulespy.book import markdown

    text = "# Page\n\n" + "a - b = c # d\n" * 10 + "-" * (3 * MAX_PAGE_HEADINGS) + "\n"
    (tmp_path / "page.md").write_text(text, encoding="utf-8")
    before = markdown.parses()
    assert read_text(tmp_path, "page.md") == text
    assert markdown.parses() == before


def test_a_page_that_is_not_utf8_is_refused_at_its_line_before_the_site_build(tmp_path: Path) -> None:
    # a traceback (UnicodeDecodeError) from the build hook before the render step
    (tmp_path / "page.md").write_bytes("# Latin\n\ncaf\xe9\n".encode("latin-1"))
    with pytest.raises(RenderError) as caught:
        read_text(tmp_path, "page.md")
    assert caught.value.problems == ["page.md:3: not UTF-8 text (Latin-1 or binary?): not published"]
