"""Commands, activations and responding commands: which response may answer which attack.

Rule: timing/command_timing.md#responding-command
"""

from __future__ import annotations

from rulespy.core.command_rules import CommandRules
from rulespy.errors import IllegalDeclaration
from rulespy.i18n import _
from rulespy.state import Command


def check_response(attack: CommandRules, response: Command, shooting: bool) -> None:
    """Refuse a response the attack does not allow: Snap Fire answers only a shooting attack, and only
    before its first die; never Covering Fire, nor an Assault that shoots nothing (``shooting`` false).

    Rule: timing/command_timing.md#responding-command
    Rule: commands/command_snap_fire.md#snap-fire
    """
    if response is not Command.SNAP_FIRE:
        raise IllegalDeclaration(
            "timing/command_timing.md#responding-command",
            _(
                "'{command}' is not a responding command to a shooting attack; only snap_fire is",
                command=_(response.value),
            ),
        )
    if attack.command is Command.COVERING_FIRE:
        raise IllegalDeclaration(
            "commands/command_covering_fire.md#covering-fire",
            _("a unit targeted by Covering Fire cannot answer it with Snap Fire"),
        )
    if not shooting:
        raise IllegalDeclaration(
            "commands/command_snap_fire.md#snap-fire",
            _(
                "Snap Fire answers a shooting attack, and this {command} makes none: the unit assaults "
                "without shooting, so there is nothing to answer",
                command=_(attack.command.value),
            ),
        )
