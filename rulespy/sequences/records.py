"""Structured records a resolution produces beside its events, for ``resolve --json`` and the examples."""

from __future__ import annotations

from dataclasses import dataclass

from rulespy.core.target_lock import LockRoll


@dataclass(frozen=True)
class Leadership:
    """A Leadership Check taken for a target after the first."""

    attack: int
    target: int
    dice: tuple[int, int]
    passed: bool


@dataclass(frozen=True)
class Rolled:
    """One Target Lock die rolled at a target."""

    attack: int
    target: int
    roll: LockRoll


@dataclass(frozen=True)
class Hit:
    """A success allocated to a model (``model`` None: lost), with the wounds it actually took."""

    attack: int
    target: int
    model: str | None
    weapon: str
    critical: bool
    wounds: int

    def to_json(self) -> dict[str, object]:
        return {"model": self.model, "weapon": self.weapon, "critical": self.critical, "wounds": self.wounds}


@dataclass(frozen=True)
class Casualty:
    """A model brought to 0 wounds, and when it left play."""

    model: str
    removed: str

    def to_json(self) -> dict[str, str]:
        return {"model": self.model, "removed": self.removed}
