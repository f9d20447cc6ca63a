"""Commands, activations and responding commands: which response may answer which attack.

Rule: timing/command_timing.md#responding-command
"""

from __future__ import annotations

from rulespy.core.command_rules import CommandRules
from rulespy.errors import IllegalDeclaration
from rulespy.i18n import _
from rulespy.state import Command


def check_response(attack: CommandRules, shooting: bool) -> None:
    """Refuse a Snap Fire response the attack does not allow: it answers only a shooting attack, and only
    before its first die; never Covering Fire, nor an Assault that shoots nothing (``shooting`` false).

    Snap Fire is the one responding command to an attack: the scenario loader accepts no other as the
    response (``rulespy.commands.response_commands``), so nothing is left to check about the command.

    Rule: timing/command_timing.md#responding-command
    Rule: commands/command_snap_fire.md#snap-fire
    """
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
