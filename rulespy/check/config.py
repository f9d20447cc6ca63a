"""The site's configuration checked like the rules: ``mkdocs.yml`` and what it INHERITs (RS082-RS084).

Both generators read ``mkdocs.yml`` and run what it names, so a pull request that changes it changes
what the build machine does. What the site needs is small, and everything else is a finding at its line:

- **RS082, runs code or reads the build machine**: a ``hooks`` key (mkdocs imports and runs those Python
  files), and any YAML tag outside the plain ones (``str``, ``int``, ``float``, ``bool``, ``null``,
  ``map``, ``seq``, ``timestamp``, ``binary``, ``merge``, ``set``, ``omap``, ``pairs``): ``!!python/name:``
  and ``!!python/object`` import and run code under both generators, ``!ENV`` writes an environment
  variable into the pages, ``!relative`` reads a path of the build machine.
- **RS083, not in the allowed list**: a plugin other than ``ALLOWED_PLUGINS``, a markdown extension
  other than ``ALLOWED_EXTENSIONS`` (an extension is a Python module imported by name: one the pull
  request adds beside ``mkdocs.yml`` would be run), a theme other than ``material``. The lists are the
  ones the site uses; ``pymdownx.snippets`` is not among them (no page includes a file, and it would
  publish any file of the clone, ``.git/config`` included).
- **RS080** for a value that holds raw HTML (``copyright: <script>...``): the theme writes such
  values into every page unescaped.
- **RS083** also for ``extra.analytics`` and ``extra.consent``, which load scripts from elsewhere.
- **RS084, a path out of the repository**: ``docs_dir``, ``site_dir``, ``theme.custom_dir``,
  ``INHERIT``, ``watch`` and snippets' ``base_path`` (read relative to the file that names them, symlinks
  followed) must stay inside it; ``extra_css`` and ``extra_javascript`` are addresses on the site, which
  must name a file of the site (no scheme, no ``//host``, no ``/path``, no climbing out): the site never
  loads a script or a style from elsewhere.

The file is composed, never loaded (``yamlnodes.compose``, with its alias budget): no tag is ever
constructed. ``python -m rulespy.render.build`` runs the same check before either generator starts.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from rulespy.check import yamlnodes as Y
from rulespy.check.files import read_config
from rulespy.check.findings import Finding
from rulespy.check.markup import unsafe_address

if TYPE_CHECKING:
    import yaml

CONFIG = "mkdocs.yml"
#: The plugins the site uses (``mkdocs.yml``): the theme's search, nothing else.
ALLOWED_PLUGINS = frozenset({"search"})
#: The markdown extensions the site uses (``mkdocs.yml``).
ALLOWED_EXTENSIONS = frozenset(
    {
        "abbr",
        "admonition",
        "attr_list",
        "md_in_html",
        "tables",
        "toc",
        "pymdownx.details",
        "pymdownx.superfences",
        "pymdownx.tilde",
    }
)
ALLOWED_THEMES = frozenset({"material"})
_YAML = "tag:yaml.org,2002:"
_PLAIN_TAGS = frozenset(
    _YAML + name
    for name in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp", "binary", "merge")
    + ("set", "omap", "pairs")
)
#: Material's ``extra`` settings that make every page load a script from another site.
_EXTRA_LOADING = frozenset({"analytics", "consent"})
_TAG_START = re.compile(r"<[A-Za-z!/?]")
#: Keys whose value is a folder or file of the build machine, read relative to the file naming them.
_PATH_KEYS = ("docs_dir", "site_dir", "INHERIT", "watch")
#: Keys whose value is an address on the site.
_ADDRESS_KEYS = ("extra_css", "extra_javascript")


class _Reader:
    """The findings of one configuration file and of the files it INHERITs (each read once)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.real_root = os.path.realpath(self.root)
        self.found: list[Finding] = []
        self.read: dict[str, bytes | None] = {}  # every configuration file read: repository path -> bytes

    def file(self, path: str) -> None:
        if path in self.read:
            return
        data = self.read[path] = read_config(self.root, path)
        if data is None:
            return  # absent, or a symlink out of the repository (RS043): never read
        node = Y.compose(data, path)
        if node is None:
            return
        self._tags(path, node, set())
        for key_node, value in Y.pairs(node):
            self._key(path, Y.scalar(key_node) or "", key_node, value)

    def _add(self, path: str, node: yaml.Node, code: str, message: str) -> None:
        self.found.append(Finding(path, Y.line(node), Y.column(node), code, message))

    def _tags(self, path: str, node: yaml.Node, seen: set[int]) -> None:
        if id(node) in seen:  # an alias: its node was walked where the anchor is
            return
        seen.add(id(node))
        if node.tag not in _PLAIN_TAGS:
            tag = "!!" + node.tag.removeprefix(_YAML) if node.tag.startswith(_YAML) else node.tag
            self._add(path, node, "RS082", f"YAML tag {tag!r}: it runs code or reads the build machine")
        text = Y.scalar(node)
        if text is not None and _TAG_START.search(text):
            # the theme writes values such as site_name and copyright into every page unescaped
            self._add(path, node, "RS080", f"{text[:40]!r} holds raw HTML, which the theme would publish")
        for child in Y.items(node):
            self._tags(path, child, seen)
        for key, value in Y.pairs(node):
            self._tags(path, key, seen)
            self._tags(path, value, seen)

    def _key(self, path: str, key: str, key_node: yaml.Node, value: yaml.Node) -> None:
        if key == "hooks":
            self._add(path, key_node, "RS082", "hooks: mkdocs would import and run these Python files")
        elif key == "plugins":
            for name, node, _ in _names(value):
                if name not in ALLOWED_PLUGINS:
                    allowed = ", ".join(sorted(ALLOWED_PLUGINS))
                    self._add(path, node, "RS083", f"plugin {name!r} is not one the site uses ({allowed})")
        elif key == "markdown_extensions":
            for name, node, options in _names(value):
                if name not in ALLOWED_EXTENSIONS:
                    message = f"markdown extension {name!r} is not one the site uses (check/config.py)"
                    self._add(path, node, "RS083", message)
                for option, option_value in Y.pairs(options) if options is not None else ():
                    if Y.scalar(option) == "base_path":
                        self._paths(path, option_value)
        elif key == "extra":
            for option, _ in Y.pairs(value):
                if Y.scalar(option) in _EXTRA_LOADING:
                    message = f"extra.{Y.scalar(option)} loads scripts from elsewhere on every page"
                    self._add(path, option, "RS083", message)
        elif key == "theme":
            for option, option_value in Y.pairs(value):
                name = Y.scalar(option) or ""
                if name == "name" and (Y.scalar(option_value) or "") not in ALLOWED_THEMES:
                    self._add(path, option_value, "RS083", f"theme {Y.scalar(option_value)!r}: not material")
                elif name == "custom_dir":
                    self._paths(path, option_value)
            if Y.is_scalar(value) and (Y.scalar(value) or "") not in ALLOWED_THEMES:
                self._add(path, value, "RS083", f"theme {Y.scalar(value)!r}: not material")
        elif key in _PATH_KEYS:
            self._paths(path, value)
            if key == "INHERIT" and Y.is_scalar(value):
                inherited = self._inside(path, Y.scalar(value) or "")
                if inherited is not None:
                    self.file(inherited)
        elif key in _ADDRESS_KEYS:
            for node in _scalars(value, "path"):
                why = unsafe_address(Y.scalar(node) or "", "index.md", raw_html=True, schemes=frozenset())
                if why is not None:
                    self._add(path, node, "RS084", f"{key} {Y.scalar(node)!r}: {why}")

    def _paths(self, path: str, value: yaml.Node) -> None:
        for node in _scalars(value, None):
            text = Y.scalar(node) or ""
            if text and not Y.is_null(node) and self._inside(path, text) is None:
                self._add(path, node, "RS084", f"{text!r} leads outside the repository")

    def _inside(self, path: str, text: str) -> str | None:
        """The repository path ``text`` (named in configuration file ``path``) resolves to, symlinks
        followed, or None when it leads outside the repository."""
        full = os.path.realpath(os.path.join(self.root, posixpath.dirname(path), text))
        if full != self.real_root and not full.startswith(self.real_root + os.sep):
            return None
        return Path(full).relative_to(self.real_root).as_posix()


def _names(value: yaml.Node) -> Iterator[tuple[str, yaml.Node, yaml.Node | None]]:
    """Each entry of a ``plugins`` or ``markdown_extensions`` list (a name, or a one-key mapping of a
    name to its options) or mapping: its name, the node that names it, its options (None without)."""
    for item in Y.items(value):
        if Y.is_scalar(item):
            yield Y.scalar(item) or "", item, None
        for key, options in Y.pairs(item):
            yield Y.scalar(key) or "", key, options
    for key, options in Y.pairs(value):
        yield Y.scalar(key) or "", key, options


def _scalars(value: yaml.Node, key: str | None) -> Iterator[yaml.Node]:
    """The scalar ``value``, or each scalar of the list ``value`` (an item that is a mapping gives its
    ``key``, as ``extra_javascript: [{path: x.js, type: module}]`` does)."""
    if Y.is_scalar(value):
        yield value
    for item in Y.items(value):
        if Y.is_scalar(item):
            yield item
        for option, option_value in Y.pairs(item):
            if key is not None and Y.scalar(option) == key and Y.is_scalar(option_value):
                yield option_value


def findings(root: Path) -> tuple[list[Finding], dict[str, bytes | None]]:
    """RS082-RS084 of ``root/mkdocs.yml`` and every file it INHERITs, sorted; and each configuration
    file read (repository path: its bytes, None when absent). ``CheckError`` when one is not YAML."""
    reader = _Reader(root)
    reader.file(CONFIG)
    return sorted(reader.found), reader.read
