"""The ownership registry (concepts.yml) and the owners' own words about each concept.

A concept's hover preview and its glossary line are both taken from the first paragraph of the
owner's section for it, so the rule file stays the only place a concept is defined.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from rulespy.book import markdown
from rulespy.book.sections import first_paragraphs
from rulespy.check.findings import CheckError
from rulespy.check.registry import Concept, load_registry
from rulespy.errors import BookError

if TYPE_CHECKING:
    from rulespy.book.book import Page

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


def section_paragraphs(text: str) -> dict[str, str]:
    """For each heading with an explicit id of markdown ``text``: its first paragraph (the rule book's
    ``Section.paragraph``, ``rulespy.book.sections.first_paragraphs``)."""
    return first_paragraphs(markdown.tokens(text))


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (all of it when it has only one)."""
    match = re.search(r"(?<=[.!?])\s+(?=[A-ZА-ЯЁ`*(\[«])", text)
    return text[: match.start()] if match else text


class Previews:
    """The owners' first paragraphs, taken from the pages the renderer already read (path: the book's
    ``Page``, whose sections hold them, or a text)."""

    def __init__(self, texts: Mapping[str, str | Page], concepts: Iterable[Concept]) -> None:
        self._texts = texts
        self._by_file: dict[str, dict[str, str]] = {}
        self._concepts = tuple(concepts)

    def _sections(self, owner: str) -> dict[str, str]:
        if owner not in self._by_file:
            found = self._texts.get(owner, "")
            if isinstance(found, str):
                self._by_file[owner] = section_paragraphs(found) if found else {}
            else:
                self._by_file[owner] = {s.anchor: s.paragraph for s in found.sections if s.paragraph}
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
