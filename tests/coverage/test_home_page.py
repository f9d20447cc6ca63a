"""Worked examples on the home page (``index.md``) run like any other (issue 29): pytest collects the
page, and ``rulespy coverage`` reads it when it holds an example."""

from __future__ import annotations

import tomllib
from pathlib import Path

from rulespy.check.files import RULE_DIRS
from rulespy.coverage.report import build_report

from .test_report import EXAMPLE

ROOT = Path(__file__).resolve().parents[2]


def test_pytest_collects_every_published_page() -> None:
    # every page rulespy render publishes: the home page, the rule folders, the translation
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]
    paths = options["ini_options"]["testpaths"]
    assert {"index.md", *RULE_DIRS, "ru"} <= set(paths)


def test_an_example_on_the_home_page_is_measured(tiny: Path) -> None:
    (tiny / "index.md").write_text("# Home {#home}\n\n## Try it {#try-it}\n" + EXAMPLE, encoding="utf-8")
    report = build_report(tiny, run=False)
    assert "index.md:" in " ".join(k for e in report.entries for k in e.examples)


def test_a_home_page_without_examples_adds_no_rows(tiny: Path) -> None:
    (tiny / "index.md").write_text("# Home\n\nThe rules.\n", encoding="utf-8")
    assert not [e for e in build_report(tiny, run=False).entries if e.ref.startswith("index.md")]
