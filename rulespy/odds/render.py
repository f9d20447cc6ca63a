"""The odds as people read them: a text account for the terminal and a markdown table for rule pages."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from rulespy.odds.summary import Distribution, Odds

if TYPE_CHECKING:
    from rulespy.odds.sampled import Sampled

BAR = 30
UNKEPT = "not worked out (the attack is beyond the exact engine's limits once every wound is kept)"
"""Said for the expected wounds of exact odds that could not keep each model's wounds (``Odds.wounds``)."""


def percent(p: Fraction) -> str:
    """A probability as a percentage a reader can take in at a glance (exact 0 and 1 stay exact)."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    if value < 0.1:
        return "<0.1%"
    if value > 99.9:
        return ">99.9%"
    return f"{value:.1f}%"


def bar_chart(dist: Distribution, fractions: bool = False) -> list[str]:
    """One line a count: the count, its probability and a bar scaled to the likeliest count."""
    top = max((p for _, p in dist), default=Fraction(1)) or Fraction(1)
    lines = []
    for count, p in dist:
        bar = "#" * round(BAR * p / top)
        shown = str(p) if fractions else percent(p)
        lines.append(f"  {count:>3}  {shown:>8}  {bar}")
    return lines


def render_text(odds: Odds, fractions: bool = False) -> str:
    """The account ``rulespy odds`` prints without ``--json``: every target unit of the attack in declared
    order (a split's too), each with its casualties and their mean and its expected wounds, then the
    firing unit's casualties in a firefight and each model's chance of becoming a casualty."""

    def number(p: Fraction) -> str:
        return str(p) if fractions else percent(p)

    def mean(value: Fraction) -> str:
        return str(value) if fractions else f"{float(value):.3f}"

    lines: list[str] = []
    for unit, dist in odds.targets or ((odds.target_unit, odds.casualties),):
        wounds = odds.expected_wounds(unit)
        lines += [
            *([""] if lines else []),
            f"Casualties in {unit} (exact, over every die):",
            *bar_chart(dist, fractions),
            f"Expected casualties: {mean(sum((k * p for k, p in dist), Fraction(0)))}",
            f"Expected wounds: {UNKEPT if wounds is None else mean(wounds)}",
        ]
    if odds.attacker_casualties is not None:
        lines += [
            "",
            f"Casualties in {odds.attacker_unit} (Snap Fire makes a firefight):",
            *bar_chart(odds.attacker_casualties, fractions),
        ]
    lines += ["", "Chance that each model becomes a casualty:"]
    width = max((len(m) for m, _ in odds.models), default=0)
    lines += [f"  {m:<{width}}  {number(p)}" for m, p in odds.models]
    return "\n".join(lines) + "\n"


def markdown_table(odds: Odds) -> str:
    """A markdown table of the first target's casualty odds, with the exact fraction beside each."""
    lines = [
        f"| casualties in {odds.target_unit} | chance | exact |",
        "|---:|---:|---:|",
        *(f"| {k} | {percent(p)} | {p} |" for k, p in odds.casualties),
    ]
    lines.append(f"\nExpected casualties: {float(odds.expected_casualties):.2f}.")
    return "\n".join(lines) + "\n"


def render_sampled(odds: Sampled) -> str:
    """The account ``rulespy odds`` prints without ``--json`` for a sampled answer: every figure with its
    95% interval, every target unit of the attack, and how many trials with which seed."""
    from rulespy.odds.sampled import mean_interval, wilson

    def span(hits: int) -> str:
        low, high = wilson(hits, odds.trials)
        return f"{100 * hits / odds.trials:5.1f}%  ({100 * low:.1f} to {100 * high:.1f}%)"

    lines = [
        f"Sampled, not exact: the attack is beyond the exact engine's limits, so it was played"
        f" {odds.trials:,} times with seeded dice (seed {odds.seed}); 95% intervals in brackets.",
    ]
    for unit, counts, wounds in odds.targets:
        mean, low, high = odds.expected(counts)
        top = max(n for _, n in counts) or 1
        lines += ["", f"Casualties in {unit} (sampled):"]
        lines += [f"  {k:>3}  {span(n)}  {'#' * round(BAR * n / top)}" for k, n in counts]
        lines.append(f"Expected casualties: {mean:.3f} ({low:.3f} to {high:.3f})")
        w_mean, w_low, w_high = mean_interval(list(wounds))
        lines.append(f"Expected wounds: {w_mean:.3f} ({w_low:.3f} to {w_high:.3f})")
    if odds.attacker_casualties is not None:
        lines += ["", f"Casualties in {odds.attacker_unit} (Snap Fire makes a firefight):"]
        lines += [f"  {k:>3}  {span(n)}" for k, n in odds.attacker_casualties]
    lines += ["", "Chance that each model becomes a casualty:"]
    width = max((len(m) for m, _ in odds.models), default=0)
    lines += [f"  {m:<{width}}  {span(n)}" for m, n in odds.models]
    return "\n".join(lines) + "\n"
