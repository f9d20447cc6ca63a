"""``make mutants``: mutation testing of the engine against the examples a player reads.

`mutmut <https://mutmut.readthedocs.io>`_ 3 (the ``mutants`` extra; chosen over cosmic-ray by speed,
``bench/README.md``) changes the engine one small edit at a time: ``rulespy/core``, ``sequences``,
``timing``, ``commands``, ``scenario`` and ``odds`` (``[tool.mutmut]`` in ``pyproject.toml``). The only
tests that may notice a change, and so kill the mutant, are the worked examples of the English rule pages
and the scenario files with ``expect:`` (``tests/mutation/killers.py``); a mutant that no example notices
survived, and one in code no example reaches is counted as surviving too ("unreached").

The run is incremental and parallel. mutmut keeps its results in ``mutants/`` (gitignored) and tests again
only the mutants of functions whose code changed, in ``--jobs`` forked children, each running only the
examples that reach the mutated function, stopping at the first that fails. What mutmut cannot see is a
change of the examples themselves, so this driver keeps a fingerprint of them (``mutants/killers.json``):
when examples were only added, the mutants not yet killed are tested again; when one changed or was
removed, every mutant is. Then it writes ``mutants/report.json``, one record per mutant with its file,
line, function, the line before and after the change, and its status; ``rulespy coverage --mutants``
(``rulespy/coverage/mutants.py``) reads that report and never runs anything.

``python -m rulespy.coverage.mutation [--jobs N] [--fail-under PERCENT]`` exits 1 when the killed share
of the non-equivalent mutants is below ``PERCENT``, 2 when mutmut cannot run.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import hashlib
import json
import os
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

from rulespy.check.examples import worked_examples
from rulespy.check.files import RULE_DIRS
from rulespy.coverage.mutants import FOLDER, REPORT, Mutant, load_mutation_report
from rulespy.coverage.rules import CoverageError

FINGERPRINT = f"{FOLDER}/killers.json"
SCENARIOS = "examples/scenarios"

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


def killer_fingerprints(root: Path) -> list[str]:
    """A hash of every example and scenario file that may kill a mutant, sorted."""
    texts: list[str] = []
    for folder in RULE_DIRS:
        for page in sorted((root / folder).rglob("*.md")):
            texts.extend(e.code for e in worked_examples(page.read_text(encoding="utf-8")))
    texts.extend(p.read_text(encoding="utf-8") for p in sorted((root / SCENARIOS).rglob("*.yaml")))
    texts.append((root / "tests/mutation/killers.py").read_text(encoding="utf-8"))
    return sorted(hashlib.sha256(t.encode()).hexdigest() for t in texts)


def _metas(root: Path) -> list[Path]:
    return sorted((root / FOLDER / "rulespy").rglob("*.py.meta"))


def reset_for_changed_examples(root: Path) -> str:
    """Forget the results the examples' change may have made wrong; say what was forgotten."""
    now = killer_fingerprints(root)
    file = root / FINGERPRINT
    try:
        before = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        before = None
    keep: frozenset[int] | None = None  # the exit codes whose verdict still holds (None: all of them)
    if before == now or not _metas(root):
        verdict = "examples unchanged"
    elif isinstance(before, list) and set(before) <= set(now):
        # mutmut finds the new examples itself (new test ids) and learns which functions they reach
        verdict, keep = "examples added: testing again the mutants not killed", frozenset(STATUS_BY_EXIT_CODE)
        keep = frozenset(c for c in keep if STATUS_BY_EXIT_CODE[c] in NOTICED)
    else:
        # an example that changed may reach other functions: mutmut must learn again which it reaches
        verdict, keep = "examples changed: testing every mutant again", frozenset()
        (root / FOLDER / "mutmut-stats.json").unlink(missing_ok=True)
    if keep is not None:
        for meta in _metas(root):
            data = json.loads(meta.read_text(encoding="utf-8"))
            codes = data["exit_code_by_key"]
            data["exit_code_by_key"] = {k: (c if c in keep else None) for k, c in codes.items()}
            meta.write_text(json.dumps(data), encoding="utf-8")
    file.parent.mkdir(exist_ok=True)
    file.write_text(json.dumps(now), encoding="utf-8")
    return verdict


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
    mutants = [m for meta in _metas(root) for m in mutants_of(root, meta)]
    (root / REPORT).write_text(json.dumps([asdict(m) for m in mutants], indent=1), encoding="utf-8")
    return mutants


def run_mutmut(root: Path, jobs: int) -> int:
    """``mutmut run`` in ``root``, in ``jobs`` children; its exit status."""
    mutmut = Path(sys.executable).with_name("mutmut")
    if not mutmut.exists():
        print("make mutants: mutmut is not installed (pip install -e '.[mutants]')", file=sys.stderr)
        return 2
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([str(mutmut), "run", "--max-children", str(jobs)], cwd=root, env=env, check=False)
    return done.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulespy.coverage.mutation", description=__doc__)
    parser.add_argument("--root", type=Path, default=Path("."), help="the rules repository (default: .)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="mutants tested at once")
    parser.add_argument("--fail-under", type=float, default=None, metavar="PERCENT")
    parser.add_argument("--report-only", action="store_true", help="rewrite the report from the cache only")
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    if not args.report_only:
        print(f"make mutants: {reset_for_changed_examples(root)}")
        status = run_mutmut(root, max(args.jobs, 1))
        if status != 0:
            print(f"make mutants: mutmut stopped with exit status {status}", file=sys.stderr)
            return 2
    if not _metas(root):
        print(f"make mutants: no results in {FOLDER}/: run 'make mutants' first", file=sys.stderr)
        return 2
    write_report(root)
    try:
        report = load_mutation_report(root)
    except CoverageError as error:
        print(f"make mutants: {error.located()}", file=sys.stderr)
        return 2
    print(report.summary_line())
    if args.fail_under is not None and report.killed_share < args.fail_under:
        print(
            f"make mutants: {report.killed_share:.1f}% of the non-equivalent mutants killed, "
            f"below the recorded {args.fail_under:.1f}% (bench/README.md)",
            file=sys.stderr,
        )
        return 1
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
