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

__all__ = ["Concept", "Previews", "RegistryError", "load_concepts"]

_PREVIEW_LIMIT = 280


class RegistryError(Exception):
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
    """For each heading with an explicit id: the plain text of the first paragraph under it."""
    tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
    found: dict[str, str] = {}
    current: str | None = None
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            current = split_attr_list(tokens[index + 1].content)[1]
        elif token.type == "paragraph_open" and current is not None and current not in found:
            text = _plain(tokens[index + 1])
            if text:
                found[current] = text
    return found


def shorten(text: str, limit: int = _PREVIEW_LIMIT) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, with an ellipsis when cut."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "…"


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
        """The hover preview of a link to ``concept``."""
        text = self.paragraph(concept)
        body = shorten(text) if text else "(not yet defined)"
        return f"{concept.name} ({concept.file}): {body}"
