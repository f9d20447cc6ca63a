"""Issue 13, item 8: scenario inputs that used to hang or end in "internal error" get a located message
(``SCENARIO:LINE: message``, exit 2)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulespy.cli import main

WIDE = """\
weapons:
  carbine: {range: 18, dice: 3, lock: 4, damage: 1}
units:
  - id: rangers
    side: blue
    models:
      - {id: r1, at: [0, 0], leader: true, weapons: [carbine], wounds: DIGITS}
"""


@pytest.mark.parametrize("command", ["resolve", "odds"])
def test_an_integer_of_5000_digits_is_a_located_message(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "wide.yaml"
    scenario.write_text(WIDE.replace("DIGITS", "9" * 5000), encoding="utf-8")
    assert main([command, str(scenario)]) == 2
    err = capsys.readouterr().err
    assert err == f"{scenario}:7: the number 99999999999999999999... has too many digits\n"


@pytest.mark.parametrize("command", ["resolve", "odds"])
def test_a_fifo_as_the_scenario_is_refused_without_waiting(
    tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "scenario.yaml"
    os.mkfifo(fifo)
    assert main([command, str(fifo)]) == 2
    assert (
        capsys.readouterr().err == f"{fifo}:1: the scenario path is not a regular file (a FIFO or a device)\n"
    )


def test_a_device_as_the_scenario_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["resolve", "/dev/zero"]) == 2
    assert (
        capsys.readouterr().err
        == "/dev/zero:1: the scenario path is not a regular file (a FIFO or a device)\n"
    )
