"""mutmut's cache in ``mutants/``, read and rewritten for ``make mutants`` (``rulespy/coverage/mutation.py``).

What is read here is not a public interface of mutmut, which is why the ``mutants`` extra holds mutmut to
one minor release: the ``.meta`` file beside each mutated copy (``exit_code_by_key``: one exit status a
mutant, ``null`` until tested) and the names of the generated functions (``x_normal_wounds__mutmut_3``,
``xǁPoolǁsize__mutmut_1`` for a method), each defined in the mutated copy next to ``..._mutmut_orig``.
"""

from __future__ import annotations

import ast
import difflib
import json
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from rulespy.coverage.mutants import FOLDER, REPORT, Mutant

#: mutmut's exit codes of a mutant's test run (``mutmut.stats.status_by_exit_code``), as this report words
#: them: a timeout or a crash is a failing example, so the mutant was noticed.
STATUS_BY_EXIT_CODE = {
    1: "killed",
    3: "killed",
    36: "killed",
    24: "killed",
    -24: "killed",
    152: "killed",
    255: "killed",
    -9: "killed",
    -11: "killed",
    0: "survived",
    5: "unreached",
    33: "unreached",
}
NOTICED = frozenset({"killed"})


def metas(root: Path) -> list[Path]:
    return sorted((root / FOLDER / "rulespy").rglob("*.py.meta"))


def forget(root: Path, keep: Callable[[str, int | None], bool]) -> None:
    """Set to "not checked" every cached verdict that ``keep(key, exit code)`` does not keep."""
    for meta in metas(root):
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes = data["exit_code_by_key"]
        data["exit_code_by_key"] = {k: (c if keep(k, c) else None) for k, c in codes.items()}
        meta.write_text(json.dumps(data), encoding="utf-8")


def untested(root: Path) -> int:
    """How many mutants have no verdict yet."""
    return sum(
        code is None
        for meta in metas(root)
        for code in json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"].values()
    )


def is_killed(code: int | None) -> bool:
    return code is not None and STATUS_BY_EXIT_CODE.get(code) in NOTICED


def _split_key(key: str) -> tuple[str, str, str]:
    """``rulespy.core.cover.xǁCoverǁapply__mutmut_2`` -> (module, ``Cover.apply``, generated name)."""
    module, _, generated = key.rpartition(".")
    name = generated.rpartition("__mutmut_")[0]
    if name.startswith("xǁ"):
        return module, ".".join(name[2:].split("ǁ")), generated
    return module, name.removeprefix("x_"), generated


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function and method of a module by qualified name (``Class.method``)."""
    found: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}

    def walk(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found[prefix + node.name] = node
            elif isinstance(node, ast.ClassDef):
                walk(node.body, f"{prefix}{node.name}.")

    walk(tree.body, "")
    return found


def _lines(source: list[str], node: ast.AST) -> list[str]:
    start, end = node.lineno, node.end_lineno or node.lineno  # type: ignore[attr-defined]
    return source[start - 1 : end]


def mutants_of(root: Path, meta: Path) -> list[Mutant]:
    """The mutants of one engine file, read from mutmut's results and mutated copy."""
    relative = meta.relative_to(root / FOLDER).as_posix().removesuffix(".meta")
    codes = json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"]
    mutated_text = (root / FOLDER / relative).read_text(encoding="utf-8")
    mutated = mutated_text.splitlines()
    generated = {n.name: n for n in ast.walk(ast.parse(mutated_text)) if isinstance(n, ast.FunctionDef)}
    original = _functions(ast.parse((root / relative).read_text(encoding="utf-8")))
    found: list[Mutant] = []
    for key, code in codes.items():
        module, qualname, name = _split_key(key)
        status = "unchecked" if code is None else STATUS_BY_EXIT_CODE.get(code, "unchecked")
        orig_name = name.rpartition("__mutmut_")[0] + "__mutmut_orig"
        line, before, after = 0, "", ""
        if name in generated and orig_name in generated and qualname in original:
            a = _lines(mutated, generated[orig_name])[1:]
            b = _lines(mutated, generated[name])[1:]
            change = next(
                (op for op in difflib.SequenceMatcher(None, a, b).get_opcodes() if op[0] != "equal"), None
            )
            offset = 0 if change is None else change[1] + 1
            if change is not None:
                before = " ".join(s.strip() for s in a[change[1] : change[2]])
                after = " ".join(s.strip() for s in b[change[3] : change[4]])
            else:  # the change is on the def line itself (a default value)
                before = _lines(mutated, generated[orig_name])[0].strip()
                after = _lines(mutated, generated[name])[0].strip()
            line = original[qualname].lineno + offset
        found.append(Mutant(key, relative, line, f"{module}.{qualname}", before, after, status))
    return found


def write_report(root: Path) -> list[Mutant]:
    """Every mutant of the last run, written to ``mutants/report.json`` and returned."""
    mutants = [m for meta in metas(root) for m in mutants_of(root, meta)]
    (root / REPORT).write_text(json.dumps([asdict(m) for m in mutants], indent=1), encoding="utf-8")
    return mutants
