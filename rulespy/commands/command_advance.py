"""Advance: move, then shoot at -1; Heavy weapons do not fire.

Rule: commands/command_advance.md#advance
"""

from rulespy.core.command_rules import CommandRules
from rulespy.state import Command

ADVANCE = CommandRules(
    Command.ADVANCE, "commands/command_advance.md#advance", lock_modifier=-1, heavy_weapons_fire=False
)
