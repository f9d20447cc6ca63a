"""Reading rule files (sections, examples, markers) and the code (citations, test names)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespy.coverage.code import citations, named_anchors, unit_tests
from rulespy.coverage.rules import heading_id, load_concepts, parse_rule_file
from tests.calls import recorded


def test_heading_id_reads_the_attribute_list() -> None:
    assert heading_id("Target Limit {#target-limit}") == ("Target Limit", "target-limit")
    assert heading_id("1. Declare {: #step-declare .x }") == ("1. Declare", "step-declare")
    assert heading_id("No id here") == ("No id here", None)


def test_sections_know_their_level_line_and_parents(alpha_text: str) -> None:
    rule = parse_rule_file("core/alpha.md", alpha_text)
    assert rule.title_anchor == "alpha"
    assert [(s.anchor, s.line, s.parents) for s in rule.sections] == [
        ("alpha-rule", 3, ()),
        ("alpha-detail", 7, ("alpha-rule",)),
        ("beta-rule", 14, ()),
        ("gamma-words", 20, ()),
    ]


def test_examples_are_the_fences_pytest_runs_with_their_markers(alpha_text: str) -> None:
    (example,) = parse_rule_file("core/alpha.md", alpha_text).examples  # the notest fence is not one
    assert example.line == 9
    assert example.sections == ("alpha-rule", "alpha-detail")
    assert example.markers == ("#beta-rule",)


def test_continuation_fences_carry_the_code_before_them() -> None:
    text = "## A {#a}\n\n```{.python}\nx = 1\n```\n\n```{.python continuation}\nassert x == 1\n```\n"
    first, second = parse_rule_file("core/a.md", text).examples
    assert second.code == first.code + "assert x == 1\n"


def test_fences_indented_in_an_admonition_are_not_examples() -> None:
    text = "## A {#a}\n\n!!! example\n    ```{.python}\n    x = 1\n    ```\n"
    assert parse_rule_file("core/a.md", text).examples == ()


def test_citations_name_modules_classes_and_methods(tiny: Path) -> None:
    found = {(c.qualname, c.line, c.target) for c in citations(tiny)}
    assert found == {
        ("rulespy.core.alpha", 3, "core/alpha.md#alpha-rule"),
        ("rulespy.core.alpha.beta", 10, "core/alpha.md#beta-rule"),
        ("rulespy.core.alpha.Holder.method", 17, "core/alpha.md#alpha-detail"),
    }


def test_unit_tests_carry_their_docstring_citations(tiny: Path) -> None:
    tests = {t.name: t for t in unit_tests(tiny)}
    assert tests["test_something_else"].cites == ("core/alpha.md#beta-rule",)
    assert tests["test_alpha_rule_holds"].nodeid == "tests/core/test_alpha.py::test_alpha_rule_holds"


def test_the_longest_anchor_in_a_test_name_wins() -> None:
    anchors = {"damage", "critical-damage", "cover", "heavy-cover", "natural-1"}
    assert named_anchors("test_critical_damage_ignores_armour", anchors) == {"critical-damage"}
    assert named_anchors("test_damage_then_heavy_cover", anchors) == {"damage", "heavy-cover"}
    assert named_anchors("test_natural_1_always_fails", anchors) == {"natural-1"}
    assert named_anchors("test_discovery", anchors) == set()


def test_concepts_come_with_their_registry_line(tiny: Path) -> None:
    concepts = load_concepts(tiny)
    assert [(c.anchor, c.terminology, c.line) for c in concepts] == [
        ("alpha-rule", False, 3),
        ("beta-rule", False, 4),
        ("gamma-words", True, 5),
    ]


def test_a_coverage_report_reads_concepts_yml_once(tiny: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One ``Book`` gives coverage its rule files and its concepts: ``concepts.yml`` is read once."""
    from rulespy.check import registry
    from rulespy.coverage.report import build_report

    reads = recorded(monkeypatch, registry, "read_config", lambda root, name: name)
    report = build_report(tiny, run=False)
    assert [e.ref for e in report.concepts()] == [
        "core/alpha.md#alpha-rule",
        "core/alpha.md#beta-rule",
    ]
    assert reads == ["concepts.yml"]
