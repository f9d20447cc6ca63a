"""``make mutants``: mutation testing of the engine against the examples a player reads.

`mutmut <https://mutmut.readthedocs.io>`_ 3 (the ``mutants`` extra; chosen over cosmic-ray by speed,
``bench/README.md``) changes the engine one small edit at a time: ``rulespy/core``, ``sequences``,
``timing``, ``commands``, ``scenario`` and ``odds`` (``[tool.mutmut]`` in ``pyproject.toml``). The only
tests that may notice a change, and so kill the mutant, are the worked examples of the English rule pages
and the scenario files with ``expect:`` (``tests/mutation/killers.py``); a mutant that no example notices
survived, and one in code no example reaches is counted as surviving too ("unreached"). A mutant that
changes only the words of a message (a string given to ``_()``, ``N_()``, ``n_()``, or a refusal's message,
decided on the syntax trees by ``rulespy.coverage.mutmut_cache.change_kind``) is **wording**: not run, left
out of the killed share and counted apart, since the message catalogue's tests pin words, not the rules.
A loader mutant (``rulespy/scenario``) the examples let pass is run against the scenario format's own
tests (``classify_format``); one they kill is **format**, counted apart the same way. Any other survivor
is resolved against ``tests/cli/resolve_outputs.json`` (``classify_message``): one that changes only the
sentences of the recorded answers, nothing they decide, is **message**, counted apart too.

The run is incremental and parallel. mutmut keeps its results in ``mutants/`` (gitignored) and tests again
only the mutants of functions whose code changed, in ``--jobs`` forked children, each running only the
examples that reach the mutated function, stopping at the first that fails. What mutmut cannot see is a
change of the examples themselves, so this driver keeps a fingerprint of them (``mutants/killers.json``):
an added or changed example has the survivors of the functions it reaches tested again, and a changed
or removed one also the killed mutants of the functions it reached (``prepare_for_examples``). Then it
writes ``mutants/report.json``, one record per mutant with its file, line, function, the line before and
after the change, and its status; ``rulespy coverage --mutants`` (``rulespy/coverage/mutants.py``) reads
that report and never runs anything.

``python -m rulespy.coverage.mutation [--jobs N] [--fail-under PERCENT]`` exits 1 when the killed share
of the non-equivalent mutants is below ``PERCENT``, 2 when mutmut cannot run.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulespy.book.book import Book
from rulespy.coverage.mutants import FOLDER, WORDING, Mutant, load_mutation_report, render
from rulespy.coverage.mutmut_cache import (
    CONTRACT_SLOW,
    CONTRACT_TESTS,
    FORMAT_CACHE,
    MESSAGE_CACHE,
    contract_fingerprint,
    forget,
    format_digest,
    is_killed,
    may_be_format,
    may_be_message,
    metas,
    mutants_of,
    outputs_fingerprint,
    untested,
    write_report,
)
from rulespy.coverage.rules import CoverageError

FINGERPRINT = f"{FOLDER}/killers.json"
SCENARIOS = "examples/scenarios"

KILLERS = "tests/mutation/killers.py"
_EXAMPLE_ID = KILLERS + "::test_worked_example[{}]"
_SCENARIO_ID = KILLERS + "::test_scenario_resolves_to_its_expected_outcome[{}]"


def rule_examples(root: Path) -> list[tuple[str, str]]:
    """``(PATH:LINE, code)`` of every worked example of the English rule files, in file order: the examples
    that may kill a mutant (the Russian fences are the same code, RS073). The rule files are the book's
    (``Book.rule_paths``: the folders of ``check: rule_dirs``, in that order, each sorted)."""
    book = Book.open(root)
    paths = book.rule_paths()
    found: list[tuple[str, str]] = []
    for folder in book.rule_dirs:
        for name in (path for path in paths if path.startswith(folder + "/")):
            page = book.page(name)
            for example in page.examples if page is not None else ():
                found.append((f"{name}:{example.line}", example.code))
    return found


def killer_fingerprints(root: Path) -> dict[str, str]:
    """Each test that may kill a mutant, by its pytest id in ``tests/mutation/killers.py``: a hash of the
    example's code or of the scenario file (and of the killers module itself, under its path)."""

    def digest(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()

    found = {_EXAMPLE_ID.format(name): digest(code) for name, code in rule_examples(root)}
    scenarios = root / SCENARIOS
    for file in sorted(scenarios.rglob("*.yaml")):
        name = file.relative_to(scenarios).with_suffix("").as_posix()
        found[_SCENARIO_ID.format(name)] = digest(file.read_text(encoding="utf-8"))
    found[KILLERS] = digest((root / KILLERS).read_text(encoding="utf-8"))
    return found


@dataclass(frozen=True)
class ExampleChange:
    """What changed in the examples since the last complete run: ``verdict`` says it; ``fresh`` are the
    tests whose code is new; ``fingerprint`` is recorded once the run completes."""

    verdict: str
    fresh: frozenset[str]
    fingerprint: dict[str, str]


def _stats(root: Path) -> dict[str, Any]:
    file = root / FOLDER / "mutmut-stats.json"
    return json.loads(file.read_text(encoding="utf-8")) if file.is_file() else {}


def _reached_by(stats: dict[str, Any], tests: set[str] | frozenset[str]) -> set[str]:
    """The (mangled) functions that any of ``tests`` reached in mutmut's last stats run."""
    reached = stats.get("tests_by_mangled_function_name", {})
    return {function for function, names in reached.items() if tests & set(names)}


def prepare_for_examples(root: Path) -> ExampleChange:
    """Forget the verdicts that changed examples may have made wrong, before mutmut runs.

    mutmut itself only follows the engine's code. A changed or removed example (its code is nowhere any
    more; one that only moved to another line still runs) may have been the one that killed a mutant, so
    the killed mutants of every function it reached (mutmut's ``mutmut-stats.json``) are tested again,
    and mutmut is made to learn again what it reaches. An added or changed example can kill what
    survived: once mutmut has learnt which functions it reaches, ``retest_reached`` tests again the
    survivors of those functions only. A change of the killers module itself, or a cache without a
    fingerprint, tests everything again.

    When no example is new, nothing about the examples is left for the end of the run, so the examples
    are recorded at once (``record_examples``): a run stopped half-way (a session's time, a pass stopped
    by hand) keeps the verdicts it found for the next, instead of leaving a cache without a fingerprint
    that the next run would test again from nothing."""
    now = killer_fingerprints(root)
    try:
        before = json.loads((root / FINGERPRINT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        before = None
    if before == now or not metas(root):
        return _recorded(root, ExampleChange("examples unchanged", frozenset(), now))
    if not isinstance(before, dict) or before.get(KILLERS) != now[KILLERS]:
        forget(root, lambda key, code: False)
        (root / FOLDER / "mutmut-stats.json").unlink(missing_ok=True)
        return _recorded(
            root, ExampleChange("examples changed: testing every mutant again", frozenset(), now)
        )
    known = set(before.values())
    fresh = frozenset(test for test, code in now.items() if code not in known)
    gone = known - set(now.values())
    stale = {test for test, code in before.items() if code in gone}
    stats = _stats(root)
    touched = _reached_by(stats, stale)
    if touched:
        forget(root, lambda key, code: not (is_killed(code) and key.rpartition("__mutmut_")[0] in touched))
    if stale and stats:
        reached = stats.get("tests_by_mangled_function_name", {})
        stats["tests_by_mangled_function_name"] = {f: sorted(set(t) - stale) for f, t in reached.items()}
        for test in stale:
            stats.get("duration_by_test", {}).pop(test, None)
        (root / FOLDER / "mutmut-stats.json").write_text(json.dumps(stats), encoding="utf-8")
    verdict = (
        f"{len(fresh)} examples new or changed, {len(stale)} changed or removed: testing again the killed "
        f"mutants of the {len(touched)} functions the old ones reached"
    )
    change = ExampleChange(verdict, fresh, now)
    return change if fresh else _recorded(root, change)


def _recorded(root: Path, change: ExampleChange) -> ExampleChange:
    record_examples(root, change)
    return change


def retest_reached(root: Path, fresh: frozenset[str]) -> int:
    """After mutmut learnt what the ``fresh`` tests reach: forget the verdicts of the mutants not killed
    in those functions, so that the next ``mutmut run`` tests them again; how many were forgotten."""
    touched = _reached_by(_stats(root), fresh)
    forgotten = 0
    for meta in metas(root):
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes = data["exit_code_by_key"]
        for key, code in codes.items():
            if code is not None and not is_killed(code) and key.rpartition("__mutmut_")[0] in touched:
                codes[key] = None
                forgotten += 1
        meta.write_text(json.dumps(data), encoding="utf-8")
    return forgotten


def record_examples(root: Path, change: ExampleChange) -> None:
    """Record the examples the cache's verdicts were found with (``mutants/killers.json``)."""
    (root / FINGERPRINT).parent.mkdir(exist_ok=True)
    (root / FINGERPRINT).write_text(json.dumps(change.fingerprint), encoding="utf-8")


def executed_lines(root: Path) -> dict[str, set[int]]:
    """The engine's lines the examples and scenario files execute: ``tests/mutation/killers.py`` run once
    under coverage.py (a dependency of mutmut) on the unmutated engine; repository-relative paths."""
    data_file = root / FOLDER / "killers.coverage"
    command = [sys.executable, "-m", "coverage", "run", f"--data-file={data_file}", "--source=rulespy"]
    command += ["-m", "pytest", "--noconftest", "-o", "addopts=", "-p", "no:xdist", "-p", "no:cacheprovider"]
    command += ["-q", KILLERS]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = (done.stdout.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"the examples fail on the unmutated engine: {tail}")
    import coverage

    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    lines: dict[str, set[int]] = {}
    for name in data.measured_files():
        path = Path(name)
        if path.is_relative_to(root):
            lines[path.relative_to(root).as_posix()] = set(data.lines(name) or ())
    return lines


def _statement_starts(source: str) -> dict[int, int]:
    """For each line of a module, the first line of the innermost statement holding it (coverage.py
    counts a statement that spans lines at its first)."""
    starts: dict[int, int] = {}
    spans = sorted(
        (
            (n.lineno, n.end_lineno or n.lineno)
            for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.stmt)
        ),
        key=lambda span: span[1] - span[0],
        reverse=True,
    )
    for first, last in spans:  # widest first, so that the innermost statement is written last
        for line in range(first, last + 1):
            starts[line] = first
    return starts


def line_reached(line: int, starts: dict[int, int], ran: set[int]) -> bool:
    """Whether the examples executed the statement holding ``line`` (``starts`` from
    ``_statement_starts``, ``ran`` coverage.py's executed lines of the module).

    coverage.py counts a statement at its first line, except where the first line holds no code of its
    own: on Python 3.11 an ``if (`` whose condition starts on the next line is counted at the lines of the
    condition that ran, never at the ``if``. So a line of a statement that spans lines is reached when the
    statement's first line ran or the line itself did; a statement's first line only when it ran (a
    decorated ``def`` runs at import, counted at its decorator, while its body may never run)."""
    start = starts.get(line)
    return start in ran or (start is not None and start != line and line in ran)


def mark_unreached_lines(root: Path) -> int:
    """Mark "unreached" (mutmut's exit code 33) every mutant not yet tested whose changed statement no
    example executes: no test can notice it, so mutmut need not run one. How many were marked.

    A cache made before ``line_reached`` counted a line of a statement that spans lines holds such
    mutants marked unreached although their line ran; each is made untested again, so that this run tests
    it (mutmut's own 33, a function no example reaches, is left as it is)."""
    data_of = {meta: json.loads(meta.read_text(encoding="utf-8")) for meta in metas(root)}
    if not any(None in data["exit_code_by_key"].values() for data in data_of.values()):
        return 0  # nothing to test: the examples' coverage is not needed
    executed = executed_lines(root)
    marked = 0
    for meta, data in data_of.items():
        codes = data["exit_code_by_key"]
        if not {None, 33} & set(codes.values()):
            continue
        mutants = {m.key: m for m in mutants_of(root, meta)}
        relative = meta.relative_to(root / FOLDER).as_posix().removesuffix(".meta")
        starts = _statement_starts((root / relative).read_text(encoding="utf-8"))
        ran = executed.get(relative, set())
        for key, code in codes.items():
            mutant = mutants.get(key)
            if code not in (None, 33) or mutant is None or not mutant.line or mutant.line not in starts:
                continue
            reached = line_reached(mutant.line, starts, ran)
            if code is None and not reached:
                codes[key] = 33
                marked += 1
            elif code == 33 and reached and starts[mutant.line] not in ran:
                codes[key] = None  # marked when only the first lines of statements counted: test it now
        meta.write_text(json.dumps(data), encoding="utf-8")
    return marked


def mark_wording(root: Path) -> int:
    """Mark "skipped" (mutmut's exit code 34) every mutant not yet tested that changes only the words of a
    message (``mutmut_cache.change_kind``): the report leaves it out of the killed share whatever an
    example would say, so mutmut need not run it. How many were marked."""
    marked = 0
    for meta in metas(root):
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes = data["exit_code_by_key"]
        if None not in codes.values():
            continue
        wording = {m.key for m in mutants_of(root, meta) if m.kind == WORDING}
        for key, code in codes.items():
            if code is None and key in wording:
                codes[key] = 34
                marked += 1
        meta.write_text(json.dumps(data), encoding="utf-8")
    return marked


#: What both children below share: ``forked(key, limit, work)`` runs ``work`` (which returns an exit
#: status) under the mutant ``key`` in a process forked from the warm child, its output silenced and
#: stopped after ``limit`` seconds, and returns the fork's exit status.
_FORKED = r"""
import os, signal

def forked(key, limit, work):
    pid = os.fork()
    if pid == 0:
        os.environ["MUTANT_UNDER_TEST"] = key
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)
        os.dup2(quiet, 2)
        signal.alarm(limit)
        os._exit(work())
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
"""

#: Seconds the format's tests may run against one mutant before it is noticed (a hang is noticed).
FORMAT_LIMIT = 120

#: The child of ``classify_format``: in ``mutants/``, runs the format's tests once on the unmutated engine
#: (which must pass, and warms the imports), then once a mutant in a process forked from that warm one,
#: stopping at the first failure; one JSON line a key on standard output.
_FORMAT_CHILD = (
    _FORKED
    + r"""
import json, os, signal, sys
sys.path.insert(0, os.getcwd())
import pytest
job = json.load(sys.stdin)
args = job["tests"] + ["-x", "-q", "--noconftest", "-o", "addopts=", "-p", "no:xdist", "-k", job["skip"]]
args += ["-p", "no:cacheprovider"]

def run(key, limit):
    return forked(key, limit, lambda: int(pytest.main(args)))

os.environ["MUTANT_UNDER_TEST"] = ""
saved = os.dup(1), os.dup(2)
quiet = os.open(os.devnull, os.O_WRONLY)
os.dup2(quiet, 1)
os.dup2(quiet, 2)
clean = int(pytest.main(args))  # here, not forked: each mutant's fork starts with everything imported
os.dup2(saved[0], 1)
os.dup2(saved[1], 2)
print(json.dumps({"clean": clean == 0}), flush=True)
if clean == 0:
    for key in job["keys"]:
        print(json.dumps({"key": key, "killed": run(key, job["limit"]) != 0}), flush=True)
"""
)


def _to_ask(
    root: Path, file: str, wanted: Callable[[Mutant], bool], patterns: tuple[str, ...], fingerprint: str
) -> tuple[dict[str, dict[str, Any]], dict[str, str], dict[str, str]]:
    """The cache ``file`` of a step that asks about some mutants (``wanted``, whose key matches one of
    ``patterns``, all when none), the digests of those it must ask about again (``format_digest`` with
    ``fingerprint``: its verdict is missing or older than the mutant, its module or what it is asked
    against), and the digests of all it wants."""
    import fnmatch

    try:
        cache: dict[str, dict[str, Any]] = json.loads((root / file).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cache = {}
    pending: dict[str, str] = {}
    live: dict[str, str] = {}
    for meta in metas(root):
        for mutant in mutants_of(root, meta):
            if not wanted(mutant) or (patterns and not any(fnmatch.fnmatch(mutant.key, p) for p in patterns)):
                continue
            digest = format_digest(root, mutant, fingerprint)
            live[mutant.key] = digest
            if cache.get(mutant.key, {}).get("digest") != digest:
                pending[mutant.key] = digest
    return cache, pending, live


def refresh_copies(root: Path) -> None:
    """Lay ``mutants/``'s copies of the folders mutmut copies (``copied``: the tests, the scenario files,
    the rule folders) anew from the checkout. The format and message steps run the copies, but cache
    each verdict under the fingerprint of the checkout's tests and record (``contract_fingerprint``,
    ``outputs_fingerprint``): a fixture or test added since mutmut last copied them (``--format-only``
    after new fixtures, or the pass's own step when the tests changed while mutmut ran) must be what
    runs, or a verdict of the old tests would stand for the new ones."""
    for name in copied(root):
        shutil.rmtree(root / FOLDER / name, ignore_errors=True)
        if (root / name).is_dir():
            shutil.copytree(root / name, root / FOLDER / name, ignore=shutil.ignore_patterns("__pycache__"))


def _ask_child(
    root: Path,
    code: str,
    job: dict[str, Any],
    env: dict[str, str],
    unclean: str,
    into: tuple[str, dict[str, dict[str, Any]], dict[str, str], str],
) -> int:
    """Run the child ``code`` in ``mutants/`` with ``job`` on standard input (its ``keys``: mutants to ask
    about). Its first line says whether the unmutated engine passed (else ``RuntimeError(unclean)``); then
    one line a key, whose field ``answer`` is cached under the key beside its digest. ``into`` is (the
    cache file, the cache, each pending key's digest, ``answer``); the file is written as the answers come,
    so that an interrupted run keeps what it did. How many were answered."""
    refresh_copies(root)
    file, cache, pending, answer = into
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=root / FOLDER,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **env),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write(json.dumps(job))
    child.stdin.close()
    first = json.loads(child.stdout.readline() or "{}")
    if not first.get("clean"):
        child.wait()
        raise RuntimeError(unclean)
    asked = 0
    for line in child.stdout:
        found = json.loads(line)
        cache[found["key"]] = {"digest": pending[found["key"]], answer: found[answer]}
        asked += 1
        if asked % 25 == 0:
            (root / file).write_text(json.dumps(cache), encoding="utf-8")
    child.wait()
    return asked


def classify_format(root: Path, patterns: tuple[str, ...] = ()) -> tuple[int, int]:
    """Run the scenario format's own tests (``CONTRACT_TESTS``) against every mutant of the loader
    (``rulespy/scenario``) that the rulebook's examples and scenario files left alive (survived or
    unreached), whose key matches one of ``patterns`` (all when none); record in ``mutants/format.json``
    which of them the format's tests kill. The report calls those **format**: a decision about the file's
    form, not a rule of the game, pinned by the format's tests and left out of the rulebook's killed share.
    Those the format's tests let pass too stay survivors (or unreached), in the share. Cached by
    ``format_digest``; how many were (tested now, found format)."""
    cache, pending, live = _to_ask(root, FORMAT_CACHE, may_be_format, patterns, contract_fingerprint(root))
    tested = 0
    if pending:
        skip = " and ".join(f"not {name}" for name in CONTRACT_SLOW)
        job = {"tests": list(CONTRACT_TESTS), "skip": skip, "keys": sorted(pending), "limit": FORMAT_LIMIT}
        tested = _ask_child(
            root,
            _FORMAT_CHILD,
            job,
            {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
            "the scenario contract's tests fail on the unmutated engine",
            (FORMAT_CACHE, cache, pending, "killed"),
        )
    (root / FORMAT_CACHE).write_text(json.dumps(cache), encoding="utf-8")
    found = sum(1 for key, digest in live.items() if cache.get(key) == {"digest": digest, "killed": True})
    return tested, found


#: The child of ``classify_message``: in ``mutants/``, resolves every recorded scenario once on the
#: unmutated engine (which must answer as recorded, and warms the imports), then once a mutant in a
#: process forked from that warm one; one JSON line a key on standard output.
_MESSAGE_CHILD = (
    _FORKED
    + r"""
import importlib.util, json, os, signal, sys
sys.path.insert(0, os.getcwd())
job = json.load(sys.stdin)
spec = importlib.util.spec_from_file_location("_outputs_change", job["compare"])
compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare)
outputs_change = compare.outputs_change
from tests.cli.resolve_outputs import outputs, recorded
record = recorded()
CHANGES = {"same": 0, "message": 10}

def change():
    try:
        return CHANGES.get(outputs_change(outputs(), record), 11)
    except BaseException:
        return 11

def run(key, limit):
    return {0: "same", 10: "message"}.get(forked(key, limit, change), "decision")

os.environ["MUTANT_UNDER_TEST"] = ""
print(json.dumps({"clean": outputs_change(outputs(), record) == "same"}), flush=True)
for key in job["keys"]:
    print(json.dumps({"key": key, "change": run(key, job["limit"])}), flush=True)
"""
)


def classify_message(root: Path, patterns: tuple[str, ...] = ()) -> tuple[int, int]:
    """Resolve every scenario of ``tests/cli/resolve_outputs.json`` (the scenario files and each worked
    example's scenarios) under every survivor the examples let pass outside the loader, whose key matches
    one of ``patterns`` (all when none), and record in ``mutants/message.json`` how its answers differ
    from the record (``rulespy.coverage.outputs_change``). One whose answers differ in the text of their
    sentences only (a refusal's message, an account line), every decision as recorded, is **message**:
    which values a sentence prints, pinned by the record's test (``tests/cli/test_resolve_outputs.py``),
    not a rule, left out of the killed share. One that changes a recorded decision, or nothing recorded,
    stays a survivor: an example is owed. Cached by the mutant, its module and the record; how many were
    (resolved now, found message)."""
    cache, pending, live = _to_ask(root, MESSAGE_CACHE, may_be_message, patterns, outputs_fingerprint(root))
    tested = 0
    if pending:
        compare = Path(__file__).with_name("outputs_change.py")  # the checkout's, not mutants/'s copy
        tested = _ask_child(
            root,
            _MESSAGE_CHILD,
            {"keys": sorted(pending), "limit": FORMAT_LIMIT, "compare": str(compare)},
            {},
            "rulespy resolve does not answer as tests/cli/resolve_outputs.json records",
            (MESSAGE_CACHE, cache, pending, "change"),
        )
    (root / MESSAGE_CACHE).write_text(json.dumps(cache), encoding="utf-8")
    found = sum(cache.get(key) == {"digest": digest, "change": "message"} for key, digest in live.items())
    return tested, found


#: What mutmut copies beside the engine and the rule folders on every run (``also_copy`` and its own
#: ``tests/``): emptied first (``copied``), so that a rule file, scenario or test deleted from the
#: repository is deleted from the copy too.
COPIED_BESIDE_RULES = ("examples", "tests")


def copied(root: Path) -> tuple[str, ...]:
    """The folders mutmut copies into ``mutants/``: the rule folders (``check: rule_dirs``, which
    pyproject.toml's ``also_copy`` lists for mutmut, as tests/book/test_rule_folders.py checks)
    and ``COPIED_BESIDE_RULES``."""
    from rulespy.check.registry import load_registry

    return (*load_registry(root).layout.rule_dirs, *COPIED_BESIDE_RULES)


#: mutmut's own first step of ``mutmut run`` (copy the tree, write the mutants of changed files, keep the
#: verdicts of unchanged functions), which its command line does not offer alone.
_GENERATE = (
    "import os, sys\n"
    "from mutmut.__main__ import copy_also_copy_files, copy_src_dir, create_mutants\n"
    "os.makedirs('mutants', exist_ok=True)\n"
    "copy_src_dir()\n"
    "copy_also_copy_files()\n"
    "stats = create_mutants(int(sys.argv[1]))\n"
)


def pending_keys(root: Path, patterns: tuple[str, ...]) -> list[str] | None:
    """The mutants ``mutmut run`` should test for ``--only PATTERN``: those without a verdict whose key
    matches. Given patterns, mutmut tests again every mutant they match, its cached verdict or not
    (``mutmut.__main__._run``: a verdict stands only when no name is given), so the driver names the
    untested ones instead. A mutant whose function no test reached in mutmut's last stats is marked
    unreached (33) here, as mutmut marks it itself (and as it could not look its tests up by name).
    None when mutmut has no stats yet (a fresh cache: nothing has a verdict, the patterns are right)."""
    import fnmatch

    reached = _stats(root).get("tests_by_mangled_function_name")
    if not reached:
        return None
    keys: list[str] = []
    for meta in metas(root):
        data = json.loads(meta.read_text(encoding="utf-8"))
        codes = data["exit_code_by_key"]
        changed = False
        for key, code in codes.items():
            if code is not None or not any(fnmatch.fnmatch(key, p) for p in patterns):
                continue
            if reached.get(key.rpartition("__mutmut_")[0]):
                keys.append(key)
            else:
                codes[key] = 33
                changed = True
        if changed:
            meta.write_text(json.dumps(data), encoding="utf-8")
    return keys


def run_mutmut(root: Path, jobs: int, generate_only: bool = False, only: tuple[str, ...] = ()) -> int:
    """``mutmut run`` in ``root``, in ``jobs`` children (or only its generation of the mutants); its exit
    status."""
    mutmut = Path(sys.executable).with_name("mutmut")
    if not mutmut.exists():
        print("make mutants: mutmut is not installed (pip install -e '.[mutants]')", file=sys.stderr)
        return 2
    for name in copied(root):
        shutil.rmtree(root / FOLDER / name, ignore_errors=True)
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    if generate_only:
        command = [sys.executable, "-c", _GENERATE, str(jobs)]
    else:
        names = pending_keys(root, only) if only else None
        if names is not None and not names:
            return 0  # every mutant the patterns match has its verdict
        command = [str(mutmut), "run", "--max-children", str(jobs), *(only if names is None else names)]
    return subprocess.run(
        command, cwd=root, env=env, check=False, stdout=subprocess.DEVNULL if generate_only else None
    ).returncode


def _mark_and_run(root: Path, args: argparse.Namespace) -> int:
    """Mark the mutants that change only words as skipped and those no example executes as unreached,
    then let mutmut test the rest."""
    print(f"make mutants: {mark_wording(root)} mutants change only the words of a message: wording, not run")
    try:
        marked = mark_unreached_lines(root)
    except RuntimeError as error:
        print(f"make mutants: {error}", file=sys.stderr)
        return 2
    print(f"make mutants: {marked} mutants on lines no example executes: unreached, not run")
    return run_mutmut(root, max(args.jobs, 1), only=tuple(args.only))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulespy.coverage.mutation", description=__doc__)
    parser.add_argument("--root", type=Path, default=Path("."), help="the rules repository (default: .)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="mutants tested at once")
    parser.add_argument("--fail-under", type=float, default=None, metavar="PERCENT")
    parser.add_argument("--report-only", action="store_true", help="rewrite the report from the cache only")
    parser.add_argument(
        "--format-only",
        action="store_true",
        help="only run the scenario contract's tests against the loader's surviving mutants, then report",
    )
    parser.add_argument(
        "--message-only",
        action="store_true",
        help="only resolve the recorded scenarios under the surviving mutants (message or not), then report",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="PATTERN",
        help="test only the mutants whose key matches (fnmatch, as mutmut run takes them): rulespy.core.*",
    )
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    if args.format_only and metas(root):
        print(f"make mutants: {classify_format(root, tuple(args.only))[1]} loader mutants are format")
    elif args.message_only and metas(root):
        try:
            print(f"make mutants: {classify_message(root, tuple(args.only))[1]} survivors are message")
        except RuntimeError as error:
            print(f"make mutants: {error}", file=sys.stderr)
            return 2
    elif not args.report_only:
        change = prepare_for_examples(root)
        print(f"make mutants: {change.verdict}")
        status = run_mutmut(root, max(args.jobs, 1), generate_only=True)
        if status == 0:
            status = _mark_and_run(root, args)
        again = retest_reached(root, change.fresh) if status == 0 and change.fresh else 0
        if again:
            print(
                f"make mutants: {again} surviving mutants of functions the new examples reach: testing again"
            )
            status = _mark_and_run(root, args)
        if status != 0:
            print(f"make mutants: mutmut stopped with exit status {status}", file=sys.stderr)
            return 2
        if untested(root) and not args.only:  # an interrupted mutmut exits 0 all the same
            print(f"make mutants: {untested(root)} mutants not tested: run it again", file=sys.stderr)
            return 2
        try:
            tested, found = classify_format(root, tuple(args.only))
        except RuntimeError as error:
            print(f"make mutants: {error}", file=sys.stderr)
            return 2
        print(
            f"make mutants: the scenario contract's tests ({', '.join(CONTRACT_TESTS)}) run against {tested} "
            f"loader mutants the examples let pass; {found} in all are format (pinned by the format's tests)"
        )
        try:
            tested, found = classify_message(root, tuple(args.only))
        except RuntimeError as error:
            print(f"make mutants: {error}", file=sys.stderr)
            return 2
        print(
            f"make mutants: the recorded scenarios resolved under {tested} surviving mutants; {found} in all "
            "change only the text of the answers (message, pinned by tests/cli/resolve_outputs.json)"
        )
        record_examples(root, change)
    if not metas(root):
        print(f"make mutants: no results in {FOLDER}/: run 'make mutants' first", file=sys.stderr)
        return 2
    write_report(root)
    try:
        report = load_mutation_report(root)
    except CoverageError as error:
        print(f"make mutants: {error.located()}", file=sys.stderr)
        return 2
    print(render(report))
    if args.fail_under is not None and report.killed_share < args.fail_under:
        print(
            f"make mutants: {report.killed_share:.1f}% of the mutants killed (neither equivalent, wording "
            "nor format), "
            f"below the recorded {args.fail_under:.1f}% (bench/README.md)",
            file=sys.stderr,
        )
        return 1
    return 1 if report.problems else 0


if __name__ == "__main__":
    sys.exit(main())
