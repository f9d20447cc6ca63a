"""Weapon profiles and traits.

``TRAITS`` is the one table of weapon traits: how the scenario format writes each, the ``Weapon`` field
it sets and the rule that defines it. The loader reads traits through it and ``Weapon.traits`` writes
them back through it; the rules that apply a trait read the field.

Rule: core/ranged_weapons.md#weapon-profile
"""

from __future__ import annotations

from dataclasses import dataclass, fields


@dataclass(frozen=True)
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


@dataclass(frozen=True)
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
