"""How large an attack the exact odds engine takes on, judged from the scenario before any work starts.

The engine's states and transitions are capped as it goes (``rulespy.odds.exact``), but those caps do
not bound its time: a few hundred dice at a unit of a thousand models stay under both and still take
minutes, because every state carries every model. So a request is judged first, from the scenario
alone, in microseconds:

* at most ``MAX_MODELS_PER_UNIT`` models in any unit and ``MAX_DICE_PER_WEAPON`` dice on any weapon
  (far beyond a unit or a weapon at the table; the scenario format itself allows more, for ``resolve``);
* an estimate of the work, ``dice * dice * (models + 10)``, doubled for a firefight, at most
  ``MAX_WORK``: ``dice`` counts every die the attacking unit (and, with a Snap Fire response, the
  responding unit) could roll, ``models`` every model in play. Measured on this repository's 2-core
  machine (shared), the two-pass dealer a firefight goes through does about 100,000 units of that work
  a second, so ``MAX_WORK`` keeps every accepted request within about 1 s of work, and the refusal
  itself comes at once. An attack no firefight follows is dealt in one pass (``rulespy.odds.joint``),
  which answers most requests far below that (the 30-die bench attack, 27,000 units, in about 20 ms;
  the 40-die alternating attack, 48,000 units, in about 0.6 s); the shapes it finds hard (many wounds a
  model, models hit in many orders) are refused by the engine's own caps within about 1.5 s of CPU.
  ``MAX_WORK`` is unchanged: what it refuses stays refused at once, even where the one pass could
  answer (the alternating attack with 60 dice, 108,000 units, takes it 0.9 s).

Beyond any limit: ``TooLarge`` (exit 2 on the command line, ``SCENARIO:1: message``: the message names
the unit, the weapon or the work).

Rule: sequences/shooting_sequence.md#shooting-sequence
"""

from __future__ import annotations

from rulespy.i18n import _
from rulespy.odds.exact import TooLarge
from rulespy.state import Scenario

MAX_MODELS_PER_UNIT = 100
"""The most models a unit may hold for exact odds."""
MAX_DICE_PER_WEAPON = 60
"""The most Target Lock dice a weapon may roll for exact odds."""
MAX_WORK = 100_000
"""The largest estimated work, ``dice * dice * (models + 10)`` (doubled for a firefight), taken on."""

HELP = (
    f"Limits, judged before any work: at most {MAX_MODELS_PER_UNIT} models a unit, {MAX_DICE_PER_WEAPON} "
    f"dice a weapon, and an estimated work (every die the attacking and responding units could roll, "
    f"squared, times the models in play plus 10, doubled for a firefight) of at most {MAX_WORK:,}. "
    "With the engine's own caps above, an answer or a refusal takes at most about 1 s of CPU time and "
    "150 MB (measured on the 2-core machine of bench/README.md); on a busy machine the wall time is "
    "longer (two to four times at a load of 7)."
)


def estimate(scenario: Scenario) -> int:
    """The work an exact odds request is expected to take, in the units of ``MAX_WORK``.

    An upper estimate: every weapon of every model of the firing units is counted, in range or not.
    """
    field = scenario.battlefield
    firing = [scenario.attack.unit]
    if scenario.response is not None:
        firing.append(scenario.attack.targets[0].unit)
    dice = 0
    for unit_id in firing:
        for model in field.unit(unit_id).models:
            dice += sum(field.weapon(name).dice for name in model.weapons)
    models = sum(len(unit.models) for unit in field.units)
    return dice * dice * (models + 10) * (2 if scenario.response is not None else 1)


def check_size(scenario: Scenario) -> None:
    """Refuse (``TooLarge``) a request beyond the limits above, before the engine starts."""
    field = scenario.battlefield
    for unit in field.units:
        if len(unit.models) > MAX_MODELS_PER_UNIT:
            what = _("unit {unit!r} has {models:,} models", unit=unit.id, models=len(unit.models))
            raise _refuse(what, _("at most {limit} a unit", limit=MAX_MODELS_PER_UNIT), scenario)
    for weapon in field.weapons:
        if weapon.dice > MAX_DICE_PER_WEAPON:
            what = _("weapon {weapon!r} rolls {dice:,} dice", weapon=weapon.name, dice=weapon.dice)
            raise _refuse(what, _("at most {limit} a weapon", limit=MAX_DICE_PER_WEAPON), scenario)
    work = estimate(scenario)
    if work > MAX_WORK:
        what = _("its estimated work is {work:,}", work=work)
        raise _refuse(what, _("at most {limit:,}", limit=MAX_WORK), scenario)


def _refuse(what: str, limit: str, scenario: Scenario) -> TooLarge:
    message = _(
        "the attack is too large for exact odds: {what} ({limit}; see `rulespy odds --help`)",
        what=what,
        limit=limit,
    )
    return TooLarge(message, None, scenario.path)
