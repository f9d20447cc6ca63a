"""make mutants' report (rulespy/coverage/mutation.py) and its reader, rulespy coverage --mutants
(rulespy/coverage/mutants.py), on a small repository with a hand-made mutmut cache."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import FrameType

import pytest

from rulespy.cli import main
from rulespy.coverage.mutants import Mutant, load_mutation_report, plain_words, render
from rulespy.coverage.mutation import (
    killer_fingerprints,
    metas,
    mutants_of,
    prepare_for_examples,
    record_examples,
    refresh_copies,
    retest_reached,
    write_report,
)
from tests.coverage.mutated import mutated_repo

SOURCE = '''"""Damage."""


def normal_wounds(damage, armour):
    """Rule: core/damage.md#damage"""
    return max(damage - armour, 0)


class Pool:
    """Rule: core/damage.md#armour"""

    def size(self):
        return 3
'''

MUTATED = '''
def x_normal_wounds__mutmut_orig(damage, armour):
    """Rule: core/damage.md#damage"""
    return max(damage - armour, 0)
def x_normal_wounds__mutmut_1(damage, armour):
    """Rule: core/damage.md#damage"""
    return max(damage + armour, 0)
def x_normal_wounds__mutmut_2(damage, armour):
    """Rule: core/damage.md#damage"""
    return max(damage - armour, 1)
class Pool:
    def xǁPoolǁsize__mutmut_orig(self):
        return 3
    def xǁPoolǁsize__mutmut_1(self):
        return 4
'''

KEYS = {
    "rulespy.core.x.x_normal_wounds__mutmut_1": 1,  # killed
    "rulespy.core.x.x_normal_wounds__mutmut_2": 0,  # survived
    "rulespy.core.x.xǁPoolǁsize__mutmut_1": 33,  # no example reaches it
}


def _repo(root: Path, keys: dict[str, int | None] = KEYS) -> Path:
    page = ("core/damage.md", "# D {#d}\n\n```{.python}\nx = 1\n```\n")
    mutated_repo(root, "x", (SOURCE, MUTATED), keys, page)
    (root / "tests/mutation/killers.py").write_text("", encoding="utf-8")
    return root


def test_mutants_are_read_with_their_line_and_change(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    found = {m.key.rpartition(".")[2]: m for m in mutants_of(root, root / "mutants/rulespy/core/x.py.meta")}
    first = found["x_normal_wounds__mutmut_1"]
    assert (first.path, first.line, first.function) == (
        "rulespy/core/x.py",
        6,
        "rulespy.core.x.normal_wounds",
    )
    assert (first.before, first.after, first.status) == (
        "return max(damage - armour, 0)",
        "return max(damage + armour, 0)",
        "killed",
    )
    method = found["xǁPoolǁsize__mutmut_1"]
    assert (method.function, method.line, method.status) == ("rulespy.core.x.Pool.size", 13, "unreached")


def test_a_module_deleted_since_the_run_has_no_mutants(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    gone = root / "mutants/rulespy/core/gone.py.meta"
    gone.write_text((root / "mutants/rulespy/core/x.py.meta").read_text(encoding="utf-8"), encoding="utf-8")
    assert metas(root) == [root / "mutants/rulespy/core/x.py.meta"]
    assert len(write_report(root)) == len(KEYS)  # not a missing file's traceback


def test_report_counts_each_rule_section_and_words_the_survivors(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    write_report(root)
    report = load_mutation_report(root)
    by_rule = {s.rule: s for s in report.sections}
    damage, armour = by_rule["core/damage.md#damage"], by_rule["core/damage.md#armour"]
    assert (damage.made, damage.killed, len(damage.survivors)) == (2, 1, 1)
    assert (armour.made, armour.killed, len(armour.survivors)) == (1, 0, 1)  # the class's rule
    assert report.killed_share == pytest.approx(100 / 3)
    text = render(report)
    assert "rulespy/core/x.py:6: if normal_wounds computed `1` instead of `0`, no example would fail" in text
    assert (
        "rulespy/core/x.py:13: no example runs this line of Pool.size: if it computed `4` instead of `3`"
        in text
    )


def test_an_equivalent_note_is_counted_apart_and_a_stale_one_is_a_problem(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    write_report(root)
    (root / "tests/mutation/equivalent.yml").write_text(
        "- function: rulespy.core.x.normal_wounds\n"
        "  before: return max(damage - armour, 0)\n"
        "  after: return max(damage - armour, 1)\n"
        "  why: the caller never asks for less than one wound.\n"
        "- function: rulespy.core.x.gone\n"
        "  before: a\n"
        "  after: b\n"
        "  why: moved.\n",
        encoding="utf-8",
    )
    report = load_mutation_report(root)
    assert report.equivalent == 1 and report.killed_share == 50.0
    assert report.problems == [
        "tests/mutation/equivalent.yml:5: the note matches no mutant of rulespy.core.x.gone"
        " (the code moved on?)"
    ]


def test_a_note_of_a_mutant_not_tested_yet_is_no_problem(tmp_path: Path) -> None:
    """A stopped pass (or ``--report-only`` over a partial cache) leaves mutants untested: a note of one
    waits for its verdict instead of being reported as matching nothing."""
    root = _repo(tmp_path, {**KEYS, "rulespy.core.x.x_normal_wounds__mutmut_2": None})
    write_report(root)
    (root / "tests/mutation/equivalent.yml").write_text(
        "- function: rulespy.core.x.normal_wounds\n"
        "  before: return max(damage - armour, 0)\n"
        "  after: return max(damage - armour, 1)\n"
        "  why: the caller never asks for less than one wound.\n",
        encoding="utf-8",
    )
    report = load_mutation_report(root)
    assert report.problems == [] and report.unchecked == 1 and report.equivalent == 0


def test_a_note_on_a_killed_mutant_is_a_problem(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    write_report(root)
    (root / "tests/mutation/equivalent.yml").write_text(
        "- {function: rulespy.core.x.normal_wounds, before: 'return max(damage - armour, 0)',\n"
        "   after: 'return max(damage + armour, 0)', why: wrong}\n",
        encoding="utf-8",
    )
    (problem,) = load_mutation_report(root).problems
    assert problem.startswith("tests/mutation/equivalent.yml:1: noted as equivalent, but an example kills it")


def test_coverage_mutants_without_a_run_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path)
    (root / "concepts.yml").write_text("owners: {}\n", encoding="utf-8")
    assert main(["coverage", str(root), "--no-run", "--mutants"]) == 2
    err = capsys.readouterr().err
    assert "mutants/report.json:1: no mutation results: run 'make mutants' first" in err
    assert "Traceback" not in err


EXAMPLE = "tests/mutation/killers.py::test_worked_example[core/damage.md:{}]"


def _recorded(root: Path) -> None:
    """A completed run of the repository as it is, with the verdicts of ``KEYS``."""
    record_examples(root, prepare_for_examples(root))
    _repo_codes(root, KEYS)


def _stats(root: Path, reached: dict[str, list[str]]) -> None:
    stats = {
        "tests_by_mangled_function_name": reached,
        "duration_by_test": {t: 0.1 for tests in reached.values() for t in tests},
    }
    (root / "mutants/mutmut-stats.json").write_text(json.dumps(stats), encoding="utf-8")


def test_an_added_example_retests_the_survivors_of_what_it_reaches(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _recorded(root)
    page = root / "core/damage.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n```{.python}\ny = 2\n```\n", encoding="utf-8")
    change = prepare_for_examples(root)
    assert change.fresh == {EXAMPLE.format(7)} and _codes(root) == KEYS  # nothing forgotten before the run
    _stats(root, {"rulespy.core.x.x_normal_wounds": [EXAMPLE.format(3), EXAMPLE.format(7)]})  # mutmut's
    assert retest_reached(root, change.fresh) == 1
    assert _codes(root) == {
        "rulespy.core.x.x_normal_wounds__mutmut_1": 1,  # killed stays killed
        "rulespy.core.x.x_normal_wounds__mutmut_2": None,  # the new example reaches it: tested again
        "rulespy.core.x.xǁPoolǁsize__mutmut_1": 33,  # the new example does not reach Pool.size
    }
    record_examples(root, change)
    assert json.loads((root / "mutants/killers.json").read_text(encoding="utf-8")) == killer_fingerprints(
        root
    )
    assert prepare_for_examples(root).verdict == "examples unchanged"


def test_a_changed_example_retests_what_it_may_have_killed(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _recorded(root)
    _repo_codes(root, {**KEYS, "rulespy.core.x.xǁPoolǁsize__mutmut_1": 1})
    _stats(root, {"rulespy.core.x.x_normal_wounds": [EXAMPLE.format(3)]})
    (root / "core/damage.md").write_text("# D {#d}\n\n```{.python}\nx = 2\n```\n", encoding="utf-8")
    change = prepare_for_examples(root)
    assert change.verdict == (
        "1 examples new or changed, 1 changed or removed: testing again the killed mutants of the 1 "
        "functions the old ones reached"
    )
    assert _codes(root) == {  # Pool.size was killed by another example, which did not change
        "rulespy.core.x.x_normal_wounds__mutmut_1": None,
        "rulespy.core.x.x_normal_wounds__mutmut_2": 0,
        "rulespy.core.x.xǁPoolǁsize__mutmut_1": 1,
    }
    kept = json.loads((root / "mutants/mutmut-stats.json").read_text(encoding="utf-8"))
    assert kept["duration_by_test"] == {}  # so mutmut learns again what the changed example reaches
    assert kept["tests_by_mangled_function_name"] == {"rulespy.core.x.x_normal_wounds": []}


def test_a_moved_example_is_not_a_changed_one(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _recorded(root)
    (root / "core/damage.md").write_text("# D {#d}\n\nMoved.\n\n```{.python}\nx = 1\n```\n", encoding="utf-8")
    change = prepare_for_examples(root)
    assert change.fresh == set() and _codes(root) == KEYS


def test_a_changed_killers_module_retests_everything(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    _recorded(root)
    (root / "mutants/mutmut-stats.json").write_text("{}", encoding="utf-8")
    (root / "tests/mutation/killers.py").write_text("# changed\n", encoding="utf-8")
    assert prepare_for_examples(root).verdict == "examples changed: testing every mutant again"
    assert set(_codes(root).values()) == {None}
    assert not (root / "mutants/mutmut-stats.json").exists()


def test_a_cache_without_fingerprint_retests_everything(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    assert prepare_for_examples(root).verdict == "examples changed: testing every mutant again"
    assert set(_codes(root).values()) == {None}


def test_a_run_stopped_half_way_keeps_its_verdicts_for_the_next(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    prepare_for_examples(root)  # the run starts: every mutant is tested again
    _repo_codes(root, {"rulespy.core.x.x_normal_wounds__mutmut_1": 1})  # then it is stopped
    assert prepare_for_examples(root).verdict == "examples unchanged"
    assert _codes(root)["rulespy.core.x.x_normal_wounds__mutmut_1"] == 1


def _codes(root: Path) -> dict[str, int | None]:
    meta = json.loads((root / "mutants/rulespy/core/x.py.meta").read_text(encoding="utf-8"))
    return dict(meta["exit_code_by_key"])


def _repo_codes(root: Path, keys: dict[str, int | None]) -> None:
    file = root / "mutants/rulespy/core/x.py.meta"
    meta = json.loads(file.read_text(encoding="utf-8"))
    meta["exit_code_by_key"] = keys
    file.write_text(json.dumps(meta), encoding="utf-8")


def test_plain_words_for_a_removed_call() -> None:
    mutant = Mutant("k", "p.py", 1, "rulespy.core.x.f", "return g(a, b)", "return g(a, )", "survived")
    assert plain_words(mutant) == "if f left out `b`, no example would fail"


def test_a_line_belongs_to_the_innermost_statement_that_holds_it() -> None:
    from rulespy.coverage.mutation import _statement_starts

    source = (
        "def f(a):\n    if a:\n        raise ValueError(\n            'a message'\n        )\n    return a\n"
    )
    starts = _statement_starts(source)
    assert starts[4] == 3  # the message belongs to the raise, which coverage.py counts at its first line
    assert starts[2] == 2 and starts[6] == 6 and starts[1] == 1


def test_plain_words_find_a_whole_argument_left_out() -> None:
    mutant = Mutant(
        "k",
        "p.py",
        1,
        "rulespy.core.x.f",
        "return math.hypot(p[0] - ax, p[1] - ay)",
        "return math.hypot(p[1] - ay)",
        "survived",
    )
    assert plain_words(mutant) == "if f left out `p[0] - ax,`, no example would fail"


def test_only_names_the_untested_mutants_so_that_mutmut_keeps_the_verdicts(tmp_path: Path) -> None:
    """``mutmut run PATTERN`` tests again every mutant the pattern matches, its verdict cached or not; the
    driver names the untested ones instead, and marks unreached those whose function no test reached."""
    from rulespy.coverage.mutation import pending_keys

    keys = {
        **KEYS,
        "rulespy.core.x.x_normal_wounds__mutmut_2": None,
        "rulespy.core.x.xǁPoolǁsize__mutmut_1": None,
    }
    root = _repo(tmp_path, keys)
    assert pending_keys(root, ("rulespy.core.*",)) is None  # no stats yet: the patterns are right
    _stats(root, {"rulespy.core.x.x_normal_wounds": [EXAMPLE.format(3)]})
    assert pending_keys(root, ("rulespy.core.*",)) == ["rulespy.core.x.x_normal_wounds__mutmut_2"]
    assert _codes(root) == {**keys, "rulespy.core.x.xǁPoolǁsize__mutmut_1": 33}  # no test reaches Pool.size
    assert pending_keys(root, ("rulespy.odds.*",)) == []  # nothing to test: mutmut is not started


def test_the_format_and_message_steps_ask_against_the_tests_as_they_are_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulespy.coverage.mutation as mutation

    monkeypatch.setattr(mutation, "copied", lambda root: ("tests", "examples"))
    (tmp_path / "tests/scenario/malformed").mkdir(parents=True)
    (tmp_path / "tests/scenario/malformed/added.yaml").write_text("# expect: 1: new\n", encoding="utf-8")
    (tmp_path / "tests/scenario/test_malformed.py").write_text("NEW = 1\n", encoding="utf-8")
    copy = tmp_path / "mutants/tests/scenario"
    (copy / "malformed").mkdir(parents=True)
    (copy / "malformed/removed.yaml").write_text("# expect: 1: old\n", encoding="utf-8")
    (copy / "test_malformed.py").write_text("OLD = 1\n", encoding="utf-8")
    (tmp_path / "mutants/examples").mkdir()
    (tmp_path / "mutants/rulespy").mkdir()
    refresh_copies(tmp_path)
    assert sorted(path.name for path in (copy / "malformed").iterdir()) == ["added.yaml"]
    assert (copy / "test_malformed.py").read_text(encoding="utf-8") == "NEW = 1\n"
    assert not (tmp_path / "mutants/examples").exists()  # gone from the checkout, gone from the copy
    assert (tmp_path / "mutants/rulespy").is_dir()  # mutmut's mutated engine is not touched


GUARD = """def far(a, box):
    if (
        a < box[0]
        or a > box[1]
    ):
        return True
    return False
"""

GUARD_MUTATED = "\n" + "".join(  # mutmut's copy: the function unchanged, then each mutant of it
    GUARD.replace("def far", f"def x_far__mutmut_{name}").replace(before, after)
    for name, before, after in (
        ("orig", "", ""),
        ("1", "a > box", "a >= box"),
        ("2", "return True", "return False"),
    )
)


def _executed(source: str, call: str) -> set[int]:
    """The lines of ``source`` that report a line event when ``call`` runs it: what coverage.py's tracer
    counts as executed (it is not installed for ``make test``; ``sys.settrace`` gives the same events)."""
    lines: set[int] = set()

    def trace(frame: FrameType, event: str, arg: object) -> object:
        if frame.f_code.co_filename == "guard.py" and event == "line":
            lines.add(frame.f_lineno)
        return trace

    space: dict[str, object] = {}
    exec(compile(source, "guard.py", "exec"), space)  # noqa: S102 - the test's own source
    before = sys.gettrace()
    sys.settrace(trace)
    try:
        exec(call, space)  # noqa: S102
    finally:
        sys.settrace(before)
    return lines | {1}  # the `def` ran at import


def test_a_condition_written_over_lines_is_reached_where_coverage_counts_it() -> None:
    """coverage.py counts ``if (`` at the lines of its condition that ran, not at the ``if``: a mutant on
    such a line is reached; one on a line the condition never got to (``or`` stopped before it) is not."""
    from rulespy.coverage.mutation import _statement_starts, line_reached

    starts = _statement_starts(GUARD)
    both = _executed(GUARD, "far(5, (0, 9))")  # neither side true: both comparisons ran
    assert 2 not in both and {3, 4} <= both  # the premise: the `if (` line itself is never counted
    assert line_reached(3, starts, both) and line_reached(4, starts, both)
    first = _executed(GUARD, "far(-1, (0, 9))")  # `or` stops at the first comparison
    assert line_reached(3, starts, first) and not line_reached(4, starts, first)
    assert not line_reached(6, starts, both) and line_reached(6, starts, first)  # the body: its own line
    assert not line_reached(1, starts, set()) and line_reached(1, starts, {1})  # a `def`: only itself


def test_mutants_marked_unreached_before_a_line_of_a_condition_counted_are_tested_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulespy.coverage.mutation as mutation

    keys: dict[str, int | None] = {
        "rulespy.core.x.x_far__mutmut_1": 33,
        "rulespy.core.x.x_far__mutmut_2": None,
    }
    root = mutated_repo(tmp_path, "x", (GUARD, GUARD_MUTATED), keys, ("core/d.md", "# D {#d}\n"))
    ran = {"rulespy/core/x.py": {1, 3, 4, 7}}  # both comparisons false: the body never ran
    monkeypatch.setattr(mutation, "executed_lines", lambda root: ran)
    assert mutation.mark_unreached_lines(root) == 1  # the body's mutant: unreached
    assert _codes(root) == {"rulespy.core.x.x_far__mutmut_1": None, "rulespy.core.x.x_far__mutmut_2": 33}
    assert mutation.mark_unreached_lines(root) == 0  # run again: the comparison's mutant is reached
    assert _codes(root)["rulespy.core.x.x_far__mutmut_2"] == 33  # and the body's is still unreached
