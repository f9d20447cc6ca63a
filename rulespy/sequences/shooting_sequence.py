"""The Shooting Sequence: the order in which an attack (or a firefight) is resolved.

This module decides order only; the rules each step applies live in ``rulespy/core``. It is a state
machine in the manner of game-theory engines: the rules never roll. ``chance(state)`` names the next
chance step (a Leadership Check, whose ``outcomes()`` list both results with their probabilities, or one
firing weapon's Target Lock dice, whose tallies ``rulespy odds`` counts with ``rulespy.odds.pool``), and
its ``read(faces)`` turns rolled faces into a result (for ``rulespy resolve``); ``apply(state, outcome)``
returns the next state and what happened.
States are frozen and hold only what later steps need, so equal states reached by different dice merge.

Rule: sequences/shooting_sequence.md#shooting-sequence
"""

from __future__ import annotations

from rulespy.commands import rules_for
from rulespy.core.command_rules import CommandRules
from rulespy.core.cover import target_unit_cover
from rulespy.core.leadership import LeadershipChance
from rulespy.core.measuring import EPSILON, distance_between_units
from rulespy.core.shooting import (
    FiringWeapon,
    could_declare,
    declared_weapons,
    firing_weapons,
    plan_attack,
)
from rulespy.core.statuses import is_pinned
from rulespy.core.target_lock import LockChance, LockTally, Modifier, lock_modifiers, net_modifier
from rulespy.core.target_selection import candidates
from rulespy.errors import IllegalDeclaration
from rulespy.i18n import _
from rulespy.sequences import rounds
from rulespy.sequences.attack_state import AttackPlan, FiringPlan, Item, Run, State
from rulespy.sequences.records import (
    Allowed,
    CriticalsFirst,
    Declared,
    Fires,
    Held,
    Initiative,
    Leadership,
    LockDice,
    MeleeFollows,
    NoneFire,
    NormalDamage,
    NoShooting,
    Rolled,
    ShootingStopped,
    SplitFire,
    TargetCover,
    Undeclared,
)
from rulespy.sequences.steps import Phase
from rulespy.state import AttackDeclaration, Battlefield, Command, Scenario, TargetDeclaration, Unit
from rulespy.timing.command_timing import check_response

Chance = LeadershipChance | LockChance
# What a chance step's outcome is: a Leadership Check passed or not, or a firing weapon's tally.
Outcome = bool | LockTally


class ShootingSequence:
    """The state machine of one scenario's attack, and its Snap Fire response if any.

    Creating it checks every declaration (``IllegalDeclaration``, before any die).
    """

    def __init__(self, scenario: Scenario, memo: rounds.Memo | None = None) -> None:
        self.scenario = scenario
        self.battlefield = scenario.battlefield
        self.attacks, self.opening = declare(scenario)
        self.firefight = len(self.attacks) == 2
        # What the deterministic steps may remember (a driver may pass a ``rounds.Memo`` that remembers more).
        self.memo = memo if memo is not None else rounds.Memo()
        self._modifiers_of: dict[tuple[str, int, str, bool], tuple[Modifier, ...]] = {}

    # -- driving -----------------------------------------------------------------------------------

    def initial(self) -> tuple[State, list[Item]]:
        items: list[Item] = list(self.opening)
        return self._advance(State(), items), items

    def chance(self, state: State) -> Chance | None:
        """The chance step the state waits for, or None once resolved.

        Rule: sequences/shooting_sequence.md#step-leadership
        Rule: sequences/shooting_sequence.md#step-target-lock
        """
        plan = self.attacks[state.attack]
        if state.phase is Phase.LEADERSHIP:
            leader = self.battlefield.unit(plan.unit).leader
            assert leader is not None  # a split needs a leader (checked at declaration)
            return LeadershipChance(leader.id, leader.ld, plan.targets[state.target].unit)
        if state.phase is not Phase.TARGET_LOCK:
            return None
        fw = state.firing[state.attack][state.target][state.group]
        return LockChance(fw.model.id, fw.weapon, self._net(plan, state.target, fw), fw.dice)

    def lock_chances(self, state: State) -> tuple[tuple[LockChance, ...], ...]:
        """Every firing weapon's Target Lock chance step of the current attack, per target, in Dice Order
        (the odds engine rolls them in two passes, criticals first). Only in the Target Lock phase.

        Rule: sequences/shooting_sequence.md#step-target-lock
        """
        assert state.phase is Phase.TARGET_LOCK  # the firing weapons are known from the Target Lock step
        plan = self.attacks[state.attack]
        return tuple(
            tuple(LockChance(fw.model.id, fw.weapon, self._net(plan, index, fw), fw.dice) for fw in groups)
            for index, groups in enumerate(state.firing[state.attack])
        )

    def read(self, state: State, chance: Chance, faces: tuple[int, ...]) -> tuple[Outcome, list[Item]]:
        """The outcome of rolled ``faces`` at this chance step, with its records."""
        if isinstance(chance, LeadershipChance):
            passed = chance.read(faces)
            dice = (faces[0], faces[1])
            check = Leadership(
                state.attack, state.target, chance.target, chance.leader, chance.ld, dice, passed
            )
            return passed, [check]
        tally, rolls = chance.read(faces)
        # Dice showing the same face share one roll, so one record each (a large attack has many dice).
        distinct = dict(zip(map(id, rolls), rolls, strict=True))
        made = {key: Rolled(state.attack, state.target, roll) for key, roll in distinct.items()}
        items: list[Item] = list(map(made.__getitem__, map(id, rolls)))
        return tally, items

    def apply(self, state: State, outcome: Outcome) -> tuple[State, list[Item]]:
        """The state after ``outcome`` at the current chance step, advanced to the next one."""
        return self.advance(self.record(state, outcome))

    def record(self, state: State, outcome: Outcome) -> State:
        """The state holding ``outcome``, before the deterministic steps that follow it (``advance``).

        Split from ``apply`` so that the odds engine can merge equal recorded states before running the
        costly steps (allocation, damage) once for each.
        """
        if state.phase is Phase.LEADERSHIP:
            assert isinstance(outcome, bool)
            return state.evolve(passed=state.passed + (outcome,), target=state.target + 1)
        assert state.phase is Phase.TARGET_LOCK and isinstance(outcome, LockTally)
        fw = state.firing[state.attack][state.target][state.group]
        crits = list(state.crits)
        crits[state.target] = _push(crits[state.target], fw.weapon.name, outcome.criticals)
        normals = list(state.normals[state.attack])
        normals[state.target] = _push(normals[state.target], fw.weapon.name, outcome.successes)
        return state.evolve(
            crits=tuple(crits),
            normals=state.normals[: state.attack] + (tuple(normals),),
            group=state.group + 1,
        )

    def advance(self, state: State, stop: Phase | None = None) -> tuple[State, list[Item]]:
        """Run the deterministic steps from a recorded state up to the next chance step or the end, or
        until the phase ``stop`` is reached (the odds engine plays the normal rounds itself)."""
        items: list[Item] = []
        return self._advance(state, items, stop), items

    # -- deterministic steps -----------------------------------------------------------------------

    def _advance(self, state: State, items: list[Item], stop: Phase | None = None) -> State:
        while state.phase is not stop:
            phase = state.phase
            plan = self.attacks[state.attack]
            if phase is Phase.DECLARE:
                state = state.evolve(phase=Phase.LEADERSHIP)
            elif phase is Phase.LEADERSHIP:
                if state.target == 0:
                    state = state.evolve(target=1, passed=(True,))
                    if len(plan.targets) > 1:
                        items.append(SplitFire(plan.unit))
                if state.target < len(plan.targets):
                    return state
                state = state.evolve(phase=Phase.FIRING_WEAPONS)
            elif phase is Phase.FIRING_WEAPONS:
                state = self._choose_firing(state, plan, items)
            elif phase is Phase.TARGET_LOCK:
                firing = state.firing[state.attack]
                if state.target < len(firing) and state.group < len(firing[state.target]):
                    return state
                if state.target + 1 < len(firing):
                    state = state.evolve(target=state.target + 1, group=0)
                else:
                    state = state.evolve(phase=Phase.CRITICAL_ROUND)
            elif phase is Phase.CRITICAL_ROUND:
                state = self._critical_rounds(state, items)
            elif phase is Phase.NORMAL_ROUND:
                state = self._normal_rounds(state, items)
            elif phase is Phase.REMOVAL:
                state = self._removal(state, items)
            else:
                break
        return state

    def _choose_firing(self, state: State, plan: AttackPlan, items: list[Item]) -> State:
        """Which declared weapons fire at each target, once the Leadership Checks are known.

        Rule: sequences/shooting_sequence.md#step-firing-weapons

        Settled on the battlefield as declared (core/shooting.md#which-weapons-fire); only a model that has
        left play since (in a Firefight) is left out.
        """
        chosen: list[tuple[FiringWeapon, ...]] = []
        for index, target in enumerate(plan.targets):
            if not state.passed[index]:
                chosen.append(())
                continue
            settled = firing_weapons(self.battlefield, plan.unit, target, plan.rules)
            fired = tuple(fw for fw in settled if fw.model.id not in state.removed)
            chosen.append(fired)
            items.extend(self._firing_records(plan, index, fired, state.removed))
        n = len(plan.targets)
        return state.evolve(
            phase=Phase.TARGET_LOCK,
            target=0,
            group=0,
            firing=state.firing + (FiringPlan(chosen),),
            crits=((),) * n,
            normals=state.normals + (((),) * n,),
        )

    def _critical_rounds(self, state: State, items: list[Item]) -> State:
        """Each target's critical round once an attack's dice are rolled; then a firefight's reply
        rolls (the Initiative's criticals come first), or the normal rounds follow.

        Rule: sequences/shooting_sequence.md#step-critical-round
        Rule: timing/firefight.md#firefight
        """
        plan = self.attacks[state.attack]
        if self.firefight:
            items.append(CriticalsFirst(plan.unit, reply=state.attack == 1))
        for index, target in enumerate(plan.targets):
            state = rounds.critical_round(self, state, index, target, items)
        if self.firefight and state.attack == 0:
            return state.evolve(phase=Phase.LEADERSHIP, attack=1, target=0, group=0, passed=(), crits=())
        return state.evolve(phase=Phase.NORMAL_ROUND)

    def _normal_rounds(self, state: State, items: list[Item]) -> State:
        """Every target's normal round, a firefight's Initiative unit's first.

        Rule: sequences/shooting_sequence.md#step-normal-round
        Rule: timing/firefight.md#firefight-normal-damage
        """
        if self.firefight:
            items.append(NormalDamage())
        for attack in range(len(self.attacks)) if self.firefight else (state.attack,):
            for index, target in enumerate(self.attacks[attack].targets):
                state = rounds.normal_round(self, state, attack, index, target, items)
        return state.evolve(phase=Phase.REMOVAL)

    def _removal(self, state: State, items: list[Item]) -> State:
        """The casualties still in play leave together; an assault goes on into melee.

        Rule: sequences/shooting_sequence.md#step-removal
        """
        state = rounds.remove_casualties(self, state, items)
        if self.attacks[0].rules.command is Command.ASSAULT:
            items.append(MeleeFollows())
        return state.evolve(phase=Phase.DONE)

    def _net(self, plan: AttackPlan, target: int, fw: FiringWeapon) -> int:
        return net_modifier(self._modifiers(plan, target, fw))

    def _modifiers(self, plan: AttackPlan, target: int, fw: FiringWeapon) -> tuple[Modifier, ...]:
        """The modifiers to ``fw``'s dice: they depend on the command, the target's cover, the profile and
        whether the firer is Pinned, so they are worked out once for each (a large attack has many
        firing weapons of one profile)."""
        pinned = is_pinned(fw.model)
        key = (plan.unit, target, fw.weapon.name, pinned)
        found = self._modifiers_of.get(key)
        if found is None:
            mark = self.battlefield.model(plan.targets[target].mark)
            cover = target_unit_cover(mark, self.battlefield.terrain)
            found = self._modifiers_of[key] = lock_modifiers(fw.weapon, pinned, cover, plan.rules)
        return found

    def _firing_records(
        self,
        plan: AttackPlan,
        index: int,
        fired: tuple[FiringWeapon, ...],
        removed: frozenset[str],
    ) -> list[Item]:
        """Why each declared weapon that does not fire holds (checked on the battlefield as declared, or its
        model is among those ``removed`` so far), then the cover and each firing weapon's modifiers."""
        target = plan.targets[index]
        records: list[Item] = []
        firing = {(fw.model.id, fw.weapon.name) for fw in fired}
        checked = target.holds  # each declared weapon was checked once, at declaration
        assert checked is not None  # plan_attack checks every declared weapon
        for number, (model_id, weapon) in enumerate(target.weapons):
            if (model_id, weapon) in firing:
                continue
            if model_id in removed:
                records.append(Held(model_id, weapon, target.unit, None))
                continue
            holds = checked[number]
            if holds is not None:
                records.append(Held(model_id, weapon, target.unit, holds))
        if fired:
            mark = self.battlefield.model(target.mark)
            records.append(
                TargetCover(target.unit, mark.id, target_unit_cover(mark, self.battlefield.terrain))
            )
            records.append(LockDice(plan.unit, target.unit, sum(fw.dice for fw in fired)))
        for fw in fired:
            mods = self._modifiers(plan, index, fw)
            records.append(Fires(fw.model.id, fw.weapon.name, fw.dice, target.unit, mods))
        if not fired and target.stopped is not None:
            records.append(NoShooting(target.unit, target.stopped))
            records.append(ShootingStopped(plan.unit, target.unit, plan.rules.rule))
        elif not fired:
            records.append(NoneFire(plan.unit, target.unit))
        return records


def declare(scenario: Scenario) -> tuple[tuple[AttackPlan, ...], list[Item]]:
    """Check the attack and its response when declared, before any die. With a response, the attack
    has the Initiative: it is planned, and resolves its Critical Locks, first.

    Rule: sequences/shooting_sequence.md#step-declare
    Rule: timing/firefight.md#initiative
    """
    bf = scenario.battlefield
    attack = scenario.attack
    rules = rules_for(attack.command)
    try:
        plans = [AttackPlan(attack.unit, rules, plan_attack(bf, attack, rules))]
    except IllegalDeclaration as error:
        if rules.command is Command.COVERING_FIRE and error.rule != rules.rule:
            raise _keeps_watching(attack, error) from None
        raise
    items: list[Item] = [*_declared(bf.unit(attack.unit), attack, rules), *_allowed(bf, plans[0])]
    if scenario.response is not None:
        responder = attack.targets[0].unit
        reply = AttackDeclaration(
            responder, Command.SNAP_FIRE, (TargetDeclaration(attack.unit, scenario.response.mark),)
        )
        reply_rules = rules_for(Command.SNAP_FIRE)
        try:
            check_response(rules, plans[0].targets[0].stopped is None)
            plans.append(AttackPlan(responder, reply_rules, plan_attack(bf, reply, reply_rules)))
        except IllegalDeclaration as error:
            raise _response_refused(attack, reply, reply_rules, error) from None
        items.extend(_declared(bf.unit(responder), reply, reply_rules))
        items.extend(_allowed(bf, plans[1]))
        items.append(Initiative(attack.unit, responder))
    return tuple(plans), items


def _response_refused(
    attack: AttackDeclaration, reply: AttackDeclaration, rules: CommandRules, error: IllegalDeclaration
) -> IllegalDeclaration:
    """An illegal response is refused as written, naming the first rule it breaks (``error.rule``) and the
    response's own rule; the message says that the attack alone is legal and how to resolve it.

    Rule: timing/command_timing.md#responding-command
    """
    alone = _(
        "{message}. The {command} of {unit!r} may not be declared ({rule}); the {attack} by {attacker!r} "
        "alone is legal. At the table {unit!r} declares another response or none, and the attack resolves: "
        "to resolve it here, delete the scenario's 'response'",
        message=error.message,
        command=_(reply.command.name_in_rules),
        unit=reply.unit,
        rule=rules.rule,
        attack=_(attack.command.name_in_rules),
        attacker=attack.unit,
    )
    return IllegalDeclaration(error.rule, alone, rules.rule)


def _keeps_watching(attack: AttackDeclaration, error: IllegalDeclaration) -> IllegalDeclaration:
    """Covering Fire that may not be made at the unit that triggered it: the covering unit keeps watching.

    Rule: commands/command_covering_fire.md#covering-fire
    """
    rule = rules_for(Command.COVERING_FIRE).rule
    watching = _(
        "{message}. The Covering Fire of {unit!r} may not be made at {target!r} ({rule}): the covering unit "
        "keeps watching and fires nothing, and the enemy's Advance or Assault goes ahead without it",
        message=error.message,
        unit=attack.unit,
        target=attack.targets[0].unit,
        rule=rule,
    )
    return IllegalDeclaration(error.rule, watching, rule)


def _allowed(bf: Battlefield, plan: AttackPlan) -> list[Item]:
    """Why Target Priority allows each target the unit shoots at (an Assault that may not shoot at its
    target has none): its leader sees it; or, without a leader, it is the closest candidate, or the
    command names its target.

    Rule: core/target_selection.md#target-priority
    """
    shooter = bf.unit(plan.unit)
    records: list[Item] = []
    for target in plan.targets:
        if target.stopped is not None:
            continue
        if shooter.leader is not None:
            records.append(Allowed(shooter.id, target.unit, leader=shooter.leader.id))
        elif not plan.rules.closest_target_rule:
            records.append(Allowed(shooter.id, target.unit, named=plan.rules.command.value))
        else:
            found = candidates(shooter, bf, lambda u: could_declare(bf, shooter, u, plan.rules))
            own = distance_between_units(shooter, bf.unit(target.unit))
            tied = tuple(
                u.id
                for u in found
                if u.id != target.unit and abs(distance_between_units(shooter, u) - own) <= EPSILON
            )
            records.append(Allowed(shooter.id, target.unit, inches=own, candidates=len(found), tied=tied))
    return records


def _declared(shooter: Unit, attack: AttackDeclaration, rules: CommandRules) -> list[Item]:
    """The declaration, with each target's weapons when it lists any, then each weapon it lists at no
    target (core/shooting.md#split-target: it does not fire)."""
    marks = tuple((t.unit, t.mark) for t in attack.targets)
    if all(t.models is None and t.weapons is None for t in attack.targets):
        return [Declared(attack.unit, attack.command, marks, rules.rule)]
    lists = declared_weapons(shooter, attack.targets)
    declared = {pair for pairs in lists for pair in pairs}
    nowhere = [Undeclared(m.id, w) for m in shooter.models for w in m.weapons if (m.id, w) not in declared]
    return [Declared(attack.unit, attack.command, marks, rules.rule, lists), *nowhere]


def _push(runs: tuple[Run, ...], weapon: str, count: int) -> tuple[Run, ...]:
    if not count:
        return runs
    if runs and runs[-1][0] == weapon:
        return runs[:-1] + ((weapon, runs[-1][1] + count),)
    return runs + ((weapon, count),)
