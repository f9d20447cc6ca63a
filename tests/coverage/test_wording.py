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


def test_words_after_a_message_s_last_placeholder_are_wording() -> None:
    """A message that ends in a placeholder gains a literal tail in the mutant (``"XX{reason}XX"``): no
    field is added, so it is wording; a field added or dropped is not."""
    ending = 'def f(m, r):\n    return _("{m!r} does not fire: {r}", m=m, r=r)\n'
    mutated = ending.replace('"{m!r} does not fire: {r}"', '"XX{m!r} does not fire: {r}XX"')
    assert _kind(ending, mutated) == WORDING
    assert _kind(ending, ending.replace(": {r}", ": {r}{r}")) == ""
    assert _kind(ending, ending.replace(": {r}", ":")) == ""
    assert _kind(ending, ending.replace("{r}", "{R}")) == ""


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
    (root / "rulespy/core").mkdir(parents=True)
    (root / "rulespy/core/r.py").write_text(SOURCE, encoding="utf-8")
    (root / "mutants/rulespy/core").mkdir(parents=True)
    (root / "mutants/rulespy/core/r.py").write_text(MUTATED, encoding="utf-8")
    meta = {"exit_code_by_key": KEYS, "durations_by_key": {}, "estimated_durations_by_key": {}}
    (root / "mutants/rulespy/core/r.py.meta").write_text(json.dumps(meta), encoding="utf-8")
    (root / "core").mkdir()
    (root / "core/range.md").write_text("# R {#range}\n\n```{.python}\nx = 1\n```\n", encoding="utf-8")
    (root / "tests/mutation").mkdir(parents=True)
    return root


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
    assert "WORDING" in text and "2 wording and 0 format (left out)" in text
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
