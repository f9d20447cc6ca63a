"""The parser's inline shortcut (``parse._inline_blocks``) gives markdown-it's own tokens (issue 15, item 4).

Inline content without a character that starts an inline rule is made one ``text`` token directly
instead of being run through markdown-it's inline parser; these tests compare the two parsers' token
streams on generated text and the parsed ``Document`` of every markdown file of this repository.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulespy.check import parse
from rulespy.check.files import Tree
from rulespy.check.parse import build_parser, parse_markdown
from tests.hypothesis_profiles import examples

FAST, SLOW = build_parser(), build_parser(shortcut=False)
ROOT = Path(__file__).resolve().parents[2]
#: letters, spaces and every punctuation mark, the markup ones included, so both paths are taken
ALPHABET = st.sampled_from(
    [*"ab Z09 .,;:-|#{}()=+~^$%@'\"/\\`*_[]!<>&\n\t", "é", "я", "  \n", "\n\n", "| a |"]
    + ["<b>", "</b>", "<http://x.y>", "&amp;", "&#35;", "\\*", "[a](b)", "![i](j)", "`c`", "**s**", "_e_"]
)


def _shape(tokens: list[Any] | None) -> list[tuple[Any, ...]]:
    return [
        (
            t.type,
            t.tag,
            t.nesting,
            t.level,
            t.content,
            t.map,
            t.markup,
            t.info,
            dict(t.attrs),
            t.block,
            t.hidden,
            _shape(t.children) if t.children is not None else None,
        )
        for t in tokens or ()
    ]


@settings(max_examples=examples(suite=150, thorough=400))
@given(st.lists(ALPHABET, max_size=60).map("".join))
def test_parse_shortcut_gives_markdown_its_own_tokens_on_any_text(text: str) -> None:
    for source in (text, f"# {text}\n", f"| h | {text} |\n|---|---|\n| {text} | x |\n", f"- {text}\n"):
        assert _shape(FAST.parse(source, {})) == _shape(SLOW.parse(source, {}))


def test_parse_shortcut_is_taken_for_plain_cells_and_headings() -> None:
    calls: list[str] = []
    original = FAST.inline.parse

    def counted(src: str, *args: Any) -> Any:
        calls.append(src)
        return original(src, *args)

    FAST.inline.parse = counted  # type: ignore[method-assign]
    try:
        FAST.parse("# Plain heading {#plain}\n\n| roll | result |\n|---|---|\n| 6 | *hit* |\n", {})
    finally:
        del FAST.inline.parse
    assert calls == ["*hit*"]


@pytest.mark.parametrize("path", Tree(ROOT).walk().markdown)
def test_parse_shortcut_gives_the_same_document_for_every_file_of_this_repository(
    path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    fast = parse_markdown(path, text)
    monkeypatch.setattr(parse, "markdown_parser", lambda: SLOW)
    assert parse_markdown(path, text) == fast
