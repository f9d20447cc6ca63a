"""The records a resolution produces: one typed log of what happened, each record citing its rule.

The Shooting Sequence and the rules it applies append these to the log and never word them; the account
(``rulespy/account.py``) writes the step-by-step text and ``resolve --json``'s trace from the log alone,
one line a record. ``rule`` is the ``PATH#ANCHOR`` of the rule that decided each record. Records are
frozen and compare by value, so two resolutions with the same log did the same things.
"""

from __future__ import annotations

from rulespy.core.allocation import Choice, Invalid, Why
from rulespy.core.shooting import Holds
from rulespy.core.target_lock import LockRoll, Modifier, net_modifier
from rulespy.frozen import frozen
from rulespy.state import Command, Cover
from rulespy.timing.firefight import Removal


@frozen(slots=True)
class Declared:
    """A unit declared its command at its targets (each a unit and its Marked Model), legally.

    ``weapons``: when the declaration lists models or weapons, each target's (model, weapon) pairs in Dice
    Order; empty when it lists none (a lone target takes every weapon)."""

    unit: str
    command: Command
    targets: tuple[tuple[str, str], ...]
    command_rule: str
    weapons: tuple[tuple[tuple[str, str], ...], ...] = ()

    rule = "sequences/shooting_sequence.md#step-declare"


@frozen(slots=True)
class Allowed:
    """Why Target Priority allows a declared target: the unit's ``leader`` sees it; or the unit has no
    leader and the target is the closest of its ``candidates`` (``inches`` away, ``tied``: the other
    candidates as close); or the unit has no leader and its command names its target (``named``: that
    command's value, such as ``covering_fire``), so the closest-candidate rule does not apply."""

    unit: str
    target: str
    leader: str = ""
    inches: float = 0.0
    candidates: int = 0
    tied: tuple[str, ...] = ()
    named: str = ""

    @property
    def rule(self) -> str:
        if self.leader:
            return "core/target_selection.md#unit-with-a-leader"
        if self.named:
            return "core/target_selection.md#commands-that-name-their-target"
        return "core/target_selection.md#unit-without-a-leader"


@frozen(slots=True)
class Undeclared:
    """A weapon the declaration's lists give to no target: it does not fire, as if its model held fire."""

    model: str
    weapon: str

    rule = "core/shooting.md#split-target"


@frozen(slots=True)
class Initiative:
    """The unit whose command started the firefight has the Initiative over the one that answered."""

    attacker: str
    responder: str

    rule = "timing/firefight.md#initiative"


@frozen(slots=True)
class SplitFire:
    """The unit fires at more than one target: a Leadership Check for each target after the first."""

    unit: str

    rule = "sequences/shooting_sequence.md#step-leadership"


@frozen(slots=True)
class Leadership:
    """A Leadership Check taken on the ``leader``'s ``ld`` for a target after the first."""

    attack: int
    target: int
    unit: str
    leader: str
    ld: int
    dice: tuple[int, int]
    passed: bool

    rule = "core/leadership.md#leadership-check"


@frozen(slots=True)
class Held:
    """A declared weapon that does not fire at the target: ``holds`` says why, None when its model has
    left play."""

    model: str
    weapon: str
    target: str
    holds: Holds | None

    @property
    def rule(self) -> str:
        return self.holds.rule if self.holds is not None else "core/shooting.md#which-weapons-fire"


@frozen(slots=True)
class TargetCover:
    """The target unit's cover, taken from its Marked Model."""

    unit: str
    mark: str
    cover: Cover

    rule = "core/cover.md#target-unit-cover"


@frozen(slots=True)
class LockDice:
    """The unit rolls ``dice`` Target Lock dice at the target."""

    unit: str
    target: str
    dice: int

    rule = "sequences/shooting_sequence.md#step-target-lock"


@frozen(slots=True)
class Fires:
    """One firing weapon and the modifiers to its dice."""

    model: str
    weapon: str
    dice: int
    target: str
    modifiers: tuple[Modifier, ...]

    @property
    def net(self) -> int:
        return net_modifier(self.modifiers)

    @property
    def capped(self) -> bool:
        return sum(m.amount for m in self.modifiers) != self.net

    @property
    def rule(self) -> str:
        return (
            "core/target_lock.md#modifier-cap" if self.capped else "core/target_lock.md#target-lock-modifiers"
        )


@frozen(slots=True)
class NoneFire:
    """No declared weapon of the unit fires at the target."""

    unit: str
    target: str

    rule = "sequences/shooting_sequence.md#step-firing-weapons"


@frozen(slots=True)
class NoShooting:
    """An Assault may not shoot at the unit it assaults: ``holds`` is the rule that stops it."""

    target: str
    holds: Holds

    @property
    def rule(self) -> str:
        return self.holds.rule


@frozen(slots=True)
class ShootingStopped:
    """The Assault goes ahead without shooting at the target: no die is rolled, and melee follows."""

    unit: str
    target: str
    command_rule: str

    @property
    def rule(self) -> str:
        return self.command_rule


@frozen(slots=True)
class Rolled:
    """One Target Lock die rolled at a target."""

    attack: int
    target: int
    roll: LockRoll

    @property
    def rule(self) -> str:
        return self.roll.rule


@frozen(slots=True)
class CriticalsFirst:
    """In a firefight, one unit resolves its Critical Locks (the Initiative's first, then the reply's)."""

    unit: str
    reply: bool

    @property
    def rule(self) -> str:
        return (
            "timing/firefight.md#firefight-reply-criticals"
            if self.reply
            else "timing/firefight.md#firefight-initiative-criticals"
        )


@frozen(slots=True)
class NormalDamage:
    """In a firefight, normal damage follows the Critical Locks, the Initiative unit's first."""

    rule = "timing/firefight.md#firefight-normal-damage"


@frozen(slots=True)
class Round:
    """An allocation round begins: ``successes`` Critical Locks (``critical``) or other successes."""

    target: str
    critical: bool
    successes: int

    @property
    def rule(self) -> str:
        return (
            "sequences/shooting_sequence.md#step-critical-round"
            if self.critical
            else "sequences/shooting_sequence.md#step-normal-round"
        )


@frozen(slots=True)
class Hit:
    """A success allocated to a model (``model`` None: lost), with the wounds it actually took.

    ``invalid``: why the models passed over were not valid for it: every model of the target unit when the
    success is lost; the Marked Model when the round's first success does not go to it.
    ``through_removed``: when the chosen model is valid only through models that fired the weapon and have
    left play since (a firefight's reply criticals), those models: they count as they stood when they
    rolled (core/allocation.md#valid-model)."""

    attack: int
    target: int
    model: str | None
    weapon: str
    critical: bool
    wounds: int
    why: Why
    invalid: tuple[Invalid, ...] = ()
    through_removed: tuple[str, ...] = ()

    @property
    def rule(self) -> str:
        if self.why.choice is Choice.LOST:
            return "core/allocation.md#lost-successes"
        if self.why.choice is Choice.MARKED:
            # the owner of the allocation steps (step 2: the first success to the Marked Model)
            return "core/allocation.md#allocation"
        return "core/allocation.md#allocation-key"

    def to_json(self) -> dict[str, object]:
        return {"model": self.model, "weapon": self.weapon, "critical": self.critical, "wounds": self.wounds}


@frozen(slots=True)
class Damage:
    """The wounds a hit inflicts on a model (Critical Damage ignores armour, normal damage does not) and
    the wounds the model actually ``lost`` (no more than it had left)."""

    model: str
    inflicted: int
    armour: int
    critical: bool
    lost: int

    @property
    def rule(self) -> str:
        if self.critical:
            return "core/critical_damage.md#critical-damage"
        return "core/damage.md#armour" if self.armour else "core/damage.md#damage"


@frozen(slots=True)
class Surplus:
    """Wounds beyond what the model had left are lost, never passed on."""

    model: str
    left: int
    surplus: int

    rule = "core/damage.md#target-limit"


@frozen(slots=True)
class Casualty:
    """A model brought to 0 wounds, and when it left play."""

    model: str
    removed: Removal

    rule = "timing/firefight.md#removal-timing"

    def to_json(self) -> dict[str, str]:
        return {"model": self.model, "removed": self.removed.value}


@frozen(slots=True)
class LeavePlay:
    """The casualties not yet removed leave play together: at the end of the attack, or of the firefight."""

    firefight: bool

    @property
    def rule(self) -> str:
        return (
            "timing/firefight.md#firefight-removal"
            if self.firefight
            else "sequences/shooting_sequence.md#step-removal"
        )


@frozen(slots=True)
class Pinned:
    """A model hit by a Pinning weapon (or a command that pins) survives and becomes Pinned."""

    model: str

    rule = "core/statuses.md#status-timing"


@frozen(slots=True)
class MeleeFollows:
    """An Assault's shooting is over; melee follows, which the engine does not resolve."""

    rule = "core/melee.md#melee"


Record = (
    Declared
    | Allowed
    | Undeclared
    | Initiative
    | SplitFire
    | Leadership
    | Held
    | TargetCover
    | LockDice
    | Fires
    | NoneFire
    | NoShooting
    | ShootingStopped
    | Rolled
    | CriticalsFirst
    | NormalDamage
    | Round
    | Hit
    | Damage
    | Surplus
    | Casualty
    | LeavePlay
    | Pinned
    | MeleeFollows
)
"""One entry of the log."""
