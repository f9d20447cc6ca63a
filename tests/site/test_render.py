"""Unit tests of the renderer's pieces (rulespy/render), each on a small page written here."""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import markdown
import pytest

from rulespy.check.files import Layout
from rulespy.render import board as diagram
from rulespy.render import examples, pages
from rulespy.render.linker import PageContext, link_markdown
from rulespy.render.registry import (
    Concept,
    Previews,
    RegistryError,
    load_concepts,
    section_paragraphs,
)

FILES = frozenset(
    {"index.md", "core/damage.md", "core/shooting.md", "commands/command_shoot.md", "glossary.md"}
)
TARGET_LIMIT = Concept("Target Limit", "core/damage.md", "target-limit")
DAMAGE = Concept("Damage", "core/damage.md", "damage", aliases=("Normal Damage",))
CONCEPTS = (TARGET_LIMIT, DAMAGE)

SCENARIO = """\
description: Two rangers shoot at drones behind heavy cover.
weapons:
  carbine: {range: 18, dice: 2, lock: 4, damage: 1, traits: [assault]}
  lance:   {range: 36, dice: 1, lock: 3, damage: 3, traits: [heavy, critical 5, minimum range 6]}
units:
  - id: rangers
    side: blue
    models:
      - {id: r1, at: [0, 0], leader: true, ld: 8, weapons: [carbine]}
      - {id: r2, at: [1.5, 0], weapons: [lance], status: [pinned], arc: 90}
  - id: drones
    side: red
    models:
      - {id: d1, at: [12, 0], wounds: 2, armour: 1}
      - {id: d2, at: [12, 3], base: 2, cover: light}
terrain:
  - {kind: heavy, polygon: [[10, -2], [14, -2], [14, 1], [10, 1]]}
  - {kind: blocking, polygon: [[5, 4], [6, 4], [6, 6]]}
attack:
  unit: rangers
  command: shoot
  targets:
    - {unit: drones, mark: d1}
dice: [6, 2, 5]
"""


def render(source: str, page: str = "core/shooting.md") -> str:
    """The page's linked markdown, converted the way the generators convert it."""
    context = PageContext(page, FILES, CONCEPTS, lambda c: f"preview of {c.name}")
    linked = link_markdown(textwrap.dedent(source), context)
    return markdown.Markdown(extensions=["attr_list", "pymdownx.superfences", "tables"]).convert(linked)


# -- rule-file mentions ----------------------------------------------------------------------------


def test_plain_text_mention_of_a_rule_file_becomes_a_link() -> None:
    html = render("The limit is set in core/damage.md, see there.")
    assert '<a href="damage.md">core/damage.md</a>, see there.' in html


def test_inline_code_mention_with_anchor_becomes_a_link_around_the_code() -> None:
    html = render("See `core/damage.md#target-limit` and `commands/command_shoot.md`.", page="index.md")
    assert '<a href="core/damage.md#target-limit"><code>core/damage.md#target-limit</code></a>' in html
    assert '<a href="commands/command_shoot.md"><code>commands/command_shoot.md</code></a>' in html


def test_mentions_in_code_blocks_links_and_headings_are_left_alone() -> None:
    html = render(
        """\
        ## About core/damage.md {#about}

        [the damage rules (core/damage.md)](core/damage.md)

        ```python
        open("core/damage.md")
        ```
        """
    )
    assert html.count("<a ") == 1
    assert '<span class="s2">"core/damage.md"</span>' in html


def test_inline_code_inside_a_link_label_is_not_linked_again() -> None:
    html = render("See [the rule `core/damage.md`](damage.md) and **core/damage.md** here.")
    assert html.count("<a ") == 2
    assert '<a href="damage.md">the rule <code>core/damage.md</code></a>' in html
    assert '<strong><a href="damage.md">core/damage.md</a></strong>' in html


def test_a_table_cell_after_a_cell_linking_the_same_words_gets_its_own_link() -> None:
    html = render(
        "| rule | concepts |\n|---|---|\n| [Target Limit](damage.md) | Target Limit |\n",
        page="core/shooting.md",
    )
    assert '<td><a href="damage.md">Target Limit</a></td>' in html
    assert '<td><a class="vs-concept" href="damage.md#target-limit" title="preview of Target Limit">' in html


def test_a_tooltip_keeps_its_double_quotes() -> None:
    context = PageContext("core/shooting.md", FILES, CONCEPTS, lambda c: 'within 1" of it')
    linked = link_markdown("Target Limit.", context)
    html = markdown.Markdown(extensions=["attr_list"]).convert(linked)
    assert 'title="within 1&quot; of it"' in html


def test_mention_of_a_file_that_does_not_exist_stays_text() -> None:
    assert "<a" not in render("core/nowhere.md is not a rule file.")


# -- concept links and previews --------------------------------------------------------------------


def test_first_mention_of_a_concept_in_each_section_links_to_its_owner_with_a_preview() -> None:
    html = render(
        """\
        ## One {#one}

        Target Limit applies. Target Limit again.

        ## Two {#two}

        Still the Target Limit.
        """,
        page="commands/command_shoot.md",
    )
    link = '<a class="vs-concept" href="../core/damage.md#target-limit" title="preview of Target Limit">'
    assert html.count(link) == 2
    assert "Target Limit again" in html


def test_a_concept_is_not_linked_in_the_section_that_defines_it() -> None:
    html = render("## Target Limit {#target-limit}\n\nTarget Limit is this.\n", page="core/damage.md")
    assert "vs-concept" not in html


def test_a_section_that_already_links_the_concept_gets_no_second_link() -> None:
    html = render(
        "See [the limit](../core/damage.md#target-limit). Target Limit.", page="commands/command_shoot.md"
    )
    assert "vs-concept" not in html


def test_longest_spelling_wins_and_aliases_link_to_the_concept() -> None:
    html = render("Normal Damage is dealt.")
    assert '<a class="vs-concept" href="damage.md#damage" title="preview of Damage">Normal Damage</a>' in html


def test_concept_names_inside_words_or_code_are_not_linked() -> None:
    assert "vs-concept" not in render("TargetLimits and `Target Limit` and Damaged.")


def test_preview_is_the_first_paragraph_of_the_owners_section(tmp_path: Path) -> None:
    text = (
        "# Damage {#top}\n\n## Target Limit {#target-limit}\n\nOne success harms **one** model, "
        "see [Allocation](allocation.md).\nNothing carries over.\n\nSecond paragraph.\n"
    )
    previews = Previews({"core/damage.md": text}, CONCEPTS)
    assert (
        previews.paragraph(TARGET_LIMIT)
        == "One success harms one model, see Allocation. Nothing carries over."
    )
    # the tooltip is the name and the paragraph whole: no file path, nothing cut
    assert previews.tooltip(TARGET_LIMIT) == (
        "Target Limit: One success harms one model, see Allocation. Nothing carries over."
    )
    assert previews.paragraph(DAMAGE) is None


def test_section_paragraphs_ignore_headings_without_ids() -> None:
    assert section_paragraphs("## Plain\n\nText.\n\n## Named {#named}\n\nIts text.\n") == {
        "named": "Its text."
    }


def test_a_tooltip_is_never_cut_however_long_the_paragraph() -> None:
    long = " ".join(f"Sentence {n} of the rule." for n in range(60))
    previews = Previews({"core/damage.md": f"## Target Limit {{#target-limit}}\n\n{long}\n"}, CONCEPTS)
    assert previews.tooltip(TARGET_LIMIT) == f"Target Limit: {long}"


def test_a_paragraph_ending_in_a_colon_keeps_the_list_or_table_it_introduces() -> None:
    listed = "## A {#a}\n\nIt holds:\n\n- one thing;\n- another, with `code`.\n  - nested\n\nLater.\n"
    assert section_paragraphs(listed) == {"a": "It holds: one thing; another, with code."}
    table = "## Cover {#cover}\n\nA model is in:\n\n| cover | modifier |\n|---|---|\n"
    table += "| none | 0 |\n| Light | -1 |\n"
    assert section_paragraphs(table) == {"cover": "A model is in: none: 0; Light: -1."}
    # the owner's own Cover section: its modifiers are in the tooltip (they were cut before)
    cover = section_paragraphs((Path(__file__).resolve().parents[2] / "core" / "cover.md").read_text())
    assert cover["cover"].endswith("Heavy cover: none: 0; Light: -1; Heavy: -2.")


def test_registry_loads_owners_aliases_and_terminology(tmp_path: Path) -> None:
    registry = tmp_path / "concepts.yml"
    registry.write_text(
        "owners:\n  core/damage.md:\n    - {concept: Damage, anchor: damage, aliases: [Normal Damage]}\n"
        "  core/shooting.md:\n    - {concept: Reaction To Shooting, anchor: r, terminology: true}\n"
    )
    damage, reaction = load_concepts(registry)
    assert damage == DAMAGE
    assert reaction.terminology and reaction.target == "core/shooting.md#r"


def test_a_broken_registry_is_reported_with_its_path(tmp_path: Path) -> None:
    registry = tmp_path / "concepts.yml"
    registry.write_text("owners: [1, 2]\n")
    with pytest.raises(RegistryError, match="concepts.yml"):
        load_concepts(registry)


# -- worked examples --------------------------------------------------------------------------------

PAGE_WITH_EXAMPLE = f'''\
# Cover {{#cover}}

A worked example:

```{{.python}}
from rulespy.scenario import parse_scenario

scenario = parse_scenario("""
{textwrap.indent(SCENARIO, "")}""")
assert scenario
```

```python
print("no scenario here")
```
'''


def test_examples_are_found_with_their_scenario() -> None:
    found = examples.find_examples(PAGE_WITH_EXAMPLE)
    assert len(found) == 1
    assert found[0].start == 4
    assert found[0].scenarios[0].attack.targets[0].mark == "d1"


def test_scenario_is_read_from_a_named_constant_or_dedent_without_running_code() -> None:
    code = (
        'import textwrap\nBOARD = textwrap.dedent("""\n    units: []\n""")\n'
        "raise SystemExit\nparse_scenario(BOARD)\n"
    )
    assert examples.scenario_sources(code) == ["\nunits: []\n"]


def test_malformed_scenario_examples_get_no_board_and_a_warning_naming_the_page_and_line() -> None:
    [found] = examples.find_examples('```{.python}\nparse_scenario("units: [")\n```\n', page="core/x.md")
    assert found.scenarios == ()
    assert found.warnings and found.warnings[0].startswith("core/x.md:1: scenario refused by the loader")


def test_text_that_is_no_scenario_gets_neither_board_nor_warning() -> None:
    assert examples.find_examples('```{.python}\nparse_scenario("just words")\n```\n') == []


def test_example_block_folds_the_unchanged_code_beneath_the_board() -> None:
    found = examples.find_examples(PAGE_WITH_EXAMPLE)[0]
    lines = PAGE_WITH_EXAMPLE.split("\n")
    block = examples.example_block(found, lines[found.start : found.end], "vs-board-0")
    assert block[0] == '<div class="admonition example vs-example" markdown>'
    assert block[1] == '<p class="admonition-title">Two rangers shoot at drones behind heavy cover.</p>'
    assert any(line.startswith('<figure class="vs-board"><svg') for line in block)
    assert '??? example "The executable check (run by the test suite)"' in block
    assert "    ```{.python}" in block
    assert any(
        "The *rangers* unit uses the shoot command against *drones* (marking d1)" in line for line in block
    )


def test_the_board_stays_a_block_of_its_own_inside_the_example() -> None:
    found = examples.find_examples(PAGE_WITH_EXAMPLE)[0]
    block = "\n".join(
        examples.example_block(found, PAGE_WITH_EXAMPLE.split("\n")[found.start : found.end], "k")
    )
    html = markdown.Markdown(
        extensions=["md_in_html", "attr_list", "pymdownx.details", "pymdownx.superfences"]
    )
    out = html.convert(block)
    assert '<div class="admonition example vs-example">' in out
    assert "<p><figure" not in out and '<figure class="vs-board"><svg' in out
    assert '<details class="example">' in out


# -- diagrams -------------------------------------------------------------------------------------


def board() -> ET.Element:
    found = examples.find_examples(PAGE_WITH_EXAMPLE)[0]
    return diagram.render(found.scenarios[0], "vs-board-7")


def classes(element: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in element.iter() if name in (e.get("class") or "").split()]


def test_board_draws_every_model_with_its_base_to_scale() -> None:
    figure = board()
    bases = classes(figure, "vs-base")
    assert len(bases) == 4
    radii = sorted(float(b.get("r", "0")) for b in bases)
    assert radii[-1] == pytest.approx(2 * radii[0])  # d2 has a 2" base, the others 1"


def test_board_marks_the_leader_and_the_marked_model() -> None:
    figure = board()
    leaders = classes(figure, "vs-leader")
    assert len(leaders) == 1 and "r1" in (leaders[0].findtext("title") or "")
    assert len(classes(figure, "vs-leader-ring")) == 1
    marked = [g for g in classes(figure, "vs-model") if classes(g, "vs-mark")]
    assert [g.findtext("title", "").split(" ")[0] for g in marked] == ["d1"]


def test_board_draws_terrain_by_kind_sight_lines_rings_and_arcs() -> None:
    figure = board()
    assert len(classes(figure, "vs-terrain-heavy")) == 1 and len(classes(figure, "vs-terrain-blocking")) == 1
    sights = classes(figure, "vs-sight")
    assert sorted(s.findtext("title") for s in sights) == ["r1 to d1: carbine", "r2 to d1: lance"]
    assert [t.text for t in classes(figure, "vs-ring-label")] == ['min 6"']  # 11" away: far from 18 or 36
    assert len(classes(figure, "vs-arc")) == 1


def test_board_draws_a_range_ring_when_the_target_is_near_the_edge_of_range() -> None:
    moved = PAGE_WITH_EXAMPLE.replace("at: [12, 0]", "at: [19.5, 0]").replace("at: [12, 3]", "at: [19.5, 3]")
    scenario = examples.find_examples(moved)[0].scenarios[0]  # d1 now 18" from r1, edge to edge
    labels = sorted(t.text or "" for t in classes(diagram.render(scenario, "k"), "vs-ring-label"))
    assert labels == ['carbine 18"', 'min 6"']


def test_board_is_plain_svg_with_unique_ids() -> None:
    text = ET.tostring(board(), encoding="unicode")
    assert text.startswith('<figure class="vs-board"><svg')
    assert 'id="vs-board-7-hatch"' in text and 'fill="url(#vs-board-7-hatch)"' in text


def test_board_y_axis_points_up() -> None:
    figure = board()
    by_model = {g.findtext("title", "").split(" ")[0]: g for g in classes(figure, "vs-model")}

    def cy(model: str) -> float:
        return float(classes(by_model[model], "vs-base")[0].get("cy", "0"))

    assert cy("d2") < cy("d1")  # d2 stands 3" further up the board: higher on the page


# -- pages: navigation, header, footer, glossary -------------------------------------------------


class FakeGraph:
    documents: dict[str, object] = {}

    def links_from(self, path: str) -> set[str]:
        return {"core/shooting.md", "core/damage.md"} if path == "index.md" else set()

    def referenced_by(self, path: str) -> list[str]:
        return ["README.md", "commands/command_shoot.md", "core/shooting.md"]

    def headings(self, path: str) -> list[object]:
        class H:
            text = "Shoot"
            level = 1

        return [H()] if path == "commands/command_shoot.md" else []


def test_navigation_mirrors_the_folders() -> None:
    nav = pages.navigation(FILES, FakeGraph(), None, Layout().rule_dirs)  # type: ignore[arg-type]
    assert [next(iter(entry)) for entry in nav] == ["Home", "Core", "Commands", "Glossary"]
    assert nav[1] == {"Core": ["core/damage.md", "core/shooting.md"]}


def test_footer_lists_the_site_pages_that_link_here() -> None:
    footer = pages.page_footer("core/damage.md", FakeGraph(), FILES)  # type: ignore[arg-type]
    assert "## Referenced by {#referenced-by .vs-referenced-by}" in footer
    assert "- [Shoot (`commands/command_shoot.md`)](../commands/command_shoot.md)" in footer
    assert not any("README" in line for line in footer)


def test_header_lists_the_concepts_the_page_owns() -> None:
    header = pages.page_header("core/damage.md", CONCEPTS)
    assert header[2] == "    [Target Limit](#target-limit), [Damage](#damage)"
    assert pages.page_header("core/shooting.md", CONCEPTS) == []


def test_glossary_has_every_concept_linked_with_its_owners_first_sentence() -> None:
    owner = {"core/damage.md": "## Damage {#damage}\n\nWounds lost. More text.\n"}
    text = pages.glossary(CONCEPTS, Previews(owner, CONCEPTS), FILES)
    assert (
        "- **[Damage](core/damage.md#damage)**: Wounds lost. Also written: Normal Damage. (core/damage.md)"
        in text
    )
    assert "- **[Target Limit](core/damage.md#target-limit)**: Not yet written in its owner file." in text


def test_scenario_passed_to_a_helper_such_as_play_is_found_once() -> None:
    code = 'from rulespy.play import play, refused\nplay("""\nunits: []\n""")\nrefused("""\nunits: []\n""")\n'
    assert examples.scenario_sources(code) == ["\nunits: []\n"]
    assert examples.find_examples("```{.python}\n" + code + "```\n")[0].scenarios == ()


def test_board_legend_names_only_what_is_on_the_board() -> None:
    legend = board().findtext("figcaption") or ""
    assert "leader" in legend and "heavy cover" in legend and "blocking" in legend and "fire arc" in legend
    assert "light cover" not in legend


@pytest.mark.parametrize(
    "href",
    ["/core/damage.md#target-limit", "damage.md?from=shooting#target-limit", "./damage.md#target-limit"],
)
def test_a_section_linking_a_concept_by_any_spelling_gets_no_second_link(href: str) -> None:
    # the linker reads links with the checker's resolution (rulespy.book.links): a root path or a query
    # names the same section, so the concept counts as linked already
    html = render(f"## Fire {{#fire}}\n\nSee [the limit]({href}). The Target Limit applies.\n")
    assert html.count('class="vs-concept"') == 0


def test_the_linker_links_mentions_of_the_configured_rule_folders() -> None:
    context = PageContext("index.md", FILES | {"rules/a.md"}, (), rule_dirs=("rules",))
    assert link_markdown("See rules/a.md and core/damage.md.", context) == (
        "See [rules/a.md](rules/a.md) and core/damage.md."
    )
