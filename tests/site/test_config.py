"""mkdocs.yml is read by two generators: a key written twice is silently the last one in both (two
``extra_javascript:`` lists once dropped the rules judge's script from every page)."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def duplicate_keys(text: str) -> list[str]:
    """Every mapping key written twice in one mapping of ``text``, as ``line: key``."""
    found: list[str] = []

    def walk(node: yaml.Node) -> None:
        if isinstance(node, yaml.MappingNode):
            seen: set[object] = set()
            for key, value in node.value:
                if key.value in seen:
                    found.append(f"{key.start_mark.line + 1}: {key.value}")
                seen.add(key.value)
                walk(value)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                walk(item)

    node = yaml.compose(text, Loader=yaml.SafeLoader)
    if node is not None:
        walk(node)
    return found


def test_a_key_written_twice_is_found() -> None:
    assert duplicate_keys("a: [1]\nb: 2\na: [3]\n") == ["3: a"]


def test_mkdocs_yml_writes_each_key_once() -> None:
    assert duplicate_keys((ROOT / "mkdocs.yml").read_text(encoding="utf-8")) == []
