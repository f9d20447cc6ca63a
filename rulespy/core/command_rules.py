"""What a command may change in the standard shooting attack: the overrides the core rules read.

Each command module in ``rulespy/commands`` holds one ``CommandRules``; the core rules (target selection,
firing weapons, Target Lock) take it as an argument and never import the commands themselves.

Rule: core/shooting.md#shooting-attack
"""

from __future__ import annotations

from rulespy.frozen import frozen
from rulespy.state import Command


@frozen
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
    # declared only as the answer to another unit's attack (Snap Fire: the scenario's ``response``), never
    # as an attack of its own; Covering Fire responds too, but is declared as the attack it makes
    answers_an_attack: bool = False
