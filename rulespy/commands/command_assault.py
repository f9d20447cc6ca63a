"""Assault: shoot Assault weapons at the assaulted unit, without Split Target; melee follows.

Rule: commands/command_assault.md#assault
"""

from rulespy.commands import CommandRules
from rulespy.state import Command

ASSAULT = CommandRules(
    Command.ASSAULT,
    "commands/command_assault.md#assault",
    assault_weapons_only=True,
    split_target=False,
    shooting_optional=True,
)
