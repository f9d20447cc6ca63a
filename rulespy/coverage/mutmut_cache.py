"""mutmut's cache in ``mutants/``, read and rewritten for ``make mutants`` (``rulespy/coverage/mutation.py``).

What is read here is not a public interface of mutmut, which is why the ``mutants`` extra holds mutmut to
one minor release: the ``.meta`` file beside each mutated copy (``exit_code_by_key``: one exit status a
mutant, ``null`` until tested) and the names of the generated functions (``x_normal_wounds__mutmut_3``,
``xǁPoolǁsize__mutmut_1`` for a method), each defined in the mutated copy next to ``..._mutmut_orig``.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import json
import string
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path

from rulespy.coverage.mutants import FOLDER, FORMAT, MESSAGE, REPORT, WORDING, Mutant

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
    34: "skipped",
    5: "unreached",
    33: "unreached",
}
NOTICED = frozenset({"killed"})

#: The scenario format's own tests (the loader's form, every refusal at its line), which
#: may settle a loader mutant the rulebook leaves alive as **format** (``classify_format``); fastest first.
CONTRACT_TESTS = ("tests/scenario/test_malformed.py", "tests/scenario/test_loader.py")
#: Left out of that run: the two tests of the size limits take seconds each (a mutant of a limit stays in
#: the share unless an example kills it).
CONTRACT_SLOW = (
    "test_too_many_models_and_dice_are_refused",
    "test_size_nesting_and_alias_bombs_are_refused_quickly",
)
FORMAT_CACHE = f"{FOLDER}/format.json"
#: The engine that reads the scenario file's form: its mutants alone may be format.
LOADER = "rulespy/scenario/"


#: The record of what ``rulespy resolve`` prints for every scenario file and worked example's scenario (its
#: JSON and its account), and the module that writes it (``outputs()``): it pins every message's text, so
#: a mutant the examples let pass that changes only the text in it is **message** (``classify_message``).
OUTPUTS_RECORD = "tests/cli/resolve_outputs.json"
OUTPUTS_MODULE = "tests/cli/resolve_outputs.py"
MESSAGE_CACHE = f"{FOLDER}/message.json"
#: The calls whose string arguments are a message's words (``rulespy.i18n``), and the exceptions whose
#: message argument is (its position, and the keyword): the text of a refusal, not what it decides (its
#: ``rule``, that it is raised at all).
MESSAGE_CALLS = frozenset({"_", "N_", "n_"})
MESSAGE_ARGUMENT = {"InvalidInput": 0, "TooLarge": 0, "YAMLTooLarge": 0, "IllegalDeclaration": 1}


def _called(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def _message_parts(call: ast.Call) -> list[ast.AST]:
    """The nodes of ``call`` that hold only a message's words: each string argument of ``_()``, ``N_()``,
    ``n_()`` (placeholders' values included), the message argument of a refusal's exception; an f-string
    there holds words in its literal parts only (what it interpolates is computed, and stays a decision);
    an assertion's message too (``change_kind``)."""
    name = _called(call)
    if name in MESSAGE_CALLS:
        nodes: list[ast.expr] = [*call.args, *(k.value for k in call.keywords)]
    elif name in MESSAGE_ARGUMENT:
        position = MESSAGE_ARGUMENT[name]
        nodes = call.args[position : position + 1] + [k.value for k in call.keywords if k.arg == "message"]
    else:
        return []
    return [part for node in nodes for part in _literal_parts(node)]


def _literal_parts(node: ast.AST) -> list[ast.AST]:
    """A string constant itself, or the literal parts of an f-string; nothing for any other node."""
    if isinstance(node, ast.JoinedStr):
        return [v for v in node.values if isinstance(v, ast.Constant)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    return []


def _placeholders(message: str) -> list[tuple[str | None, str | None, str | None]] | None:
    """The replacement fields of a message (``{model}``, ``{inches:g}``, ``{unit!r}``), in order, or None
    when it is no valid format string: a mutant that changes them (``{UNIT!R}``) makes ``_()`` fail or
    print another value, which is more than words. Only the fields count: ``Formatter().parse`` also yields
    an item without a field for the text after the last one, which words added there (``{reason}XX``) bring
    or take away."""
    try:
        fields = string.Formatter().parse(message)
        return [(name, spec, conversion) for _, name, spec, conversion in fields if name is not None]
    except ValueError:
        return None


def _words_only(before: ast.AST, after: ast.AST, words: set[int]) -> bool:
    """Whether ``after`` is ``before`` with nothing changed but strings at the nodes ``words`` (ids of
    ``before``'s nodes): the same tree, node for node, every other field equal."""
    if type(before) is not type(after):
        return False
    if not isinstance(before, ast.AST):  # an item of a list that is no node: a dict's ``**`` has key None
        return bool(before == after)
    if isinstance(before, ast.Constant) and isinstance(after, ast.Constant):
        if type(before.value) is type(after.value) and before.value == after.value:
            return True
        if id(before) not in words or not isinstance(before.value, str) or not isinstance(after.value, str):
            return False
        return _placeholders(before.value) == _placeholders(after.value)
    for field in before._fields:
        if field == "name" and isinstance(before, ast.FunctionDef | ast.AsyncFunctionDef):
            continue  # mutmut names each copy of the function apart
        a, b = getattr(before, field, None), getattr(after, field, None)
        if isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b) or not all(_words_only(x, y, words) for x, y in zip(a, b, strict=True)):
                return False
        elif isinstance(a, ast.AST) and isinstance(b, ast.AST):
            if not _words_only(a, b, words):
                return False
        elif a != b:
            return False
    return True


def change_kind(original: ast.AST, mutant: ast.AST) -> str:
    """``WORDING`` when the mutant (a copy of the function ``original``) changes only the words of a
    message, and ``""`` otherwise.

    Decided on the syntax trees, not the text: the two functions must be the same tree but for string
    constants, and each changed string must be a message's words (``_message_parts``). A change that
    also touches anything else (a condition, a number, a rule's ``PATH#ANCHOR``, a placeholder's
    value, a dictionary key, what an f-string interpolates, a message argument dropped or made ``None``)
    is never wording, so a decision is never hidden. Wording is the message catalogue's business, pinned
    by ``tests/test_i18n.py``, RS090, ``tests/cli/resolve_outputs.json`` and, for the scenario loader's
    refusals, ``tests/scenario/test_malformed.py``.

    >>> f = ast.parse('def f(u):\\n    raise IllegalDeclaration(RULE, _("{u} is out of range", u=u))')
    >>> g = ast.parse('def f(u):\\n    raise IllegalDeclaration(RULE, _("XX{u} is out of rangeXX", u=u))')
    >>> h = ast.parse('def f(u):\\n    raise IllegalDeclaration(RULE, _(None, u=u))')
    >>> change_kind(f, g), change_kind(f, h)
    ('wording', '')
    """
    calls = [node for node in ast.walk(original) if isinstance(node, ast.Call)]
    words = {id(part) for call in calls for part in _message_parts(call)}
    for node in ast.walk(original):  # an assertion's message says what broke; only its test decides
        if isinstance(node, ast.Assert) and node.msg is not None:
            words |= {id(part) for part in _literal_parts(node.msg)}
    return WORDING if words and _words_only(original, mutant, words) else ""


def metas(root: Path) -> list[Path]:
    """mutmut's results, one ``.meta`` a module of the engine as it is now: mutmut leaves the results of a
    module deleted (or moved out of the engine) since it ran in ``mutants/``, and a module that is gone has
    no mutants to count."""
    folder = root / FOLDER
    found = (folder / "rulespy").rglob("*.py.meta")
    return sorted(meta for meta in found if (root / meta.relative_to(folder).with_suffix("")).is_file())


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
        line, before, after, kind = 0, "", "", ""
        if name in generated and orig_name in generated and qualname in original:
            kind = change_kind(generated[orig_name], generated[name])
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
        found.append(Mutant(key, relative, line, f"{module}.{qualname}", before, after, status, kind))
    return found


def format_digest(root: Path, mutant: Mutant, contract: str) -> str:
    """What a format verdict depends on: the mutant's change, its module as it is now, the format's tests
    and fixtures (a change of any of them tests the mutant again)."""
    module = (root / mutant.path).read_text(encoding="utf-8")
    text = "\0".join((mutant.key, mutant.before, mutant.after, module, contract))
    return hashlib.sha256(text.encode()).hexdigest()


def contract_fingerprint(root: Path) -> str:
    files = [root / t for t in CONTRACT_TESTS] + sorted((root / "tests/scenario/malformed").rglob("*"))
    named = "|".join(CONTRACT_TESTS + CONTRACT_SLOW).encode()
    return hashlib.sha256(b"".join(f.read_bytes() for f in files if f.is_file()) + named).hexdigest()


def may_be_format(mutant: Mutant) -> bool:
    """Whether ``classify_format`` asks about the mutant: a loader mutant the rulebook's examples left
    alive (survived or unreached) that no other kind claims."""
    left = mutant.status in ("survived", "unreached")
    return not mutant.kind and left and mutant.path.startswith(LOADER)


def _with_cached_kind(
    root: Path,
    mutants: list[Mutant],
    step: tuple[str, Callable[[Mutant], bool], Callable[[Path], str]],
    verdict: tuple[str, str, object],
) -> list[Mutant]:
    """``mutants`` with the kind of ``verdict`` (kind, the cache's answer field, the answer that gives the
    kind) given to each mutant the ``step`` (its cache file, which mutants it asks about, the fingerprint of
    what it asks against) asked about and answered so, for the mutant and that fingerprint as they are now
    (``format_digest``)."""
    cache_file, asked, fingerprinted = step
    try:
        cache = json.loads((root / cache_file).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return mutants
    kind, field, answer = verdict
    fingerprint = fingerprinted(root)

    def pinned(m: Mutant) -> bool:
        return asked(m) and cache.get(m.key) == {"digest": format_digest(root, m, fingerprint), field: answer}

    return [replace(m, kind=kind) if pinned(m) else m for m in mutants]


def with_format(root: Path, mutants: list[Mutant]) -> list[Mutant]:
    """``mutants`` with the kind ``FORMAT`` given to each loader mutant that the rulebook left alive and the
    format's tests kill (``mutants/format.json``, written by ``mutation.classify_format``, for the
    mutant as it is now)."""
    step = (FORMAT_CACHE, may_be_format, contract_fingerprint)
    return _with_cached_kind(root, mutants, step, (FORMAT, "killed", True))


def outputs_fingerprint(root: Path) -> str:
    """What a message verdict depends on besides the mutant: the record and the module that writes it."""
    files = (root / OUTPUTS_RECORD, root / OUTPUTS_MODULE)
    return hashlib.sha256(b"\0".join(f.read_bytes() for f in files if f.is_file())).hexdigest()


def may_be_message(mutant: Mutant) -> bool:
    """Whether ``classify_message`` asks about the mutant: one the examples let pass (survived) that no
    other kind claims, outside the loader (whose survivors go to the format's tests)."""
    return not mutant.kind and mutant.status == "survived" and not mutant.path.startswith(LOADER)


def with_message(root: Path, mutants: list[Mutant]) -> list[Mutant]:
    """``mutants`` with the kind ``MESSAGE`` given to each survivor that, by ``mutants/message.json``
    (written by ``mutation.classify_message`` for the mutant and the record as they are now), changes
    the text of the recorded answers and nothing they decide (``outputs_change``)."""
    step = (MESSAGE_CACHE, may_be_message, outputs_fingerprint)
    return _with_cached_kind(root, mutants, step, (MESSAGE, "change", "message"))


def write_report(root: Path) -> list[Mutant]:
    """Every mutant of the last run, written to ``mutants/report.json`` and returned."""
    mutants = with_format(root, [m for meta in metas(root) for m in mutants_of(root, meta)])
    mutants = with_message(root, mutants)
    (root / REPORT).write_text(json.dumps([asdict(m) for m in mutants], indent=1), encoding="utf-8")
    return mutants
