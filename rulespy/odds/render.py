"""The odds as people read them: a text account for the terminal and a markdown table for rule pages."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from rulespy.i18n import N_, _, current, n_
from rulespy.odds.summary import Distribution, Odds

if TYPE_CHECKING:
    from rulespy.odds.sampled import Sampled

BAR = 30
UNKEPT = N_("not worked out (the attack is beyond the exact engine's limits once every wound is kept)")
"""Said for the expected wounds of exact odds that could not keep each model's wounds (``Odds.wounds``)."""


def percent(p: Fraction) -> str:
    """A probability as a percentage a reader can take in at a glance (exact 0 and 1 stay exact)."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    value = float(p) * 100
    if value < 0.1:
        return _decimal("<0.1%")
    if value > 99.9:
        return _decimal(">99.9%")
    return _decimal(f"{value:.1f}%")


def _decimal(text: str) -> str:
    """A figure with the decimal comma in Russian (``12,5%``), as it is in English otherwise."""
    return text.replace(".", ",") if current() == "ru" else text


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
        return str(value) if fractions else _decimal(f"{float(value):.3f}")

    lines: list[str] = []
    for unit, dist in odds.targets or ((odds.target_unit, odds.casualties),):
        wounds = odds.expected_wounds(unit)
        lines += [
            *([""] if lines else []),
            _("Casualties in {unit} (exact, over every die):", unit=unit),
            *bar_chart(dist, fractions),
            _("Expected casualties: {expected}", expected=mean(sum((k * p for k, p in dist), Fraction(0)))),
            _("Expected wounds: {expected}", expected=_(UNKEPT) if wounds is None else mean(wounds)),
        ]
    if odds.attacker_casualties is not None:
        lines += [
            "",
            _("Casualties in {unit} (Snap Fire makes a firefight):", unit=odds.attacker_unit),
            *bar_chart(odds.attacker_casualties, fractions),
        ]
    lines += ["", _("Chance that each model becomes a casualty:")]
    width = max((len(m) for m, _x in odds.models), default=0)
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
        return _decimal(
            _(
                "{share:5.1f}%  ({low:.1f} to {high:.1f}%)",
                share=100 * hits / odds.trials,
                low=100 * low,
                high=100 * high,
            )
        )

    trials = (
        f"{odds.trials:,}".replace(",", "\N{NO-BREAK SPACE}") if current() == "ru" else f"{odds.trials:,}"
    )
    lines = [
        n_(
            "Sampled, not exact: the attack is beyond the exact engine's limits, so it was played {trials} "
            "time with seeded dice (seed {seed}); 95% intervals in brackets.",
            "Sampled, not exact: the attack is beyond the exact engine's limits, so it was played {trials} "
            "times with seeded dice (seed {seed}); 95% intervals in brackets.",
            odds.trials,
            trials=trials,
            seed=odds.seed,
        ),
    ]
    for unit, counts, wounds in odds.targets:
        mean, low, high = odds.expected(counts)
        top = max(n for _, n in counts) or 1
        lines += ["", _("Casualties in {unit} (sampled):", unit=unit)]
        lines += [f"  {k:>3}  {span(n)}  {'#' * round(BAR * n / top)}" for k, n in counts]
        lines.append(
            _decimal(
                _("Expected casualties: {mean:.3f} ({low:.3f} to {high:.3f})", mean=mean, low=low, high=high)
            )
        )
        w_mean, w_low, w_high = mean_interval(list(wounds))
        lines.append(
            _decimal(
                _(
                    "Expected wounds: {mean:.3f} ({low:.3f} to {high:.3f})",
                    mean=w_mean,
                    low=w_low,
                    high=w_high,
                )
            )
        )
    if odds.attacker_casualties is not None:
        lines += ["", _("Casualties in {unit} (Snap Fire makes a firefight):", unit=odds.attacker_unit)]
        lines += [f"  {k:>3}  {span(n)}" for k, n in odds.attacker_casualties]
    lines += ["", _("Chance that each model becomes a casualty:")]
    width = max((len(m) for m, _x in odds.models), default=0)
    lines += [f"  {m:<{width}}  {span(n)}" for m, n in odds.models]
    return "\n".join(lines) + "\n"
