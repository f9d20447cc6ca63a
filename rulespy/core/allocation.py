"""Allocation of successful Target Locks to the models of the target unit.

Two rounds per target (Critical Locks first, then the rest). In a round every success is allocated
before any damage: the first to the Marked Model if it is valid for it, every later one, in Dice Order,
to the valid model with the smallest allocation key.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from rulespy.core.line_of_sight import sees
from rulespy.core.measuring import within
from rulespy.core.ranged_weapons import Weapon
from rulespy.core.statuses import is_abandoned, is_immobilised, is_pinned
from rulespy.frozen import frozen
from rulespy.state import Model, Terrain

NEAR_BAND = 12.0
KEY_PARTS = (
    "successes from the same weapon this round",
    "successes this round",
    "tier",
    "band",
    "unit order",
)


class Unfit(enum.Enum):
    """The condition of a Valid Model that one model fails for one model that fired the weapon."""

    LEFT_PLAY = "left play"  # the model is no longer in play (no firer is looked at)
    NOT_SEEN = "not seen"
    OUT_OF_RANGE = "out of range"
    MINIMUM_RANGE = "minimum range"


@frozen(slots=True)
class Invalid:
    """Why ``model`` is not a valid model for a success of ``weapon``: the first condition it fails for
    ``firer`` (a model that fired that weapon at the target; empty for ``Unfit.LEFT_PLAY``), and the
    range in inches that condition measures (0 when none)."""

    model: str
    weapon: str
    firer: str
    unfit: Unfit
    inches: float = 0.0


def _unfit(firer: Model, model: Model, weapon: Weapon, terrain: tuple[Terrain, ...]) -> Invalid | None:
    """The first Valid Model condition ``model`` fails for a success of ``weapon`` fired by ``firer``.

    Rule: core/allocation.md#valid-model
    """
    if not sees(firer, model, terrain):
        return Invalid(model.id, weapon.name, firer.id, Unfit.NOT_SEEN)
    if not within(firer, model, weapon.range):
        return Invalid(model.id, weapon.name, firer.id, Unfit.OUT_OF_RANGE, weapon.range)
    n = weapon.minimum_range
    if n is not None and within(firer, model, n):
        return Invalid(model.id, weapon.name, firer.id, Unfit.MINIMUM_RANGE, n)
    return None


def is_valid(model: Model, weapon: Weapon, firers: Sequence[Model], terrain: tuple[Terrain, ...]) -> bool:
    """A model in play is valid for a success of ``weapon`` when some model that fired it at this target
    sees it, has it within range and, with Minimum Range N, has it farther than N.

    Rule: core/allocation.md#valid-model
    """
    return any(_unfit(firer, model, weapon, terrain) is None for firer in firers)


def why_not_valid(
    model: Model, weapon: Weapon, firers: Sequence[Model], terrain: tuple[Terrain, ...]
) -> tuple[Invalid, ...]:
    """For a model in play that is not valid for ``weapon``, the condition it fails for each model that
    fired the weapon (empty when it is valid).

    Rule: core/allocation.md#valid-model
    """
    found = [_unfit(firer, model, weapon, terrain) for firer in firers]
    if any(invalid is None for invalid in found):
        return ()
    return tuple(invalid for invalid in found if invalid is not None)


def tier(model: Model) -> int:
    """0 for active models, 1 for Pinned, 2 for Immobilised or Abandoned (the highest that applies).

    Rule: core/allocation.md#allocation-key
    """
    if is_immobilised(model) or is_abandoned(model):
        return 2
    if is_pinned(model):
        return 1
    return 0


def band(model: Model, firers: Sequence[Model]) -> int:
    """0 within 12" of the nearest model that fired at this target, 1 beyond.

    Rule: core/allocation.md#allocation-key
    """
    return 0 if any(within(model, f, NEAR_BAND) for f in firers) else 1


class Choice(enum.Enum):
    """Why a success went where it went."""

    MARKED = "marked"  # the round's first success, to the Marked Model
    ONLY = "only"  # the only valid model
    KEY = "key"  # the valid model with the smallest allocation key
    LOST = "lost"  # no valid model: the success is lost


@frozen(slots=True)
class Why:
    """The reason for one allocation. For ``Choice.KEY``: the part of the key (an index into
    ``KEY_PARTS``) that put the chosen model ahead of the ``runner``-up, and both models' values of it."""

    choice: Choice
    part: int = 0
    chosen: int = 0
    against: int = 0
    runner: str = ""


K = TypeVar("K", bound=Hashable)


def allocation_key(same_weapon: int, this_round: int, tier: int, band: int, position: int) -> tuple[int, ...]:
    """A model's allocation key for the next success, smallest first: ``KEY_PARTS`` in order.

    Rule: core/allocation.md#allocation-key
    """
    return (same_weapon, this_round, tier, band, position)


def choose(keys: Mapping[K, tuple[int, ...]], first: bool, marked: K) -> K:
    """The valid model (``keys`` maps each to its allocation key) a success goes to: the Marked Model
    for the round's ``first`` success when it is valid, otherwise the smallest key.

    Rule: core/allocation.md#allocation-rounds
    Rule: core/target_selection.md#marked-model
    """
    if first and marked in keys:
        return marked
    return min(keys, key=keys.__getitem__)


@frozen
class Allocation:
    """One success given to a model (``model`` None: no valid model, the success is lost)."""

    weapon: str
    model: str | None
    why: Why


_MARKED, _ONLY, _LOST = Why(Choice.MARKED), Why(Choice.ONLY), Why(Choice.LOST)


def allocate_round(
    successes: Sequence[str],
    valid: Mapping[str, Sequence[Model]],
    firers: Sequence[Model],
    unit_order: Sequence[str],
    marked: str,
    bands: Mapping[str, int] | None = None,
) -> tuple[Allocation, ...]:
    """Allocate one round's successes (weapon names in Dice Order) among the valid models.

    ``valid`` maps each weapon to the models in play valid for it; ``firers`` are every model that fired
    at this target (for the band); ``unit_order`` is the target unit's listed order.

    Rule: core/allocation.md#allocation-rounds
    Rule: core/allocation.md#lost-successes
    """
    per_weapon: dict[tuple[str, str], int] = {}
    per_model: dict[str, int] = {}
    position = {model_id: i for i, model_id in enumerate(unit_order)}
    # Tier, band and unit order do not change within a round: work them out once per model.
    # ``bands``, when given, holds each model's band already worked out for these firers.
    unique = {m.id: m for ms in valid.values() for m in ms}
    fixed = {
        i: (tier(m), band(m, firers) if bands is None else bands[i], position[i]) for i, m in unique.items()
    }
    # Each weapon's valid models with their keys, in the order ``valid`` lists them, made when the weapon
    # first has a success: a success changes only the chosen model's key, so only that entry is updated.
    key_tables: dict[str, dict[str, tuple[int, ...]]] = {}
    result = []
    for index, weapon in enumerate(successes):
        keys = key_tables.get(weapon)
        if keys is None:
            same, total = per_weapon.get, per_model.get
            models = valid.get(weapon, ())
            keys = key_tables[weapon] = {
                m.id: allocation_key(same((m.id, weapon), 0), total(m.id, 0), *fixed[m.id]) for m in models
            }
        if not keys:
            result.append(Allocation(weapon, None, _LOST))
            continue
        chosen = choose(keys, index == 0, marked)
        if index == 0 and chosen == marked:
            why = _MARKED
        elif len(keys) == 1:
            why = _ONLY
        else:
            why = _why(chosen, keys)
        per_weapon[(chosen, weapon)] = per_weapon.get((chosen, weapon), 0) + 1
        per_model[chosen] = per_model.get(chosen, 0) + 1
        for name, table in key_tables.items():
            if chosen in table:
                table[chosen] = allocation_key(
                    per_weapon.get((chosen, name), 0), per_model[chosen], *fixed[chosen]
                )
        result.append(Allocation(weapon, chosen, why))
    return tuple(result)


def _why(chosen: str, keys: Mapping[str, tuple[int, ...]]) -> Why:
    """Which part of the allocation key put the ``chosen`` model (the smallest key) ahead of the
    runner-up (the next smallest, the first listed on a tie)."""
    second = min((k for k in keys if k != chosen), key=keys.__getitem__)
    best, runner = keys[chosen], keys[second]
    part = 0
    while best[part] == runner[part]:
        part += 1
    return Why(Choice.KEY, part, best[part], runner[part], second)
