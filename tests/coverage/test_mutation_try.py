"""python -m rulespy.coverage.mutation_try: which cached survivors a page's examples kill, on a hand-made
mutmut cache whose "mutated copy" switches its mutants on MUTANT_UNDER_TEST as mutmut's trampolines do."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulespy.coverage.mutation_try import candidates, main

#: A stand-in for mutmut's mutated copy of an engine file: mutant 1 adds the armour, mutant 2 hangs,
#: mutant 3 changes nothing an example can see.
ENGINE = """
import os


def normal_wounds(damage, armour):
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    if mutant == "rulespy.damage.x_normal_wounds__mutmut_1":
        return damage + armour
    if mutant == "rulespy.damage.x_normal_wounds__mutmut_2":
        while True:
            pass
    return max(damage - armour, 0)
"""

PAGE = """# Damage {#damage-rules}

## Damage {#damage}

A hit of damage 3 on armour 1 takes off 2 wounds.

```{.python}
from rulespy.damage import normal_wounds

assert normal_wounds(3, 1) == 2
```
"""


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    engine = tmp_path / "mutants" / "rulespy"
    engine.mkdir(parents=True)
    (engine / "__init__.py").write_text("", encoding="utf-8")
    (engine / "damage.py").write_text(ENGINE, encoding="utf-8")
    codes = {
        "rulespy.damage.x_normal_wounds__mutmut_1": 0,  # survived the last pass
        "rulespy.damage.x_normal_wounds__mutmut_2": None,  # not tested yet
        "rulespy.damage.x_normal_wounds__mutmut_3": 33,  # unreached
        "rulespy.damage.x_normal_wounds__mutmut_4": 1,  # killed already: not tried again
    }
    (engine / "damage.py.meta").write_text(json.dumps({"exit_code_by_key": codes}), encoding="utf-8")
    (tmp_path / "rulespy").mkdir()  # the engine itself, whose module the cache holds results of
    (tmp_path / "rulespy" / "damage.py").write_text(
        "def normal_wounds(damage, armour):\n    return max(damage - armour, 0)\n", encoding="utf-8"
    )
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "damage.md").write_text(PAGE, encoding="utf-8")
    return tmp_path


def test_only_the_mutants_not_killed_yet_are_tried(cache: Path) -> None:
    assert candidates(cache, []) == [f"rulespy.damage.x_normal_wounds__mutmut_{n}" for n in (1, 2, 3)]
    assert candidates(cache, ["*_mutmut_3"]) == ["rulespy.damage.x_normal_wounds__mutmut_3"]


def test_the_page_kills_what_it_pins_and_a_hang_counts_as_killed(
    cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("rulespy.coverage.mutation_try.LIMIT", 1)
    assert main(["--root", str(cache), str(cache / "core" / "damage.md")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "killed   rulespy.damage.x_normal_wounds__mutmut_1" in out
    assert "killed   rulespy.damage.x_normal_wounds__mutmut_2" in out
    assert "survives rulespy.damage.x_normal_wounds__mutmut_3" in out
    assert out[-1] == "2 of 3 mutants not killed before are killed by these examples"
    meta = json.loads((cache / "mutants" / "rulespy" / "damage.py.meta").read_text(encoding="utf-8"))
    assert meta["exit_code_by_key"]["rulespy.damage.x_normal_wounds__mutmut_1"] == 0  # the cache is untouched


def test_refusals(cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.md"
    empty.write_text("# Nothing {#nothing}\n", encoding="utf-8")
    assert main(["--root", str(cache), str(empty)]) == 2
    assert "empty.md:1: no worked example" in capsys.readouterr().err
    wrong = tmp_path / "wrong.md"
    wrong.write_text(PAGE.replace("== 2", "== 3"), encoding="utf-8")
    assert main(["--root", str(cache), str(wrong)]) == 2
    assert "fail on the unmutated engine" in capsys.readouterr().err
    (cache / "mutants" / "rulespy" / "damage.py.meta").unlink()
    assert main(["--root", str(cache), str(cache / "core" / "damage.md")]) == 2
    assert "run 'make mutants' first" in capsys.readouterr().err
