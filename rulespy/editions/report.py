"""A ``Summary`` as markdown (a pull request's job summary, a site page) and the check's messages.

Everything reads without colour: removed words are ``~~struck~~`` and added words ``**bold**``; before
and after are written out, odds in percentage points.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rulespy.editions.sections import show_diff
from rulespy.editions.summary import Summary
from rulespy.editions.versions import next_version, parse
from rulespy.i18n import N_, SOURCE, _, current, n_
from rulespy.i18n import section as section_title

RELEASE = {
    "minor": N_("play changes: at least a **minor** release"),
    "patch": N_("only words change: a **patch** release"),
    "none": N_("nothing a player would notice changes"),
}
KINDS = {
    "changed": N_("changed"),
    "added": N_("added"),
    "removed": N_("removed"),
    "new": N_("new"),
    "gone": N_("gone"),
}


def _cell(text: str) -> str:
    return text.replace("|", r"\|").replace("\n", " ")


def _code(ref: str) -> str:
    return f"`{ref}`"


def _figure(text: str) -> str:
    """A figure as the current language writes it (``12,5%`` and ``п. п.`` in Russian)."""
    if current() == SOURCE:
        return text
    return text.replace(".", ",").replace(" pts", " " + _("pts"))


def _label(label: str) -> str:
    """An odds label of ``rulespy.editions.summary.odds_shifts`` in the current language."""
    if label == "expected casualties":
        return _("expected casualties")
    model, found, _rest = label.partition(" becomes a casualty")
    return _("{model} becomes a casualty", model=model) if found else label


def _outcome_line(line: str) -> str:
    """A line of ``rulespy.coverage.diff.describe`` (``x1 casualty: no -> immediate``) in the current
    language: its words translated, its ids and values kept."""
    if current() == SOURCE:
        return line
    words = {
        "new": _("new"),
        "gone": _("gone"),
        "legal": _("legal"),
        "casualty": _("casualty"),
        "wounds": _("wounds"),
        "status": _("status"),
        "successes, criticals": _("successes, criticals"),
        "no": _("no"),
        "illegal": _("illegal"),
        "error": _("error"),
        "immediate": _("immediate"),
        "end_of_attack": _("end_of_attack"),
        "end_of_firefight": _("end_of_firefight"),
    }
    pattern = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.sub(rf"(?<![\w/.#-])({pattern})(?![\w/.#-])", lambda m: words[m.group(1)], line)


def markdown(
    summary: Summary,
    level: int = 2,
    link: Callable[[str], str | None] | None = None,
    anchor: Callable[[str], str] | None = None,
    title: str | None = None,
) -> str:
    """The summary as markdown, in the current language (``rulespy.i18n``: the Russian What changed page
    renders it inside ``language("ru")``, its sections titled and diffed as the Russian pages word them).
    ``link(ref)`` turns ``PATH#ANCHOR`` into a link target (None, or no ``link``: the ref in code, no
    link); ``anchor(ref)`` gives each changed section's entry an id (``{#id}``) that "changed in" marks
    link to."""
    h = "#" * level
    english = current() == SOURCE
    translated = {s.ref: s for s in summary.translated.get(current(), [])} if not english else {}

    def name(ref: str) -> str:
        target = link(ref) if link else None
        return f"[{_cell(ref)}]({target})" if target else _code(ref)

    new = summary.new if summary.new_commit is None else f"{summary.new} ({summary.new_commit[:12]})"
    if summary.new_commit is None and not english:
        new = _("the working tree")
    release = _(RELEASE[summary.release])
    if summary.release != "none" and parse(summary.old) is not None and summary.new_commit is None:
        release += f" ({next_version(parse(summary.old), summary.release)})"
    counts = {
        "sections": n_("{n} rule section", "{n} rule sections", len(summary.sections)),
        "resolved": n_("{n} scenario or example", "{n} scenarios and examples", summary.resolved),
    }
    lines = [
        f"{h} {title or _('What this change does to play')}",
        "",
        _(
            "From {old} ({commit}) to {new}: {release}. {sections} changed; {outcomes} of {resolved} changed "
            "outcome; the odds of {odds} moved.",
            old=summary.old,
            commit=summary.old_commit[:12],
            new=new,
            release=release,
            outcomes=len(summary.outcomes),
            odds=len(summary.odds),
            **counts,
        ),
        "",
    ]
    if summary.untouched():
        failed = n_("{n} outcome", "{n} outcomes", len(summary.untouched()))
        lines += [
            _("> **Check failed**: {outcomes} changed without the example that shows it:", outcomes=failed)
        ]
        lines.append(">")
        lines += [f"> - {_code(o.change.name)} ({o.change.where})" for o in summary.untouched()]
        lines.append("")
    lines += [f"{h}# " + _("Rule sections whose text changed"), ""]
    if not summary.sections:
        lines += [_("None."), ""]
    for section in summary.sections:
        shown = section
        if not english:
            shown = translated.get(section.ref, section)
            words = (
                summary.titles.get(current(), {}).get(section.ref)
                or section_title(section.ref)
                or shown.title
            )
            heading = f"{h}## {name(section.ref)}: {_cell(words)} ({_(KINDS[section.kind])})"
        else:
            heading = f"{h}## {name(section.ref)}: {section.title} ({section.kind})"
        lines += [heading + (f" {{#{anchor(section.ref)}}}" if anchor else ""), ""]
        if not english and section.ref not in translated:
            lines += [
                _("The translation of this section has not changed yet: it still says what it said."),
                "",
            ]
            continue
        lines += [f"> {paragraph}\n>" for paragraph in show_diff(list(shown.ops))]
        if lines[-1].endswith("\n>"):
            lines[-1] = lines[-1][:-2]
        lines.append("")
    lines += [f"{h}# " + _("Examples and scenarios whose outcome changed"), ""]
    if summary.outcomes:
        lines += [
            _(
                "A new example's *before* is what the older rules make of it; a gone one's *after*, the "
                "newer."
            ),
            "",
            "| "
            + " | ".join((_("Example or scenario"), _("Before → after"), _("Rule sections that changed")))
            + " |",
            "|---|---|---|",
        ]
        for outcome in summary.outcomes:
            change = outcome.change
            what = "<br>".join(_cell(_outcome_line(line)) for line in change.lines())
            rules = ", ".join(name(ref) for ref in outcome.sections) or _("none (the engine changed)")
            lines.append(
                f"| {_code(change.name)} ({_(KINDS.get(outcome.kind, outcome.kind))}) | {what} | {rules} |"
            )
    else:
        lines.append(_("None."))
    lines += ["", f"{h}# " + _("Odds that moved"), ""]
    if summary.odds:
        head = (_("Example or scenario"), _("Odds"), _("Before"), _("After"), _("Shift"))
        lines += ["| " + " | ".join(head) + " |", "|---|---|---|---|---|"]
        for odds in summary.odds:
            for index, shift in enumerate(odds.shifts):
                before, after, delta = (_figure(f) for f in shift.show())
                first = _code(odds.name) if index == 0 else ""
                lines.append(f"| {first} | {_cell(_label(shift.label))} | {before} | {after} | {delta} |")
    else:
        lines.append(_("None."))
    if summary.notes:
        lines += ["", f"{h}# " + _("Notes"), ""] + [f"- {_cell(note)}" for note in summary.notes]
    return "\n".join(lines) + "\n"


def check_failures(summary: Summary) -> list[str]:
    """One line per outcome that changed while its example did not (``path:line: message``)."""
    return [
        f"{o.change.where}: {o.change.name}: its outcome changed ({'; '.join(o.change.lines())}) "
        f"but the example is unchanged since {summary.old}: update it to show the new outcome"
        for o in summary.untouched()
    ]
