"""The edition line: which edition a page belongs to, of what date, built from which commit.

Every staged page of both sites (English and each translation, so under either generator) carries one
small line under its title, and the rulebook's cover repeats it (``rulespy.render.pdf``):

    Edition v1.0.0 of 2026-11-30 · 12 changes since · built from commit cc655fb1e2d3

- the edition is the latest release the checked-out tree holds (``CHANGELOG.md``'s headings,
  ``rulespy.editions.versions``), with the date its heading gives; with none yet, the line says so;
- "N changes since" links to the Unreleased entry of What changed, and is there only when that entry
  lists something: N counts the rule sections whose words changed and the scenarios or examples whose
  outcome or odds changed (``rulespy.editions.page``). Where the entry was not computed (``make serve``
  leaves it to ``make site``) the link reads "What changed since" without a number;
- the commit is ``HEAD``'s, "with uncommitted changes" when a tracked file differs from it, and left
  out for a tree outside git.

The line is a paragraph of raw ``<small class="vs-edition">`` around markdown (the commit in code, the
link a markdown link, so each generator resolves and checks it like any other). It is set into a page
after the page is rendered, by ``stamp``, which replaces the line a page already has: the line changes
with every commit, and the rendering of a page whose inputs did not change is kept (``rulespy.render
.stage``), only its line rewritten.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from rulespy.editions.page import PAGE as CHANGES
from rulespy.editions.page import Changes, entry_id

from .languages import words

PREFIX = '<small class="vs-edition">'


@dataclass(frozen=True)
class Built:
    """What the site is built from: ``HEAD``'s commit (None outside git) and whether the tree differs."""

    commit: str | None
    dirty: bool


def line(changes: Changes, built: Built, path: str, language: str | None = None) -> str:
    """The edition line of the staged page ``path`` (its links relative to it)."""
    said = words(language)
    parts: list[str] = []
    latest = changes.latest
    if latest is None:
        parts.append(said["edition-none"])
    else:
        parts.append(said["edition"].format(tag=latest.tag, date=latest.date))
        target = posixpath.relpath(CHANGES, posixpath.dirname(path) or ".") + "#" + entry_id(latest, None)
        if changes.unreleased is None:
            parts.append(f"[{said['edition-later']}]({target})")
        elif changes.unreleased:
            key = "edition-change" if changes.unreleased == 1 else "edition-changes"
            parts.append(f"[{said[key].format(count=changes.unreleased)}]({target})")
    if built.commit is not None:
        key = "edition-dirty" if built.dirty else "edition-commit"
        parts.append(said[key].format(commit=f"`{built.commit[:12]}`"))
    return PREFIX + " · ".join(parts) + "</small>"


def stamp(page: str, edition_line: str) -> str:
    """``page`` with ``edition_line`` as the paragraph after its title (the first ``# `` heading, else
    at the top), replacing the edition line a stamp put there before (and no other line).

    >>> stamp(stamp("# Cover\\n\\nText.", PREFIX + "a</small>"), PREFIX + "b</small>").split("\\n")
    ['# Cover', '', '<small class="vs-edition">b</small>', '', '', 'Text.']
    """
    lines = page.split("\n")
    at = next((i + 1 for i, text in enumerate(lines) if text.startswith("# ")), 0)
    where = at + 1 if at else 0
    if where < len(lines) and lines[where].startswith(PREFIX):
        lines[where] = edition_line
    else:
        lines[at:at] = ["", edition_line, ""] if at else [edition_line, ""]
    return "\n".join(lines)
