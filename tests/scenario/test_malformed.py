"""One broken fixture per kind of malformed scenario: exit 2, ``FILE:LINE: message``, nothing on stdout.

Each fixture under ``malformed/`` says in its second line what it expects: ``# expect: LINE: phrase``.
Rule: the contract's "Malformed input is reported as SCENARIO:LINE: message" (exit 2).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulespy.cli import main

FIXTURES = sorted((Path(__file__).parent / "malformed").glob("*.yaml"))
_EXPECT = re.compile(r"# expect: (\d+): (.+)")


def _expected(path: Path) -> tuple[int, str]:
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines()[:3]:
        found = _EXPECT.fullmatch(line.strip())
        if found:
            return int(found.group(1)), found.group(2)
    raise AssertionError(f"{path.name} has no '# expect: LINE: phrase' line")


def test_every_kind_of_malformed_input_has_a_fixture() -> None:
    names = {path.stem for path in FIXTURES}
    required = {
        "yaml_syntax", "unknown_top_key", "unknown_weapon", "unknown_unit", "unknown_mark", "wrong_type_dice",
        "die_of_seven", "negative_wounds", "lock_one", "dice_run_out", "dice_left_over", "dice_and_seed",
        "python_object_tag", "duplicate_id", "two_leaders", "duplicate_key",
    }  # fmt: skip
    assert required <= names


@pytest.mark.parametrize("fixture", FIXTURES, ids=[path.stem for path in FIXTURES])
def test_malformed_scenario_exits_2_with_its_line(fixture: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line, phrase = _expected(fixture)
    code = main(["resolve", str(fixture)])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert out == ""
    assert err.startswith(f"{fixture}:{line}: "), err
    assert phrase in err
    assert "Traceback" not in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("fixture", FIXTURES, ids=[path.stem for path in FIXTURES])
def test_malformed_scenario_json_mode_prints_nothing_on_stdout(
    fixture: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["resolve", str(fixture), "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"{fixture}:")
