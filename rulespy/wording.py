"""Plain English for the account: counts with the right plural, and a unit named with a verb that agrees
(the account's own messages are in ``rulespy.i18n``'s catalogue).

A unit is named by its scenario id, with "the": ``the rangers``, ``the squad``. An id whose last word
ends in a single ``s`` (``rangers``, ``bunker crews``) is read as plural, any other (``squad``,
``walker``, ``militia``, ``class``) as singular; the verb and the pronoun follow.
"""

from __future__ import annotations

from rulespy.i18n import N_, _
from rulespy.state import Command

# The commands as the rules name them, marked for the catalogue (rulespy.i18n): ``command_name``
# translates them.
_COMMAND_NAMES = (N_("Shoot"), N_("Advance"), N_("Assault"), N_("Covering Fire"), N_("Snap Fire"))


def count(number: int, singular: str, plural: str | None = None) -> str:
    """``number`` and the noun in the number it asks for.

    >>> count(1, "wound"), count(2, "wound"), count(0, "die", "dice")
    ('1 wound', '2 wounds', '0 dice')
    """
    return f"{number} {singular if number == 1 else plural or singular + 's'}"


def is_plural(unit: str) -> bool:
    """Whether a unit's id reads as a plural noun.

    >>> is_plural("rangers"), is_plural("squad"), is_plural("bunker crew"), is_plural("glass")
    (True, False, False, False)
    """
    last = unit.split()[-1].lower() if unit.split() else unit
    return last.endswith("s") and not last.endswith("ss")


def the(unit: str) -> str:
    """The unit as a noun phrase: ``the rangers``."""
    return f"the {unit}"


def verb(unit: str, singular: str, plural: str) -> str:
    """The unit as the subject of a verb that agrees with it.

    >>> verb("rangers", "declares", "declare"), verb("squad", "declares", "declare")
    ('the rangers declare', 'the squad declares')
    """
    return f"{the(unit)} {plural if is_plural(unit) else singular}"


def they(unit: str, singular: str, plural: str) -> str:
    """The unit's subject pronoun with a verb that agrees: ``they have``, ``it has``."""
    return f"they {plural}" if is_plural(unit) else f"it {singular}"


def its(unit: str) -> str:
    """The possessive pronoun for the unit: ``their`` or ``its``."""
    return "their" if is_plural(unit) else "its"


def it(unit: str) -> str:
    """The object pronoun for the unit: ``them`` or ``it``."""
    return "them" if is_plural(unit) else "it"


def command_name(command: str) -> str:
    """A command's value as the rules name it, in the engine's language (``rulespy.i18n``).

    >>> command_name("covering_fire")
    'Covering Fire'
    """
    return _(Command(command).name_in_rules)
