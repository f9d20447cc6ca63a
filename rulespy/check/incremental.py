"""Incremental checking: a file's findings are reused only while everything they depended on is unchanged.

Every run keeps, in one cache blob (``NAME.state.pickle``, plain tuples that unpickle fast):

- a **summary** of each checked markdown file, keyed by its content hash: whether it could be read, its
  anchors in order, and the paths its links point to. Cross-file checks (orphans, nav entries, the
  registry's files and anchors, required references) run from the summaries alone.
- a **result** of each checked file (markdown and cited Python): its content hash, the findings of the
  per-file checks, and the **dependencies** those checks recorded *while they ran*:

  ``("k", path)``   ``Tree.kind(path)``: a link, mention or citation target exists, as file or folder
  ``("c", lower)``  the walked files spelled like ``lower`` but for case (the hint in RS001/RS004)
  ``("a", page)``   ``anchor_signature`` of a page a ``#fragment`` was looked up in
  ``("r", "")``     the content hash of ``concepts.yml`` (claims, restated concepts, retired terms)
  ``("s", "")``     the sections where retired terms are allowed (only when the file uses one)
  ``("n", "")``     the ``mkdocs.yml`` nav (the cross-file findings only)

- the **cross-file findings** with the dependencies they, and the linking of the pages, recorded; reused
  while every summary but its content hash is unchanged (``Incremental.cross_file_findings``).

A result is reused when the file's content hash is the same and every dependency gives the same answer
now; otherwise the file is checked again from its cached ``Document`` (or parsed). The recording sits in
the few places the checks ask anything beyond their own file (``Tree.kind``, ``Tree.same_but_case``,
``Anchors.missing``), so a new check that asks the tree or another file's anchors is tracked without
changes here. ``--no-cache`` runs the very same code with nothing remembered.

The run reads the rule book (``rulespy.book``): its tree is the book's walk (``Book.walked``), and a file
that must be parsed is the book's page (``Book.document``: one parse, with the registry's words, that
the translation pass after it reads again without parsing).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from rulespy.book.links import Target, resolve
from rulespy.check import checks_code, checks_links, checks_owner, parallel
from rulespy.check.cache import DocumentCache, digest
from rulespy.check.checks_links import Anchors
from rulespy.check.doc import Document
from rulespy.check.files import LANGUAGES
from rulespy.check.findings import Finding
from rulespy.check.graph import LinkGraph, anchor_signature, linked_paths
from rulespy.check.nav import Nav
from rulespy.check.parse import Terms
from rulespy.check.registry import Registry
from rulespy.check.translations import language_of

if TYPE_CHECKING:
    from rulespy.book.book import Book

Blobs = dict[str, tuple[bytes | None, bytes]]
#: (content hash, could not be read, anchors in order, paths the links point to, ``anchor_signature``)
Summary = tuple[bytes, bool, tuple[str, ...], tuple[str, ...], bytes]
#: (content hash, ((dependency, answer), ...), findings)
Result = tuple[bytes, tuple[tuple[tuple[str, str], Any], ...], tuple[Finding, ...]]
#: the cross-file findings: (((dependency, answer), ...), findings)
Cross = tuple[tuple[tuple[tuple[str, str], Any], ...], tuple[Finding, ...]]


def summarize(path: str, key: bytes, document: Document, targets: list[Target]) -> Summary:
    """``targets``: the document's links resolved, in order."""
    problems, anchors = bool(document.problems), tuple(document.anchors)
    links = linked_paths(path, document, targets)
    return key, problems, anchors, links, anchor_signature((problems, anchors))


class SummaryGraph(LinkGraph):
    """A ``LinkGraph`` over every checked file's summary; documents (and their resolved links) are those
    ``load`` has read so far, shared with the run."""

    def __init__(
        self,
        tree: Any,
        summaries: dict[str, Summary],
        documents: dict[str, Document],
        targets: dict[str, list[Target]],
        load: Callable[[str], Document],
    ) -> None:
        self.tree = tree
        self.documents = documents
        self.paths = self.summaries = summaries
        self.targets = targets
        self._load = load
        self._connect({path: summary[3] for path, summary in summaries.items()})

    def document(self, path: str) -> Document | None:
        return self._load(path) if path in self.summaries else None

    def anchor_info(self, path: str) -> tuple[bool, tuple[str, ...]] | None:
        summary = self.summaries.get(path)
        return None if summary is None else (summary[1], summary[2])

    def known_signature(self, path: str) -> bytes | None:
        summary = self.summaries.get(path)
        return None if summary is None else summary[4]


class Incremental:
    """One run: summaries and per-file results from the cache where still valid, the rest computed."""

    def __init__(
        self,
        book: Book,
        terms: Terms,
        registry: Registry,
        registry_key: bytes,
        cache: DocumentCache,
        blobs: Blobs,
        read: Callable[[str], bytes] | None = None,
    ) -> None:
        """``blobs``: each checked file's ``(content, content hash)``; the hash is ``b""`` when the file
        cannot be read, the content ``None`` when it was not read (``read(path)`` then gives it). ``book``:
        the run's book (its walk, its pages read with ``terms``: ``Book.with_terms``)."""
        self.book = book
        tree = self.tree = book.tree
        # the translation pass reads the pages parsed here again: keep them only when there is one
        self._keep = any(language in tree.dirs for language in LANGUAGES)
        self.terms, self.registry, self.registry_key = terms, registry, registry_key
        self.cache, self.blobs, self._read = cache, blobs, read
        stored, changes = cache.load_journaled(cache.state_file, "state")
        stored = stored or ({}, {}, None)
        valid = len(stored) == 3 and all(isinstance(part, dict) for part in stored[:2])
        self.old_summaries: dict[str, Summary] = dict(stored[0]) if valid else {}
        self.old_results: dict[str, Result] = dict(stored[1]) if valid else {}
        self.old_cross: Cross | None = stored[2] if valid and isinstance(stored[2], tuple) else None
        for change in changes if valid else ():
            if not (isinstance(change, tuple) and len(change) == 4 and isinstance(change[0], dict)):
                break
            summaries, results, gone, cross = change  # cross: (the new cross-file record,) or ()
            self.old_summaries.update(summaries)
            self.old_results.update(results)
            for path in gone:
                self.old_summaries.pop(path, None)
                self.old_results.pop(path, None)
            if cross:
                self.old_cross = cross[0]
        self.cross: Cross | None = None
        self.documents: dict[str, Document] = {}
        self._targets: dict[str, list[Target]] = {}
        self.summaries: dict[str, Summary] = {}
        self.results: dict[str, Result] = {}
        self._answers: dict[tuple[str, str], Any] = {}  # what each dependency gives in this run
        self._spans: checks_owner.Spans | None = None
        self._spans_key = b""
        fresh = []
        for path in tree.markdown:
            key = blobs[path][1]
            old = self.old_summaries.get(path)
            if old is not None and old[0] == key and key:
                self.summaries[path] = old
            else:
                fresh.append(path)
        self.prefetch(fresh)
        for path in fresh:
            self.summaries[path] = summarize(path, blobs[path][1], self.load(path), self.targets(path))
        self.summaries = {path: self.summaries[path] for path in tree.markdown}  # in walk order
        self._graph_seen: dict[tuple[str, str], Any] = {}  # what linking the pages asked the tree
        tree.seen = self._graph_seen
        try:
            self.graph = SummaryGraph(tree, self.summaries, self.documents, self._targets, self.load)
        finally:
            tree.seen = None
        self.anchors = Anchors(self.graph)

    def targets(self, path: str) -> list[Target]:
        found = self._targets.get(path)
        if found is None:
            found = self._targets[path] = [resolve(path, link.target) for link in self.load(path).links]
        return found

    def load(self, path: str) -> Document:
        """The document of checked file ``path``: already loaded, from the cache, or parsed now."""
        found = self.documents.get(path)
        if found is not None:
            return found
        key = self.blobs[path][1]
        look_up = bool(key) and self._look_up([path])
        found = self.cache.load(path, self._data(path), key, self._parse, look_up)
        self.documents[path] = found
        return found

    def _look_up(self, paths: list[str]) -> bool:
        """Whether the documents of ``paths`` are looked for in the document store (else parsed)."""
        if not self.cache.enabled:
            return False
        return self.cache.worth_loading(sum(len(self._data(path) or b"") for path in paths))

    def _data(self, path: str) -> bytes | None:
        """The content of checked file ``path`` (``None`` when it cannot be read), read now if it was
        known by its stamp (and then kept)."""
        data, key = self.blobs[path]
        if data is None and key:
            data = self._read_data(path)
            self.blobs[path] = (data, key)
        return data

    def prefetch(self, paths: Iterable[str]) -> None:
        """Load the documents of ``paths`` now: from the cache, the rest parsed together on every core
        when there are many (``parallel.py``)."""
        wanted = [path for path in paths if path not in self.documents and self.blobs[path][1]]
        missing = []
        if wanted and self._look_up(wanted):
            for path in wanted:
                found = self.cache.get(path, self.blobs[path][1])
                if found is not None:
                    self.documents[path] = found
                else:
                    missing.append(path)
        else:
            missing = wanted
        if len(missing) < parallel.PARALLEL_FROM:
            return
        items = []
        for path in missing:
            data = self._data(path)
            assert data is not None  # its content hash is not empty: it was read
            items.append((path, data))
        parsed = parallel.parse_all(self._parse, items) or parallel.parse_each(self._parse, items)
        for path, document in zip(missing, parsed, strict=True):
            self.cache.put(path, self.blobs[path][1], document)
            self.documents[path] = document

    def _read_data(self, path: str) -> bytes:
        if self._read is None:
            raise ValueError(f"{path}: content not read")
        return self._read(path)

    def _parse(self, path: str, data: bytes) -> Document:
        if path.endswith(".py"):
            return checks_code.citations(path, data)
        return self.book.document(path, data, self._keep)

    def spans(self) -> checks_owner.Spans:
        if self._spans is None:
            self._spans = checks_owner.retired_spans(self.graph, self.registry)
            self._spans_key = digest(repr(sorted(self._spans.items())).encode("utf-8", "surrogatepass"))
        if self.tree.seen is not None:
            self.tree.seen[("s", "")] = self._spans_key
        return self._spans

    def answer(self, dependency: tuple[str, str]) -> Any:
        """What ``dependency`` gives now (with recording off)."""
        kind, arg = dependency
        if kind == "k":
            return self.tree.kind(arg)
        if kind == "a":
            return self.anchors.signature(arg)
        if kind == "c":
            return self.tree.same_but_case(arg)
        if kind == "r":
            return self.registry_key
        if kind == "s":
            self.spans()
            return self._spans_key
        return object()  # an unknown dependency never matches

    def _reusable(self, path: str, key: bytes) -> Result | None:
        old = self.old_results.get(path)
        if old is None or old[0] != key or not key:
            return None
        return old if self._still(old[1]) else None

    def file_findings(self, paths: Iterable[str]) -> list[Finding]:
        """Per-file findings of ``paths`` (markdown and Python): reused when valid, else checked now."""
        findings: list[Finding] = []
        by_language: dict[str | None, dict[str, Any]] = {}  # made when a file must be checked
        reusable = {path: self._reusable(path, self.blobs[path][1]) for path in paths}
        self.prefetch(path for path, result in reusable.items() if result is None)
        for path, result in reusable.items():
            key = self.blobs[path][1]
            if result is None:
                language = language_of(path)
                by_name = by_language.get(language)
                if by_name is None:
                    by_name = by_language[language] = checks_owner.owners_by_name(self.registry, language)
                document = self.load(path)
                self.targets(path)  # graph.targets[path], read by the checks
                seen: dict[tuple[str, str], Any] = {}
                self.tree.seen = seen
                try:
                    found = list(self._check(path, document, by_name))
                finally:
                    self.tree.seen = None
                result = (key, tuple(seen.items()), tuple(found))
            self.results[path] = result
            findings.extend(result[2])
        return findings

    def _check(self, path: str, document: Document, by_name: dict[str, Any]) -> Iterable[Finding]:
        if path.endswith(".py"):
            yield from checks_code.check_citation_document(self.anchors, path, document)
            return
        assert self.tree.seen is not None
        self.tree.seen[("r", "")] = self.registry_key
        yield from checks_links.check_document(self.graph, self.anchors, path, document)
        yield from checks_code.check_rule_heading_document(self.graph, path, document)
        if self.registry.present:
            yield from checks_owner.check_document(self.graph, by_name, path, document)
            yield from checks_owner.check_retired_document(self.registry, self.spans, path, document)
            yield from checks_owner.check_forbidden_document(self.registry, path, document)

    def cross_file_findings(self, nav: Nav) -> list[Finding]:
        """Checks over the whole tree, from the summaries: nav and orphans, the registry, requirements.

        Their findings are reused while every file's summary but its content hash (whether it could be
        read, its anchors, where its links point) is the one they were found with, and every answer they
        and the linking of the pages asked (``Tree.kind``, anchors of any page, ``concepts.yml``, the nav)
        is the same now: an edit that moves no anchor and no link, the everyday one, skips them."""
        self._answers[("n", "")] = digest(repr(nav).encode("utf-8", "surrogatepass"))
        old = self.old_cross
        if old is not None and self._same_links() and self._still(old[0]):
            self.cross = old
            return list(old[1])
        seen = dict(self._graph_seen)
        seen[("r", "")], seen[("n", "")] = self.registry_key, self._answers[("n", "")]
        self.tree.seen = seen
        try:
            findings = list(checks_links.check_navigation(self.graph, nav))
            if self.registry.present:
                findings.extend(checks_owner.check_registry(self.graph, self.registry, self.anchors))
                findings.extend(checks_owner.check_requires(self.graph, self.registry))
        finally:
            self.tree.seen = None
        self.cross = (tuple(seen.items()), tuple(findings))
        return findings

    def _same_links(self) -> bool:
        """Whether the same files are checked, each with the summary (content hash aside) it had."""
        old = self.old_summaries
        if old.keys() != self.summaries.keys():
            return False
        return all(
            summary is old[path] or summary[1:] == old[path][1:] for path, summary in self.summaries.items()
        )

    def _still(self, dependencies: tuple[tuple[tuple[str, str], Any], ...]) -> bool:
        """Whether every recorded ``(dependency, answer)`` gives the same answer now."""
        answers = self._answers  # many files ask the same (a target's existence, a page's anchors)
        for dependency, answer in dependencies:
            now = answers.get(dependency, answers)
            if now is answers:
                now = answers[dependency] = self.answer(dependency)
            if now != answer:
                return False
        return True

    def save(self) -> None:
        """Save the state when any summary or result differs from the stored one: only what changed,
        appended to the state's journal until that outgrows an eighth of the state (``save_journaled``)."""
        old_summaries, old_results = self.old_summaries, self.old_results
        summaries = {p: s for p, s in self.summaries.items() if old_summaries.get(p) != s}
        results = {p: r for p, r in self.results.items() if old_results.get(p) != r}
        gone = (old_summaries.keys() - self.summaries.keys()) | (old_results.keys() - self.results.keys())
        cross = (self.cross,) if self.cross != self.old_cross else ()
        if summaries or results or gone or cross:
            state = (self.summaries, self.results, self.cross)
            change = (summaries, results, tuple(sorted(gone)), cross)
            self.cache.save_journaled(self.cache.state_file, "state", state, change)
        self.cache.save(
            lambda: {(path, self.blobs[path][1]) for path in (*self.tree.markdown, *self.tree.python)}
        )
