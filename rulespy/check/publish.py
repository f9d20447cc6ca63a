"""What the site may publish: the repository's files listed the way ``rulespy check`` lists them."""

from __future__ import annotations

from pathlib import Path

from rulespy.check.files import Layout, Publishable, Tree
from rulespy.check.registry import load_registry


def publishable(root: Path, layout: Layout | None = None, tree: Tree | None = None) -> Publishable:
    """The files of the repository at ``root`` that may be published, listed the way ``rulespy check``
    lists them: no symlink that resolves outside the repository, no folder symlink followed, nothing in
    hidden, ``node_modules`` or excluded top-level folders. ``layout`` defaults to concepts.yml's;
    ``tree``: the walk already made of ``root`` (the rule book's), not walked again."""
    if tree is None:
        if layout is None:
            layout = load_registry(Path(root)).layout
        tree = Tree(Path(root), layout).walk()
    pages = tuple(path for path in tree.markdown if tree.is_page(path))
    return Publishable(pages, tuple(sorted(tree.files)), tuple(sorted(tree.outside)))
