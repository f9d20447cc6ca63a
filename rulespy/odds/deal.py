"""Dealing successes as they are rolled: one allocation round of the odds engine, one success at a time.

``resolve`` allocates a round's successes once all of them are known (``rulespy.sequences.rounds``). The
odds engine instead deals each success the moment its die is counted, so that dice outcomes reaching the
same allocation merge before the next weapon rolls: a round in progress is a small ``Deal`` (how many
successes each model has taken, of each weapon and in all, and its wounds so far), and
``Round.deal`` gives the next one from the same rule functions the round uses (``allocation_key``,
``choose``, ``wounds_inflicted``, ``wounds_lost``), remembered per round. Once every model of the target
unit still in play is at 0 wounds, more successes change nothing a player sees (those models leave play),
so the deal stops counting and such rounds merge.

A deal keeps no pins: nothing the odds print reads them (a status caused by the attack changes no tier
before its Removal Timing, core/allocation.md#allocation-key, and the odds give casualties and wounds).
``tests/odds/full_states.py`` deals the same rounds keeping the pins too (``Round.hit``), to compare the
engine's final states with those ``rulespy resolve`` reaches.

Rule: core/allocation.md#allocation-rounds
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulespy.core.allocation import allocation_key, choose, tier
from rulespy.core.damage import wounds_inflicted, wounds_lost
from rulespy.core.shooting import TargetPlan
from rulespy.sequences import rounds
from rulespy.sequences.shooting_sequence import ShootingSequence, State

# A round in progress: (any success dealt yet, per weapon and model successes, per model successes,
# per model wounds left, pinned models as a bit mask, 0 in the engine: see ``Round.hit``); the two counts
# are None once nothing can change.
Deal = tuple[bool, tuple[int, ...] | None, tuple[int, ...] | None, tuple[int, ...], int]
# A round's deals are numbered as they are first made, so that the odds engine hashes small numbers.
DealId = int


@dataclass
class Round:
    """One allocation round at one target: the models in play, what each weapon may hit and inflict.

    Models are numbered by their place among the target unit's models still in play (unit order).
    """

    ids: tuple[str, ...]
    weapons: dict[str, int]
    valid: tuple[tuple[int, ...], ...]
    fixed: tuple[tuple[int, int, int], ...]
    marked: int
    inflicted: tuple[tuple[int, ...], ...]
    full: tuple[int, ...]
    deals: list[Deal] = field(default_factory=list)
    numbers: dict[Deal, DealId] = field(default_factory=dict)
    # Per weapon: the deal each deal leads to with one more success of it (filled as deals are made).
    memo: list[dict[DealId, DealId]] = field(default_factory=list)

    @classmethod
    def of(
        cls, seq: ShootingSequence, state: State, attack: int, index: int, target: TargetPlan, critical: bool
    ) -> Round:
        """The round at target ``index`` of ``attack`` among the models ``state`` has in play.

        Rule: core/allocation.md#valid-model
        """
        bf = seq.battlefield
        firing = state.firing[attack][index]
        reach, bands = rounds.geometry(seq, target.unit, firing)
        everyone = bf.unit(target.unit).models
        order = {m.id: i for i, m in enumerate(everyone)}
        in_play = [m for m in everyone if m.id not in state.removed]
        names = sorted({fw.weapon.name for fw in firing})
        profiles = [bf.weapon(name) for name in names]
        ids = tuple(m.id for m in in_play)
        return cls(
            ids=ids,
            weapons={name: w for w, name in enumerate(names)},
            valid=tuple(
                tuple(p for p, m in enumerate(in_play) if m.id in reach.get(name, ())) for name in names
            ),
            fixed=tuple((tier(m), bands[m.id], order[m.id]) for m in in_play),
            marked=ids.index(target.mark) if target.mark in ids else -1,
            inflicted=tuple(
                tuple(wounds_inflicted(weapon, m.armour, critical) for m in in_play) for weapon in profiles
            ),
            full=tuple(m.wounds for m in in_play),
            memo=[{} for _ in names],
        )

    def number(self, deal: Deal) -> DealId:
        found = self.numbers.get(deal)
        if found is None:
            found = self.numbers[deal] = len(self.deals)
            self.deals.append(deal)
        return found

    def start(self, state: State) -> DealId:
        """The round before its first success: each model's wounds as ``state`` has them."""
        left = dict(state.wounds)
        count = len(self.ids)
        wounds = tuple(left.get(model_id, full) for model_id, full in zip(self.ids, self.full, strict=True))
        return self.number((False, (0,) * (count * len(self.weapons)), (0,) * count, wounds, 0))

    def started(self, deal: DealId) -> bool:
        """Whether any success has been dealt in the round."""
        return self.deals[deal][0]

    def deal(self, number: DealId, weapon: int) -> DealId:
        """The round once one more success of ``weapon`` (its number in ``weapons``) is allocated.

        Rule: core/allocation.md#allocation-rounds
        Rule: core/allocation.md#lost-successes
        """
        found = self.memo[weapon].get(number)
        if found is not None:
            return found
        deal = self.deals[number]
        started, same, total, wounds, pinned = deal
        models = self.valid[weapon]
        if same is None or total is None:
            after = deal
        elif not models:
            after = (True, same, total, wounds, pinned)
        else:
            base = weapon * len(self.ids)
            fixed = self.fixed
            keys = {p: allocation_key(same[base + p], total[p], *fixed[p]) for p in models}
            chosen = choose(keys, not started, self.marked)
            left = wounds[chosen]
            lost = wounds_lost(self.inflicted[weapon][chosen], left)
            if lost:
                wounds = wounds[:chosen] + (left - lost,) + wounds[chosen + 1 :]
            if not any(wounds):
                after = (True, None, None, wounds, pinned)
            else:
                at = base + chosen
                same = same[:at] + (same[at] + 1,) + same[at + 1 :]
                total = total[:chosen] + (total[chosen] + 1,) + total[chosen + 1 :]
                after = (True, same, total, wounds, pinned)
            after = self.hit(after, weapon, chosen)
        found = self.memo[weapon][number] = self.number(after)
        return found

    def hit(self, after: Deal, weapon: int, chosen: int) -> Deal:
        """``after``, the deal once model ``chosen`` (its number among ``ids``) has taken a success of
        ``weapon``, as the round keeps it: as it is, since the engine keeps no pins."""
        return after

    def settle(self, state: State, deal: DealId) -> State:
        """``state`` with the round's wounds."""
        wounds = self.deals[deal][3]
        # Every model below its full wounds (a model the state already holds keeps or lowers its value).
        hurt = [
            (model_id, left)
            for model_id, full, left in zip(self.ids, self.full, wounds, strict=True)
            if left != full
        ]
        before = dict(state.wounds)
        before.update(hurt)
        now = tuple(sorted(before.items()))
        if now == state.wounds:
            return state
        return state.evolve(wounds=now)
