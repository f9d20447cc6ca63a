"""The five commands, each a small set of overrides of the standard shooting attack.

``rules_for(command)`` gives the overrides; the shooting engine itself lives in ``rulespy/core``.
"""

from __future__ import annotations

from rulespy.commands import (
    command_advance,
    command_assault,
    command_covering_fire,
    command_shoot,
    command_snap_fire,
)
from rulespy.core.command_rules import CommandRules
from rulespy.state import Command


def rules_for(command: Command) -> CommandRules:
    """The overrides of ``command``.

    Rule: timing/command_timing.md#command
    """
    table = {
        Command.SHOOT: command_shoot.SHOOT,
        Command.ADVANCE: command_advance.ADVANCE,
        Command.ASSAULT: command_assault.ASSAULT,
        Command.COVERING_FIRE: command_covering_fire.COVERING_FIRE,
        Command.SNAP_FIRE: command_snap_fire.SNAP_FIRE,
    }
    return table[command]
