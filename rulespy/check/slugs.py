"""Heading anchors exactly as the published site computes them.

The site is built by MkDocs with Python-Markdown's ``toc`` and ``attr_list`` extensions, so:

* an explicit ``{#id}`` at the end of a heading (``attr_list``) is the anchor, and is reserved first;
* any other heading gets ``toc.slugify(text, "-")`` of its plain text (ASCII-folded, lower-cased,
  punctuation dropped, runs of spaces and dashes made one dash);
* a slug already used on the page is suffixed ``_1``, ``_2``... (``toc.unique``, given one ``counters``
  cache per page as ``toc`` does, so that thousands of identical headings cost linear time).

Python-Markdown's own functions are used (it is a dependency of rulespy), so the checker can never
compute a different anchor from the site.
"""

from __future__ import annotations

import re
from collections.abc import MutableSet
from typing import Any


def toc_slugify(*args: Any) -> Any:
    """Python-Markdown's ``toc.slugify``, imported when first needed (it is slow to import)."""
    from markdown.extensions.toc import slugify

    return slugify(*args)


def toc_unique(*args: Any) -> Any:
    """Python-Markdown's ``toc.unique``, imported when first needed."""
    from markdown.extensions.toc import unique

    return unique(*args)


# attr_list's heading pattern: `` {#id .class key=value}`` at the very end of the heading text.
_ATTR_HEADER_RE = re.compile(r"[ ]+\{\:?[ ]*([^\}\n ][^\n]*)\}[ ]*$")
_ATTR_TOKEN_RE = re.compile(r"""[^ =}]+=".*?"|[^ =}]+='.*?'|[^ =}]+=[^ =}]+|[^ =}]+| """)


def slugify(text: str) -> str:
    """The ``toc`` slug of a heading's plain text."""
    return str(toc_slugify(text, "-"))


def unique(slug: str, used: MutableSet[str], counters: dict[str, int] | None = None) -> str:
    """``slug`` made unique among ``used`` (and added to it), as ``toc`` does.

    ``counters`` is ``toc``'s cache of the suffixes known to be taken: pass the same dict with the
    same ``used`` for a whole page, or each repeat of a heading rescans every suffix before it.
    """
    return str(toc_unique(slug, used, counters))


def split_attr_list(text: str) -> tuple[str, str | None]:
    """Split ``"Target Limit {#target-limit}"`` into ``("Target Limit", "target-limit")``.

    Returns the text unchanged and ``None`` when there is no valid trailing attribute list.
    """
    if "{" not in text:
        return text, None
    m = _ATTR_HEADER_RE.search(text)
    if m is None:
        return text, None
    attrs = m.group(1)
    tokens = _ATTR_TOKEN_RE.findall(attrs)
    if "".join(tokens) != attrs.rstrip("}") and "".join(tokens) != attrs:
        return text, None  # attr_list keeps text it cannot parse as attributes
    explicit = None
    for token in tokens:
        if token.startswith("#") and "=" not in token:
            explicit = token[1:]
    stripped = text[: m.start()].rstrip("#").rstrip()
    return stripped, explicit


def page_anchors(headings: list[tuple[str, str | None]], reserved: set[str] | None = None) -> list[str]:
    """Anchors of a page's headings, given each heading's plain text and explicit id (or ``None``)."""
    used: set[str] = {explicit for _, explicit in headings if explicit}
    if reserved:
        used |= reserved
    counters: dict[str, int] = {}
    anchors = []
    for text, explicit in headings:
        anchors.append(explicit if explicit else unique(slugify(text), used, counters))
    return anchors
