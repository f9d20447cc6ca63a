"""Leadership Check: core/leadership.md."""

from fractions import Fraction

from rulespy.core.leadership import LeadershipChance, pass_probability, passes


def test_leadership_check_passes_at_exactly_ld() -> None:
    assert passes((4, 4), 8)


def test_leadership_check_fails_one_above_ld() -> None:
    assert not passes((4, 5), 8)


def test_leadership_pass_probability() -> None:
    assert pass_probability(7) == Fraction(21, 36)
    assert pass_probability(12) == 1
    assert pass_probability(2) == Fraction(1, 36)


def test_leadership_chance_reads_two_dice() -> None:
    assert LeadershipChance("sgt", 7, "walker").read((3, 4)) is True
    assert LeadershipChance("sgt", 7, "walker").read((4, 4)) is False
