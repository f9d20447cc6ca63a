"""Heading anchors exactly as the published site computes them.

The site is built by MkDocs with Python-Markdown's ``toc`` and ``attr_list`` extensions, so:

* an explicit ``{#id}`` at the end of a heading (``attr_list``) is the anchor, and is reserved first;
* any other heading gets ``toc.slugify(text, "-")`` of its plain text (ASCII-folded, lower-cased,
  punctuation dropped, runs of spaces and dashes made one dash);
* a slug already used on the page is suffixed ``_1``, ``_2``... (``toc.unique``).

Python-Markdown's own functions are used when it is installed (it is, with the site extras); the
fallbacks below are copies kept equal to them by ``tests/check/test_slugs.py``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import MutableSet

# attr_list's heading pattern: `` {#id .class key=value}`` at the very end of the heading text.
_ATTR_HEADER_RE = re.compile(r"[ ]+\{\:?[ ]*([^\}\n ][^\n]*)\}[ ]*$")
_IDCOUNT_RE = re.compile(r"^(.*)_([0-9]+)$")
_ATTR_TOKEN_RE = re.compile(r"""[^ =}]+=".*?"|[^ =}]+='.*?'|[^ =}]+=[^ =}]+|[^ =}]+| """)


def _fallback_slugify(value: str, separator: str) -> str:
    value = unicodedata.normalize("NFKD", value)
    value = value.encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(rf"[{separator}\s]+", separator, value)


def _fallback_unique(id: str, ids: MutableSet[str]) -> str:
    while id in ids or not id:
        m = _IDCOUNT_RE.match(id)
        id = f"{m.group(1)}_{int(m.group(2)) + 1}" if m else f"{id}_1"
    ids.add(id)
    return id


try:  # the real thing, when Python-Markdown is installed
    from markdown.extensions.toc import slugify as _toc_slugify
    from markdown.extensions.toc import unique as _toc_unique
except ImportError:  # pragma: no cover - the site extras are part of the dev install
    _toc_slugify = None
    _toc_unique = None


def slugify(text: str) -> str:
    """The ``toc`` slug of a heading's plain text."""
    if _toc_slugify is not None:
        return str(_toc_slugify(text, "-"))
    return _fallback_slugify(text, "-")


def unique(slug: str, used: MutableSet[str]) -> str:
    """``slug`` made unique among ``used`` (and added to it), as ``toc`` does."""
    if _toc_unique is not None:
        return str(_toc_unique(slug, used))
    return _fallback_unique(slug, used)


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
    anchors = []
    for text, explicit in headings:
        anchors.append(explicit if explicit else unique(slugify(text), used))
    return anchors
