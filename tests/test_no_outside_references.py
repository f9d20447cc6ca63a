"""Comments and docstrings of the engine point only at documents inside the repository.

The design brief, the command-line contract and the issue tracker live outside this repository, so a
comment such as "(brief section 3)" sends a reader nowhere; the rule file it means is named instead.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OUTSIDE = re.compile(
    r"\bbrief\b|cli-contract|shared/design|\bthe contract\b|\bcontract's\b|\bissue \d+|\bruling R\d",
    re.IGNORECASE,
)
SOURCES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "rulespy").rglob("*.py"))


def comments_and_docstrings(source: str) -> list[tuple[int, str]]:
    """Every comment and every string that stands alone as a statement (a docstring), with its line."""
    found = []
    previous = tokenize.NEWLINE
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found.append((token.start[0], token.string))
        elif token.type == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.INDENT, tokenize.NL):
            found.append((token.start[0], token.string))
        if token.type not in (tokenize.COMMENT, tokenize.NL):
            previous = token.type
    return found


@pytest.mark.parametrize("path", SOURCES)
def test_engine_comments_point_inside_the_repository(path: str) -> None:
    source = (ROOT / path).read_text(encoding="utf-8")
    found = comments_and_docstrings(source)
    assert [f"{path}:{line}: {text[:80]}" for line, text in found if OUTSIDE.search(text)] == []


def test_the_scan_finds_an_outside_reference() -> None:
    source = (
        '"""Module."""\n\nX = 1  # tolerance (brief section 3)\n\n\ndef f():\n    """See the contract."""\n'
    )
    assert [line for line, text in comments_and_docstrings(source) if OUTSIDE.search(text)] == [3, 7]
