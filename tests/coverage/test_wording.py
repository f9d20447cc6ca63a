"""The wording policy of ``make mutants``: a mutant that changes only the words of a message is counted
apart and left out of the killed share (``rulespy.coverage.mutmut_cache.change_kind``), and never one
that changes a decision on the same line."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from rulespy.coverage.mutants import WORDING, load_mutation_report, render
from rulespy.coverage.mutation import mark_wording
from rulespy.coverage.mutmut_cache import change_kind, mutants_of, write_report
from tests.coverage.mutated import mutated_repo


def _kind(before: str, after: str) -> str:
    return change_kind(ast.parse(before).body[0], ast.parse(after).body[0])


REFUSAL = 'def f(u):\n    raise IllegalDeclaration(f"{OWNER}#range", _("{u} is out of range", u=u))\n'


@pytest.mark.parametrize(
    "after",
    [
        'def f(u):\n    raise IllegalDeclaration(f"{OWNER}#range", _("XX{u} is out of rangeXX", u=u))\n',
        'def f(u):\n    raise IllegalDeclaration(f"{OWNER}#range", _("{u} IS OUT OF RANGE", u=u))\n',
    ],
    ids=["XX", "upper case"],
)
def test_the_words_of_a_message_are_wording(after: str) -> None:
    assert _kind(REFUSAL, after) == WORDING


@pytest.mark.parametrize(
    "after",
    [
        # the rule a refusal names is what the examples pin (refused(..., rule=...))
        'def f(u):\n    raise IllegalDeclaration(f"{OWNER}XX#rangeXX", _("{u} is out of range", u=u))\n',
        # no message at all: the engine fails differently
        'def f(u):\n    raise IllegalDeclaration(f"{OWNER}#range", _(None, u=u))\n',
        'def f(u):\n    raise IllegalDeclaration(f"{OWNER}#range", _(u=u))\n',
        # a placeholder's value is computed
        'def f(u):\n    raise IllegalDeclaration(f"{OWNER}#range", _("{u} is out of range", u=None))\n',
        # the words and, on the same line, a decision
        'def f(u):\n    raise IllegalDeclaration(f"{OWNER}#arc", _("XX{u} is out of rangeXX", u=u))\n',
        # no refusal
        "def f(u):\n    pass\n",
        # the placeholder upper-cased too: _() can no longer fill it in (KeyError), more than words
        'def f(u):\n    raise IllegalDeclaration(f"{OWNER}#range", _("{U} IS OUT OF RANGE", u=u))\n',
    ],
    ids=["rule", "None", "dropped", "placeholder", "words and rule", "no raise", "placeholder renamed"],
)
def test_a_change_of_what_is_decided_is_never_wording(after: str) -> None:
    assert _kind(REFUSAL, after) == ""


def test_words_after_a_message_s_last_placeholder_are_wording_and_the_placeholder_is_not() -> None:
    # string.Formatter().parse yields a field-less item for trailing text: only the fields are compared
    ends = 'def f(m, r):\n    return _("{m} does not fire: {r}", m=m, r=r)\n'
    assert _kind(ends, ends.replace("{m} does", "XX{m} does").replace("{r}", "{r}XX")) == WORDING
    assert _kind(ends, ends.replace("{r}", "{r}.")) == WORDING
    assert _kind(ends, ends.replace(": {r}", ":")) == ""  # a field dropped: its value is no longer said
    assert _kind(ends, ends.replace("{r}", "{r}{{r}}")) == WORDING  # escaped braces are words
    assert _kind(ends, ends.replace(": {r}", ": {r}{r}")) == ""  # a field added
    assert _kind(ends, ends.replace("{r}", "{R}")) == ""  # a field renamed


def test_the_literal_parts_of_a_refusal_message_are_wording_not_what_it_interpolates() -> None:
    before = 'def f(n):\n    raise InvalidInput(f"at most {n} dice, not {n + 1}", 3, "a.yaml")\n'
    assert _kind(before, before.replace("at most", "XXat mostXX")) == WORDING
    assert _kind(before, before.replace("n + 1", "n - 1")) == ""
    assert _kind(before, before.replace('"a.yaml"', '"XXa.yamlXX"')) == ""  # the path is not the message
    keyword = 'def f():\n    raise TooLarge(message="too large", line=None)\n'
    assert _kind(keyword, keyword.replace("too large", "TOO LARGE")) == WORDING


def test_strings_that_decide_are_never_wording() -> None:
    compared = 'def f():\n    return _("a") if current() == "ru" else _("b")\n'
    assert _kind(compared, compared.replace('"ru"', '"XXruXX"')) == ""
    assert _kind(compared, compared.replace('_("a")', '_("XXaXX")')) == WORDING
    keyed = 'def f(m, w):\n    return [f"{m}/{w}", m]\n'  # a look-up key built with an f-string
    assert _kind(keyed, keyed.replace("/", "XX/XX")) == ""
    spread = 'def f(a):\n    return {**a, "k": _("words")}\n'  # a list holding None: the key of **a
    assert _kind(spread, spread.replace("words", "XXwordsXX")) == WORDING
    assert _kind(spread, spread.replace('"k"', '"XXkXX"')) == ""
    checked = 'def f(rest):\n    assert not rest, "the dice bound covers every die rolled"\n'
    assert _kind(checked, checked.replace("the dice", "XXthe dice")) == WORDING
    assert _kind(checked, checked.replace("not rest", "rest")) == ""
    plural = 'def f(n):\n    return n_("{n} model", "{n} models", n, n=n)\n'
    assert _kind(plural, plural.replace('"{n} models"', '"XX{n} modelsXX"')) == WORDING
    assert _kind(plural, plural.replace("n, n=n", "n + 1, n=n")) == ""


SOURCE = '''"""Range."""


def refuse(u):
    """Rule: core/range.md#range"""
    if u > 3:
        raise IllegalDeclaration(RULE, _("{u} is out of range", u=u))
'''

MUTATED = '''
def x_refuse__mutmut_orig(u):
    """Rule: core/range.md#range"""
    if u > 3:
        raise IllegalDeclaration(RULE, _("{u} is out of range", u=u))
def x_refuse__mutmut_1(u):
    """Rule: core/range.md#range"""
    if u > 3:
        raise IllegalDeclaration(RULE, _("XX{u} is out of rangeXX", u=u))
def x_refuse__mutmut_2(u):
    """Rule: core/range.md#range"""
    if u >= 3:
        raise IllegalDeclaration(RULE, _("{u} is out of range", u=u))
def x_refuse__mutmut_3(u):
    """Rule: core/range.md#range"""
    if u > 3:
        raise IllegalDeclaration(RULE, _("{u} IS OUT OF RANGE", u=u))
def x_refuse__mutmut_4(u):
    """Rule: core/range.md#range"""
    if u > 4:
        raise IllegalDeclaration(RULE, _("{u} is out of range", u=u))
'''

KEYS = {
    "rulespy.core.r.x_refuse__mutmut_1": None,  # wording, not tested yet
    "rulespy.core.r.x_refuse__mutmut_2": 1,  # killed
    "rulespy.core.r.x_refuse__mutmut_3": 1,  # wording an example happens to notice
    "rulespy.core.r.x_refuse__mutmut_4": None,  # a decision, not tested yet
}


def _repo(root: Path) -> Path:
    page = ("core/range.md", "# R {#range}\n\n```{.python}\nx = 1\n```\n")
    return mutated_repo(root, "r", (SOURCE, MUTATED), KEYS, page)


def _codes(root: Path) -> dict[str, int | None]:
    meta = json.loads((root / "mutants/rulespy/core/r.py.meta").read_text(encoding="utf-8"))
    return dict(meta["exit_code_by_key"])


def test_the_mutants_read_from_the_cache_carry_their_kind(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    found = {m.key[-1]: m.kind for m in mutants_of(root, root / "mutants/rulespy/core/r.py.meta")}
    assert found == {"1": WORDING, "2": "", "3": WORDING, "4": ""}


def test_wording_is_not_run_and_left_out_of_the_killed_share(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    assert mark_wording(root) == 1
    assert _codes(root) == {**KEYS, "rulespy.core.r.x_refuse__mutmut_1": 34}  # the decision waits for mutmut
    _codes_set(root, {**_codes(root), "rulespy.core.r.x_refuse__mutmut_4": 0})  # mutmut: it survived
    write_report(root)
    report = load_mutation_report(root)
    (section,) = report.sections
    assert (section.made, section.killed, section.wording, len(section.survivors)) == (4, 1, 2, 1)
    assert report.killed_share == 50.0  # 1 killed of the 2 that are not wording
    assert report.to_json()["wording"] == 2
    text = render(report)
    assert "WORDING" in text and "2 wording, 0 format and 0 message (left out)" in text
    assert "computed `4` instead of `3`" in text and "out of range" not in text  # only the decision listed


def test_a_note_on_a_wording_mutant_is_a_problem(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    write_report(root)
    (root / "tests/mutation/equivalent.yml").write_text(
        "- function: rulespy.core.r.refuse\n"
        '  before: raise IllegalDeclaration(RULE, _("{u} is out of range", u=u))\n'
        '  after: raise IllegalDeclaration(RULE, _("XX{u} is out of rangeXX", u=u))\n'
        "  why: only words.\n",
        encoding="utf-8",
    )
    (problem,) = load_mutation_report(root).problems
    assert problem.startswith("tests/mutation/equivalent.yml:1: noted as equivalent, but it is wording")


def _codes_set(root: Path, codes: dict[str, int | None]) -> None:
    file = root / "mutants/rulespy/core/r.py.meta"
    meta = json.loads(file.read_text(encoding="utf-8"))
    meta["exit_code_by_key"] = codes
    file.write_text(json.dumps(meta), encoding="utf-8")


LOADER_SOURCE = '''"""A loader."""


def count(value):
    if value < 0:
        raise InvalidInput("a count must not be negative", 1)
    return value
'''

LOADER_MUTATED = """import os


def x_count__mutmut_orig(value):
    if value < 0:
        raise InvalidInput("a count must not be negative", 1)
    return value
def x_count__mutmut_1(value):
    if value <= 0:
        raise InvalidInput("a count must not be negative", 1)
    return value
def x_count__mutmut_2(value):
    if value < 0:
        raise InvalidInput("a count must not be negative", 2)
    return value
def x_count__mutmut_3(value):
    if value < 0:
        raise InvalidInput("a count must not be negative", 1)
    return value + 1
class InvalidInput(Exception):
    pass
def count(value):  # what mutmut's trampoline does: the mutant named in MUTANT_UNDER_TEST, else the original
    key = os.environ.get("MUTANT_UNDER_TEST", "").rpartition("__mutmut_")[2]
    return globals().get(f"x_count__mutmut_{key}", x_count__mutmut_orig)(value)
"""

CONTRACT = """import pytest

from rulespy.scenario.s import InvalidInput, count


def test_a_negative_count_is_refused():
    with pytest.raises(InvalidInput):
        count(-1)
    assert count(0) == 0
"""


def _loader_repo(root: Path, codes: dict[str, int | None]) -> Path:
    for folder in (root, root / "mutants"):
        (folder / "rulespy/scenario").mkdir(parents=True)
        (folder / "rulespy/__init__.py").write_text("", encoding="utf-8")
        (folder / "rulespy/scenario/__init__.py").write_text("", encoding="utf-8")
        (folder / "tests/scenario").mkdir(parents=True)
        (folder / "tests/scenario/test_malformed.py").write_text(CONTRACT, encoding="utf-8")
        (folder / "tests/scenario/test_loader.py").write_text(
            "def test_nothing():\n    pass\n", encoding="utf-8"
        )
    (root / "rulespy/scenario/s.py").write_text(LOADER_SOURCE, encoding="utf-8")
    (root / "mutants/rulespy/scenario/s.py").write_text(LOADER_MUTATED, encoding="utf-8")
    meta = {"exit_code_by_key": codes, "durations_by_key": {}, "estimated_durations_by_key": {}}
    (root / "mutants/rulespy/scenario/s.py.meta").write_text(json.dumps(meta), encoding="utf-8")
    (root / "tests/mutation").mkdir(parents=True)
    return root


def test_a_loader_mutant_only_the_contract_kills_is_format(tmp_path: Path) -> None:
    from rulespy.coverage.mutation import classify_format

    codes = {f"rulespy.scenario.s.x_count__mutmut_{n}": code for n, code in ((1, 33), (2, 33), (3, 1))}
    root = _loader_repo(tmp_path, codes)
    # 1 refuses a count of 0: the contract notices; 2 names another line, which it does not check; an
    # example killed 3
    assert classify_format(root) == (2, 1)
    assert classify_format(root) == (0, 1)  # cached: nothing run again
    kinds = {m.key[-1]: m.kind for m in write_report(root)}
    assert kinds == {"1": "format", "2": "", "3": ""}
    report = load_mutation_report(root)
    assert (report.made, report.killed, report.format) == (3, 1, 1)
    assert report.killed_share == 50.0  # the second, which the contract's test lets pass, stays in the share
    # the contract's test changed: its verdicts are taken again, not trusted
    test = root / "tests/scenario/test_malformed.py"
    test.write_text(test.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert {m.key[-1]: m.kind for m in write_report(root)}["1"] == ""


ENGINE_SOURCE = '''"""Range."""


def refuse(u):
    """Rule: core/range.md#range"""
    if u > 3:
        return ("core/range.md#range", f"{u} is out of range")
    return None
'''

ENGINE_MUTATED = """import os


def x_refuse__mutmut_orig(u):
    if u > 3:
        return ("core/range.md#range", f"{u} is out of range")
    return None
def x_refuse__mutmut_1(u):
    if u > 3:
        return ("core/range.md#range", f"{u + 1} is out of range")
    return None
def x_refuse__mutmut_2(u):
    if u >= 3:
        return ("core/range.md#range", f"{u} is out of range")
    return None
def x_refuse__mutmut_3(u):
    if u > 4:
        return ("core/range.md#range", f"{u} is out of range")
    return None
def x_refuse__mutmut_4(u):
    if u > 3:
        return ("core/range.md#arc", f"{u} is out of range")
    return None
def x_refuse__mutmut_5(u):
    if u > 3:
        return ("core/range.md#range", f"{u - 1} is out of range")
    return None
def refuse(u):  # what mutmut's trampoline does: the mutant named in MUTANT_UNDER_TEST, else the original
    key = os.environ.get("MUTANT_UNDER_TEST", "").rpartition("__mutmut_")[2]
    return globals().get(f"x_refuse__mutmut_{key}", x_refuse__mutmut_orig)(u)
"""

#: A stand-in for tests/cli/resolve_outputs.py: resolves two declarations (3" and 10" away) with the
#: mutated engine, as rulespy resolve answers them with --json and without.
OUTPUTS = """import importlib.util, json
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]


def outputs():
    spec = importlib.util.spec_from_file_location("engine", HERE / "rulespy/core/m.py")
    engine = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(engine)
    found = {}
    for u in (3, 10):
        refusal = engine.refuse(u)
        error = None if refusal is None else {"rule": refusal[0], "message": refusal[1]}
        code = int(refusal is not None)
        answer = json.dumps({"legal": refusal is None, "error": error}, indent=1).splitlines()
        account = ["Legal"] if refusal is None else ["Forbidden: " + refusal[1]]
        found[f"u{u}"] = {
            "json": {"exit": code, "stdout": answer, "stderr": []},
            "text": {"exit": code, "stdout": account, "stderr": []},
        }
    return found


def recorded():
    return json.loads(Path(__file__).with_name("resolve_outputs.json").read_text(encoding="utf-8"))
"""


def test_a_survivor_that_changes_only_the_recorded_answers_text_is_message(tmp_path: Path) -> None:
    import importlib.util

    from rulespy.coverage.mutation import classify_message

    root = tmp_path
    codes = {
        f"rulespy.core.m.x_refuse__mutmut_{n}": code for n, code in ((1, 0), (2, 0), (3, 0), (4, 0), (5, 1))
    }
    for folder in (root, root / "mutants"):
        (folder / "rulespy/core").mkdir(parents=True)
        (folder / "tests/cli").mkdir(parents=True)
        for package in ("tests", "tests/cli"):
            (folder / package / "__init__.py").write_text("", encoding="utf-8")
        (folder / "tests/cli/resolve_outputs.py").write_text(OUTPUTS, encoding="utf-8")
    (root / "rulespy/core/m.py").write_text(ENGINE_SOURCE, encoding="utf-8")
    (root / "mutants/rulespy/core/m.py").write_text(ENGINE_MUTATED, encoding="utf-8")
    meta = {"exit_code_by_key": codes, "durations_by_key": {}, "estimated_durations_by_key": {}}
    (root / "mutants/rulespy/core/m.py.meta").write_text(json.dumps(meta), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("outputs", root / "mutants/tests/cli/resolve_outputs.py")
    assert spec is not None and spec.loader is not None
    writer = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(writer)
    record = json.dumps(writer.outputs())  # the unmutated engine's answers
    for folder in (root, root / "mutants"):
        (folder / "tests/cli/resolve_outputs.json").write_text(record, encoding="utf-8")
    (root / "tests/mutation").mkdir(parents=True)
    # 1 prints another distance in the refusal (message); 2 refuses at 3" too and 4 names another rule
    # (decisions: examples are owed); 3 changes nothing the record holds; an example killed 5, not asked
    assert classify_message(root) == (4, 1)
    assert classify_message(root) == (0, 1)  # cached: nothing resolved again
    changes = json.loads((root / "mutants/message.json").read_text(encoding="utf-8"))
    assert {key[-1]: answer["change"] for key, answer in changes.items()} == {
        "1": "message",
        "2": "decision",
        "3": "same",
        "4": "decision",
    }
    kinds = {m.key[-1]: m.kind for m in write_report(root)}
    assert kinds == {"1": "message", "2": "", "3": "", "4": "", "5": ""}
    report = load_mutation_report(root)
    assert (report.made, report.killed, report.message) == (5, 1, 1)
    assert report.killed_share == 25.0  # 2, 3 and 4 stay in the share, as survivors
    assert "1 message (left out)" in render(report)
    # the record changed: its verdicts are taken again, not trusted
    record_file = root / "tests/cli/resolve_outputs.json"
    record_file.write_text(record_file.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert {m.key[-1]: m.kind for m in write_report(root)}["1"] == ""
