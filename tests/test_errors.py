"""One exception family (issue 25 item 3): every exception class rulespy defines is a ``RulesError`` of one
of the three kinds, and carries ``path`` and ``line`` (``None`` where it has no place)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from rulespy.errors import KINDS, BookError, IllegalDeclaration, InvalidInput, RulesError

PACKAGE = Path(__file__).resolve().parents[1] / "rulespy"


def _exception_classes() -> list[type[BaseException]]:
    """Every class defined at the top of a ``rulespy`` module that is an exception (read with ``ast``
    first, so only the modules that define a class are imported)."""
    found: list[type[BaseException]] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [node.name for node in tree.body if isinstance(node, ast.ClassDef) and node.bases]
        if not names:
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        classes = [getattr(module, name) for name in names]
        found += [c for c in classes if isinstance(c, type) and issubclass(c, BaseException)]
    return found


CLASSES = [c for c in _exception_classes() if c is not RulesError]


def test_the_family_was_found_whole() -> None:
    names = {c.__name__ for c in CLASSES}
    assert {"CheckError", "RenderError", "YAMLTooLarge", "TooLarge", "ReleaseError", "StampError"} <= names
    assert len(CLASSES) >= 20


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__}.{c.__name__}")
def test_every_exception_rulespy_defines_is_a_rules_error_of_one_kind(cls: type[BaseException]) -> None:
    assert issubclass(cls, RulesError)
    assert cls.kind in KINDS
    assert sum(issubclass(cls, kind) for kind in (IllegalDeclaration, InvalidInput, BookError)) == 1


def test_an_input_error_is_located_and_a_refusal_names_its_rule() -> None:
    from rulespy.yamlbudget import YAMLTooLarge

    too_large = YAMLTooLarge("the document is nested more than 64 levels deep", 7)
    too_large.path = "a.yaml"
    assert isinstance(too_large, ValueError)  # still caught where a ValueError was
    assert too_large.located() == "a.yaml:7: the document is nested more than 64 levels deep"
    refusal = IllegalDeclaration("core/shooting.md#which-weapons-fire", "no weapon can fire")
    assert (refusal.kind, refusal.path, refusal.line) == ("illegal-declaration", None, None)
    assert refusal.located() == "no weapon can fire"


def test_a_book_error_is_located_where_it_has_a_place() -> None:
    from rulespy.check.findings import CheckError
    from rulespy.render.stage import RenderError

    assert CheckError("not valid YAML", "concepts.yml", 3).located() == "concepts.yml:3: not valid YAML"
    assert RenderError(["a.md:1: x"]).kind == "book-error"


def test_the_example_server_imports_nothing_of_rulespy_before_its_tree_is_on_the_path() -> None:
    """``rulespy/coverage/sandbox.py`` is run whole as the example server, which puts the tree it serves on
    its path only then: an import of rulespy at its top would load another tree's (the installed one)."""
    tree = ast.parse((PACKAGE / "coverage" / "sandbox.py").read_text(encoding="utf-8"))
    top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    names = [a.name for n in top if isinstance(n, ast.Import) for a in n.names]
    names += [n.module or "" for n in top if isinstance(n, ast.ImportFrom)]
    assert [name for name in names if name.startswith("rulespy")] == []
