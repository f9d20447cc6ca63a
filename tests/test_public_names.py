"""The public face of ``rulespy`` (issue 25 item 4): the few names a library user needs, each the very
object its module defines, loaded on first use so that importing the package (which every import of a
submodule runs first) pulls no layer above the state."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import rulespy
from rulespy.errors import BookError

ROOT = Path(__file__).resolve().parents[1]
UPPER = ("rulespy.cli", "rulespy.render", "rulespy.api", "rulespy.odds", "rulespy.scenario", "rulespy.check")


def _loaded_by(statement: str) -> set[str]:
    """The ``rulespy`` modules a fresh interpreter holds after ``statement``."""
    code = f"{statement}; import sys; print(' '.join(m for m in sys.modules if m.startswith('rulespy')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return set(done.stdout.split())


def test_importing_the_package_loads_only_the_errors() -> None:
    assert _loaded_by("import rulespy") == {"rulespy", "rulespy.errors"}


def test_importing_the_state_pulls_no_upper_layer() -> None:
    loaded = _loaded_by("import rulespy.state")
    assert "rulespy.state" in loaded
    assert not {m for m in loaded if m.startswith(UPPER)}


def test_a_public_name_pulls_only_what_it_needs() -> None:
    loaded = _loaded_by("import rulespy; rulespy.parse_scenario")
    assert "rulespy.scenario" in loaded
    assert not {m for m in loaded if m.startswith(("rulespy.cli", "rulespy.render", "rulespy.odds"))}


def test_every_public_name_is_the_object_its_module_defines() -> None:
    from rulespy.check import check_tree
    from rulespy.odds import odds
    from rulespy.scenario import load_scenario, parse_scenario
    from rulespy.sequences.resolution import resolve

    assert (rulespy.parse_scenario, rulespy.load_scenario) == (parse_scenario, load_scenario)
    assert rulespy.resolve is resolve
    assert (rulespy.exact_odds, rulespy.check_tree) == (odds, check_tree)
    assert set(rulespy.__all__) <= set(dir(rulespy))
    assert all(getattr(rulespy, name) is not None for name in rulespy.__all__)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'odds_of'"):
        rulespy.odds_of  # noqa: B018


def test_open_book_without_the_book_reader_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rulespy.book", None)  # as in a version without rulespy/book/
    with pytest.raises(BookError, match=r"no rule book reader \(rulespy\.book\)"):
        rulespy.open_book(ROOT)


def test_open_book_is_the_book_reader_of_the_repository() -> None:
    book = pytest.importorskip("rulespy.book", reason="rulespy.book is not in this version yet")
    opened = rulespy.open_book(ROOT)
    assert isinstance(opened, book.Book)
    assert opened.rule_dirs == book.Book.open(ROOT).rule_dirs
