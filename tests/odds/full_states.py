"""The exact engine's final states as ``rulespy resolve`` reaches them, for the tests that prove its merges
change no answer.

``rulespy odds`` reads only the casualties and each model's wounds left, so the engine
(``rulespy.odds.exact.Walk``) forgets the rest of each end, pins included, and takes every short cut that
keeps those: consecutive weapons of one profile rolled together, an attack no firefight follows rolled in
one pass. The tests need more: every final state in full (wounds, removals, pins), to compare with the
answers recorded before the engine was rewritten for speed (``tests/odds/answers.json``), and the same
states reached without the short cuts. ``Full`` is that walk: the engine's own enumeration, told to keep
everything and, on request, to join no weapons (``joined=False``) or to roll every attack in two passes
as a firefight's are (``at_once=False``); ``PinningRound`` is the engine's allocation round keeping the
pins of each deal.

These were parameters of the engine (``final_states(..., casualties_only=False, join_groups=False,
one_pass=False)``) that no command passes: code no command runs is not a rule a player can meet, so no
worked example could pin it down. They live beside the odds engine's other test-only helpers
(``tests/odds/oracles.py``, ``tests/odds/step_memo.py``).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction

from rulespy.core.shooting import TargetPlan
from rulespy.core.target_lock import LockChance
from rulespy.odds import exact
from rulespy.odds.deal import Deal, DealId, Round
from rulespy.sequences.shooting_sequence import ShootingSequence, State
from rulespy.sequences.steps import Phase


@dataclass
class PinningRound(Round):
    """An allocation round that keeps, in each deal, which models a pinning weapon (or an attack that pins
    every model it hits) has hit; they leave the mask once every model in play is at 0 wounds."""

    pinning: tuple[bool, ...] = ()

    @classmethod
    def of(
        cls, seq: ShootingSequence, state: State, attack: int, index: int, target: TargetPlan, critical: bool
    ) -> PinningRound:
        found = super().of(seq, state, attack, index, target, critical)
        assert isinstance(found, PinningRound)
        pins_hit = seq.attacks[attack].rules.pins_hit_models
        names = sorted(found.weapons, key=found.weapons.__getitem__)
        found.pinning = tuple(seq.battlefield.weapon(name).pinning or pins_hit for name in names)
        return found

    def hit(self, after: Deal, weapon: int, chosen: int) -> Deal:
        started, same, total, wounds, pinned = after
        if same is None:  # every model in play at 0 wounds: they leave play, their pins with them
            return (started, same, total, wounds, 0)
        if self.pinning[weapon]:
            return (started, same, total, wounds, pinned | 1 << chosen)
        return after

    def settle(self, state: State, deal: DealId) -> State:
        after = super().settle(state, deal)
        pinned = self.deals[deal][4]
        if not pinned:
            return after
        hit = {model_id for p, model_id in enumerate(self.ids) if pinned >> p & 1}
        return after.evolve(pins=after.pins | hit)


@dataclass(frozen=True)
class Full(exact.Walk):
    """The engine's walk keeping every final state whole; ``joined`` False rolls every firing weapon on its
    own, ``at_once`` False rolls every attack's dice in two passes."""

    joined: bool = True
    at_once: bool = True

    def one_pass(self, sequence: ShootingSequence) -> bool:
        return self.at_once and super().one_pass(sequence)

    def groups(self, chances: tuple[LockChance, ...]) -> list[tuple[str, int, int, int, int]]:
        if self.joined:
            return super().groups(chances)
        return [(chance.weapon.name, *exact._faces(chance), chance.dice) for chance in chances]

    def round(
        self, seq: ShootingSequence, state: State, attack: int, index: int, target: TargetPlan, critical: bool
    ) -> Round:
        return PinningRound.of(seq, state, attack, index, target, critical)

    def finished(self, state: State) -> State:
        return State(
            wounds=state.wounds,
            removed=state.removed,
            pins=state.pins,
            casualties=state.casualties,
            phase=Phase.DONE,
        )

    def critical_end(self, deal: Deal) -> Hashable:
        started, _, _, wounds, pinned = deal
        return started, wounds, pinned

    def normal_end(self, deal: Deal) -> Hashable:
        _, _, _, wounds, pinned = deal
        return wounds, pinned


def final_states(
    sequence: ShootingSequence,
    max_states: int = exact.MAX_STATES,
    max_transitions: int = exact.MAX_TRANSITIONS,
    max_deals: int = exact.MAX_DEALS,
    *,
    joined: bool = True,
    at_once: bool = True,
) -> dict[State, Fraction]:
    """Every final state in full (wounds, removals, pins, casualties) with its exact probability, from the
    engine's enumeration (``rulespy.odds.exact.final_states``, its limits as given)."""
    walk = Full(joined=joined, at_once=at_once)
    return exact.final_states(sequence, max_states, max_transitions, max_deals, walk)
