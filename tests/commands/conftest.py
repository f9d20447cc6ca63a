"""A small battlefield shared by the command tests: a leader with a rifle and a heavy cannon, and a target."""

from __future__ import annotations

import pytest

from rulespy.play import play as play_text
from rulespy.sequences.resolution import Resolution

BASE = """
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
  cannon: {range: 36, dice: 1, lock: 4, damage: 2, traits: [heavy]}
  pistol: {range: 12, dice: 1, lock: 4, damage: 1, traits: [assault]}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, weapons: [rifle, pistol]}
      - {id: s2, at: [0, 2], weapons: [cannon]}
  - id: foes
    side: red
    models:
      - {id: f1, at: [10, 0], wounds: 3, weapons: [rifle]}
      - {id: f2, at: [10, 2], wounds: 3}
"""


@pytest.fixture
def play():  # type: ignore[no-untyped-def]
    def run(
        command: str, dice: list[int], extra: str = "", targets: str = "{unit: foes, mark: f1}"
    ) -> Resolution:
        text = BASE + extra + f"attack: {{unit: squad, command: {command}, targets: [{targets}]}}\n"
        return play_text(text + f"dice: {dice}\n")

    return run
