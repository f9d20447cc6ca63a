"""Covering Fire: a response to an enemy's Advance or Assault, at -1, no Split Target; hit models are Pinned.

The triggering unit chose itself as the target, so the closest-candidate rule does not apply.

Rule: commands/command_covering_fire.md#covering-fire
"""

from rulespy.core.command_rules import CommandRules
from rulespy.state import Command

COVERING_FIRE = CommandRules(
    Command.COVERING_FIRE,
    "commands/command_covering_fire.md#covering-fire",
    lock_modifier=-1,
    split_target=False,
    closest_target_rule=False,
    pins_hit_models=True,
    responding=True,
)
