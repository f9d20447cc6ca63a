"""Shoot: a standard shooting attack.

Rule: commands/command_shoot.md#shoot
"""

from rulespy.commands import CommandRules
from rulespy.state import Command

SHOOT = CommandRules(Command.SHOOT, "commands/command_shoot.md#shoot")
