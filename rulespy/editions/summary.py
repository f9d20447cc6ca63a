"""The behaviour summary of a change of rules: sections whose words changed, outcomes that changed, odds
that moved, and the release the change needs.

Compares two trees: a revision (written out with ``git archive``, as ``rulespy diff`` does) and either
another revision or the working tree. Each tree is resolved by its own engine (``resolve_tree``).

- **Sections** (``rulespy.editions.sections``): every rule section whose prose differs, added or gone,
  with a word diff.
- **Outcomes**: every scenario file and worked-example scenario whose outcome differs (``rulespy diff``;
  an input error by the numbers it gives, not its wording or the line it names: ``same_outcome``),
  with the changed sections it exercises: the sections it sits in, those its ``# exercises:`` lines
  name, every rule its account cites before or after, and the rule that refused it. Both engines
  resolve the scenarios of both trees, so a new example is listed (as "new") when the older rules made
  something else of it, and a removed one (as "gone") when the newer rules do: a change shown only by
  a new example counts.
- **Odds**: every scenario present in both trees whose exact odds (``rulespy odds``) moved: each model's
  chance of becoming a casualty and the expected casualties, before and after, in percentage points.
- **Release** (semantic versioning of the rules): ``minor`` when any outcome or odds of an existing
  scenario changed (play changed), ``patch`` when only words changed, ``none`` when nothing did. A
  ``major`` release (a change that breaks scenario files or the command line) is the writer's call.

**The check** (``untouched``): an outcome that changed while the text that shows it did not. "Touching"
an example means changing its text between the two trees: for a worked example, the python fence it
runs (with the fences it continues), byte for byte; for a scenario file, the file. A change of rules or
engine that alters what an example shows must come with an edit of that example (its assertion, its
``expect``, its prose-facing numbers), so that the rule file never shows a stale outcome unnoticed.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulespy.coverage.diff import Change, commit_of, jobs, materialise, repository_root, resolve_tree
from rulespy.coverage.rules import any_book, rule_paths
from rulespy.editions.sections import Op, SectionText, section_texts, tree_sections, word_diff
from rulespy.editions.versions import resolve

if TYPE_CHECKING:
    from rulespy.book.book import Book


@dataclass(frozen=True)
class SectionChange:
    ref: str
    title: str
    kind: str  # changed, added, removed
    ops: tuple[Op, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "section": self.ref,
            "title": self.title,
            "kind": self.kind,
            "diff": [list(o) for o in self.ops],
        }


@dataclass(frozen=True)
class Shift:
    """One number of an attack's odds that moved: ``label`` reads like "d1 becomes a casualty"."""

    label: str
    before: Fraction
    after: Fraction
    percent: bool = True

    def show(self) -> tuple[str, str, str]:
        if not self.percent:
            delta = self.after - self.before
            return f"{float(self.before):.2f}", f"{float(self.after):.2f}", f"{float(delta):+.2f}"
        return _percent(self.before), _percent(self.after), _points(self.after - self.before)


def _percent(p: Fraction) -> str:
    return f"{float(p) * 100:.1f}%"


def _points(delta: Fraction) -> str:
    shown = f"{float(delta) * 100:+.1f}"
    if shown in ("+0.0", "-0.0"):
        shown = f"{float(delta) * 100:+.3g}"
    return f"{shown} pts"


@dataclass(frozen=True)
class OddsChange:
    name: str
    where: str
    shifts: tuple[Shift, ...]
    before: dict[str, Any]
    after: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "where": self.where,
            "shifts": [
                {
                    "odds": s.label,
                    "before": str(s.before),
                    "after": str(s.after),
                    "points": None if not s.percent else float((s.after - s.before) * 100),
                }
                for s in self.shifts
            ],
            "before": self.before,
            "after": self.after,
        }


@dataclass(frozen=True)
class OutcomeChange:
    change: Change
    sections: tuple[str, ...]  # the changed sections it exercises
    touched: bool
    written: str | None = None  # "new": only the newer tree has the example, "gone": only the older

    @property
    def kind(self) -> str:
        """changed; or, for an example one tree lacks, "new"/"gone" with the outcome both engines gave."""
        return self.written or self.change.kind

    def to_json(self) -> dict[str, Any]:
        data = {**self.change.to_json(), "changed_sections": list(self.sections), "touched": self.touched}
        return {**data, "kind": self.kind}


@dataclass
class Summary:
    old: str  # what the older side is called (a revision as given)
    old_commit: str
    new: str  # a revision as given, or "the working tree"
    new_commit: str | None
    sections: list[SectionChange] = field(default_factory=list)
    outcomes: list[OutcomeChange] = field(default_factory=list)
    odds: list[OddsChange] = field(default_factory=list)
    resolved: int = 0
    notes: list[str] = field(default_factory=list)
    # each translation's own sections that changed (``ru`` -> its pages' word diffs), by the same refs
    translated: dict[str, list[SectionChange]] = field(default_factory=dict)
    # each translation's section titles in the newer tree (``ru`` -> ``PATH#ANCHOR`` -> its heading)
    titles: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def release(self) -> str:
        if any(o.change.kind == "changed" for o in self.outcomes) or self.odds:
            return "minor"
        return "patch" if self.sections else "none"

    def untouched(self) -> list[OutcomeChange]:
        return [o for o in self.outcomes if o.change.kind == "changed" and not o.touched]

    def to_json(self) -> dict[str, Any]:
        return {
            "from": {"rev": self.old, "commit": self.old_commit},
            "to": {"rev": self.new, "commit": self.new_commit},
            "release": self.release,
            "resolved": self.resolved,
            "sections": [s.to_json() for s in self.sections],
            "outcomes": [o.to_json() for o in self.outcomes],
            "odds": [o.to_json() for o in self.odds],
            "untouched": [o.change.name for o in self.untouched()],
            "notes": self.notes,
        }


def section_changes(before: dict[str, SectionText], after: dict[str, SectionText]) -> list[SectionChange]:
    found = []
    for ref in sorted(set(before) | set(after)):
        old, new = before.get(ref), after.get(ref)
        if old is not None and new is not None and old.text == new.text and old.title == new.title:
            continue
        kind = "added" if old is None else "removed" if new is None else "changed"
        old_text = "" if old is None else f"{old.title}\n\n{old.text}"
        new_text = "" if new is None else f"{new.title}\n\n{new.text}"
        title = (new or old).title  # type: ignore[union-attr]
        found.append(SectionChange(ref, title, kind, tuple(word_diff(old_text, new_text))))
    return found


TRANSLATIONS = ("ru",)
"""The translations whose sections a summary compares too (the Russian What changed page shows them)."""
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
# an admonition's marker (``!!! tip "At the table"``, ``??? note``): its title is words, its type markup
_ADMONITION = re.compile(r'^([ \t]*)(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+"([^"]*)")?', re.MULTILINE)


def translated_sections(root: Path, language: str, book: Book | None = None) -> dict[str, SectionText]:
    """Every rule section of the ``language`` translation in the tree at ``root`` (``ru/core/...``), by
    the English page's ``PATH#ANCHOR`` (the translation keeps the anchors); its stamps
    (``<!-- translates: ... -->``) are no words of it. ``book``: the tree's English edition, when the
    caller opened it (its rule files are the ones looked for)."""
    found: dict[str, SectionText] = {}
    for path in book.rule_paths() if book is not None else rule_paths(root):
        try:
            text = (root / language / path).read_text(encoding="utf-8").replace("\r\n", "\n")
        except (OSError, UnicodeDecodeError):
            continue
        found.update(section_texts(path, _ADMONITION.sub(r"\1\2", _COMMENT.sub("", text))))
    return found


def odds_shifts(before: dict[str, Any], after: dict[str, Any]) -> list[Shift]:
    """What moved between two ``odds --json --fractions`` dicts: each model's casualty chance, then the
    expected casualties of the target (and of the attacker in a firefight)."""
    shifts = []
    old_models, new_models = before.get("models", {}), after.get("models", {})
    for model in sorted(set(old_models) & set(new_models)):
        old = Fraction(old_models[model]["casualty"])
        new = Fraction(new_models[model]["casualty"])
        if old != new:
            shifts.append(Shift(f"{model} becomes a casualty", old, new))
    old_mean, new_mean = Fraction(before["expected_casualties"]), Fraction(after["expected_casualties"])
    if old_mean != new_mean:
        shifts.append(Shift("expected casualties", old_mean, new_mean, percent=False))
    return shifts


_LOCATION = re.compile(r"^[^\s:]+:\d+(?::\d+)?: ")


def same_outcome(before: dict[str, Any] | None, after: dict[str, Any] | None) -> bool:
    """Equal outcomes. An input error (scripted dice that run out or are left over, a malformed
    scenario) is compared by the numbers its message gives, without the place it names: an example that
    only moved within its file, or a message reworded, has not changed play; a different count of dice
    has."""

    def unlocated(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
        if outcome and isinstance(outcome.get("error"), str):
            return {**outcome, "error": re.findall(r"\d+", _LOCATION.sub("", outcome["error"]))}
        return outcome

    return unlocated(before) == unlocated(after)


def _tree(repo: Path, commit: str, into: Path, notes: list[str]) -> Path:
    into.mkdir()
    notes.extend(materialise(repo, commit, into))
    return into


def summarise(path: Path, old: str, new: str | None = None, book: Book | None = None) -> Summary:
    """The summary from revision ``old`` to revision ``new`` (None: the working tree). Either may name a
    release as CHANGELOG.md records it (``v1.0.0``; ``rulespy.editions.versions.resolve``). ``book``: the
    working tree's English edition when the caller has read it (``rulespy render``). Each tree's book
    is opened once (its walk and ``concepts.yml``) for all that is read of it: its jobs, their answers,
    its sections and its translations' sections."""
    repo = repository_root(path)
    old_commit = commit_of(repo, resolve(repo, old))
    new_commit = commit_of(repo, resolve(repo, new)) if new is not None else None
    summary = Summary(old, old_commit, new or "the working tree", new_commit)
    with tempfile.TemporaryDirectory(prefix="rulespy-editions-") as temp:
        before_root = _tree(repo, old_commit, Path(temp) / "old", summary.notes)
        after_root = (
            repo if new_commit is None else _tree(repo, new_commit, Path(temp) / "new", summary.notes)
        )
        # each engine resolves both trees' scenarios, each by its own text where it has one, so a new
        # example shows what the older rules made of it, and a removed one what the newer rules make
        if book is not None and (new_commit or book.language or book.root.resolve() != repo.resolve()):
            book = None  # not the working tree's English edition: the tree is read here
        before_book = any_book(before_root)
        after_book = book or any_book(after_root)
        before_jobs, after_jobs = jobs(before_root, before_book), jobs(after_root, after_book)
        before = resolve_tree(before_root, True, after_jobs[0], before_jobs)
        after = resolve_tree(after_root, True, before_jobs[0], after_jobs)
        old_sections = tree_sections(before_root, book=before_book)
        new_sections = tree_sections(after_root, book=after_book)
        for language in TRANSLATIONS:
            newer = translated_sections(after_root, language, after_book)
            older = translated_sections(before_root, language, before_book)
            summary.translated[language] = section_changes(older, newer)
            summary.titles[language] = {ref: text.title for ref, text in newer.items()}
    for side, resolved in ((old, before), (summary.new, after)):
        if resolved.error:
            summary.notes.append(f"the engine of {side} could not run: {resolved.error}")
    summary.sections = section_changes(old_sections, new_sections)
    changed = {s.ref for s in summary.sections}
    names = sorted(set(before.outcomes) | set(after.outcomes))
    summary.resolved = len(names)
    for name in names:
        was, now = before.outcomes.get(name), after.outcomes.get(name)
        where = after.where.get(name) or before.where.get(name, name)
        if not same_outcome(was, now):
            exercised = set(before.exercises.get(name, [])) | set(after.exercises.get(name, []))
            exercised |= set(before.cited.get(name, [])) | set(after.cited.get(name, []))
            exercised |= {o["rule"] for o in (was, now) if o and isinstance(o.get("rule"), str)}  # refused by
            touched = before.shown.get(name) != after.shown.get(name)
            written = "new" if name not in before.where else "gone" if name not in after.where else None
            summary.outcomes.append(
                OutcomeChange(
                    Change(name, where, was, now), tuple(sorted(exercised & changed)), touched, written
                )
            )
        if name in before.odds and name in after.odds:
            shifts = odds_shifts(before.odds[name], after.odds[name])
            if shifts:
                summary.odds.append(
                    OddsChange(name, where, tuple(shifts), before.odds[name], after.odds[name])
                )
    return summary
