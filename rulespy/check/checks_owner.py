"""Ownership, required references and retired terms, from ``concepts.yml`` (RS010-RS013, RS030, RS031).

Concept names and aliases are compared case-insensitively with runs of spaces made one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from rulespy.book.links import resolve
from rulespy.check.checks_links import Anchors
from rulespy.check.doc import Document
from rulespy.check.findings import Finding
from rulespy.check.graph import LinkGraph
from rulespy.check.registry import LANGUAGES, REGISTRY, Concept, Registry


def norm(name: str) -> str:
    return " ".join(name.lower().split())


def owners_by_name(registry: Registry, language: str | None = None) -> dict[str, Concept]:
    """Each name and alias (normalised) -> the first concept that registers it. For a translation
    (``language``): its names there (``ru:``), each concept owned by the mirror of its owner file
    (``ru/core/damage.md``), which restates the English owner by design; a concept it does not name is
    left out, so RS011-RS013 hold a translated page to its own edition's owners."""
    found: dict[str, Concept] = {}
    for concept in registry.concepts:
        if language is None:
            for name in concept.names:
                found.setdefault(norm(name), concept)
        elif any(lang == language for lang, _ in concept.translated):
            mirrored = replace(concept, file=f"{language}/{concept.file}")
            for name in concept.names_in(language):
                found.setdefault(norm(name), mirrored)
    return found


def check_registry(graph: LinkGraph, registry: Registry, anchors: Anchors) -> Iterator[Finding]:
    """The registry itself: the files and anchors it names exist (RS001, RS003); one owner a concept."""
    tree = graph.tree
    for file, line, column in (*registry.owner_files, *registry.requiring_files):
        if tree.kind(file) != "file":
            yield Finding(REGISTRY, line, column, "RS001", f"{file} does not exist")
    for concept in registry.concepts:
        if not concept.anchor or any(  # '#' would otherwise stand for the top of any page
            c.isspace() or c in "#/?" for c in concept.anchor
        ):
            message = (
                f"{concept.name}: anchor {concept.anchor!r} is empty or malformed (give the heading's id)"
            )
            yield Finding(REGISTRY, concept.line, concept.column, "RS003", message)
        elif tree.kind(concept.file) == "file":
            why = anchors.missing(concept.file, concept.anchor)
            if why is not None:
                yield Finding(REGISTRY, concept.line, concept.column, "RS003", f"{concept.name}: {why}")
    for requirement in registry.requires:
        if tree.kind(requirement.target) != "file":
            message = f"{requirement.file} must link to {requirement.target}, which does not exist"
            yield Finding(REGISTRY, requirement.line, requirement.column, "RS001", message)
    for concept, name, earlier in _names_given_twice((c, c.names) for c in registry.concepts):
        where = "again by the same file" if earlier.file == concept.file else f"also by {earlier.file}"
        message = f"concept {name!r} has two owners: claimed here by {concept.file} and {where}"
        message += f" (line {earlier.line})"
        yield Finding(REGISTRY, concept.line, concept.column, "RS010", message)
    yield from _translated_names(registry)
    yield from _forbidden_names(registry)
    by_name = owners_by_name(registry)
    for retired in registry.retired:
        if norm(retired.current) not in by_name:
            message = f"retired term {retired.term!r} maps to {retired.current!r}, which no file owns"
            yield Finding(REGISTRY, retired.line, retired.column, "RS011", message)
        path, _, fragment = retired.explained_in.partition("#")
        if tree.kind(path) != "file":
            yield Finding(REGISTRY, retired.line, retired.column, "RS001", f"{path} does not exist")
        elif fragment:
            why = anchors.missing(path, fragment)
            if why is not None:
                yield Finding(REGISTRY, retired.line, retired.column, "RS003", f"explained_in: {why}")


def _translated_names(registry: Registry) -> Iterator[Finding]:
    """RS010 for a name of one translation (``ru:``) that two concepts give: its pages could not tell
    which owner a mention means."""
    for language in LANGUAGES:
        names = [
            (c, c.names_in(language))
            for c in registry.concepts
            if any(t[0] == language for t in c.translated)
        ]
        for concept, name, earlier in _names_given_twice(names):
            message = (
                f"{language} name {name!r} is given to two concepts: {concept.name} here and "
                f"{earlier.name} (line {earlier.line})"
            )
            yield Finding(REGISTRY, concept.line, concept.column, "RS010", message)


def _names_given_twice(
    named: Iterable[tuple[Concept, Iterable[str]]],
) -> Iterator[tuple[Concept, str, Concept]]:
    """``(concept, name, earlier concept)`` for each (normalised) name a concept gives that an earlier
    concept gave already: the English names and each translation's are checked alike."""
    first: dict[str, Concept] = {}
    for concept, names in named:
        for name in dict.fromkeys(norm(n) for n in names):
            earlier = first.setdefault(name, concept)
            if earlier is not concept:
                yield concept, name, earlier


def _links_to(graph: LinkGraph, document: Document, owner: str, start: int, end: int) -> bool:
    for link, target in zip(document.links, graph.targets[document.path], strict=True):
        if start <= link.line < end and link.kind != "image":
            if target.path is not None and (graph.page_for(target.path) or target.path) == owner:
                return True
    return False


def check_document(
    graph: LinkGraph, by_name: dict[str, Concept], path: str, document: Document
) -> Iterator[Finding]:
    """Ownership claims (RS011, RS012) and restated concepts (RS013) of one file."""
    for claim in document.claims:
        concept = by_name.get(norm(claim.concept))
        if concept is None:
            message = f"says {claim.concept!r} is owned by {claim.owner}; no file owns it in {REGISTRY}"
            yield Finding(path, claim.line, claim.column, "RS011", message)
            continue
        target = resolve(path, claim.owner) if claim.owner_is_link else resolve("", claim.owner)
        owner = (graph.page_for(target.path) or target.path) if target.path is not None else claim.owner
        if owner != concept.file:
            message = f"says {claim.concept} is owned by {owner}; {REGISTRY} gives {concept.file}"
            yield Finding(path, claim.line, claim.column, "RS012", message)
    for index, heading in enumerate(document.headings):
        concept = by_name.get(norm(heading.text))
        if concept is None or concept.file == path:
            continue
        if not _links_to(graph, document, concept.file, heading.line, document.section_end(index)):
            message = (
                f"section {heading.text!r} restates {concept.name}, owned by {concept.file}: "
                f"link to {concept.file}#{concept.anchor} from this section"
            )
            yield Finding(path, heading.line, heading.column, "RS013", message)


def check_requires(graph: LinkGraph, registry: Registry) -> Iterator[Finding]:
    for requirement in registry.requires:
        if requirement.file not in graph.paths or graph.tree.kind(requirement.target) != "file":
            continue
        if requirement.target not in graph.links_from(requirement.file):
            message = f"must link to {requirement.target} ({REGISTRY} line {requirement.line} requires it)"
            yield Finding(requirement.file, 1, 1, "RS030", message)


Spans = dict[str, tuple[str, int, int]]


def retired_spans(graph: LinkGraph, registry: Registry) -> Spans:
    """Each retired term -> (file, first line, end line) of the section allowed to use it."""
    allowed: Spans = {}
    for retired in registry.retired:
        path, _, fragment = retired.explained_in.partition("#")
        document = graph.document(path)
        span = (path, 0, 0)
        if document is not None:
            for index, heading in enumerate(document.headings):
                if heading.anchor == fragment:
                    span = (path, heading.line, document.section_end(index))
                    break
        allowed[norm(retired.term)] = span
    return allowed


def _section_span(document: Document, anchor: str) -> tuple[int, int]:
    """(first line, end line) of the section of ``document`` with id ``anchor``; (0, 0) when none."""
    for index, heading in enumerate(document.headings):
        if heading.anchor == anchor:
            return heading.line, document.section_end(index)
    return 0, 0


def check_retired_document(
    registry: Registry, spans: Callable[[], Spans], path: str, document: Document
) -> Iterator[Finding]:
    """RS031 for one file; ``spans`` is called only when the file uses a retired term."""
    by_term = {norm(r.term): r for r in registry.retired}
    for use in document.term_uses:
        current = by_term.get(use.term)
        if current is None:
            continue
        file, start, end = spans()[use.term]
        if path == file and start <= use.line < end:
            continue
        if path.partition("/")[2] == file and path.partition("/")[0] in LANGUAGES:
            # a translation's mirror of the explaining section names the old term too (in brackets)
            start, end = _section_span(document, current.explained_in.partition("#")[2])
            if start <= use.line < end:
                continue
        message = f"retired term {use.term!r}: write {current.current!r} (see {current.explained_in})"
        yield Finding(path, use.line, use.column, "RS031", message)


def _forbidden_names(registry: Registry) -> Iterator[Finding]:
    """RS075 in ``concepts.yml``: a forbidden variant that matches a name some concept is given in the
    same language would forbid the very term the pages must write."""
    from rulespy.check.parse import forbidden_regex

    for concept in registry.concepts:
        for language, variants in concept.forbidden:
            for variant in variants:
                pattern = forbidden_regex((norm(variant),))
                clash = next(
                    (
                        (other, name)
                        for other in registry.concepts
                        for name in other.names_in(language)
                        if other.translated
                        if pattern is not None and pattern.search(name)
                    ),
                    None,
                )
                if clash is not None:
                    message = (
                        f"{language}_forbidden of {concept.name}: {variant!r} matches {clash[1]!r}, "
                        f"a {language} name of {clash[0].name}: forbid a narrower form"
                    )
                    yield Finding(REGISTRY, concept.line, concept.column, "RS075", message)


def check_forbidden_document(registry: Registry, path: str, document: Document) -> Iterator[Finding]:
    """RS075 for one translated page: each use of a word ``concepts.yml`` forbids for a concept in the
    page's language (``ru_forbidden``; the parser records the words as written), with the term to write
    instead."""
    from rulespy.check.parse import forbidden_regex

    language = path.partition("/")[0]
    if language not in LANGUAGES or not document.forbidden_uses:
        return
    variants = [
        (concept, variant)
        for concept in registry.concepts
        for lang, vs in concept.forbidden
        if lang == language
        for variant in vs
    ]

    def matches(variant: str, words: str) -> bool:
        pattern = forbidden_regex((norm(variant),))
        return pattern is not None and pattern.fullmatch(words) is not None

    for use in document.forbidden_uses:
        found = next((c for c, v in variants if matches(v, use.term)), None)
        if found is None:
            continue
        message = (
            f"{_quoted(use.term)} must not stand for {found.name} on a Russian page: write "
            f"{_quoted(found.name_in(language))} or one of its forms (concepts.yml {language}_forbidden)"
        )
        yield Finding(path, use.line, use.column, "RS075", message)


def _quoted(words: str) -> str:
    return words if words.startswith("«") else f"«{words}»"
