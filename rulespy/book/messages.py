"""``make messages`` (``python -m rulespy.book.messages``): the engine's message catalogues brought up to
date (``rulespy.i18n.update``), with the title of every rule section of each translated edition.

The sections are the book's (``rulespy.book.sections``), in the rule folders of the ``check: rule_dirs``
setting that the book reads (``Book.rule_dirs``): the catalogues sit below the book and cannot read the
setting themselves, so the titles are read here and handed to them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rulespy import i18n
from rulespy.book.book import Book


def section_titles(root: Path, code: str) -> dict[str, str]:
    """Every rule section's title in the ``code`` edition (``ru/``), by ``PATH#ANCHOR``."""
    book = Book.open(root, code)
    titles: dict[str, str] = {}
    for path in book.rule_paths():
        page = book.page(path)
        for section in page.sections if page is not None else ():
            titles[f"{path}#{section.anchor}"] = section.title
    return titles


def all_titles(root: Path) -> dict[str, dict[str, str]]:
    """``section_titles`` of every translated language of the engine."""
    return {code: section_titles(root, code) for code in i18n.LANGUAGES[1:]}


def main(argv: list[str] | None = None) -> int:
    """``python -m rulespy.book.messages`` in the repository: ``rulespy.i18n.update`` with the titles."""
    if sys.argv[1:] if argv is None else argv:
        print("usage: python -m rulespy.book.messages", file=sys.stderr)
        return 2
    root = Path.cwd()
    i18n.update(root, all_titles(root))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
