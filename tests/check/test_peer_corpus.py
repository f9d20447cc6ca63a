"""The peer corpus (link checkers' own fixtures, ``../shared/peer-corpus``): we agree with their expected
results except where our rules deliberately differ, each difference listed with its reason in
``peer_differences.py``. The corpus is read in place; nothing is copied into the repository.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulespy.check.files import Layout
from rulespy.check.runner import CheckOptions, check_tree

from .peer_differences import DIFFERENCES

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "peer-corpus"
LINK_CODES = {"RS001", "RS002", "RS003"}

pytestmark = pytest.mark.skipif(
    not (CORPUS / "expected.json").is_file(),
    reason=f"peer corpus not found at {CORPUS} (it is read in place, outside the repository)",
)


def _roots() -> dict[str, str]:
    roots = {
        "remark-validate-links": "remark-validate-links/fixtures",
        "markdownlint-md051": "markdownlint-md051",
        "markdown-link-check": "markdown-link-check",
        "lychee": "lychee/fixtures/fragments",
    }
    for case in sorted((CORPUS / "mkdocs").iterdir()):
        if case.is_dir():
            roots[f"mkdocs/{case.name}"] = f"mkdocs/{case.name}/docs"
    return roots


def _reported() -> set[tuple[str, int | str]]:
    """What we report broken: (corpus file, line), or (file, link) for the mkdocs cases matched by link."""
    found: set[tuple[str, int | str]] = set()
    for name, rel in _roots().items():
        # the corpus folders are the roots; nothing in them is excluded (examples/ is a peer fixture)
        for finding in check_tree(CORPUS / rel, CheckOptions(use_cache=False, layout=Layout(exclude=()))):
            if finding.code not in LINK_CODES:
                continue
            link = finding.message.split(" ", 2)[1].rstrip(":")
            found.add((f"{rel}/{finding.path}", link if name.startswith("mkdocs/") else finding.line))
    return found


def _expected() -> set[tuple[str, int | str]]:
    records = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
    return {(r["file"], r["line"] if r["line"] is not None else r["link"]) for r in records}


def test_we_agree_with_the_peers_except_for_the_listed_deliberate_differences() -> None:
    reported, expected = _reported(), _expected()
    extra = {(f, line) for reason in DIFFERENCES.values() for d, f, line in reason[1] if d == "extra"}
    missing = {(f, line) for reason in DIFFERENCES.values() for d, f, line in reason[1] if d == "missing"}
    assert reported - expected == extra, "unexplained extra findings: explain them in peer_differences.py"
    assert expected - reported == missing, "unexplained missed findings: explain them in peer_differences.py"
    agreed = expected & reported
    assert len(agreed) >= 95, f"only {len(agreed)} of {len(expected)} peer results reproduced"


def test_every_deliberate_difference_has_a_reason() -> None:
    for name, (reason, entries) in DIFFERENCES.items():
        assert len(reason) > 40 and entries, name
