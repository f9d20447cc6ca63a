"""Steps 5 to 7 of the Shooting Sequence: the critical round, the normal round and removal.

Rule: sequences/shooting_sequence.md#step-critical-round
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from rulespy.core.allocation import allocate_round, band, is_valid
from rulespy.core.damage import is_casualty, wounds_inflicted, wounds_lost
from rulespy.core.shooting import FiringWeapon, TargetPlan
from rulespy.events import Event
from rulespy.sequences.records import Casualty, Hit
from rulespy.state import Model
from rulespy.timing.firefight import Removal, removal_timing, step_event

if TYPE_CHECKING:
    from rulespy.sequences.shooting_sequence import Item, ShootingSequence, State


def critical_round(
    seq: ShootingSequence, state: State, index: int, target: TargetPlan, items: list[Item]
) -> State:
    """Allocate a target's Critical Locks, inflict Critical Damage, remove those casualties at once.

    Rule: sequences/shooting_sequence.md#step-critical-round
    Rule: timing/firefight.md#firefight-initiative-criticals
    Rule: timing/firefight.md#firefight-reply-criticals
    """
    if not state.crits[index]:
        return state
    key = ("critical", state.attack, index, state.crits[index], state.firing[state.attack])
    return _remembered(seq, key, state, items, lambda s, found: _critical_round(seq, s, index, target, found))


def _critical_round(
    seq: ShootingSequence, state: State, index: int, target: TargetPlan, items: list[Item]
) -> State:
    from rulespy.sequences.shooting_sequence import expand, step

    successes = expand(state.crits[index])
    if seq.explain:
        items.append(step("step-critical-round", f"{len(successes)} Critical Lock(s) at {target.unit}"))
    state = _allocate(seq, state, state.attack, index, target, successes, True, items)
    return critical_casualties(seq, state, target, items)


def critical_casualties(seq: ShootingSequence, state: State, target: TargetPlan, items: list[Item]) -> State:
    """The end of a critical round: the target's models brought to 0 wounds leave play at once.

    Rule: sequences/shooting_sequence.md#step-critical-round
    """
    gone, timing = _casualties(seq, seq.battlefield.unit(target.unit).models, state, True, items)
    return state.evolve(
        removed=state.removed | frozenset(gone),
        casualties=state.casualties | {(m, timing) for m in gone},
    )


def normal_round(
    seq: ShootingSequence, state: State, attack: int, index: int, target: TargetPlan, items: list[Item]
) -> State:
    """Allocate a target's other successes among the models still in play and inflict normal damage.

    Rule: sequences/shooting_sequence.md#step-normal-round
    Rule: timing/firefight.md#firefight-normal-damage
    Rule: core/ranged_weapons.md#pinning
    """
    if not state.normals[attack][index]:
        return state
    key = ("normal", attack, index, state.normals[attack][index], state.firing[attack])
    return _remembered(
        seq, key, state, items, lambda s, found: _normal_round(seq, s, attack, index, target, found)
    )


def _normal_round(
    seq: ShootingSequence, state: State, attack: int, index: int, target: TargetPlan, items: list[Item]
) -> State:
    from rulespy.sequences.shooting_sequence import expand, step

    successes = expand(state.normals[attack][index])
    if seq.explain:
        items.append(step("step-normal-round", f"{len(successes)} other success(es) at {target.unit}"))
    return _allocate(seq, state, attack, index, target, successes, False, items)


def remove_casualties(seq: ShootingSequence, state: State, items: list[Item]) -> State:
    """Remove every casualty still in play and give the survivors the statuses the attack caused.

    Rule: sequences/shooting_sequence.md#step-removal
    Rule: core/statuses.md#status-timing
    Rule: timing/firefight.md#firefight-removal
    """
    return _remove_casualties(seq, state, items)


def _remove_casualties(seq: ShootingSequence, state: State, items: list[Item]) -> State:
    from rulespy.sequences.shooting_sequence import step

    if seq.explain:
        if seq.firefight:
            items.append(
                step_event("firefight-removal", "every other casualty of the firefight goes together")
            )
        else:
            items.append(step("step-removal", "the attack's other casualties leave play together"))
    gone, timing = _casualties(seq, seq.battlefield.models(), state, False, items)
    removed = state.removed | frozenset(gone)
    pins = frozenset(m for m in state.pins if m not in removed)
    if seq.explain:
        for model_id in sorted(pins):
            items.append(Event("core/statuses.md#status-timing", f"{model_id} survives and becomes Pinned"))
    return state.evolve(
        removed=removed,
        pins=pins,
        casualties=state.casualties | {(m, timing) for m in gone},
    )


def _remembered(
    seq: ShootingSequence,
    key: tuple[object, ...],
    state: State,
    items: list[Item],
    work: Callable[[State, list[Item]], State],
) -> State:
    """Run one deterministic step of the sequence on ``state``. Without an account to write (``explain``
    off, as the odds engine runs it) its outcome is remembered under ``key`` and every state field it
    reads (wounds, pins, removals, casualties), so the many dice outcomes that reach the same step with
    the same inputs work it out only once; the result is the same either way."""
    if seq.explain:
        return work(state, items)
    full = key + (state.wounds, state.pins, state.removed, state.casualties)
    known = seq.remembered.get(full)
    if known is None:
        found: list[Item] = []
        after = work(state, found)
        known = (after.wounds, after.pins, after.removed, after.casualties, tuple(found))
        seq.remembered[full] = known
    wounds, pins, removed, casualties, found_items = known
    items.extend(found_items)
    return state.evolve(wounds=wounds, pins=pins, removed=removed, casualties=casualties)


def _allocate(
    seq: ShootingSequence,
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
    for allocation in allocate_round(successes, valid, firers, order, target.mark, bands, seq.explain):
        weapon = bf.weapon(allocation.weapon)
        if allocation.model is None:
            items.append(Hit(attack, index, None, weapon.name, critical, 0))
            if seq.explain:
                text = f"a {weapon.name} success is lost: {allocation.reason}"
                items.append(Event("core/allocation.md#lost-successes", text))
            continue
        model = bf.model(allocation.model)
        left = wounds.get(model.id, model.wounds)
        inflicted = wounds_inflicted(weapon, model.armour, critical)
        lost = wounds_lost(inflicted, left)
        wounds[model.id] = left - lost
        if weapon.pinning or plan.rules.pins_hit_models:
            pins.add(model.id)
        items.append(Hit(attack, index, model.id, weapon.name, critical, lost))
        if seq.explain:
            items.extend(_hit_events(model, weapon.name, allocation.reason, critical, inflicted, left, lost))
    return state.evolve(wounds=tuple(sorted(wounds.items())), pins=frozenset(pins))


def geometry(
    seq: ShootingSequence, unit: str, firing: tuple[FiringWeapon, ...]
) -> tuple[dict[str, frozenset[str]], dict[str, int]]:
    """The models of ``unit`` each weapon of ``firing`` may hit, and each model's band. They depend only
    on who fired (models do not move during an attack), so they are worked out once per firing groups.

    Rule: core/allocation.md#valid-model
    """
    found = seq.geometry.get((unit, firing))
    if found is None:
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
        found = seq.geometry[(unit, firing)] = (reach, {m.id: band(m, firers) for m in everyone})
    return found


def _hit_events(
    model: Model, weapon: str, reason: str, critical: bool, inflicted: int, left: int, lost: int
) -> list[Item]:
    marked = reason.startswith("the first success")
    rule = "core/target_selection.md#marked-model" if marked else "core/allocation.md#allocation-key"
    kind = "Critical Lock" if critical else "success"
    events: list[Item] = [Event(rule, f"the {weapon} {kind} goes to {model.id}: {reason}")]
    if critical:
        damage = Event(
            "core/critical_damage.md#critical-damage",
            f"{model.id} suffers {inflicted} wounds, ignoring armour",
        )
    elif model.armour:
        damage = Event(
            "core/damage.md#armour", f"{model.id}'s armour {model.armour} leaves {inflicted} wound(s)"
        )
    else:
        damage = Event("core/damage.md#damage", f"{model.id} suffers {inflicted} wound(s)")
    events.append(damage)
    if inflicted > lost:
        text = f"{model.id} had {left} wound(s) left; the other {inflicted - lost} are lost, never passed on"
        events.append(Event("core/damage.md#target-limit", text))
    return events


def _casualties(
    seq: ShootingSequence, models: Iterable[Model], state: State, critical: bool, items: list[Item]
) -> tuple[list[str], str]:
    """The ``models`` still in play brought to 0 wounds, each recorded as a casualty, and when they go."""
    timing = removal_timing(critical, seq.firefight)
    left = dict(state.wounds)
    gone = [m.id for m in models if m.id not in state.removed and is_casualty(left.get(m.id, m.wounds))]
    for model_id in gone:
        items.append(Casualty(model_id, timing.value))
        if seq.explain:
            text = f"{model_id} is a casualty at 0 wounds, removed {_WHEN[timing]}"
            items.append(Event("timing/firefight.md#removal-timing", text))
    return gone, timing.value


_WHEN = {
    Removal.IMMEDIATE: "at once",
    Removal.END_OF_ATTACK: "at the end of the attack",
    Removal.END_OF_FIREFIGHT: "at the end of the firefight",
}
