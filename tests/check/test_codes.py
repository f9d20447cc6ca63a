"""The finding codes are one table (``FINDING_CODES``); the docs that list them are generated from it."""

from __future__ import annotations

import re

import pytest

import rulespy.check
from rulespy.check.findings import CODES, FINDING_CODES, Finding, code_table
from rulespy.cli import main


def test_finding_codes_are_unique_in_order_and_each_says_when() -> None:
    codes = [c.code for c in FINDING_CODES]
    assert codes == sorted(set(codes))
    assert all(re.fullmatch(r"RS\d{3}", c) for c in codes)
    assert all(c.name and c.when for c in FINDING_CODES)
    assert CODES == {c.code: c.name for c in FINDING_CODES}


def test_the_check_docstring_lists_every_finding_code_from_the_table() -> None:
    doc = rulespy.check.__doc__ or ""
    assert doc.endswith(code_table())
    listed = re.findall(r"^(RS\d{3})  (\S+)", doc, re.MULTILINE)
    assert listed == [(c.code, c.name) for c in FINDING_CODES]


def test_check_help_lists_every_finding_code(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    listed = re.findall(r"^(RS\d{3})  (\S+)", out, re.MULTILINE)
    assert listed == [(c.code, c.name) for c in FINDING_CODES]


def test_code_table_keeps_every_word_of_each_explanation() -> None:
    table = code_table(width=80)
    assert max(len(line) for line in table.splitlines()) <= 80
    words = " ".join(line[35:] for line in table.splitlines()[3:-1]).split()
    assert words == " ".join(c.when for c in FINDING_CODES).split()


def test_json_findings_carry_the_code_name() -> None:
    assert Finding("a.md", 1, 1, "RS060", "m").as_dict()["name"] == "step-drift"
