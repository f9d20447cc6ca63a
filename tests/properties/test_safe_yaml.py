"""Safe YAML: Python tags in a scenario are refused with exit 2 and their line, nothing is
constructed, and no module reads YAML with a loader that could build Python objects.

The source scan parses every module with ``ast`` (so a mention in a docstring or comment does not count)
and looks for the unsafe entry points of PyYAML however they are reached: ``yaml.load``/``load_all``,
``unsafe_load``/``full_load`` and their ``_all`` forms, the ``Loader``/``FullLoader``/``UnsafeLoader``
classes and their C versions, the unsafe constructors, through ``import yaml as y``, ``from yaml import
...`` or ``getattr(yaml, "...")``. ``yaml.load`` itself passes only with a ``Loader`` that is provably
safe (rulespy/check/parse.py reads front matter with ``yaml.load(..., Loader=CSafeLoader)``, the fast safe
loader).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from rulespy.cli import main

ROOT = Path(__file__).resolve().parents[2]
UNSAFE = frozenset(
    {
        "load",
        "load_all",
        "unsafe_load",
        "unsafe_load_all",
        "full_load",
        "full_load_all",
        "Loader",
        "FullLoader",
        "UnsafeLoader",
        "CLoader",
        "CFullLoader",
        "CUnsafeLoader",
        "Constructor",
        "FullConstructor",
        "UnsafeConstructor",
    }
)

SCENARIO = """\
weapons:
  carbine: {range: 18, dice: 2, lock: 4, damage: 1}
units:
  - id: rangers
    side: blue
    models:
      - {id: r1, at: [0, 0], leader: true, weapons: [carbine]}
  - id: drones
    side: red
    models:
      - {id: d1, at: [12, 0]}
attack:
  unit: rangers
  command: shoot
  targets:
    - {unit: drones, mark: d1}
dice: [5, 5]
"""

PROOF = "CONSTRUCTED"  # a folder that only an unsafe loader would create (yaml.unsafe_load does)
HOSTILE = {
    "object/apply in a weapon": (
        "  carbine: {range: 18, dice: 2, lock: 4, damage: 1}",
        f"  carbine: !!python/object/apply:os.mkdir ['{PROOF}']",
    ),
    "object in a model": (
        "      - {id: d1, at: [12, 0]}",
        "      - !!python/object:rulespy.state.Model {id: d1, at: [12, 0]}",
    ),
    "name in the attack": ("  command: shoot", "  command: !!python/name:os.system"),
    "tuple for the dice": ("dice: [5, 5]", "dice: !!python/tuple [5, 5]"),
    "local tag": ("    side: red", "    side: !include red.yaml"),
}


def write(folder: Path, old: str, new: str) -> tuple[Path, int]:
    """The scenario with one line replaced, and that line's number."""
    assert old in SCENARIO
    text = SCENARIO.replace(old, new, 1)
    path = folder / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    return path, text.splitlines().index(new) + 1


@pytest.mark.parametrize("command", ["resolve", "odds"])
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_a_python_tag_is_refused_with_exit_2_and_its_line(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    case: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    path, line = write(tmp_path, *HOSTILE[case])
    status = main([command, str(path)])
    out, err = capsys.readouterr()
    assert status == 2, (status, out, err)
    assert out == ""
    assert err.startswith(f"{path}:{line}: "), err
    assert "Traceback" not in err
    assert not (tmp_path / PROOF).exists(), "a Python object was constructed from the scenario"


def test_the_unmodified_scenario_resolves() -> None:
    """The control: the scenario the hostile ones are made from is fine, so the tag is what is refused."""
    folder = ROOT / "tests" / "properties"
    assert (folder / "test_safe_yaml.py").exists()
    from rulespy.scenario import parse_scenario
    from rulespy.sequences.resolution import resolve

    assert resolve(parse_scenario(SCENARIO)).wounds("d1") == 0


SAFE_LOADERS = frozenset({"SafeLoader", "CSafeLoader", "BaseLoader", "CBaseLoader"})


def unsafe_uses(source: str, filename: str = "<source>") -> list[str]:
    """Every use of an unsafe PyYAML entry point in ``source``, as ``FILE:LINE: what``.

    ``yaml.load``/``load_all`` is accepted only with a ``Loader`` that is provably safe: ``yaml.SafeLoader``
    (or its C or Base versions), or a module-level name every assignment of which is one of those.
    """
    tree = ast.parse(source, filename)
    aliases = {"yaml"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {
                a.asname or a.name for a in node.names if a.name == "yaml" or a.name.startswith("yaml.")
            }
    safe_names = _safe_loader_names(tree, aliases)
    excused = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("load", "load_all")
            and _root(node.func) in aliases
        ):
            loader = next((k.value for k in node.keywords if k.arg == "Loader"), None)
            if loader is None and len(node.args) >= 2:
                loader = node.args[1]
            if loader is not None and _is_safe_loader(loader, aliases, safe_names):
                excused.add(id(node.func))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "yaml":
            found += [
                f"{filename}:{node.lineno}: from {node.module} import {a.name}"
                for a in node.names
                if a.name in UNSAFE
            ]
        elif (
            isinstance(node, ast.Attribute)
            and node.attr in UNSAFE
            and _root(node) in aliases
            and id(node) not in excused
        ):
            found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "getattr"
            and len(node.args) >= 2
            and _root(node.args[0]) in aliases
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in UNSAFE
        ):
            found.append(f"{filename}:{node.lineno}: {ast.unparse(node)}")
    return found


def _is_safe_loader(node: ast.expr, aliases: set[str], names: frozenset[str]) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in SAFE_LOADERS and _root(node) in aliases
    if isinstance(node, ast.Name):
        return node.id in names
    if (  # getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) in (2, 3)
        and _root(node.args[0]) in aliases
        and isinstance(node.args[1], ast.Constant)
        and node.args[1].value in SAFE_LOADERS
    ):
        return len(node.args) == 2 or _is_safe_loader(node.args[2], aliases, frozenset())
    return False


def _safe_loader_names(tree: ast.Module, aliases: set[str]) -> frozenset[str]:
    """Module-level names every assignment of which (anywhere in the module) is a safe loader."""
    values: dict[str, list[ast.expr | None]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values.setdefault(target.id, []).append(node.value)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            values.setdefault(node.target.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.NamedExpr)) and isinstance(node.target, ast.Name):
            values.setdefault(node.target.id, []).append(None)
    return frozenset(
        name
        for name, assigned in values.items()
        if all(v is not None and _is_safe_loader(v, aliases, frozenset()) for v in assigned)
    )


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def test_no_module_reads_yaml_with_an_unsafe_loader() -> None:
    files = sorted((ROOT / "rulespy").rglob("*.py"))  # the site's renderer (rulespy/render) included
    assert files
    found = []
    for path in files:
        found += unsafe_uses(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "unsafe YAML loading:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        "import yaml\nyaml.load(text)",
        "import yaml\nyaml.load(text, Loader=yaml.Loader)",
        "import yaml\nLOADER = yaml.SafeLoader\nLOADER = yaml.FullLoader\nyaml.load(text, Loader=LOADER)",
        "import yaml as y\ny.unsafe_load(text)",
        "import yaml\nyaml.compose(text, Loader=yaml.FullLoader)",
        "from yaml import load_all",
        "from yaml import CLoader as Fast",
        "import yaml\nloader = getattr(yaml, 'UnsafeLoader')",
        "import yaml.constructor\nyaml.constructor.FullConstructor()",
    ],
)
def test_the_scan_finds_each_unsafe_form(source: str) -> None:
    """The scan is not vacuous: each way of reaching an unsafe loader is found."""
    assert unsafe_uses(source)


def test_the_scan_accepts_the_safe_forms() -> None:
    source = (
        "import yaml\n"
        "'''yaml.load is mentioned in a docstring only'''\n"
        "yaml.safe_load(text)\n"
        "yaml.compose(text, Loader=yaml.SafeLoader)\n"
        "LOADER = getattr(yaml, 'CSafeLoader', yaml.SafeLoader)\n"
        "yaml.load(text, Loader=LOADER)\n"
        "yaml.load_all(text, yaml.CSafeLoader)\n"
        "yaml.constructor.SafeConstructor()\n"
    )
    assert unsafe_uses(source) == []


def test_the_payload_would_run_under_an_unsafe_loader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control for the refusal above: the weapon payload really does something when loaded unsafely."""
    import yaml

    monkeypatch.chdir(tmp_path)
    yaml.unsafe_load(HOSTILE["object/apply in a weapon"][1].strip())
    assert (tmp_path / PROOF).is_dir()
