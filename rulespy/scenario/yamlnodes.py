"""YAML text to a small tree of located values: every value and every mapping key knows its line.

Only plain YAML data is accepted (mappings, sequences, strings, numbers, booleans, null): the text is
composed into nodes by PyYAML's pure-Python parser (``rulespy.yamlbudget.compose(portable=True)``), never
libyaml's: the site's rules judge runs this loader in Pyodide, where only the pure parser exists, and the
command line must accept the same texts and word a syntax error the same way. Any other tag
(``!!python/object`` and friends) is refused with its line. Duplicate mapping keys, which
``yaml.safe_load`` silently accepts, are refused too. Aliases are followed, but the tree they expand to
is capped (``rulespy.yamlbudget``, shared with every YAML file rulespy reads), as are the text's size and
its nesting depth, so that no document can hang or crash the loader.
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml

from rulespy import yamlbudget
from rulespy.errors import InvalidInput
from rulespy.frozen import frozen

MAX_BYTES = 1_000_000
"""The largest scenario text accepted (1 MB)."""
_TAG = "tag:yaml.org,2002:"
_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")
"""What PyYAML counts as a line break in its marks."""
_SCALAR_TAGS = {_TAG + name for name in ("str", "int", "float", "bool", "null")}


@frozen(slots=True)
class Scalar:
    """A scalar value of the document and its line."""

    value: str | int | float | bool | None
    line: int


@frozen(slots=True)
class Seq:
    """A sequence of the document and its line."""

    items: tuple[Node, ...]
    line: int


@frozen(slots=True)
class Entry:
    """A mapping's entry: the line of its key and its value."""

    key_line: int
    value: Node


@frozen(slots=True)
class Map:
    """A mapping of the document (entries by key, in document order) and its line."""

    entries: dict[str, Entry]
    line: int


Node = Scalar | Seq | Map


def parse(text: str, path: str) -> Node:
    """The located tree of ``text``; raises InvalidInput with the line of the first problem."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise InvalidInput(f"the scenario is larger than {MAX_BYTES // 1_000_000} MB", 1, path)
    try:
        root = yamlbudget.compose(text, portable=True)
    except yamlbudget.YAMLTooLarge as error:
        raise InvalidInput(error.message.replace("the document", "the scenario"), error.line, path) from None
    except yaml.MarkedYAMLError as error:
        line, problem = _syntax_error(error)
        raise InvalidInput(f"YAML syntax error: {problem}", line, path) from None
    except yaml.reader.ReaderError as error:  # a character YAML does not allow, at its own line
        line = len(_LINE_BREAK.findall(text, 0, error.position)) + 1
        problem = f"unacceptable character #x{error.character:04x}: {error.reason}"
        raise InvalidInput(f"YAML syntax error: {problem}", line, path) from None
    # No other YAMLError can come: PyYAML's pure reader, scanner, parser and composer raise only the
    # MarkedYAMLError and ReaderError above (its resolver's errors are for registering resolvers).
    if root is None:
        raise InvalidInput("the scenario is empty", 1, path)
    return _Converter(path).convert(root)


def _syntax_error(error: yaml.MarkedYAMLError) -> tuple[int, str]:
    """The line and the words of PyYAML's syntax error: where the reader should look, and why."""
    mark = error.problem_mark or error.context_mark
    line = mark.line + 1 if mark is not None else 1
    problem = error.problem or error.context or "invalid YAML"
    context, start = error.context, error.context_mark.line + 1 if error.context_mark else None
    if context is None or start is None:
        return line, problem
    if "flow" in context or problem == "found unexpected end of stream":
        # An unclosed [..], {..} or quote: the offending value is where it opened, not where parsing
        # gave up (for a quote, the end of the file).
        if start != line:
            what = context.split()[-1].replace("scalar", "quote")  # mapping, sequence, node or quote
            return start, f"{problem} (the {what} opened on line {start} is not closed)"
    elif not context.startswith("while "):  # two places: a duplicate anchor, a second document
        return line, f"{context} on line {start}, {problem} here"
    return line, problem


class _Converter:
    def __init__(self, path: str) -> None:
        self.path = path
        self.constructor = yaml.constructor.SafeConstructor()

    def convert(self, node: yaml.Node) -> Node:
        line = node.start_mark.line + 1
        if isinstance(node, yaml.ScalarNode):
            return Scalar(self._scalar(node, line), line)
        if isinstance(node, yaml.SequenceNode):
            self._check_tag(node, _TAG + "seq", line)
            return Seq(tuple(self.convert(item) for item in node.value), line)
        if isinstance(node, yaml.MappingNode):
            self._check_tag(node, _TAG + "map", line)
            return self._mapping(node, line)
        raise InvalidInput("unsupported YAML node", line, self.path)  # pragma: no cover

    def _check_tag(self, node: yaml.Node, expected: str, line: int) -> None:
        if node.tag != expected:
            raise InvalidInput(
                f"the YAML tag {_shown(node.tag)} is not allowed: a scenario holds plain data only",
                line,
                self.path,
            )

    def _scalar(self, node: yaml.ScalarNode, line: int) -> str | int | float | bool | None:
        if node.tag not in _SCALAR_TAGS:
            raise InvalidInput(
                f"the YAML tag {_shown(node.tag)} is not allowed: a scenario holds plain data only "
                "(quote the value if it is text)",
                line,
                self.path,
            )
        try:
            value: Any = self.constructor.construct_object(node)
        except ValueError:  # Python refuses integers of more than 4,300 digits
            message = f"the number {node.value[:20]}... has too many digits"
            raise InvalidInput(message, line, self.path) from None
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidInput(f"the number {node.value!r} is not finite", line, self.path)
        if isinstance(value, str):
            self._no_surrogate(value, line)
        return value  # type: ignore[no-any-return]

    def _no_surrogate(self, text: str, line: int) -> None:
        """A ``"\\uD800"`` escape makes half of a UTF-16 pair, which no file, terminal or page can hold."""
        found = _SURROGATE.search(text)
        if found is not None:
            code = f"\\u{ord(found.group(0)):04X}"
            raise InvalidInput(
                f"the text '{text.encode('utf-8', 'backslashreplace').decode('utf-8')[:60]}' "
                f"holds {code}, half of a UTF-16 surrogate pair and not a character: write the character "
                "itself (or \\U0001F600 for one beyond \\uFFFF)",
                line,
                self.path,
            )

    def _mapping(self, node: yaml.MappingNode, line: int) -> Map:
        entries: dict[str, Entry] = {}
        for key_node, value_node in node.value:
            key_line = key_node.start_mark.line + 1
            if key_node.tag == _TAG + "merge":
                raise InvalidInput("merge keys (<<) are not supported in a scenario", key_line, self.path)
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag != _TAG + "str":
                shown = key_node.value if isinstance(key_node, yaml.ScalarNode) else "a collection"
                raise InvalidInput(f"the key {shown!r} is not text: keys must be names", key_line, self.path)
            key = str(key_node.value)
            self._no_surrogate(key, key_line)
            if key in entries:
                first = entries[key].key_line
                raise InvalidInput(
                    f"duplicate key {key!r} (first given on line {first})", key_line, self.path
                )
            entries[key] = Entry(key_line, self.convert(value_node))
        return Map(entries, line)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _shown(tag: str) -> str:
    return "!!" + tag[len(_TAG) :] if tag.startswith(_TAG) else tag


def plain(node: Node) -> Any:
    """The node as plain Python data (dicts, lists, scalars), for values kept verbatim such as ``expect``."""
    if isinstance(node, Scalar):
        return node.value
    if isinstance(node, Seq):
        return [plain(item) for item in node.items]
    return {key: plain(entry.value) for key, entry in node.entries.items()}


def kind(node: Node) -> str:
    """How a value is described in messages: 'a list', 'a mapping', 'the text ...', 'the number ...'."""
    if isinstance(node, Seq):
        return "a list"
    if isinstance(node, Map):
        return "a mapping"
    value = node.value
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    return f"the text {value!r}"
