"""The import graph of ``rulespy`` has no cycle and no upward edge (the layers of CONTRIBUTING.md).

Read with ``ast`` from the source, so nothing is imported to check it. An edge is an ``import`` or
``from ... import`` of a ``rulespy`` module, wherever it is written (a function-local import counts: it is
the same dependency, only later). ``from package import name`` depends on ``package.name`` when that is a
module, else on ``package``. Imports under ``if TYPE_CHECKING:`` count too: they never run, but a type
named from a layer above is a dependency all the same (the code is written against it), and a cycle of
them is a cycle a reader has to untangle.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "rulespy"

#: Bottom to top. A module may import its own layer and the layers below it, never one above.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # The one exception to "a folder is one layer", kept on purpose (CONTRIBUTING, "Layers"): the weapon
    # profile is data the state holds (a battlefield's weapons, a model's by name), while its module stays
    # where the mirror puts it, beside core/ranged_weapons.md, which defines the profile's fields and
    # traits. Being here, it may import nothing above the lowest layer (it imports rulespy.frozen alone).
    (
        "state, dice and errors",
        (
            "rulespy",
            "rulespy.errors",
            "rulespy.frozen",
            "rulespy.dice",
            "rulespy.state",
            "rulespy.yamlbudget",
            "rulespy.wording",
            "rulespy.i18n",
            "rulespy.core.ranged_weapons",
        ),
    ),
    ("core rules", ("rulespy.core", "rulespy.commands")),
    ("sequences", ("rulespy.sequences", "rulespy.timing")),
    ("scenario loader", ("rulespy.scenario",)),
    (
        "readers",
        (
            "rulespy.account",
            "rulespy.odds",
            "rulespy.coverage",
            "rulespy.play",
            "rulespy.editions",
            "rulespy.api",
        ),
    ),
    # The site calls the library (rulespy.api), never the command line; the command line drives the site.
    ("site", ("rulespy.render",)),
    ("command line", ("rulespy.cli",)),
)
#: The checker and the rule book it reads with (``rulespy.book``: the tree, pages, sections, links, read
#: once) stand beside the engine: they import only each other, and the engine never imports them (the
#: readers and the command line may). The book reads with the checker's parser and registry; the
#: checker takes its sections, link resolution and parser configuration from the book.
CHECKER = ("rulespy.check", "rulespy.book")
#: The rule book, which ``check``, ``render``, ``coverage`` and ``editions`` read.
BOOK = "rulespy.book"
#: Tools both sides share: they import nothing of rulespy but each other, so the checker and the book may
#: import them too (the one exception family, the YAML budget whose refusal is one of its errors, and the
#: message catalogues, whose translations the checker verifies: RS090).
SHARED = ("rulespy.errors", "rulespy.i18n", "rulespy.yamlbudget")
READERS = 4  # the index of the lowest layer that may import the checker


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = PACKAGE) -> dict[str, dict[str, int]]:
    """Each ``rulespy`` module's imports of other ``rulespy`` modules, with the line of each (the package's
    own graph is read once a process: five tests ask for it, and its files do not change meanwhile)."""
    graph = _package_graph() if root == PACKAGE else _read_graph(root)
    return {module: dict(edges) for module, edges in graph.items()}


@functools.cache
def _package_graph() -> dict[str, dict[str, int]]:
    return _read_graph(PACKAGE)


def _read_graph(root: Path) -> dict[str, dict[str, int]]:
    files = {_module_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, dict[str, int]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: dict[str, int] = {}
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in node.names:
                    targets.append(f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base)
            for target in targets:
                if target in files and target != name:
                    edges.setdefault(target, node.lineno)
        graph[name] = edges
    return graph


def layer_of(module: str) -> int | None:
    """The index in ``LAYERS`` of the longest prefix that names ``module``; ``None`` for the checker and
    for a module no prefix names. The package itself (``rulespy``) names only its ``__init__``: a new
    module at the top is in no layer until it is listed, never in the lowest by default."""
    best: tuple[int, int] | None = None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or (prefix != "rulespy" and module.startswith(prefix + ".")):
                if best is None or len(prefix) > best[0]:
                    best = (len(prefix), index)
    return None if best is None else best[1]


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _in(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def upward_edges(graph: dict[str, dict[str, int]]) -> list[str]:
    """Every import that goes up a layer, or crosses between the checker and the engine below it."""
    bad: list[str] = []
    for module, edges in sorted(graph.items()):
        for target, line in sorted(edges.items()):
            source_is_checker = _in(module, CHECKER)
            target_is_checker = _in(target, CHECKER)
            where = f"{module} (line {line}) imports {target}"
            if source_is_checker or target_is_checker:
                if source_is_checker and not target_is_checker and target not in SHARED:
                    bad.append(f"{where}: the checker imports none of the engine")
                elif target_is_checker and not source_is_checker:
                    layer = layer_of(module)
                    if layer is None or layer < READERS:
                        bad.append(f"{where}: the engine below its readers never imports the checker")
                continue
            low, high = layer_of(target), layer_of(module)
            if low is None or high is None:
                bad.append(f"{where}: {module if high is None else target} is in no layer (add it to LAYERS)")
            elif low > high:
                bad.append(f"{where}: {LAYERS[high][0]} may not import {LAYERS[low][0]}")
    return bad


def test_shared_tools_import_nothing_of_rulespy_but_each_other() -> None:
    graph = import_graph()
    outside = {module: set(graph[module]) - set(SHARED) for module in SHARED}
    assert outside == {module: set() for module in SHARED}


def test_the_book_imports_nothing_of_the_engine() -> None:
    graph = import_graph()
    book = {module: edges for module, edges in graph.items() if _in(module, (BOOK,))}
    assert book, "rulespy.book is missing"
    assert {
        f"{module} imports {target}"
        for module, edges in book.items()
        for target in edges
        if not _in(target, CHECKER) and target not in SHARED
    } == set()


def test_every_module_is_in_a_layer_or_beside_the_engine() -> None:
    unplaced = [m for m in import_graph() if layer_of(m) is None and not m.startswith(CHECKER)]
    assert unplaced == [], "add each to LAYERS (or to the checker's side)"


def test_the_weapon_profile_is_the_one_module_of_a_higher_folder_in_the_lowest_layer() -> None:
    """The one exception to "a folder is one layer" (see ``LAYERS``); the state imports no other module
    of ``rulespy.core``, and no layer but the lowest names a module of another layer's folder."""
    folders = {prefix for _, prefixes in LAYERS for prefix in prefixes if prefix.count(".") == 1}
    inside = [
        prefix
        for _, prefixes in LAYERS
        for prefix in prefixes
        if prefix.count(".") > 1 and any(prefix.startswith(folder + ".") for folder in folders)
    ]
    assert inside == ["rulespy.core.ranged_weapons"]
    assert layer_of("rulespy.core.ranged_weapons") == 0 and layer_of("rulespy.core.cover") == 1


def test_readers_is_the_layer_of_the_readers() -> None:
    assert LAYERS[READERS][0] == "readers"


def test_rulespy_import_graph_has_no_cycle() -> None:
    assert cycles(import_graph()) == []


def test_rulespy_imports_only_downward() -> None:
    assert upward_edges(import_graph()) == []


@pytest.mark.parametrize(
    ("files", "problem"),
    [
        ({"state.py": "from rulespy import dice", "dice.py": "import rulespy.state"}, "cycle"),
        (
            {"state.py": "from rulespy.core import shooting", "core/__init__.py": "", "core/shooting.py": ""},
            "up",
        ),
        ({"check/__init__.py": "", "check/x.py": "import rulespy.state", "state.py": ""}, "up"),
        (  # the site never runs the command line: no exception for it
            {
                "render/__init__.py": "",
                "render/x.py": "from rulespy.cli import y",
                "cli/__init__.py": "",
                "cli/y.py": "",
            },
            "up",
        ),
        ({"core/__init__.py": "", "core/x.py": "", "state.py": "from rulespy.core import x"}, "up"),
        (
            {
                "core/__init__.py": "",
                "core/x.py": "from rulespy.check import y",
                "check/__init__.py": "",
                "check/y.py": "",
            },
            "up",
        ),
    ],
)
def test_the_graph_test_sees_a_cycle_and_an_upward_edge(
    tmp_path: Path, files: dict[str, str], problem: str
) -> None:
    root = tmp_path / "rulespy"
    for name, text in {"__init__.py": "", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    graph = import_graph(root)
    assert (cycles(graph) != []) is (problem == "cycle")
    assert (upward_edges(graph) != []) is (problem == "up")


def test_type_checking_imports_are_edges(tmp_path: Path) -> None:
    root = tmp_path / "rulespy"
    root.mkdir()
    (root / "__init__.py").write_text("", encoding="utf-8")
    (root / "state.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from rulespy import play\n",
        encoding="utf-8",
    )
    (root / "play.py").write_text("import rulespy.state\n", encoding="utf-8")
    graph = import_graph(root)
    assert graph == {
        "rulespy": {},
        "rulespy.state": {"rulespy.play": 3},
        "rulespy.play": {"rulespy.state": 1},
    }
    assert cycles(graph) == [["rulespy.play", "rulespy.state"]]
