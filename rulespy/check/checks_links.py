"""Links, anchors, mentions, unreadable files, navigation and orphans (RS001-RS004, RS020-RS021, RS04x)."""

from __future__ import annotations

from collections.abc import Iterator

from rulespy.check.cache import digest
from rulespy.check.doc import Document
from rulespy.check.findings import Finding
from rulespy.check.graph import LinkGraph, anchor_signature
from rulespy.check.nav import CONFIG, Nav
from rulespy.check.parse import parse_bytes
from rulespy.check.registry import LANGUAGES

#: Fragments every page has: the empty one (``page.md#``) and ``#top`` (HTML: the top of the document).
ALWAYS_THERE = frozenset({"", "top"})


class Anchors:
    """Anchors of any markdown file, parsed on demand when it is not one of the checked files.

    While ``graph.tree.seen`` is set, each file whose anchors a check looked at is recorded there with
    its ``anchor_signature`` (what a cached result must see unchanged to be reused).
    """

    def __init__(self, graph: LinkGraph) -> None:
        self.graph = graph
        self._extra: dict[str, tuple[bool, tuple[str, ...]] | None] = {}
        self._signatures: dict[str, bytes] = {}

    def info(self, path: str) -> tuple[bool, tuple[str, ...]] | None:
        found = self.graph.anchor_info(path)
        if found is None and path.endswith((".md", ".markdown")):
            if path not in self._extra:
                data = self.graph.tree.read(path)
                self.graph.tree.outside_reads[path] = b"" if data is None else digest(data)
                document = parse_bytes(path, data or b"", max_bytes=self.graph.tree.layout.max_bytes)
                self._extra[path] = (bool(document.problems), tuple(document.anchors))
            found = self._extra[path]
        return found

    def signature(self, path: str) -> bytes:
        """``anchor_signature`` of ``path``, computed once per run."""
        found = self._signatures.get(path)
        if found is None:
            found = self.graph.known_signature(path)  # a checked file's, kept in its summary
            if found is None:
                found = anchor_signature(self.info(path))
            self._signatures[path] = found
        return found

    def missing(self, path: str, fragment: str) -> str | None:
        """Why ``path#fragment`` does not exist, or ``None`` when it does (or cannot be checked)."""
        if fragment in ALWAYS_THERE:
            return None
        page = self.graph.page_for(path)
        if page is None:
            return f"folder {path or '.'}/ has no index.md or README.md to hold #{fragment}"
        if not page.endswith((".md", ".markdown")):
            return None  # fragments of other files (images, code, data) are not checked
        info = self.info(page)
        seen = self.graph.tree.seen
        if seen is not None:
            seen[("a", page)] = self.signature(page)
        if info is None or info[0]:
            return None
        if fragment in info[1]:
            return None
        return f"no anchor #{fragment} in {page}" + _suggest(fragment, list(info[1]))


def _suggest(wrong: str, choices: list[str]) -> str:
    for choice in choices:
        if choice.lower() == wrong.lower():
            return f" (anchors are case-sensitive: #{choice})"
    import difflib  # only a missing anchor needs it

    close = difflib.get_close_matches(wrong, choices, n=1, cutoff=0.75)
    return f" (did you mean #{close[0]}?)" if close else ""


def _suggest_file(graph: LinkGraph, path: str) -> str:
    for known in graph.tree.same_but_case(path):
        return f" (file names are case-sensitive: {known})"
    return ""


def check_document(graph: LinkGraph, anchors: Anchors, path: str, document: Document) -> Iterator[Finding]:
    """RS001-RS004 and unreadable-file findings of one checked markdown file."""
    for line, column, code, message in (*document.problems, *document.unsafe):
        yield Finding(path, line, column, code, message)
    yield from _duplicate_ids(path, document)
    for link, target in zip(document.links, graph.targets[path], strict=True):
        if target.external:
            continue
        what = "image" if link.kind == "image" else "link"
        if target.escapes or target.path is None:
            message = f"{what} {link.target} leaves the repository"
            yield Finding(path, link.line, link.column, "RS002", message)
            continue
        kind = graph.tree.kind(target.path) if target.path else "dir"
        if kind is None:
            hint = _suggest_file(graph, target.path)
            message = f"{what} {link.target}: {target.path} does not exist{hint}"
            yield Finding(path, link.line, link.column, "RS001", message)
            continue
        if target.fragment is None or link.kind == "image":
            continue
        why = anchors.missing(target.path, target.fragment)
        if why is not None:
            yield Finding(path, link.line, link.column, "RS003", f"{what} {link.target}: {why}")
    for mention in document.mentions:
        if graph.tree.kind(mention.path) != "file":
            hint = _suggest_file(graph, mention.path)
            message = f"mentions {mention.path}, which does not exist{hint}"
            yield Finding(path, mention.line, mention.column, "RS004", message)
        elif mention.fragment is not None:
            why = anchors.missing(mention.path, mention.fragment)
            if why is not None:
                message = f"mention {mention.path}#{mention.fragment}: {why}"
                yield Finding(path, mention.line, mention.column, "RS003", message)


def _duplicate_ids(path: str, document: Document) -> Iterator[Finding]:
    """RS005: an explicit ``{#id}`` given to a second heading of the same file (once per id)."""
    first: dict[str, int] = {}
    reported: set[str] = set()
    for heading in document.headings:
        if not heading.explicit:
            continue
        earlier = first.setdefault(heading.anchor, heading.line)
        if earlier != heading.line and heading.anchor not in reported:
            reported.add(heading.anchor)
            message = f"duplicate id #{heading.anchor}: also the id of the heading at line {earlier}"
            yield Finding(path, heading.line, heading.column, "RS005", message)


def check_navigation(graph: LinkGraph, nav: Nav) -> Iterator[Finding]:
    """RS021 for nav entries naming nothing; RS020 for pages neither in the nav nor linked from a page."""
    in_nav: set[str] = set()
    for entry in nav.entries:
        found = None
        for candidate in nav.candidates(entry.path):
            if graph.tree.kind(candidate) is not None:
                found = graph.page_for(candidate) or candidate
                break
        if found is None:
            tried = " or ".join(nav.candidates(entry.path)) or entry.path
            message = f"nav entry {entry.path} names no file (looked for {tried})"
            yield Finding(CONFIG, entry.line, entry.column, "RS021", message)
        else:
            in_nav.add(found)
    pages = set(graph.pages())
    homes = {"index.md", *(f"{language}/index.md" for language in LANGUAGES)}
    for page in sorted(pages):
        if page in in_nav or page in homes:  # the home page, and each translation's
            continue
        if any(source in pages for source in graph.referenced_by(page)):
            continue
        where = "neither in the mkdocs.yml nav nor linked" if nav.listed else "not linked"
        yield Finding(page, 1, 1, "RS020", f"orphan page: {where} from any other page")
