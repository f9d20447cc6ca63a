"""Stale translations, listed for the people who act on them: the translator and the pull request.

A translated section is stale when its stamp (``rulespy/check/translations.py``) is missing or holds the
hash of an older English text; ``rulespy check`` reports it as the warning RS074, which never refuses a
change. This module says, for each stale section, **what changed in English since it was stamped**: the
English file's history (``git log``) is searched for the version whose section hashes to the stamp, and
that text is compared word by word with today's (``rulespy.editions.sections.word_diff``: removed words
struck, added words bold). When no version of the history has that hash (the stamp was written against
uncommitted text, or the history is shallow), or the section has no stamp, the whole current English
section is shown instead, and the entry says why.

``since`` (a git revision, the pull request's base) marks the sections this change made stale: stale
now, and their English section's text differs at ``since``. CI writes that list into the job summary,
each section linked to its Russian and English text (``link`` is the prefix of a file's address, such as
``https://github.com/OWNER/REPO/blob/SHA/``), as Lunaria does for Starlight sites.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rulespy.book.book import Book, page_of
from rulespy.book.sections import stale_reason
from rulespy.check.files import LANGUAGES
from rulespy.check.translations import english_twin, read_page
from rulespy.editions.sections import SectionText, section_texts, show_diff, word_diff

#: How far back the English file's history is searched for the stamped text.
HISTORY_LIMIT = 400


@dataclass(frozen=True)
class Stale:
    """One stale translated section: where it is, what it translates, and why it is stale."""

    page: str  # ru/core/damage.md
    line: int  # its heading's line
    anchor: str
    english: str  # core/damage.md
    english_line: int
    title: str  # the English section's title
    reason: str  # "changed", "unstamped" or "wrong-stamp"
    diff: tuple[str, ...]  # markdown paragraphs: the words changed since the stamp, or the whole text
    found: bool  # whether the stamped English text was found in the history (diff is a word diff)
    new: bool = False  # made stale by the change under review (``since``)

    @property
    def ref(self) -> str:
        return f"{self.page}#{self.anchor}"


def stale_sections(root: Path, since: str | None = None) -> list[Stale]:
    """Every stale translated section of the repository at ``root``, in page and section order."""
    root = Path(root)
    book = Book.without_registry(root)  # the default layout, as ``rulespy translations stamp`` reads
    tree = book.tree
    found: list[Stale] = []
    history = _History(root)
    for path in sorted(tree.markdown):
        if path.split("/", 1)[0] not in LANGUAGES or "/" not in path:
            continue
        english = english_twin(path)
        if english not in tree.files:
            continue  # RS070 says so
        page, twin = read_page(book, path), read_page(book, english)
        if page is None or twin is None:
            continue
        originals = {s.anchor: s for s in twin.sections}
        now = section_texts(english, twin.text)
        before = history.texts(english, since) if since else None
        for section in page.sections:
            original = originals.get(section.anchor)
            if original is None:
                continue  # RS070 says so
            reason = stale_reason(section, english, original)
            if reason is None:
                continue
            current = now.get(f"{english}#{section.anchor}")
            stamped = section.stamp[2] if section.stamp and reason == "changed" else None
            old = history.stamped(english, section.anchor, stamped) if stamped else None
            found.append(
                Stale(
                    page=path,
                    line=section.line,
                    anchor=section.anchor,
                    english=english,
                    english_line=original.line,
                    title=current.title if current else section.anchor,
                    reason=reason,
                    diff=_diff(old, current),
                    found=old is not None,
                    new=before is not None
                    and _text(before, english, section.anchor) != _text(now, english, section.anchor),
                )
            )
    return found


def _text(texts: dict[str, SectionText], english: str, anchor: str) -> str | None:
    found = texts.get(f"{english}#{anchor}")
    return found.text if found else None


def _diff(old: SectionText | None, current: SectionText | None) -> tuple[str, ...]:
    new_text = current.text if current else ""
    if old is None:
        return tuple(p for p in new_text.split("\n\n") if p)
    ops = word_diff(old.text, new_text)
    if old.title != (current.title if current else ""):
        ops = [("-", old.title), ("+", current.title if current else ""), ("=", "\n\n"), *ops]
    shown = [p for p in show_diff(ops) if p != "…"]
    return tuple(shown) or ("(only the worked example's code or the markup changed: copy the fence again)",)


class _History:
    """The English files' past versions, read from git once per file (newest first), each with the hash
    of every section, so that any number of stale sections of one file cost one read of its history."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.versions: dict[str, list[tuple[str, dict[str, str]]]] = {}

    def _git(self, *args: str) -> str | None:
        try:
            done = subprocess.run(["git", *args], cwd=self.root, capture_output=True, check=False, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None

    def _versions(self, path: str) -> list[tuple[str, dict[str, str]]]:
        if path not in self.versions:
            self.versions[path] = list(self._read_versions(path))
        return self.versions[path]

    def _read_versions(self, path: str) -> Iterator[tuple[str, dict[str, str]]]:
        commits = self._git("log", f"-{HISTORY_LIMIT}", "--format=%H", "--", path)
        for commit in (commits or "").split():
            text = self._git("show", f"{commit}:{path}")
            if text is not None:
                text = text.replace("\r\n", "\n")
                hashes = {s.anchor: s.hash for s in page_of(path, path, text).sections}
                yield text, hashes

    def stamped(self, path: str, anchor: str, digest: str) -> SectionText | None:
        """The English section ``path#anchor`` as it was when its hash was ``digest``."""
        for text, hashes in self._versions(path):
            if hashes.get(anchor) == digest:
                return section_texts(path, text).get(f"{path}#{anchor}")
        return None

    def texts(self, path: str, revision: str) -> dict[str, SectionText]:
        text = self._git("show", f"{revision}:{path}")
        return section_texts(path, text.replace("\r\n", "\n")) if text is not None else {}


def text_report(found: list[Stale]) -> str:
    """What ``rulespy translations stale`` prints: one block a section, the English words it lags."""
    if not found:
        return "No stale translation: every translated section is stamped with its English text as it is.\n"
    out: list[str] = []
    for item in found:
        mark = " (made stale by this change)" if item.new else ""
        out.append(
            f"{item.page}:{item.line}: #{item.anchor} translates {item.english}:{item.english_line}{mark}"
        )
        out.append(f"  {_why(item)}")
        out.extend(f"    {paragraph}" for paragraph in item.diff)
        out.append(f"  then: rulespy translations stamp {item.ref}")
        out.append("")
    out.append(f"{len(found)} stale section{'s' if len(found) != 1 else ''}")
    return "\n".join(out) + "\n"


def markdown_report(found: list[Stale], link: str = "") -> str:
    """The pull request's job summary: the sections this change made stale first, linked, with the
    English words that changed; then how many were stale already."""
    new = [item for item in found if item.new]
    old = len(found) - len(new)
    lines = ["## Translations this change makes stale", ""]
    if not new:
        lines.append("None: no translated section falls behind because of this change.")
    else:
        lines += [
            "An English change is never refused for its translation: these Russian sections are listed on "
            "the Russian site as lagging until a translator updates and stamps them.",
            "",
            "| Russian section | English section | what changed in English |",
            "|---|---|---|",
        ]
        for item in new:
            ru = _link(link, item.page, item.line, f"{item.page}#{item.anchor}")
            en = _link(link, item.english, item.english_line, item.title.replace("|", "\\|"))
            words = "<br>".join(p.replace("|", "\\|") for p in item.diff)
            lines.append(f"| {ru} | {en} | {words} |")
    if old:
        lines += [
            "",
            f"Stale already before it: {old} (`rulespy translations stale` lists them).",
        ]
    return "\n".join(lines) + "\n"


def _link(prefix: str, path: str, line: int, words: str) -> str:
    return f"[{words}]({prefix}{path}#L{line})" if prefix else f"`{words}`"


def _why(item: Stale) -> str:
    if item.reason == "unstamped":
        return "never stamped; the English section reads:"
    if item.reason == "wrong-stamp":
        return "its stamp names another section; the English section reads:"
    if not item.found:
        return "the stamped English text is not in this repository's history; the English section now reads:"
    return "English words changed since the stamp (~~removed~~, **added**):"
