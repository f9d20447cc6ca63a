"""Target Lock: core/target_lock.md."""

from fractions import Fraction

import pytest

from rulespy.commands import rules_for
from rulespy.core.ranged_weapons import Weapon
from rulespy.core.target_lock import (
    LockChance,
    LockResult,
    LockTally,
    Modifier,
    die_probabilities,
    judge,
    lock_modifiers,
    net_modifier,
)
from rulespy.state import Command, Cover
from tests.odds.oracles import lock_outcomes

RIFLE = Weapon("rifle", range=24, dice=1, lock=4, damage=1)


def mods(*amounts: int) -> tuple[Modifier, ...]:
    return tuple(Modifier(a, "test", "core/target_lock.md#target-lock-modifiers") for a in amounts)


def test_natural_1_always_fails_even_with_a_lock_it_would_reach() -> None:
    easy = Weapon("easy", range=24, dice=1, lock=2, damage=1)
    assert judge(1, easy, +1) is LockResult.FAIL


def test_natural_6_can_fail_when_modifiers_push_it_below_the_lock() -> None:
    hard = Weapon("hard", range=24, dice=1, lock=6, damage=1)
    assert judge(6, hard, -1) is LockResult.FAIL


def test_modifier_cap_floor_is_minus_2() -> None:
    assert net_modifier(mods(-1, -1, -2)) == -2


def test_modifier_cap_ceiling_is_plus_1() -> None:
    assert net_modifier(mods(+1, +1)) == +1


def test_modifier_cap_leaves_values_inside_alone() -> None:
    assert net_modifier(mods(-2, +1)) == -1
    assert net_modifier(()) == 0


def test_critical_lock_needs_a_success_and_a_natural_6() -> None:
    assert judge(6, RIFLE, 0) is LockResult.CRITICAL
    assert judge(5, RIFLE, 0) is LockResult.SUCCESS


def test_critical_n_lowers_the_critical_roll() -> None:
    lance = Weapon("lance", range=36, dice=1, lock=3, damage=3, critical=5)
    assert judge(5, lance, -2) is LockResult.CRITICAL


def test_cover_removes_critical_lock() -> None:
    """A natural 6 against lock 6 in heavy cover: modified 4, a failure, so no Critical Lock."""
    hard = Weapon("hard", range=24, dice=1, lock=6, damage=1)
    net = net_modifier(lock_modifiers(hard, False, Cover.HEAVY, rules_for(Command.SHOOT)))
    assert net == -2
    assert judge(6, hard, net) is LockResult.FAIL


def test_target_lock_modifiers_list_every_source() -> None:
    precise = Weapon("p", range=24, dice=1, lock=4, damage=1, precise=True)
    found = lock_modifiers(precise, True, Cover.LIGHT, rules_for(Command.ADVANCE))
    assert sorted(m.amount for m in found) == [-1, -1, -1, +1]
    assert net_modifier(found) == -2


def test_die_probabilities_sum_to_one() -> None:
    for lock in range(2, 7):
        for net in range(-2, 2):
            weapon = Weapon("w", range=1, dice=1, lock=lock, damage=1)
            assert sum(die_probabilities(weapon, net).values()) == 1


def test_lock_chance_outcomes_are_a_trinomial() -> None:
    chance = LockChance("m", Weapon("w", range=1, dice=2, lock=4, damage=1), 0, 2)
    outcomes = dict(lock_outcomes(chance))
    assert sum(outcomes.values()) == 1
    # crit 1/6, success (4, 5) 2/6, fail 3/6
    assert outcomes[LockTally(2, 0)] == Fraction(1, 36)
    assert outcomes[LockTally(1, 1)] == 2 * Fraction(1, 6) * Fraction(2, 6)


@pytest.mark.parametrize(
    ("faces", "tally"), [((6, 1), LockTally(1, 0)), ((4, 5), LockTally(0, 2)), ((3, 2), LockTally(0, 0))]
)
def test_lock_chance_reads_faces(faces: tuple[int, int], tally: LockTally) -> None:
    chance = LockChance("m", Weapon("w", range=1, dice=2, lock=4, damage=1), 0, 2)
    read, rolls = chance.read(faces)
    assert read == tally
    assert [r.natural for r in rolls] == list(faces)
    assert all((r.lock, r.net, r.critical_on) == (4, 0, 6) for r in rolls)


@pytest.mark.parametrize(
    ("natural", "rule"),
    [(1, "natural-1"), (6, "critical-lock"), (5, "critical-lock"), (4, "target-lock"), (2, "target-lock")],
)
def test_lock_roll_cites_the_rule_that_decided_it(natural: int, rule: str) -> None:
    """A natural 1 fails (natural-1); a natural at or above Critical N decides a Critical Lock, made or
    missed (critical-lock: here 5 fails at -2 against lock 4); any other die is the plain lock."""
    weapon = Weapon("w", range=1, dice=1, lock=4, damage=1, critical=5)
    (roll,) = LockChance("m", weapon, -2 if natural == 5 else 0, 1).read((natural,))[1]
    assert roll.rule == f"core/target_lock.md#{rule}"
