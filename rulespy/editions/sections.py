"""The prose of each rule section, and a word diff of two versions of it readable without colour.

A section (``PATH#ANCHOR``) is the rule book's ``Section`` (``rulespy.book.sections``): its text runs
from its heading to the next heading that has an id, so a change inside a subsection belongs to the
subsection alone. The text before a file's first section belongs to the file's title (``PATH#TITLE``).
Fenced code (worked examples) is left out: what an example does is compared by its outcome, not its
source. Links keep their words only (``[Heavy cover](cover.md#heavy)`` reads ``Heavy cover``), attribute
lists and HTML tags are dropped, so a diff can be shown on any page without broken links.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

from rulespy.book.book import Book, page_of
from rulespy.coverage.rules import parse_rule_file, rule_paths

_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_ATTRS = re.compile(r"\s*\{[:#.][^}]*\}")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_STRONG = re.compile(r"\*\*|__")
_WORD = re.compile(r"\n\n|\S+")

Op = tuple[str, str]  # ("=", words) kept, ("-", words) removed, ("+", words) added; "\n\n" ends a paragraph


@dataclass(frozen=True)
class SectionText:
    ref: str
    title: str
    text: str


def plain(text: str) -> str:
    """Markdown prose as words a diff may show anywhere: link words, no attribute lists, no HTML tags, no
    bold marks (a diff marks added words bold), paragraphs separated by one blank line."""
    text = _STRONG.sub("", _TAG.sub("", _ATTRS.sub("", _LINK.sub(r"\1", text))))
    paragraphs = re.split(r"\n\s*\n", text)
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def section_texts(path: str, text: str) -> dict[str, SectionText]:
    """Every section of one rule file (``path`` repository-relative) with its own prose."""
    page = page_of(path, path, text)
    rule = parse_rule_file(path, text)  # the same parse, found in the book's cache
    lines = text.split("\n")
    for token in page.tokens:
        if token.type in ("fence", "code_block") and token.map:
            for number in range(token.map[0], min(token.map[1], len(lines))):
                lines[number] = ""
    title = rule.title_anchor
    first = rule.sections[0].line - 1 if rule.sections else len(lines)
    found: dict[str, SectionText] = {}
    if title:
        head = next((i for i, line in enumerate(lines[:first]) if line.startswith("# ")), None)
        body = lines[head + 1 : first] if head is not None else lines[:first]
        name = plain(lines[head][2:]) if head is not None else path
        found[f"{path}#{title}"] = SectionText(f"{path}#{title}", name, plain("\n".join(body)))
    for section in rule.sections:  # its own text: to the next heading with an id (``rulespy.book.sections``)
        found[section.ref] = SectionText(
            section.ref, plain(section.title), plain("\n".join(lines[section.line : section.end - 1]))
        )
    return found


def tree_sections(
    root: Path, texts: dict[str, str] | None = None, book: Book | None = None
) -> dict[str, SectionText]:
    """Every rule section of the tree at ``root``; ``texts`` (path -> text) overrides what is read;
    ``book``: the tree's English edition, when the caller opened it (its rule files are listed)."""
    found: dict[str, SectionText] = {}
    for path in book.rule_paths() if book is not None else rule_paths(root):
        text = texts[path] if texts and path in texts else _read(root / path)
        if text is not None:
            found.update(section_texts(path, text))
    return found


def tree_refs(root: Path, book: Book | None = None) -> set[str]:
    """The ``PATH#ANCHOR`` of every rule section of the tree at ``root``: the keys of ``tree_sections``,
    from the headings alone (``book``: the tree's English edition, already read)."""
    found: set[str] = set()
    for path in book.rule_paths() if book is not None else rule_paths(root):
        page = book.page(path) if book is not None else None
        text = page.text if page is not None else _read(root / path)
        if text is not None:
            found.update(f"{path}#{anchor}" for anchor in parse_rule_file(path, text).anchors())
    return found


def _read(file: Path) -> str | None:
    try:
        return file.read_text(encoding="utf-8").replace("\r\n", "\n")
    except (OSError, UnicodeDecodeError):
        return None  # the checker names it; a diff of editions shows what it can read


def word_diff(old: str, new: str) -> list[Op]:
    """The words of ``old`` and ``new`` as kept, removed and added runs, in reading order."""
    a, b = _WORD.findall(old), _WORD.findall(new)
    ops: list[Op] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            ops.append(("=", " ".join(a[i1:i2])))
            continue
        if tag in ("delete", "replace"):
            ops.append(("-", " ".join(a[i1:i2])))
        if tag in ("insert", "replace"):
            ops.append(("+", " ".join(b[j1:j2])))
    return ops


MARKS = {"-": ("~~", "~~"), "+": ("**", "**")}


def show_diff(ops: list[Op], context: int = 12) -> list[str]:
    """The diff as markdown paragraphs: removed words ``~~struck~~``, added words ``**bold**``. Only
    paragraphs with a change are shown, each trimmed to ``context`` words either side of its changes;
    what is left out reads ``…``."""
    paragraphs: list[list[Op]] = [[]]
    for op, words in ops:
        parts = words.split("\n\n")
        for index, part in enumerate(parts):
            if index:
                paragraphs.append([])
            if part.strip():
                paragraphs[-1].append((op, part.strip()))
    shown: list[str] = []
    for paragraph in paragraphs:
        if all(op == "=" for op, _ in paragraph):
            if not shown or shown[-1] != "…":
                shown.append("…")
            continue
        out = []
        for index, (op, words) in enumerate(paragraph):
            if op == "=":
                out.append(_trim(words, context, index > 0, index < len(paragraph) - 1))
            else:
                before, after = MARKS[op]
                out.append(f"{before}{_escape(words)}{after}")
        shown.append(" ".join(part for part in out if part))
    return shown


def _trim(words: str, context: int, after_change: bool, before_change: bool) -> str:
    split = words.split(" ")
    if len(split) <= 2 * context:
        return words
    head = split[:context] if after_change else []
    tail = split[-context:] if before_change else []
    return " ".join([*head, "…", *tail])


def _escape(words: str) -> str:
    """Marks the words already carry would close ours early: ``~`` and ``*`` are escaped."""
    return words.replace("~", r"\~").replace("*", r"\*")
