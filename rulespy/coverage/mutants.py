"""What the examples fail to pin down: the cached mutation results (``make mutants``) per rule section.

``rulespy coverage --mutants`` reads ``mutants/report.json``, which ``make mutants``
(``rulespy/coverage/mutation.py``) writes, and never runs a mutant itself. Each mutant belongs to the rule
its function cites (the ``Rule:`` line of the function, else of its class, else of its module; the same
citations ``rulespy coverage`` counts). For every rule section it counts the mutants made, killed by an
example or a scenario file, noted as equivalent, and surviving, and words each survivor for a rule
writer: "if ``normal_wounds`` computed ``damage + armour`` instead of ``damage - armour``, no example
would fail".

**Equivalent mutants** are noted in ``tests/mutation/equivalent.yml``, one entry a mutant: the function,
the line before and after the change (as the report shows them), and why the change cannot alter any
outcome. A note that matches no mutant, or a mutant an example kills, is a problem (exit 1): the code
moved on and the note must follow. **Wording** (a message's words only) and **format** (a loader mutant
only the scenario format's own tests kill) and **message** (a survivor that changes only the text of the
recorded answers, not what they decide) are counted apart too (``Mutant.kind``). The killed share is
killed / (made - equivalent - wording - format - message).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rulespy.coverage.code import citations
from rulespy.coverage.rules import CoverageError

#: mutmut's working folder, where it keeps the mutated copies and their results.
FOLDER = "mutants"
REPORT = f"{FOLDER}/report.json"
NOTES = "tests/mutation/equivalent.yml"
NO_RULE = "(no rule cited)"
#: The kind of a mutant that changes only the words of a message (``mutmut_cache.change_kind``): left out
#: of the killed share and counted apart, since the message catalogue's tests pin words, not the rules.
WORDING = "wording"
#: The kind of a loader mutant (``rulespy/scenario``) that no example or scenario file notices but the
#: scenario format's own tests kill (``mutation.classify_format``): a decision about the file's form,
#: pinned by the format's tests, counted apart and left out of the killed share like wording.
FORMAT = "format"
#: The kind of a mutant that no example notices and that changes, in every answer of
#: ``tests/cli/resolve_outputs.json`` (each scenario file and worked example's scenario, resolved), only the
#: text of a sentence (a refusal's message, an account line) and nothing decided (``mutation.
#: classify_message``): which values a message prints, pinned by that record's test, counted apart and left
#: out of the killed share like wording.
MESSAGE = "message"


@dataclass(frozen=True)
class Mutant:
    """One mutant: mutmut's ``key``, the engine file and 1-based ``line`` it changes, the ``function``'s
    qualified name, the changed line ``before`` and ``after``, and its ``status``: killed, survived,
    unreached (no example reaches the function), skipped (not run: wording) or unchecked; and its
    ``kind``: ``"wording"`` when it changes only the words of a message
    (``rulespy.coverage.mutmut_cache.change_kind``), ``"format"`` when only the scenario format's own
    tests notice it (``FORMAT``), ``"message"`` when it changes only the recorded answers' text
    (``MESSAGE``), else empty."""

    key: str
    path: str
    line: int
    function: str
    before: str
    after: str
    status: str
    kind: str = ""


@dataclass(frozen=True)
class Note:
    function: str
    before: str
    after: str
    why: str
    line: int

    def matches(self, mutant: Mutant) -> bool:
        return (mutant.function, mutant.before, mutant.after) == (self.function, self.before, self.after)


@dataclass
class SectionMutants:
    """The mutants of one rule section's code."""

    rule: str
    made: int = 0
    killed: int = 0
    equivalent: int = 0
    wording: int = 0
    format: int = 0
    message: int = 0
    survivors: list[Mutant] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "made": self.made,
            "killed": self.killed,
            "equivalent": self.equivalent,
            "wording": self.wording,
            "format": self.format,
            "message": self.message,
            "survived": len(self.survivors),
            "survivors": [
                {
                    "at": f"{m.path}:{m.line}",
                    "function": m.function,
                    "before": m.before,
                    "after": m.after,
                    "status": m.status,
                    "words": plain_words(m),
                }
                for m in self.survivors
            ],
        }


class _Summed:
    """A count of the whole report: the count of the same name summed over its sections."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, report: MutationReport | None, owner: type | None = None) -> int:
        if report is None:  # asked of the class: no report to sum
            raise AttributeError(self.name)
        return sum(getattr(section, self.name) for section in report.sections)


@dataclass
class MutationReport:
    sections: list[SectionMutants]
    problems: list[str]
    unchecked: int = 0

    made = _Summed()
    killed = _Summed()
    equivalent = _Summed()
    wording = _Summed()
    format = _Summed()

    @property
    def message(self) -> int:
        return sum(s.message for s in self.sections)

    @property
    def killed_share(self) -> float:
        """Percent of the mutants killed by the examples and scenario files, of those neither equivalent,
        wording (the words of a message: the catalogue's tests pin them) nor format (the scenario file's
        form: the format's tests pin it) nor message (the text the recorded answers print: their record's
        test pins it), none of which the rules decide."""
        counted = self.made - self.equivalent - self.wording - self.format - self.message
        return 100.0 if counted <= 0 else 100.0 * self.killed / counted

    def summary_line(self) -> str:
        survived = self.made - self.killed - self.equivalent - self.wording - self.format - self.message
        return (
            f"{self.made} mutants of the engine: {self.killed} killed by the examples and scenario files, "
            f"{self.equivalent} equivalent (noted), {self.wording} wording, {self.format} format and "
            f"{self.message} message (left out), {survived} surviving; {self.killed_share:.1f}% of the "
            "other mutants killed"
            + (f" ({self.unchecked} more not tested yet: run make mutants)" if self.unchecked else "")
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "made": self.made,
            "killed": self.killed,
            "equivalent": self.equivalent,
            "wording": self.wording,
            "format": self.format,
            "message": self.message,
            "killed_share": round(self.killed_share, 2),
            "unchecked": self.unchecked,
            "sections": [s.to_json() for s in self.sections],
            "problems": self.problems,
        }


def _balanced(text: str) -> bool:
    depth = 0
    for c in text:
        depth += (c in "([{") - (c in ")]}")
        if depth < 0:
            return False
    return depth == 0


def _difference(before: str, after: str) -> tuple[str, str]:
    """The smallest differing parts of two lines, widened to whole words; a part left out (an argument)
    is found whole, brackets balanced (``hypot(a[0], a[1])`` -> ``hypot(a[1])`` left out ``a[0],``)."""
    cut = len(before) - len(after)
    if cut > 0:
        for i in range(len(after) + 1):
            part = before[i : i + cut]
            if before[:i] + before[i + cut :] == after and _balanced(part) and part.strip(" ,"):
                return part.strip(), ""
    start = 0
    while start < min(len(before), len(after)) and before[start] == after[start]:
        start += 1
    end = 0
    while end < min(len(before), len(after)) - start and before[-1 - end] == after[-1 - end]:
        end += 1

    def word(c: str) -> bool:
        return c.isalnum() or c in "_.'\""

    while start > 0 and (word(before[start - 1]) or word(after[start - 1])):
        start -= 1
    while end > 0 and (word(before[len(before) - end]) or word(after[len(after) - end])):
        end -= 1
    if not any(c.isalnum() for c in before[start : len(before) - end] + after[start : len(after) - end]):
        # an operator alone says little: show it with the words on either side (`damage + armour`)
        while start > 0 and before[start - 1] == " ":
            start -= 1
        while start > 0 and word(before[start - 1]):
            start -= 1
        while end > 0 and before[len(before) - end] == " ":
            end -= 1
        while end > 0 and word(before[len(before) - end]):
            end -= 1
    return before[start : len(before) - end].strip(), after[start : len(after) - end].strip()


def plain_words(mutant: Mutant) -> str:
    """A survivor in a sentence a rule writer can act on.

    >>> m = Mutant("k", "rulespy/core/damage.py", 33, "rulespy.core.damage.normal_wounds",
    ...            "return damage - armour", "return damage + armour", "survived")
    >>> plain_words(m)
    'if normal_wounds computed `damage + armour` instead of `damage - armour`, no example would fail'
    """
    name = mutant.function.rpartition(".")[2]
    if mutant.function.count(".") > 2 and mutant.function.split(".")[-2][:1].isupper():
        name = ".".join(mutant.function.split(".")[-2:])
    was, now = _difference(mutant.before, mutant.after)
    if not was and not now:
        change = f"read `{mutant.after}` instead of `{mutant.before}`"
    elif not now:
        change = f"left out `{was}`"
    elif not was:
        change = f"added `{now}`"
    else:
        change = f"computed `{now}` instead of `{was}`"
    if mutant.status == "unreached":
        return f"no example runs this line of {name}: if it {change}, nothing would fail"
    return f"if {name} {change}, no example would fail"


def load_notes(root: Path) -> list[Note]:
    """The equivalent-mutant notes (``tests/mutation/equivalent.yml``), read with ``yaml.safe_load``."""
    file = root / NOTES
    if not file.is_file():
        return []
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8")) or []
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        raise CoverageError(f"not YAML: {error}", NOTES, (mark.line + 1) if mark else 1) from None
    if not isinstance(data, list):
        raise CoverageError("expected a list of notes", NOTES, 1)
    text = file.read_text(encoding="utf-8").splitlines()
    notes: list[Note] = []
    for index, entry in enumerate(data):
        keys = ("function", "before", "after", "why")
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in keys):
            raise CoverageError(f"note {index + 1} needs the strings {', '.join(keys)}", NOTES, 1)
        function = entry["function"]
        line = next((n for n, t in enumerate(text, 1) if function in t and n > len(notes)), 1)
        notes.append(Note(function, entry["before"], entry["after"], entry["why"], line))
    return notes


def _rule_of(function: str, cited: dict[str, str]) -> str:
    parts = function.split(".")
    for cut in range(len(parts), 1, -1):
        rule = cited.get(".".join(parts[:cut]))
        if rule is not None:
            return rule
    return NO_RULE


def load_mutation_report(root: Path) -> MutationReport:
    """The mutation results cached by the last ``make mutants``, per rule section."""
    file = root / REPORT
    if not file.is_file():
        raise CoverageError("no mutation results: run 'make mutants' first", REPORT, 1)
    try:
        mutants = [Mutant(**record) for record in json.loads(file.read_text(encoding="utf-8"))]
    except (ValueError, TypeError) as error:
        raise CoverageError(
            f"unreadable mutation results ({error}): run 'make mutants' again", REPORT, 1
        ) from None
    return summarise(mutants, load_notes(root), root)


def summarise(mutants: Sequence[Mutant], notes: Sequence[Note], root: Path) -> MutationReport:
    cited: dict[str, str] = {}
    for citation in citations(root):
        cited.setdefault(citation.qualname, citation.target)
    sections: dict[str, SectionMutants] = {}
    used: set[int] = set()
    problems: list[str] = []
    for mutant in mutants:
        note = next((n for n in notes if n.matches(mutant)), None)
        if note is not None:
            used.add(id(note))  # a note of a mutant not tested yet waits for its verdict: no problem
        if mutant.status == "unchecked" and mutant.kind != WORDING:
            continue
        rule = _rule_of(mutant.function, cited)
        section = sections.setdefault(rule, SectionMutants(rule))
        section.made += 1
        if mutant.kind in (WORDING, FORMAT, MESSAGE):  # apart (wording whether an example notices it or not)
            if mutant.kind == WORDING:
                section.wording += 1
            elif mutant.kind == FORMAT:
                section.format += 1
            else:
                section.message += 1
            if note is not None:
                problems.append(
                    f"{NOTES}:{note.line}: noted as equivalent, but it is {mutant.kind} ({mutant.key})"
                )
        elif mutant.status == "killed":
            section.killed += 1
            if note is not None:
                problems.append(
                    f"{NOTES}:{note.line}: noted as equivalent, but an example kills it ({mutant.key})"
                )
        elif note is not None:
            section.equivalent += 1
        else:
            section.survivors.append(mutant)
    for note in notes:
        if id(note) not in used:
            problems.append(
                f"{NOTES}:{note.line}: the note matches no mutant of {note.function} (the code moved on?)"
            )
    ordered = sorted(sections.values(), key=lambda s: (s.rule == NO_RULE, s.rule))
    for section in ordered:
        section.survivors.sort(key=lambda m: (m.path, m.line, m.key))
    unchecked = sum(m.status == "unchecked" and m.kind != WORDING for m in mutants)
    return MutationReport(ordered, problems, unchecked)


def render(report: MutationReport) -> str:
    """The rule writers' section of ``rulespy coverage --mutants``: per rule, what no example pins down."""
    header = ("RULE", "MADE", "KILLED", "EQUIV", "WORDING", "FORMAT", "MESSAGE", "SURVIVED")
    rows: list[tuple[str, ...]] = [header]
    for s in report.sections:
        numbers = (s.made, s.killed, s.equivalent, s.wording, s.format, s.message, len(s.survivors))
        rows.append((s.rule, *map(str, numbers)))
    width = max(len(r[0]) for r in rows)
    out = [
        "What no example pins down (mutants of the engine that every example and scenario file let pass):",
        "",
    ]
    widths = (width, 5, 6, 5, 7, 6, 7, 8)
    out += [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in rows
    ]
    for s in report.sections:
        if s.survivors:
            out.append("")
            out.append(f"{s.rule}:")
            out.extend(f"  {m.path}:{m.line}: {plain_words(m)}" for m in s.survivors)
    if report.problems:
        out.append("")
        out.extend(report.problems)
    out.append("")
    out.append(report.summary_line())
    return "\n".join(out)
