"""The five commands, each a small set of overrides of the standard shooting attack.

``rules_for(command)`` gives the overrides; the shooting engine itself lives in ``rulespy/core``. The
commands the scenario loader accepts as an attack and as a response are read from them
(``attack_commands``, ``response_commands``): a new command needs no list of its own.
"""

from __future__ import annotations

from rulespy.commands import (
    command_advance,
    command_assault,
    command_covering_fire,
    command_shoot,
    command_snap_fire,
)
from rulespy.core.command_rules import CommandRules
from rulespy.state import Command


def attack_commands() -> tuple[str, ...]:
    """The commands an attack may be declared with, in ``Command``'s order: every command but those
    that only answer another unit's attack (``CommandRules.answers_an_attack``: Snap Fire).

    >>> attack_commands()
    ('shoot', 'advance', 'assault', 'covering_fire')
    """
    return tuple(c.value for c in Command if not rules_for(c).answers_an_attack)


def response_commands() -> tuple[str, ...]:
    """The commands a response to the attack may be declared with (the scenario's ``response``).

    >>> response_commands()
    ('snap_fire',)
    """
    return tuple(c.value for c in Command if rules_for(c).answers_an_attack)


def rules_for(command: Command) -> CommandRules:
    """The overrides of ``command``.

    Rule: timing/command_timing.md#command
    """
    table = {
        Command.SHOOT: command_shoot.SHOOT,
        Command.ADVANCE: command_advance.ADVANCE,
        Command.ASSAULT: command_assault.ASSAULT,
        Command.COVERING_FIRE: command_covering_fire.COVERING_FIRE,
        Command.SNAP_FIRE: command_snap_fire.SNAP_FIRE,
    }
    return table[command]
