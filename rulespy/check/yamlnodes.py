"""YAML read as nodes (with line numbers), safely: nothing is ever constructed from a tag.

``mkdocs.yml`` may hold tags such as ``!!python/name:material.extensions.emoji.twemoji`` or ``!ENV``;
composing (not loading) the document keeps them as plain values, so no code is imported or run.
Composing goes through ``rulespy.yamlbudget``: a document whose aliases expand it past a small budget is
refused at the line of the alias, before anything walks it.

PyYAML is imported by ``compose`` only: the helpers tell nodes apart by their ``id`` (``scalar``,
``sequence``, ``mapping``), so a check that takes ``concepts.yml`` and ``mkdocs.yml`` from the cache
(``runner._configuration``) never loads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulespy.check.findings import CheckError

if TYPE_CHECKING:
    import yaml


def compose(data: bytes, shown: str) -> yaml.Node | None:
    """The root node of YAML text ``data`` read from file ``shown`` (``None`` if empty); ``CheckError``
    with its line if not YAML. Read the file with ``files.read_config`` (a bounded regular file)."""
    import yaml

    from rulespy import yamlbudget

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CheckError(f"not UTF-8 (byte {error.start})", shown, 1) from None
    try:
        return yamlbudget.compose(text)  # nodes only, expansion bounded
    except yamlbudget.YAMLTooLarge as error:
        raise CheckError(error.message, shown, error.line) from None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = mark.line + 1 if mark is not None else 1
        problem = getattr(error, "problem", None) or "invalid YAML"
        raise CheckError(f"not valid YAML: {problem}", shown, line) from None


def line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def column(node: yaml.Node) -> int:
    return int(node.start_mark.column) + 1


def _kind(node: yaml.Node) -> str | None:
    """``scalar``, ``sequence`` or ``mapping``: the ``id`` of PyYAML's node classes."""
    return getattr(node, "id", None)


def is_scalar(node: yaml.Node) -> bool:
    return _kind(node) == "scalar"


def is_mapping(node: yaml.Node) -> bool:
    return _kind(node) == "mapping"


def is_sequence(node: yaml.Node) -> bool:
    return _kind(node) == "sequence"


def scalar(node: yaml.Node) -> str | None:
    """A scalar's text, whatever its tag; ``None`` for mappings and sequences."""
    return str(node.value) if is_scalar(node) else None


def pairs(node: yaml.Node) -> list[tuple[yaml.Node, yaml.Node]]:
    return list(node.value) if is_mapping(node) else []


def items(node: yaml.Node) -> list[yaml.Node]:
    return list(node.value) if is_sequence(node) else []


def is_null(node: yaml.Node) -> bool:
    return is_scalar(node) and node.tag.endswith(":null")
