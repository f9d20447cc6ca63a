"""Every YAML file rulespy reads, composed with a bounded size: aliases cannot make a document huge.

Composing a document keeps an alias as a second reference to the node it names, so composing (or
``yaml.safe_load``) a "billion laughs" document is cheap, and walking the result is what expands it:
nine aliases of nine aliases of ... a list take gigabytes. Here each alias counts as the whole node it
names, while the document is composed, and a document that expands to more than ``MAX_NODES`` nodes,
or nests deeper than ``MAX_DEPTH``, or holds an alias inside the node it names, is refused with the
line of that alias (or value). ``concepts.yml`` and ``mkdocs.yml`` (read by ``rulespy.check``, with
libyaml's parser where PyYAML has it) and scenarios (read by ``rulespy.scenario``, always with PyYAML's
pure-Python parser: see ``compose``) all go through ``compose``; this module imports nothing of the
engine or the checker, so both may use it.

Nothing is ever constructed from a tag: the result is nodes, and the reader decides what to accept.
"""

from __future__ import annotations

from typing import Any

import yaml
from yaml.composer import Composer
from yaml.events import AliasEvent, CollectionStartEvent
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import Resolver
from yaml.scanner import Scanner

from rulespy.errors import InvalidInput

MAX_NODES = 50_000
"""The most nodes (keys, values, lists and mappings; an alias counts all it names) a document may hold."""
MAX_DEPTH = 64
"""The deepest nesting of lists and mappings accepted."""


class YAMLTooLarge(InvalidInput, ValueError):
    """A document over the budget; ``line`` (1-based) is the alias or value where it went over."""

    line: int

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class _BoundedComposer(Composer):
    """PyYAML's composer, counting the expanded size of the document as it goes."""

    def __init__(self) -> None:
        super().__init__()
        self._count = 0
        self._depth = 0
        self._sizes: dict[int, int] = {}  # id(anchored node) -> values it stands for, once composed

    def _add(self, size: int, line: int) -> None:
        self._count += size
        if self._count > MAX_NODES:
            message = f"the document expands to more than {MAX_NODES:,} keys and values, aliases included"
            raise YAMLTooLarge(message, line)

    def compose_node(self, parent: Any, index: Any) -> Any:
        event: Any = self.peek_event()  # type: ignore[attr-defined]  # the parser's, mixed in below
        line = event.start_mark.line + 1
        if isinstance(event, AliasEvent):
            node = super().compose_node(parent, index)  # an undefined alias is PyYAML's own error
            size = self._sizes.get(id(node))
            if size is None:
                raise YAMLTooLarge(f"the alias *{event.anchor} is inside the value it names", line)
            self._add(size, line)
            return node
        self._add(1, line)
        before = self._count
        if isinstance(event, CollectionStartEvent):
            self._depth += 1
            if self._depth > MAX_DEPTH:
                raise YAMLTooLarge(f"the document is nested more than {MAX_DEPTH} levels deep", line)
        node = super().compose_node(parent, index)
        if isinstance(event, CollectionStartEvent):
            self._depth -= 1
        if event.anchor is not None:
            self._sizes[id(node)] = self._count - before + 1
        return node


class _PythonLoader(_BoundedComposer, Reader, Scanner, Parser, Resolver):
    """PyYAML's own pure-Python reader, scanner and parser: the only ones the site's rules judge has."""

    def __init__(self, stream: str) -> None:
        Reader.__init__(self, stream)
        Scanner.__init__(self)
        Parser.__init__(self)
        Resolver.__init__(self)
        _BoundedComposer.__init__(self)


_Loader: type = _PythonLoader
if getattr(yaml, "__with_libyaml__", False):
    from yaml.cyaml import CParser  # type: ignore[attr-defined]

    class _LibyamlLoader(_BoundedComposer, CParser, Resolver):  # libyaml reads, the bounded composer composes
        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            Resolver.__init__(self)
            _BoundedComposer.__init__(self)

    _Loader = _LibyamlLoader


def compose(text: str, *, portable: bool = False) -> yaml.Node | None:
    """The root node of ``text`` (``None`` when empty).

    ``portable`` reads it with PyYAML's pure-Python parser even where libyaml is installed: libyaml is
    faster, but it accepts texts the pure parser refuses (a tab between flow items, ``{id?: x}``) and
    refuses others it accepts (``at:[1, 2]``), and words its errors differently. Scenarios are read
    this way, so that the command line and the site's rules judge (Pyodide, pure Python only) accept
    the same texts and give the same ``LINE: message`` for the rest.

    Raises ``YAMLTooLarge`` over the budget, ``yaml.YAMLError`` when it is not YAML.
    """
    loader = _PythonLoader(text) if portable else _Loader(text)
    try:
        node: yaml.Node | None = loader.get_single_node()
        return node
    finally:
        loader.dispose()
