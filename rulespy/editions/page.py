"""The site's "What changed" page, and the "changed in vX.Y" marks on the changed sections' own pages.

``rulespy render`` stages the page as ``changes.md`` (last in the navigation). It holds one entry per
release, newest first: the behaviour summary (``rulespy.editions.summary``) from the previous release
to this one, and for the changes not yet released (``#unreleased``), from the latest release to the
working tree. The first release has no entry to compare with; it is listed as the first edition. With
no release yet, the page says so. Releases are those ``CHANGELOG.md`` records
(``rulespy.editions.versions``), tags or not.

**Comparing two releases**: a table under the introduction has a row for each of the latest
``COMPARED`` releases and a column for each later one; its cell links to the entry of that pair: a
release's own entry for the release just before it, and under "Other comparisons" one entry for every
pair further apart. Each is a summary (seconds, computed once and kept in the cache below), and pairs
grow with the square of the releases, so the table keeps to the latest ``COMPARED``: at most 10 more
summaries, whatever a CHANGELOG lists. ``rulespy diff A B`` compares any two. The working tree is
compared with the latest release only (the Unreleased entry); ``rulespy diff REV`` compares it with
any other.

Each section that changed in a release carries, under its heading on its own page, a mark
``changed in v1.1`` (``changed since v1.1`` for unreleased changes) linked to its entry on this page.
Sections that no longer exist in the tree being rendered get no mark and no link.

A summary needs both trees resolved by their engines (seconds), so each entry is kept in
``build/editions-cache/``, keyed by the two commits (for the working tree, by a digest of its rule
files, scenarios and engine) and by this package's code; a release entry is computed once.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from rulespy.book.book import Book
from rulespy.book.digest import code_digest
from rulespy.check.files import Layout
from rulespy.check.findings import CheckError
from rulespy.check.registry import load_registry
from rulespy.coverage.rules import CoverageError
from rulespy.editions.report import markdown
from rulespy.editions.sections import tree_refs
from rulespy.editions.summary import summarise
from rulespy.editions.versions import Release, head, releases
from rulespy.i18n import LANGUAGES, N_, SOURCE, _, language
from rulespy.i18n import current as language_code

PAGE = "changes.md"
COMPARED = 6  # the latest releases the comparison table offers (see the docstring)
TITLE = N_("What changed")  # the English page's; each edition's in its language: ``_(TITLE)``
CACHE = Path("build") / "editions-cache"
_HEADING_ID = re.compile(r"\{#([A-Za-z0-9_.:-]+)[^}]*\}\s*$")


@dataclass
class Changes:
    """The page's markdown and, per rule file, the marks to put under its sections' headings."""

    text: str
    # the page in each language (``ru`` -> its markdown; English is ``text``)
    texts: dict[str, str] = field(default_factory=dict)
    # path -> anchor -> [(label, id of the entry)], newest first
    marks: dict[str, dict[str, list[tuple[str, str]]]] = field(default_factory=dict)
    latest: Release | None = None  # the latest release the tree holds
    # how many changes the Unreleased entry lists (changed rule sections, and scenarios or examples
    # whose outcome or odds changed): 0 when HEAD is the latest release as released, None when the
    # entry was not computed (``unreleased=False``)
    unreleased: int | None = None

    def text_in(self, code: str | None) -> str:
        """The page in language ``code`` (None: English)."""
        return self.texts.get(code or SOURCE, self.text)

    def key(self, path: str) -> str:
        return json.dumps(self.marks.get(path, {}), sort_keys=True)

    def mark(self, path: str, page: str) -> str:
        """``page`` (the staged text of ``path``) with a mark line under each changed section's heading."""
        marks = self.marks.get(path)
        if not marks:
            return page
        target = posixpath.relpath(PAGE, posixpath.dirname(path) or ".")
        lines = page.split("\n")
        out: list[str] = []
        for line in lines:
            out.append(line)
            found = _HEADING_ID.search(line) if line.startswith("#") else None
            if found and found[1] in marks:
                links = " · ".join(f"[{label}]({target}#{ident})" for label, ident in marks[found[1]])
                out += ["", f'<small class="vs-changed">{links}</small>']
        return "\n".join(out)


def _slug(*parts: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")


def _tree_digest(root: Path, book: Book | None = None) -> str:
    """What the working tree's summary depends on: its rule files, scenarios and engine."""
    h = hashlib.sha256()
    if book is not None:
        rule_dirs = book.rule_dirs  # the ``check: rule_dirs`` setting
    else:
        try:
            rule_dirs = load_registry(root).layout.rule_dirs
        except CheckError:
            rule_dirs = Layout().rule_dirs
    for folder in (*rule_dirs, "examples", "rulespy"):
        base = root / folder
        if not base.is_dir():
            continue
        for file in sorted(p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            h.update(file.relative_to(root).as_posix().encode() + b"\0" + file.read_bytes())
    return h.hexdigest()


Texts = dict[str, str]
"""One piece of the page in every language: ``{"en": ..., "ru": ...}``."""


def _each(make: Callable[[], str]) -> Texts:
    """``make()`` in each language the engine speaks (``rulespy.i18n``)."""
    found = {}
    for code in LANGUAGES:
        with language(code):
            found[code] = make()
    return found


def _entry(
    root: Path,
    old: Release,
    new: Release | None,
    titles: Texts,
    prefix: str,
    current: set[str],
    book: Book | None = None,
) -> tuple[Texts, list[str], int]:
    """One entry's markdown in each language (``titles``: its heading in each), the sections it changed
    and how many changes it lists (changed sections, and scenarios or examples whose outcome or odds
    changed), from the cache when it holds them: one summary gives every language's text."""
    tree = new.commit if new else _tree_digest(root, book)
    parts = [old.commit, tree, sorted(current), code_digest(), titles]
    key = hashlib.sha256(json.dumps(parts).encode()).hexdigest()
    cached = root / CACHE / f"{key}.json"
    try:
        data = json.loads(cached.read_text(encoding="utf-8"))
        texts = {str(code): str(text) for code, text in data["texts"].items()}
        return texts, [str(ref) for ref in data["sections"]], int(data["count"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    try:
        summary = summarise(root, old.commit, new.commit if new else None, None if new else book)
    except CoverageError as error:  # a tree that cannot be read: the page says so, the site still builds
        said = error.located()
        return (
            _each(
                lambda: (
                    f"## {titles[language_code()]}\n\n" + _("Cannot be compared: {error}", error=said) + "\n"
                )
            ),
            [],
            0,
        )
    summary.old = old.tag
    summary.new = new.tag if new else summary.new
    nothing = not (summary.sections or summary.outcomes or summary.odds)

    def text() -> str:
        title = titles[language_code()]
        if nothing:
            return f"## {title}\n\n" + _("No change.") + "\n"
        return markdown(
            summary,
            level=2,
            title=title,
            link=lambda ref: ref if ref in current else None,
            anchor=lambda ref: _slug(prefix, ref),
        )

    texts = _each(text)
    sections = [s.ref for s in summary.sections]
    count = len(sections) + len({o.change.name for o in summary.outcomes} | {o.name for o in summary.odds})
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps({"texts": texts, "sections": sections, "count": count}), encoding="utf-8")
    return texts, sections, count


def entry_id(old: Release | None, new: Release | None) -> str:
    """The id of an entry: ``unreleased`` (``new`` None), a release's own (``v1-1-0``: from the one
    before it, or the first edition's, ``old`` None), or a comparison's (``v1-0-0-to-v1-2-0``)."""
    if new is None:
        return "unreleased"
    return _slug(new.tag) if old is None else _slug(old.tag, "to", new.tag)


def comparisons(found: list[Release]) -> list[str]:
    """The table that picks two releases: a row per release, a column per later one, each cell a link
    to the entry of that pair."""
    if len(found) < 2:
        return [_("One release so far: nothing to compare it with yet."), ""]
    lines = [
        "| " + _("From ↓ to →") + " | " + " | ".join(r.tag for r in found[1:]) + " |",
        "|---|" + "---|" * (len(found) - 1),
    ]
    for index, old in enumerate(found[:-1]):
        cells = []
        for later, new in enumerate(found[1:], start=1):
            ident = entry_id(None if later == index + 1 else old, new)
            cells.append(f"[{old.tag} → {new.tag}](#{ident})" if later > index else "")
        lines.append(f"| {old.tag} ({old.date}) | " + " | ".join(cells) + " |")
    return [*lines, ""]


def _release_title(old: Release, new: Release) -> str:
    return (
        _("{tag} of {date} (from {old})", tag=new.tag, date=new.date, old=old.tag)
        + f" {{#{entry_id(None, new)}}}"
    )


def _comparison_title(old: Release, new: Release) -> str:
    return _("{old} to {new}", old=old.tag, new=new.tag) + f" {{#{entry_id(old, new)}}}"


def changes(root: Path, unreleased: bool = True, book: Book | None = None) -> Changes:
    """The "What changed" page of the repository at ``root`` (a git repository; none: no releases), in
    English (``text``) and in each translation (``texts``: its generated words in that language, its
    sections titled and diffed as that translation's pages word them; one summary for all).
    ``unreleased=False`` leaves out the entry of unreleased changes (live reload re-renders quickly).
    ``book``: the working tree's English edition when the caller has read it (``rulespy render``), so
    the tree is not walked again."""
    found = releases(root)

    def introduction() -> str:
        return "\n".join(
            [
                f"# {_(TITLE)} {{#what-changed}}",
                "",
                _(
                    "Each release of the rules, newest first: the rule sections whose words changed (removed "
                    "words ~~struck through~~, added words **in bold**), the examples and scenarios that now "
                    "play out differently, with the changed rules they exercise, and the exact odds that "
                    "moved, in percentage points. Generated by `rulespy render` from the releases "
                    "`CHANGELOG.md` records (the commit that added each `## [X.Y.Z] - DATE` heading is that "
                    "release)."
                ),
                "",
            ]
        )

    if not found:
        pages = _each(
            lambda: (
                introduction()
                + "\n"
                + _("No edition has been released yet: the first will be v1.0.0.")
                + "\n"
            )
        )
        return Changes(pages[SOURCE], texts=pages)

    def comparing() -> str:
        return "\n".join(
            [
                "## " + _("Compare two releases") + " {#compare}",
                "",
                _(
                    "Pick the older release on the left and the newer one above: each cell leads to what "
                    "changed between the two."
                ),
                "",
                *comparisons(found[-COMPARED:]),
            ]
        )

    intro = [_each(introduction), _each(comparing)]
    try:
        current = tree_refs(root, book)
    except CoverageError:
        current = set()  # the checker names what is wrong; no marks and no links
    result = Changes("", latest=found[-1])
    entries: list[Texts] = []

    def note(release_label: str, prefix: str, sections: list[str]) -> None:
        for ref in sections:
            if ref in current:
                path, anchor = ref.split("#", 1)
                result.marks.setdefault(path, {}).setdefault(anchor, []).append(
                    (release_label, _slug(prefix, ref))
                )

    latest = found[-1]
    if head(root) == latest.commit:  # a release checked out as released (a past edition being built)
        result.unreleased = 0
    elif unreleased:
        titles = _each(
            lambda: _("Unreleased (since {tag})", tag=latest.tag) + f" {{#{entry_id(latest, None)}}}"
        )
        text, sections, result.unreleased = _entry(root, latest, None, titles, "unreleased", current, book)
        entries.append(text)
        note(f"changed since {latest.short}", "unreleased", sections)
    else:
        entries.append(
            _each(
                lambda: (
                    "## "
                    + _("Unreleased (since {tag})", tag=latest.tag)
                    + " {#unreleased}\n\n"
                    + _("Listed by `make site`.")
                    + "\n"
                )
            )
        )
    for old, new in reversed(list(zip(found, found[1:], strict=False))):
        titles = _each(partial(_release_title, old, new))
        text, sections, _count = _entry(root, old, new, titles, new.tag, current, book)
        entries.append(text)
        note(f"changed in {new.short}", new.tag, sections)
    first = found[0]
    entries.append(
        _each(
            lambda: (
                "## "
                + _("{tag} of {date}", tag=first.tag, date=first.date)
                + f" {{#{entry_id(None, first)}}}\n\n"
                + _("The first edition.")
                + "\n"
            )
        )
    )
    compared = found[-COMPARED:]
    apart = [(old, new) for i, old in enumerate(compared) for new in compared[i + 2 :]]
    if apart:
        entries.append(
            _each(
                lambda: (
                    "## "
                    + _("Other comparisons")
                    + " {#other-comparisons}\n\n"
                    + _("Between releases further apart.")
                    + "\n"
                )
            )
        )
    for old, new in reversed(apart):
        titles = _each(partial(_comparison_title, old, new))
        entries.append(_entry(root, old, new, titles, entry_id(old, new), current)[0])
    result.texts = {code: "\n".join(piece[code] for piece in [*intro, *entries]) for code in LANGUAGES}
    result.text = result.texts[SOURCE]
    return result
