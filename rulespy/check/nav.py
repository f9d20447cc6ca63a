"""The ``mkdocs.yml`` navigation, read safely (tags such as ``!!python/name:`` stay plain text).

Nav entries name files relative to ``docs_dir`` (default ``docs``); because the site helper decides how
MkDocs sees the top-level folders, an entry is looked up under ``docs_dir`` first and then under the
repository root. External entries (``https://...``) are skipped. Without a ``nav`` key (or without
``mkdocs.yml``) only links count for orphans: a page must be linked from another page.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulespy.book.links import is_external
from rulespy.check import yamlnodes as Y
from rulespy.check.files import read_config

if TYPE_CHECKING:
    import yaml

CONFIG = "mkdocs.yml"


@dataclass(frozen=True)
class NavEntry:
    path: str
    line: int
    column: int


@dataclass(frozen=True)
class Nav:
    present: bool = False  # mkdocs.yml exists
    listed: bool = False  # it has a nav key
    docs_dir: str = "docs"
    entries: tuple[NavEntry, ...] = field(default=())

    def candidates(self, entry: str) -> list[str]:
        """Repository paths an entry may mean, most likely first."""
        entry = entry.strip().lstrip("/")
        found = []
        if self.docs_dir not in ("", "."):
            found.append(posixpath.normpath(posixpath.join(self.docs_dir, entry)))
        found.append(posixpath.normpath(entry))
        return [path for path in found if not path.startswith("..")]


def _walk(node: yaml.Node, out: list[NavEntry]) -> None:
    if Y.is_sequence(node):
        for item in Y.items(node):
            _walk(item, out)
    elif Y.is_mapping(node):
        for _, child in Y.pairs(node):
            _walk(child, out)
    else:
        text = Y.scalar(node)
        if text and not Y.is_null(node) and not is_external(text.strip()):
            out.append(NavEntry(text.strip(), Y.line(node), Y.column(node)))


def load_nav(root: Path) -> Nav:
    data = read_config(root, CONFIG)
    if data is None:
        return Nav()
    node = Y.compose(data, CONFIG)
    docs_dir = "docs"
    nav_node = None
    for key_node, value_node in Y.pairs(node) if node is not None else []:
        name = Y.scalar(key_node)
        if name == "docs_dir":
            docs_dir = (Y.scalar(value_node) or "docs").strip().rstrip("/") or "."
        elif name == "nav":
            nav_node = value_node
    entries: list[NavEntry] = []
    if nav_node is not None:
        _walk(nav_node, entries)
    return Nav(True, nav_node is not None and not Y.is_null(nav_node), docs_dir, tuple(entries))
