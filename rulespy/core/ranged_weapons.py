"""Weapon profiles and traits.

``TRAITS`` is the one table of weapon traits: how the scenario format writes each, the ``Weapon`` field
it sets and the rule that defines it. The loader reads traits through it and ``Weapon.traits`` writes
them back through it; the rules that apply a trait read the field. How many dice a weapon rolls at a
target is ``Weapon.dice_at``, the one place the sequence, the odds engine and the loader's limit read it.

Rule: core/ranged_weapons.md#weapon-profile
"""

from __future__ import annotations

from dataclasses import fields

from rulespy.frozen import frozen


@frozen
class Trait:
    """One weapon trait. ``written`` is its scenario form (``critical N`` for a trait with a number),
    ``field`` the ``Weapon`` field it sets; a trait with a number has ``number`` (``int`` or ``float``)
    and the smallest and largest value it takes (``None``: no bound of its own).

    Rule: core/ranged_weapons.md#weapon-traits
    """

    written: str
    field: str
    rule: str
    number: type[int] | type[float] | None = None
    low: float | None = None
    high: float | None = None

    @property
    def word(self) -> str:
        """The trait's name without its number: ``critical`` for ``critical N``."""
        return self.written.removesuffix(" N")


TRAITS: tuple[Trait, ...] = (
    Trait("assault", "assault", "core/ranged_weapons.md#assault-trait"),
    Trait("heavy", "heavy", "core/ranged_weapons.md#heavy"),
    Trait("pinning", "pinning", "core/ranged_weapons.md#pinning"),
    Trait("precise", "precise", "core/ranged_weapons.md#precise"),
    Trait("critical N", "critical", "core/ranged_weapons.md#critical-n", int, 2, 6),
    Trait("minimum range N", "minimum_range", "core/ranged_weapons.md#minimum-range", float, 0.0),
)


@frozen
class Weapon:
    """A weapon profile; its name is the profile. ``critical`` is N of ``Critical N`` (6 without the trait).

    Rule: core/ranged_weapons.md#weapon-profile
    """

    name: str
    range: float
    dice: int
    lock: int
    damage: int
    assault: bool = False
    heavy: bool = False
    pinning: bool = False
    precise: bool = False
    critical: int = 6
    minimum_range: float | None = None

    @property
    def traits(self) -> tuple[str, ...]:
        """The traits as the scenario format writes them, in the order of ``TRAITS``.

        >>> Weapon("carbine", 18, 2, 4, 1, assault=True, critical=5).traits
        ('assault', 'critical 5')
        """
        absent = {f.name: f.default for f in fields(self)}
        names: list[str] = []
        for trait in TRAITS:
            value = getattr(self, trait.field)
            if value != absent[trait.field]:
                names.append(trait.written if trait.number is None else f"{trait.word} {value:g}")
        return tuple(names)

    def dice_at(self, models: int) -> int:
        """How many Target Lock dice a model rolls firing this weapon at a unit of ``models`` models (the
        unit as the attack declares it): the profile's ``dice``. A trait that adds dice adds them here
        and nowhere else; the count must never fall as ``models`` grows (the odds engine and the
        loader's dice limit count it at the largest unit).

        Rule: core/ranged_weapons.md#weapon-profile

        >>> Weapon("carbine", 18, 2, 4, 1).dice_at(models=7)
        2
        """
        return self.dice
