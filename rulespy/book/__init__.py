"""The rule book as frozen data, read once: the one reader ``check``, ``render``, ``coverage`` and
``editions`` share.

- ``rulespy.book.book``: ``Book.open(root, language=None)``, its ``Page`` objects and the one cache;
- ``rulespy.book.markdown``: the one markdown-it configuration, and the count of parses;
- ``rulespy.book.sections``: the one ``Section`` (extent, title, first paragraph, hash, stamp) and the
  one staleness rule;
- ``rulespy.book.links``: the one link resolution;
- ``rulespy.book.digest``: the one digest of rulespy's code that cached outputs depend on.

The book stands beside the engine with the checker: it imports nothing of ``rulespy.core``,
``sequences``, ``timing``, ``commands``, ``state``, ``scenario`` or ``odds``
(``tests/test_import_layers.py`` says so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulespy.book.links import Target, resolve
from rulespy.book.sections import Section, section_hash, stale_reason

if TYPE_CHECKING:
    from rulespy.book.book import Book, Page

__all__ = ["Book", "Page", "Section", "Target", "resolve", "section_hash", "stale_reason"]


def __getattr__(name: str) -> Any:
    """``Book`` and ``Page`` on first use: ``rulespy.check`` imports the book's lower modules, and the book
    itself reads with the checker's parser."""
    if name in ("Book", "Page"):
        from rulespy.book import book

        return getattr(book, name)
    raise AttributeError(name)
