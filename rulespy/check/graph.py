"""The repository's link graph: which page links where, and which anchors each page has.

Links are resolved by the rule book's one link resolution (``rulespy.book.links``).

``build_graph(root)`` is the entry point other tools use (``rulespy render``, ``rulespy coverage``):

>>> graph = build_graph(Path("."))                      # doctest: +SKIP
>>> graph.referenced_by("core/damage.md")               # doctest: +SKIP
['commands/command_shoot.md', 'core/shooting.md', 'index.md']
"""

from __future__ import annotations

from collections.abc import Collection
from functools import partial
from pathlib import Path

from rulespy.book.links import Target, resolve
from rulespy.check.cache import DocumentCache, digest
from rulespy.check.doc import Document, Heading
from rulespy.check.files import Layout, Tree
from rulespy.check.parse import parse_bytes


def linked_paths(path: str, document: Document, targets: list[Target]) -> tuple[str, ...]:
    """Repository paths the links of ``document`` (at ``path``, links resolved: ``targets``) point to, in
    order, each once; images and links to ``path`` itself left out."""
    found = (
        target.path
        for link, target in zip(document.links, targets, strict=True)
        if link.kind != "image" and target.path is not None and target.path != path
    )
    return tuple(dict.fromkeys(found))


class LinkGraph:
    """Pages, their headings and anchors, and the links between them (repository-relative paths)."""

    def __init__(self, tree: Tree, documents: dict[str, Document]) -> None:
        self.tree = tree
        self.documents = documents
        #: every checked markdown file (``documents`` may hold only some of them in a summary graph)
        self.paths: Collection[str] = frozenset(documents)
        #: each document's links resolved, in the order of ``document.links``
        self.targets: dict[str, list[Target]] = {
            path: [resolve(path, link.target) for link in doc.links] for path, doc in documents.items()
        }
        self._connect({path: linked_paths(path, doc, self.targets[path]) for path, doc in documents.items()})

    def _connect(self, links: dict[str, tuple[str, ...]]) -> None:
        """The edges, from each page's ``linked_paths`` (a folder link lands on its index page)."""
        self._out: dict[str, set[str]] = {}
        self._in: dict[str, set[str]] = {}
        landing: dict[str, str] = {}  # many pages link to the same path: resolve each once
        for path, linked in links.items():
            targets = set()
            for link in linked:
                found = landing.get(link)
                if found is None:
                    found = landing[link] = self.page_for(link) or link
                targets.add(found)
            self._out[path] = targets
            for target in targets:
                self._in.setdefault(target, set()).add(path)

    def page_for(self, path: str) -> str | None:
        """The markdown file a link to ``path`` lands on: the file itself, or a folder's index/README."""
        kind = self.tree.kind(path)
        if kind == "file":
            return path
        if kind == "dir":
            for name in ("index.md", "README.md", "readme.md"):
                candidate = f"{path}/{name}" if path else name
                if self.tree.kind(candidate) == "file":
                    return candidate
        return None

    def pages(self) -> list[str]:
        return sorted(path for path in self.paths if self.tree.is_page(path))

    def document(self, path: str) -> Document | None:
        """The parsed checked file ``path`` (``None`` when it is not a checked markdown file)."""
        return self.documents.get(path)

    def anchor_info(self, path: str) -> tuple[bool, tuple[str, ...]] | None:
        """(file could not be read, its anchors in order) for a checked markdown file, else ``None``."""
        document = self.documents.get(path)
        return None if document is None else (bool(document.problems), tuple(document.anchors))

    def known_signature(self, path: str) -> bytes | None:
        """``anchor_signature`` of a checked file when already known without computing it, else ``None``."""
        return None

    def links_from(self, path: str) -> set[str]:
        """Repository paths ``path`` links to (existing or not; images and links to itself left out)."""
        return set(self._out.get(path, ()))

    def referenced_by(self, path: str) -> list[str]:
        """Sorted repository paths of the markdown files that link to ``path``."""
        return sorted(self._in.get(path, ()))

    def anchors(self, path: str) -> dict[str, int]:
        """Anchor -> line of every heading id and HTML ``id``/``name`` of ``path`` (line 0 for HTML ids)."""
        document = self.documents.get(path)
        return dict(document.anchors) if document is not None else {}

    def headings(self, path: str) -> list[Heading]:
        """Headings of ``path`` in order: ``.text``, ``.level``, ``.anchor``, ``.line``, ``.explicit``."""
        document = self.documents.get(path)
        return list(document.headings) if document is not None else []


def anchor_signature(info: tuple[bool, tuple[str, ...]] | None) -> bytes:
    """A short digest of ``anchor_info``: what a link's #fragment check depends on in the target file."""
    if info is None:
        return b""
    return digest(("1" if info[0] else "0").encode() + "\x00".join(info[1]).encode("utf-8", "surrogatepass"))


def build_graph(root: Path, layout: Layout | None = None, use_cache: bool = True) -> LinkGraph:
    """Walk and parse the repository at ``root`` and return its link graph."""
    tree = Tree(Path(root), layout or Layout()).walk()
    cache = DocumentCache(tree.root, salt=f"graph:{tree.layout.max_bytes}", enabled=use_cache)
    parse = partial(parse_bytes, max_bytes=tree.layout.max_bytes)
    documents = {}
    for path in tree.markdown:
        data = tree.read(path)
        documents[path] = cache.load(path, data, digest(data) if data is not None else b"", parse)
    cache.save()
    return LinkGraph(tree, documents)
