"""Steps 5 to 7 of the Shooting Sequence: the critical round, the normal round and removal.

Rule: sequences/shooting_sequence.md#step-critical-round
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol

from rulespy.core.allocation import Choice, Invalid, Unfit, allocate_round, band, is_valid, why_not_valid
from rulespy.core.damage import is_casualty, wounds_inflicted, wounds_lost
from rulespy.core.ranged_weapons import Weapon
from rulespy.core.shooting import FiringWeapon, TargetPlan
from rulespy.sequences.attack_state import AttackPlan, Item, State
from rulespy.sequences.records import Casualty, Damage, Hit, LeavePlay, Pinned, Round, Surplus
from rulespy.state import Battlefield, Model, Terrain
from rulespy.timing.firefight import Removal, removal_timing

# Per weapon, the ids of the target unit's models it may hit; per model, its band.
Geometry = tuple[dict[str, frozenset[str]], dict[str, int]]


class Memo:
    """What one sequence remembers while it runs: the geometry of each target and firing group, worked
    out once (models do not move during an attack). A driver that plays the sequence's own steps over
    many outcomes, such as the seeded simulation of ``bench/bench_odds.py``, passes a subclass that also
    remembers whole steps (``tests/odds/step_memo.py``); ``resolve`` and the exact engine use this one."""

    def __init__(self) -> None:
        self._geometry: dict[tuple[str, object], Geometry] = {}

    def step(
        self,
        key: tuple[object, ...],
        state: State,
        items: list[Item],
        work: Callable[[State, list[Item]], State],
    ) -> State:
        """Run one deterministic step ``work`` on ``state``, appending its records to ``items``; ``key``
        names the step and everything it reads apart from the state."""
        return work(state, items)

    def geometry(self, key: tuple[str, object], work: Callable[[], Geometry]) -> Geometry:
        found = self._geometry.get(key)
        if found is None:
            found = self._geometry[key] = work()
        return found


class Attack(Protocol):
    """What the rounds read of the sequence that runs them (``ShootingSequence``): the battlefield, the
    checked declarations, whether it is a firefight, and its memo."""

    @property
    def battlefield(self) -> Battlefield: ...

    @property
    def attacks(self) -> Sequence[AttackPlan]: ...

    @property
    def firefight(self) -> bool: ...

    @property
    def memo(self) -> Memo: ...


def expand(runs: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """The weapon names of a target's successes, one per success, in Dice Order."""
    return tuple(weapon for weapon, count in runs for _ in range(count))


def critical_round(
    seq: Attack, state: State, index: int, target: TargetPlan, items: list[Item]
) -> State:
    """Allocate a target's Critical Locks, inflict Critical Damage, remove those casualties at once.

    Rule: sequences/shooting_sequence.md#step-critical-round
    Rule: timing/firefight.md#firefight-initiative-criticals
    Rule: timing/firefight.md#firefight-reply-criticals
    """
    if not state.crits[index]:
        return state
    key = ("critical", state.attack, index, state.crits[index], state.firing[state.attack])
    return seq.memo.step(key, state, items, lambda s, found: _critical_round(seq, s, index, target, found))


def _critical_round(
    seq: Attack, state: State, index: int, target: TargetPlan, items: list[Item]
) -> State:
    successes = expand(state.crits[index])
    items.append(Round(target.unit, True, len(successes)))
    state = _allocate(seq, state, state.attack, index, target, successes, True, items)
    return critical_casualties(seq, state, target, items)


def critical_casualties(seq: Attack, state: State, target: TargetPlan, items: list[Item]) -> State:
    """The end of a critical round: the target's models brought to 0 wounds leave play at once.

    Rule: sequences/shooting_sequence.md#step-critical-round
    """
    gone, timing = _casualties(seq, seq.battlefield.unit(target.unit).models, state, True, items)
    return state.evolve(
        removed=state.removed | frozenset(gone),
        casualties=state.casualties | {(m, timing) for m in gone},
    )


def normal_round(
    seq: Attack, state: State, attack: int, index: int, target: TargetPlan, items: list[Item]
) -> State:
    """Allocate a target's other successes among the models still in play and inflict normal damage.

    Rule: sequences/shooting_sequence.md#step-normal-round
    Rule: timing/firefight.md#firefight-normal-damage
    Rule: core/ranged_weapons.md#pinning
    """
    if not state.normals[attack][index]:
        return state
    key = ("normal", attack, index, state.normals[attack][index], state.firing[attack])
    return seq.memo.step(
        key, state, items, lambda s, found: _normal_round(seq, s, attack, index, target, found)
    )


def _normal_round(
    seq: Attack, state: State, attack: int, index: int, target: TargetPlan, items: list[Item]
) -> State:
    successes = expand(state.normals[attack][index])
    items.append(Round(target.unit, False, len(successes)))
    return _allocate(seq, state, attack, index, target, successes, False, items)


def remove_casualties(seq: Attack, state: State, items: list[Item]) -> State:
    """Remove every casualty still in play and give the survivors the statuses the attack caused.

    Rule: sequences/shooting_sequence.md#step-removal
    Rule: core/statuses.md#status-timing
    Rule: timing/firefight.md#firefight-removal

    Not remembered by the memo: once the odds engine merges equal states, every state reaching it is
    distinct, so remembering would only cost.
    """
    items.append(LeavePlay(seq.firefight))
    gone, timing = _casualties(seq, seq.battlefield.models(), state, False, items)
    removed = state.removed | frozenset(gone)
    pins = frozenset(m for m in state.pins if m not in removed)
    items.extend(Pinned(model_id) for model_id in sorted(pins))
    return state.evolve(
        removed=removed,
        pins=pins,
        casualties=state.casualties | {(m, timing) for m in gone},
    )


def _allocate(
    seq: Attack,
    state: State,
    attack: int,
    index: int,
    target: TargetPlan,
    successes: tuple[str, ...],
    critical: bool,
    items: list[Item],
) -> State:
    bf = seq.battlefield
    firing: tuple[FiringWeapon, ...] = state.firing[attack][index]
    firers = list({fw.model.id: fw.model for fw in firing}.values())
    everyone = bf.unit(target.unit).models
    reach, bands = geometry(seq, target.unit, firing)
    in_play = [m for m in everyone if m.id not in state.removed]
    valid = {name: [m for m in in_play if m.id in reach.get(name, ())] for name in set(successes)}
    order = [m.id for m in everyone]
    plan = seq.attacks[attack]
    wounds = dict(state.wounds)
    pins = set(state.pins)
    # Why a lost success found no valid model depends only on its weapon while the round lasts (no model
    # leaves play before the round ends): worked out once per weapon, not once per success.
    no_valid: dict[str, tuple[Invalid, ...]] = {}
    for number, allocation in enumerate(allocate_round(successes, valid, firers, order, target.mark, bands)):
        weapon = bf.weapon(allocation.weapon)
        if allocation.model is None:
            invalid = no_valid.get(weapon.name)
            if invalid is None:
                invalid = _passed_over(state, weapon.name, firing, everyone, bf.terrain)
                no_valid[weapon.name] = invalid
            items.append(Hit(attack, index, None, weapon.name, critical, 0, allocation.why, invalid))
            continue
        passed: tuple[Invalid, ...] = ()
        if number == 0 and allocation.why.choice is not Choice.MARKED:
            marked = [m for m in everyone if m.id == target.mark]
            passed = _passed_over(state, weapon.name, firing, marked, bf.terrain)
        model = bf.model(allocation.model)
        left = wounds.get(model.id, model.wounds)
        inflicted = wounds_inflicted(weapon, model.armour, critical)
        lost = wounds_lost(inflicted, left)
        wounds[model.id] = left - lost
        if weapon.pinning or plan.rules.pins_hit_models:
            pins.add(model.id)
        through = _through_removed(state, model, weapon, firing, bf.terrain)
        items.append(
            Hit(attack, index, model.id, weapon.name, critical, lost, allocation.why, passed, through)
        )
        items.append(Damage(model.id, inflicted, model.armour, critical, lost))
        if inflicted > lost:
            items.append(Surplus(model.id, left, inflicted - lost))
    return state.evolve(wounds=tuple(sorted(wounds.items())), pins=frozenset(pins))


def geometry(seq: Attack, unit: str, firing: tuple[FiringWeapon, ...]) -> Geometry:
    """The models of ``unit`` each weapon of ``firing`` may hit, and each model's band. They depend only
    on who fired (models do not move during an attack), so the sequence's memo works them out once per
    firing groups.

    Rule: core/allocation.md#valid-model
    """

    def work() -> Geometry:
        bf = seq.battlefield
        everyone = bf.unit(unit).models
        firers = list({fw.model.id: fw.model for fw in firing}.values())
        reach = {
            name: frozenset(
                m.id
                for m in everyone
                if is_valid(
                    m, bf.weapon(name), [fw.model for fw in firing if fw.weapon.name == name], bf.terrain
                )
            )
            for name in {fw.weapon.name for fw in firing}
        }
        return reach, {m.id: band(m, firers) for m in everyone}

    return seq.memo.geometry((unit, firing), work)


def _through_removed(
    state: State, model: Model, weapon: Weapon, firing: tuple[FiringWeapon, ...], terrain: tuple[Terrain, ...]
) -> tuple[str, ...]:
    """When ``model`` is valid for ``weapon`` only through firers that have left play since they rolled,
    those firers (a model that fired counts as it stood when it rolled); otherwise empty.

    Rule: core/allocation.md#valid-model
    """
    firers = [fw.model for fw in firing if fw.weapon.name == weapon.name]
    if not any(f.id in state.removed for f in firers):
        return ()
    making = [f for f in firers if is_valid(model, weapon, (f,), terrain)]
    if making and all(f.id in state.removed for f in making):
        return tuple(f.id for f in making)
    return ()


def _passed_over(
    state: State,
    weapon: str,
    firing: tuple[FiringWeapon, ...],
    models: Iterable[Model],
    terrain: tuple[Terrain, ...],
) -> tuple[Invalid, ...]:
    """Why each of ``models`` is not valid for a success of ``weapon``: it has left play, or the Valid
    Model condition it fails for each model that fired the weapon at this target.

    Rule: core/allocation.md#valid-model
    """
    firers = [fw.model for fw in firing if fw.weapon.name == weapon]
    profile = next(fw.weapon for fw in firing if fw.weapon.name == weapon)
    found: list[Invalid] = []
    for model in models:
        if model.id in state.removed:
            found.append(Invalid(model.id, weapon, "", Unfit.LEFT_PLAY))
        else:
            found.extend(why_not_valid(model, profile, firers, terrain))
    return tuple(found)


def _casualties(
    seq: Attack, models: Iterable[Model], state: State, critical: bool, items: list[Item]
) -> tuple[list[str], Removal]:
    """The ``models`` still in play brought to 0 wounds, each recorded as a casualty, and when they go."""
    timing = removal_timing(critical, seq.firefight)
    left = dict(state.wounds)
    gone = [m.id for m in models if m.id not in state.removed and is_casualty(left.get(m.id, m.wounds))]
    items.extend(Casualty(model_id, timing) for model_id in gone)
    return gone, timing
