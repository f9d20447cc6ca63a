"""Shoot: a standard shooting attack.

Rule: commands/command_shoot.md#shoot
"""

from rulespy.core.command_rules import CommandRules
from rulespy.state import Command

SHOOT = CommandRules(Command.SHOOT, "commands/command_shoot.md#shoot")
