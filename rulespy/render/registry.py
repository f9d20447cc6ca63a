"""The ownership registry (concepts.yml) and the owners' own words about each concept.

A concept's hover preview and its glossary line are both taken from the first paragraph of the
owner's section for it, so the rule file stays the only place a concept is defined.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from rulespy.check.findings import CheckError
from rulespy.check.registry import Concept, load_registry
from rulespy.check.slugs import split_attr_list
from rulespy.errors import BookError

__all__ = ["Concept", "Previews", "RegistryError", "load_concepts"]

class RegistryError(BookError):
    """concepts.yml cannot be read; the message names the file and line."""


def load_concepts(path: Path) -> tuple[Concept, ...]:
    """Every concept of the registry at ``path``, in registry order (no file: no concepts), read by the
    checker's own registry reader so the site and ``rulespy check`` never disagree about it."""
    try:
        return load_registry(path.parent).concepts if path.is_file() else ()
    except CheckError as error:
        raise RegistryError(f"{path}:{error.line or 1}: {error.message}") from None


def _plain(inline: Token) -> str:
    """An inline token's text as a reader sees it: no markup, links reduced to their text."""
    parts: list[str] = []
    for child in inline.children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    text = re.sub(r"\s+", " ", "".join(parts)).strip()
    return re.sub(r"\s*\{:?[^}]*\}$", "", text)  # a paragraph's own attr_list


def section_paragraphs(markdown: str) -> dict[str, str]:
    """For each heading with an explicit id: the plain text of the first paragraph under it, whole. A
    paragraph that ends in a colon introduces what follows it, so the list or table right after it is
    part of it (Cover's "a model is in no cover, Light cover or Heavy cover:" and its modifiers)."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    found: dict[str, str] = {}
    current: str | None = None
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            current = split_attr_list(tokens[index + 1].content)[1]
        elif token.type == "paragraph_open" and current is not None and current not in found:
            text = _plain(tokens[index + 1])
            if text:
                found[current] = _with_what_follows(text, tokens, index + 3)
    return found


def _with_what_follows(text: str, tokens: list[Token], after: int) -> str:
    """``text``, and when it ends in a colon the list or table starting at ``tokens[after]``: list items
    joined by semicolons, table rows as "first cell: the other cells" (the header row left out: the
    text before the colon says what the columns are)."""
    if not text.endswith(":") or after >= len(tokens):
        return text
    start = tokens[after]
    if start.type not in ("bullet_list_open", "ordered_list_open", "table_open"):
        return text
    closing = start.type.replace("_open", "_close")
    items: list[str] = []
    row: list[str] = []
    for token in tokens[after + 1 :]:
        if token.type == closing and token.level == start.level:
            break
        if start.type == "table_open":
            if token.type == "inline":
                row.append(_plain(token))
            elif token.type == "tr_close":
                items.append(f"{row[0]}: {', '.join(row[1:])}" if len(row) > 1 else "".join(row))
                row = []
        elif token.type == "inline" and token.level == start.level + 3:  # an item's own paragraph
            items.append(_plain(token))
    if start.type == "table_open":
        items = items[1:]
    items = [item.rstrip(".;") for item in items if item]
    return f"{text} {'; '.join(items)}." if items else text


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (all of it when it has only one)."""
    match = re.search(r"(?<=[.!?])\s+(?=[A-ZА-ЯЁ`*(\[«])", text)
    return text[: match.start()] if match else text


class Previews:
    """The owners' first paragraphs, taken from the rule texts the renderer already read (path: text)."""

    def __init__(self, texts: Mapping[str, str], concepts: Iterable[Concept]) -> None:
        self._texts = texts
        self._by_file: dict[str, dict[str, str]] = {}
        self._concepts = tuple(concepts)

    def _sections(self, owner: str) -> dict[str, str]:
        if owner not in self._by_file:
            self._by_file[owner] = section_paragraphs(self._texts.get(owner, ""))
        return self._by_file[owner]

    def digest(self) -> str:
        """What every tooltip and glossary line depends on, as one string (for incremental renders)."""
        return "\n".join(f"{c.target}\t{self.paragraph(c)}" for c in self._concepts)

    def paragraph(self, concept: Concept) -> str | None:
        """The owner's first paragraph for ``concept``, or ``None`` when the section has none yet."""
        return self._sections(concept.file).get(concept.anchor)

    def tooltip(self, concept: Concept) -> str:
        """The preview of a link to ``concept`` (shown on hover, keyboard focus or a tap): its name and
        its owner's first paragraph, whole (never cut mid-sentence, never a file path)."""
        text = self.paragraph(concept)
        return f"{concept.name}: {text or '(not yet defined)'}"
