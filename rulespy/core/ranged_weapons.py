"""Weapon profiles and traits.

Rule: core/ranged_weapons.md#weapon-profile
"""

from __future__ import annotations

from dataclasses import dataclass


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
        """The traits as the scenario format writes them."""
        names = [t for t in ("assault", "heavy", "pinning", "precise") if getattr(self, t)]
        if self.critical != 6:
            names.append(f"critical {self.critical}")
        if self.minimum_range is not None:
            names.append(f"minimum range {self.minimum_range:g}")
        return tuple(names)
