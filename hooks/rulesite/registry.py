"""The ownership registry (concepts.yml) and the owners' own words about each concept.

A concept's hover preview and its glossary line are both taken from the first paragraph of the
owner's section for it, so the rule file stays the only place a concept is defined.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token

# attr_list's trailing `{#id ...}` / `{: #id }` on a heading line.
_HEADING_ID = re.compile(r"\{:?\s*[^}]*?#([\w-]+)[^}]*\}\s*$")
_PREVIEW_LIMIT = 280


class RegistryError(Exception):
    """concepts.yml cannot be read; the message names the file."""


@dataclass(frozen=True)
class Concept:
    """One owned concept: its name, the other spellings players write, and where it is defined."""

    name: str
    owner: str
    anchor: str
    aliases: tuple[str, ...] = ()
    terminology: bool = False

    @property
    def target(self) -> str:
        return f"{self.owner}#{self.anchor}"

    @property
    def spellings(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)


def load_concepts(path: Path) -> tuple[Concept, ...]:
    """Every concept of the registry at ``path``, in registry order (no file: no concepts)."""
    if not path.is_file():
        return ()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise RegistryError(f"{path}: cannot read the ownership registry: {exc}") from None
    owners = data.get("owners") if isinstance(data, dict) else None
    if not isinstance(owners, dict):
        raise RegistryError(f"{path}: the ownership registry needs an `owners:` mapping")
    concepts: list[Concept] = []
    for owner, entries in owners.items():
        for entry in entries or ():
            if not isinstance(entry, dict) or "concept" not in entry or "anchor" not in entry:
                raise RegistryError(f"{path}: {owner}: each entry needs `concept` and `anchor`: {entry!r}")
            concepts.append(
                Concept(
                    name=str(entry["concept"]),
                    owner=str(owner),
                    anchor=str(entry["anchor"]),
                    aliases=tuple(str(a) for a in entry.get("aliases") or ()),
                    terminology=bool(entry.get("terminology", False)),
                )
            )
    return tuple(concepts)


def heading_id(heading_text: str) -> str | None:
    """The explicit ``{#id}`` at the end of a heading's text, if any."""
    match = _HEADING_ID.search(heading_text)
    return match.group(1) if match else None


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
            current = heading_id(tokens[index + 1].content)
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
    match = re.search(r"(?<=[.!?])\s+(?=[A-Z`*(\[])", text)
    return text[: match.start()] if match else text


class Previews:
    """The owners' first paragraphs, read once per build from the repository's rule files."""

    def __init__(self, root: Path, concepts: Iterable[Concept]) -> None:
        self._root = root
        self._by_file: dict[str, dict[str, str]] = {}
        self._concepts = tuple(concepts)

    def _sections(self, owner: str) -> dict[str, str]:
        if owner not in self._by_file:
            path = self._root / owner
            text = path.read_text(encoding="utf-8") if path.is_file() else ""
            self._by_file[owner] = section_paragraphs(text)
        return self._by_file[owner]

    def paragraph(self, concept: Concept) -> str | None:
        """The owner's first paragraph for ``concept``, or ``None`` when the section has none yet."""
        return self._sections(concept.owner).get(concept.anchor)

    def tooltip(self, concept: Concept) -> str:
        """The hover preview of a link to ``concept``."""
        text = self.paragraph(concept)
        body = shorten(text) if text else "(not yet defined)"
        return f"{concept.name} ({concept.owner}): {body}"
