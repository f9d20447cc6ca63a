"""Anchors are Python-Markdown ``toc`` slugs, exactly as the site computes them."""

from __future__ import annotations

import json
from pathlib import Path

import markdown
import pytest

from rulespy.check.parse import parse_markdown

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "peer-corpus"
SLUGGER = CORPUS / "github-slugger" / "fixtures.json"


def _site_ids(text: str) -> list[str]:
    """Heading ids as Python-Markdown itself renders them (toc + attr_list, like mkdocs.yml)."""
    md = markdown.Markdown(extensions=["toc", "attr_list", "tables"])
    md.convert(text)
    ids: list[str] = []

    def walk(tokens: list[dict[str, object]]) -> None:
        for token in tokens:
            ids.append(str(token["id"]))
            walk(token["children"])  # type: ignore[arg-type]

    walk(md.toc_tokens)  # type: ignore[attr-defined]
    return ids


def _inputs() -> list[str]:
    if not SLUGGER.is_file():
        return ["Target Limit", "Critical (N)", "Ünïcödé heading", "a -- b", "Dup", "Dup", "Dup_1"]
    return [case["input"] for case in json.loads(SLUGGER.read_text(encoding="utf-8"))]


@pytest.mark.parametrize(
    "heading",
    [
        "Target Limit {#target-limit}",
        "1. Declare the attack {#step-declare}",
        "Critical `N` & *friends*",
        "Leader's Split Fire",
        "Ünïcödé heading",
        "[Linked](x.md) heading",
        "Heading with ![an image](i.png) inside",
        "Spaces -- and -- dashes",
        "Trailing hashes ##",
    ],
)
def test_heading_anchor_matches_the_rendered_site(heading: str) -> None:
    text = f"# Title\n\n## {heading}\n\n## {heading}\n"
    document = parse_markdown("page.md", text)
    assert [h.anchor for h in document.headings] == _site_ids(text)


def test_every_slugger_heading_gets_the_same_sequence_of_ids_as_the_site() -> None:
    # headings only: no text that starts a heading itself, and no line separators (U+2028 and kin)
    separators = "\n\r\x0b\x0c\x85\u2028\u2029"
    headings = [h for h in _inputs() if h.strip() and not h.strip().startswith("#")]
    headings = [h for h in headings if not any(c in h for c in separators)]
    text = "".join(f"## {h}\n\n" for h in headings)
    document = parse_markdown("page.md", text)
    assert [h.anchor for h in document.headings] == _site_ids(text)


def test_html_anchor_attributes_are_read_in_any_case() -> None:
    """HTML attribute names are case-insensitive: ``<a Id=...>`` and ``<a Name=...>`` make anchors."""
    document = parse_markdown("page.md", '<a Id="one"></a>\n\n<a Name="two"></a>\n')
    assert set(document.anchors) == {"one", "two"}
