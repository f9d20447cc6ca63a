"""Snap Fire: the targeted unit shoots back at its attacker at -1, without Split Target; a Firefight follows.

Rule: commands/command_snap_fire.md#snap-fire
"""

from rulespy.core.command_rules import CommandRules
from rulespy.state import Command

SNAP_FIRE = CommandRules(
    Command.SNAP_FIRE,
    "commands/command_snap_fire.md#snap-fire",
    lock_modifier=-1,
    split_target=False,
    closest_target_rule=False,
    responding=True,
    answers_an_attack=True,
)
