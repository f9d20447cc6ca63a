"""The five commands, each a small set of overrides of the standard shooting attack.

``rules_for(command)`` gives the overrides; the shooting engine itself lives in ``rulespy/core``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulespy.state import Command


@dataclass(frozen=True)
class CommandRules:
    """How a command changes a standard shooting attack. ``rule`` is the command's own anchor."""

    command: Command
    rule: str
    lock_modifier: int = 0
    heavy_weapons_fire: bool = True
    assault_weapons_only: bool = False
    split_target: bool = True
    closest_target_rule: bool = True
    pins_hit_models: bool = False
    responding: bool = False
    shooting_optional: bool = False  # the unit may not shoot and still carries out its command (Assault)


def rules_for(command: Command) -> CommandRules:
    """The overrides of ``command``.

    Rule: timing/command_timing.md#command
    """
    from rulespy.commands import (
        command_advance,
        command_assault,
        command_covering_fire,
        command_shoot,
        command_snap_fire,
    )

    table = {
        Command.SHOOT: command_shoot.SHOOT,
        Command.ADVANCE: command_advance.ADVANCE,
        Command.ASSAULT: command_assault.ASSAULT,
        Command.COVERING_FIRE: command_covering_fire.COVERING_FIRE,
        Command.SNAP_FIRE: command_snap_fire.SNAP_FIRE,
    }
    return table[command]
