"""A ``Summary`` as markdown (a pull request's job summary, a site page) and the check's messages.

Everything reads without colour: removed words are ``~~struck~~`` and added words ``**bold**``; before
and after are written out, odds in percentage points.
"""

from __future__ import annotations

from collections.abc import Callable

from rulespy.editions.sections import show_diff
from rulespy.editions.summary import Summary
from rulespy.editions.versions import next_version, parse

RELEASE = {
    "minor": "play changes: at least a **minor** release",
    "patch": "only words change: a **patch** release",
    "none": "nothing a player would notice changes",
}


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one}" if n == 1 else f"{n} {many or one + 's'}"


def _cell(text: str) -> str:
    return text.replace("|", r"\|").replace("\n", " ")


def _code(ref: str) -> str:
    return f"`{ref}`"


def markdown(
    summary: Summary,
    level: int = 2,
    link: Callable[[str], str | None] | None = None,
    anchor: Callable[[str], str] | None = None,
    title: str | None = None,
) -> str:
    """The summary as markdown. ``link(ref)`` turns ``PATH#ANCHOR`` into a link target (None, or no
    ``link``: the ref in code, no link); ``anchor(ref)`` gives each changed section's entry an id
    (``{#id}``) that "changed in" marks link to."""
    h = "#" * level

    def name(ref: str) -> str:
        target = link(ref) if link else None
        return f"[{_cell(ref)}]({target})" if target else _code(ref)

    new = summary.new if summary.new_commit is None else f"{summary.new} ({summary.new_commit[:12]})"
    release = RELEASE[summary.release]
    if summary.release != "none" and parse(summary.old) is not None and summary.new_commit is None:
        release += f" ({next_version(parse(summary.old), summary.release)})"
    lines = [
        f"{h} {title or 'What this change does to play'}",
        "",
        f"From {summary.old} ({summary.old_commit[:12]}) to {new}: {release}. "
        f"{_count(len(summary.sections), 'rule section')} changed; {len(summary.outcomes)} of "
        f"{_count(summary.resolved, 'scenario or example', 'scenarios and examples')} changed outcome; "
        f"the odds of {len(summary.odds)} moved.",
        "",
    ]
    if summary.untouched():
        lines += [
            f"> **Check failed**: {_count(len(summary.untouched()), 'outcome')} changed without the example"
            " that shows it:",
            ">",
        ]
        lines += [f"> - {_code(o.change.name)} ({o.change.where})" for o in summary.untouched()]
        lines.append("")
    lines += [f"{h}# Rule sections whose text changed", ""]
    if not summary.sections:
        lines += ["None.", ""]
    for section in summary.sections:
        heading = f"{h}## {name(section.ref)}: {section.title} ({section.kind})"
        lines += [heading + (f" {{#{anchor(section.ref)}}}" if anchor else ""), ""]
        lines += [f"> {paragraph}\n>" for paragraph in show_diff(list(section.ops))]
        if lines[-1].endswith("\n>"):
            lines[-1] = lines[-1][:-2]
        lines.append("")
    lines += [f"{h}# Examples and scenarios whose outcome changed", ""]
    if summary.outcomes:
        lines += [
            "A new example's *before* is what the older rules make of it; a gone one's *after*, the newer.",
            "",
            "| Example or scenario | Before → after | Rule sections that changed |",
            "|---|---|---|",
        ]
        for outcome in summary.outcomes:
            change = outcome.change
            what = "<br>".join(_cell(line) for line in change.lines())
            rules = ", ".join(name(ref) for ref in outcome.sections) or "none (the engine changed)"
            lines.append(f"| {_code(change.name)} ({outcome.kind}) | {what} | {rules} |")
    else:
        lines.append("None.")
    lines += ["", f"{h}# Odds that moved", ""]
    if summary.odds:
        lines += ["| Example or scenario | Odds | Before | After | Shift |", "|---|---|---|---|---|"]
        for odds in summary.odds:
            for index, shift in enumerate(odds.shifts):
                before, after, delta = shift.show()
                first = _code(odds.name) if index == 0 else ""
                lines.append(f"| {first} | {shift.label} | {before} | {after} | {delta} |")
    else:
        lines.append("None.")
    if summary.notes:
        lines += ["", f"{h}# Notes", ""] + [f"- {_cell(note)}" for note in summary.notes]
    return "\n".join(lines) + "\n"


def check_failures(summary: Summary) -> list[str]:
    """One line per outcome that changed while its example did not (``path:line: message``)."""
    return [
        f"{o.change.where}: {o.change.name}: its outcome changed ({'; '.join(o.change.lines())}) "
        f"but the example is unchanged since {summary.old}: update it to show the new outcome"
        for o in summary.untouched()
    ]
