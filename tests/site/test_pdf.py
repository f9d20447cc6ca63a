"""The printable rulebook (rulespy/render/pdf.py), read back with pypdf: every rule heading of every page
is in it, in navigation order, and every internal link lands on a page of the book."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt
from pypdf import PdfReader

from rulespy.check.slugs import split_attr_list
from rulespy.render.pages import RULEBOOK
from rulespy.render.pdf import nav_pages
from rulespy.render.stage import NAV, OUT

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def rulebook(rulebooks: Path) -> PdfReader:
    """The English rulebook ``print_rulebook`` printed for the session (``conftest.py``)."""
    return PdfReader(rulebooks / RULEBOOK)


@pytest.fixture(scope="module")
def texts(rulebook: PdfReader) -> list[str]:
    """The text of each page of the rulebook, extracted once (pypdf takes seconds for the whole book)."""
    return [page.extract_text() for page in rulebook.pages]


def _flat(text: str) -> str:
    """Whitespace collapsed and ligatures (the PDF's \ufb01 for "fi") spelled out."""
    return " ".join(unicodedata.normalize("NFKC", text).split())


def _headings() -> list[str]:
    """Every level 1 and 2 heading of the staged pages, in navigation order, as a reader sees it."""
    order = nav_pages(yaml.safe_load((ROOT / NAV).read_text(encoding="utf-8"))["nav"])
    found: list[str] = []
    for _, path, _ in order:
        tokens = MarkdownIt("commonmark").parse((ROOT / OUT / path).read_text(encoding="utf-8"))
        for token, inline in zip(tokens, tokens[1:], strict=False):
            if token.type == "heading_open" and token.tag in ("h1", "h2"):
                found.append(_flat(re.sub(r"[`*_]", "", split_attr_list(inline.content)[0])))
    return found


def test_every_rule_heading_is_in_the_rulebook_in_navigation_order(texts: list[str]) -> None:
    text = _flat(" ".join(texts))
    headings = _headings()
    assert len(headings) > 40
    position = text.index("Contents")
    missing = []
    for heading in headings:
        found = text.find(heading, position)
        if found < 0:
            missing.append(heading)
        else:
            position = found + len(heading)
    assert not missing, f"not found in order: {missing[:5]}"


def test_the_rulebook_has_a_cover_contents_and_the_glossary(texts: list[str]) -> None:
    assert "VoidSiege Rules" in texts[0]
    assert "Contents" in texts[1]
    assert any("Glossary" in text for text in texts[-15:])


def test_every_internal_link_of_the_rulebook_lands_on_one_of_its_pages(rulebook: PdfReader) -> None:
    named = rulebook.named_destinations
    pages = {id(page.indirect_reference.get_object()) for page in rulebook.pages}  # type: ignore[union-attr]
    internal = unresolved = 0
    for page in rulebook.pages:
        for annotation in page.get("/Annots") or ():
            link = annotation.get_object()
            if link.get("/Subtype") != "/Link" or "/Dest" not in link:
                continue
            internal += 1
            dest = link["/Dest"]
            name = str(dest)
            target = named.get(name) if name in named else None
            if target is None or id(target.page.get_object()) not in pages:
                unresolved += 1
    assert internal > 100  # mentions, concepts, contents, Referenced by
    assert unresolved == 0
