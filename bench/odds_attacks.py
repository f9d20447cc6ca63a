"""The attacks the odds benches time, built as a player would write them (scenario YAML).

- ``bench``: ten models fire 30 Target Lock dice from two weapon profiles (six rifles, then four
  critical-5 launchers, three dice each; the unit lists its riflemen first) at ten two-wound models with
  armour 1 (issue 6's bench attack).
- ``alternating``: the same two profiles at four dice each, ten models alternating rifle and launcher
  model by model (40 dice): the successes' order matters to the allocation, so runs cannot be joined.
- ``firefight``: a Snap Fire Firefight of 20 dice a side (ten riflemen with two dice each, answered by
  ten gangers with two-dice carbines), both units of two-wound models.
"""

from __future__ import annotations

from rulespy.scenario import parse_scenario
from rulespy.state import Scenario

RIFLEMEN, GUNNERS, TARGETS = 6, 4, 10
WEAPONS = [
    "weapons:",
    "  rifle: {range: 24, dice: 3, lock: 4, damage: 2}",
    "  launcher: {range: 24, dice: 3, lock: 4, damage: 3, traits: [critical 5]}",
]
SQUAD = ["units:", "  - id: squad", "    side: blue", "    models:"]
FOES = [
    "  - id: foes",
    "    side: red",
    "    models:",
    *(f"      - {{id: t{i}, at: [14, {i * 1.5}], wounds: 2, armour: 1}}" for i in range(TARGETS)),
]
ATTACK = "attack: {unit: squad, command: shoot, targets: [{unit: foes, mark: t0}]}"


def bench() -> str:
    """The bench attack: 30 dice, six riflemen then four launchers."""
    shooters = [
        f"      - {{id: a{i}, at: [0, {i * 1.5}], weapons: [{'rifle' if i < RIFLEMEN else 'launcher'}]}}"
        for i in range(RIFLEMEN + GUNNERS)
    ]
    return "\n".join([*WEAPONS, *SQUAD, *shooters, *FOES, ATTACK])


def alternating(models: int = 10, dice: int = 4) -> str:
    """``models`` models alternating rifle and launcher, ``dice`` dice each, at the bench's targets."""
    shooters = [
        f"      - {{id: a{i}, at: [0, {i * 1.5}], weapons: [{'rifle' if i % 2 == 0 else 'launcher'}]}}"
        for i in range(models)
    ]
    weapons = [line.replace("dice: 3", f"dice: {dice}") for line in WEAPONS]
    return "\n".join([*weapons, *SQUAD, *shooters, *FOES, ATTACK])


def firefight(models: int = 10) -> str:
    """A Shoot answered by Snap Fire: ``models`` riflemen with two dice against as many gangers."""
    squad = [f"      - {{id: s{i}, at: [0, {i * 1.5}], wounds: 2, weapons: [rifle]}}" for i in range(models)]
    gang = [
        f"      - {{id: g{i}, at: [14, {i * 1.5}], wounds: 2, weapons: [carbine]}}" for i in range(models)
    ]
    text = "\n".join(
        [
            "weapons:",
            "  rifle: {range: 24, dice: 2, lock: 4, damage: 1}",
            "  carbine: {range: 18, dice: 2, lock: 4, damage: 1}",
            "units:",
            "  - id: squad",
            "    side: blue",
            "    models:",
            *squad,
            "  - id: gang",
            "    side: red",
            "    models:",
            *gang,
            "attack: {unit: squad, command: shoot, targets: [{unit: gang, mark: g0}]}",
            "response: {command: snap_fire, mark: s0}",
        ]
    )
    return text


def scenario(text: str, name: str = "<bench>") -> Scenario:
    return parse_scenario(text, name)


# The attacks whose answers tests/odds/answers.json records, as YAML (the bench attack, and the
# largest alternating attack and firefight the engine answered before issue 15).
RECORDED: dict[str, str] = {
    "bench": bench(),
    "alternating-6x3": alternating(6, 3),
    "firefight-6": firefight(6),
}
