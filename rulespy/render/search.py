"""Search words: what players type, indexed as words of the section that answers them.

Each concept of ``concepts.yml`` brings to its owner's section, in each edition, its other names
(``aliases``; on a translated page its forms in that language, and its English name) and the players'
own phrasings kept beside it (``asked`` in English, ``asked_ru`` in Russian: "within 1 inch of an
enemy", "overwatch", "overkill"). They are written at the end of the section as one hidden block
(``<div class="vs-search-words" hidden>``): both generators' search index the text of every element of
a section, the reader never sees it, and a screen reader skips it as well. At the end, not under the
heading, so that the start of the section's own text stays what a search result quotes.

The words are escaped: concepts.yml is input like any other.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence

from .registry import Concept

CLASS = "vs-search-words"
_HEADING = re.compile(r"^#{1,6}\s")
_ANCHOR = re.compile(r"\{[^}]*#([A-Za-z0-9_-]+)[\s}]")
_FENCE = re.compile(r"^(`{3,}|~{3,})")


def words(concept: Concept, language: str | None) -> list[str]:
    """The search words ``concept`` adds to its owner's section in edition ``language``: each once."""
    found = [*concept.names_in(language)[1:], *concept.asked_in(language)]
    if language is not None:
        found += concept.names  # a player who knows the English term finds it on the Russian site too
    shown = concept.name_in(language).lower()
    seen: set[str] = {shown}
    kept = []
    for word in found:
        if word.lower() not in seen:
            seen.add(word.lower())
            kept.append(word)
    return kept


def with_search_words(page: str, path: str, concepts: Sequence[Concept], language: str | None) -> str:
    """``page`` (the rendered markdown of rule file ``path``) with each owned concept's search words at
    the end of its section, before the next heading of any level (Material and Zensical cut a page into
    search entries at every heading). Headings inside fenced code are not headings."""
    wanted: dict[str, list[str]] = {}
    for concept in concepts:
        if concept.file == path:
            found = words(concept, language)
            if found:
                wanted.setdefault(concept.anchor, []).extend(found)
    if not wanted:
        return page
    lines = page.split("\n")
    out: list[str] = []
    current: str | None = None
    fence: str | None = None

    def close() -> None:
        if current in wanted:
            text = html.escape(" · ".join(wanted[current]), quote=True)
            out.extend(["", f'<div class="{CLASS}" hidden>{text}</div>', ""])

    for line in lines:
        mark = _FENCE.match(line)
        if fence is None and mark:
            fence = mark.group(1)[0] * 3
        elif fence is not None and line.startswith(fence):
            fence = None
        elif fence is None and _HEADING.match(line):
            close()
            anchor = _ANCHOR.search(line)
            current = anchor.group(1) if anchor else None
        out.append(line)
    close()
    return "\n".join(out)
