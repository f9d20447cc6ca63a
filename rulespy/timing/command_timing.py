"""Commands, activations and responding commands: which response may answer which attack.

Rule: timing/command_timing.md#responding-command
"""

from __future__ import annotations

from rulespy.core.command_rules import CommandRules
from rulespy.errors import IllegalDeclaration
from rulespy.state import Command


def check_response(attack: CommandRules, response: Command) -> None:
    """A Snap Fire response is declared when a unit is targeted, before any die; it cannot answer
    Covering Fire.

    Rule: timing/command_timing.md#responding-command
    """
    if response is not Command.SNAP_FIRE:
        raise IllegalDeclaration(
            "timing/command_timing.md#responding-command",
            f"'{response.value}' is not a responding command to a shooting attack; only snap_fire is",
        )
    if attack.command is Command.COVERING_FIRE:
        raise IllegalDeclaration(
            "commands/command_covering_fire.md#covering-fire",
            "a unit targeted by Covering Fire cannot answer it with Snap Fire",
        )
