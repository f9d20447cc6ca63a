"""What the site adds around the rule text: the navigation, each page's owned concepts and
"Referenced by" list, and the generated glossary.

"Referenced by" comes from ``rulespy.check.graph`` (``build_graph``), the same link graph
``rulespy check`` uses, so the site and the checker can never disagree about who links where.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from typing import Any

from rulespy.book.links import resolve  # the book's one link resolution, the checker's too
from rulespy.check.graph import LinkGraph as Graph

from .languages import words
from .registry import Concept, Previews, first_sentence

GLOSSARY = "glossary.md"
QUESTIONS = "questions.md"  # "Questions at the table": right after the home page in the navigation
RULEBOOK = "voidsiege-rules.pdf"


def rulebook_link(language: str | None = None) -> str:
    """The home page's links to the rules judge and the printable rulebook, under its last section. Raw
    HTML on purpose: the Judge page and the PDF are made by the build, so they are not among the pages
    the generators validate links against (the browser test follows these links like every other)."""
    said = words(language)
    return "\n".join(
        [
            f'<p class="vs-home-judge"><a href="judge/">{said["home-judge"]}</a></p>',
            f'<p class="vs-rulebook"><a href="{RULEBOOK}">{said["rulebook"]}</a></p>',
        ]
    )


def is_rule_file(path: str, rule_dirs: Sequence[str]) -> bool:
    """A markdown file in one of the rule folders (``rule_dirs``: the book's ``check: rule_dirs``)."""
    return path.endswith(".md") and path.split("/", 1)[0] in rule_dirs and "/" in path


def title_of(graph: Graph, path: str) -> str:
    """A page's title: its first level-1 heading, else its file name."""
    for heading in graph.headings(path):
        if heading.level == 1:
            return heading.text
    return posixpath.basename(path).removesuffix(".md").replace("_", " ").capitalize()


def navigation(
    pages: Iterable[str], graph: Graph, language: str | None, rule_dirs: Sequence[str]
) -> list[Any]:
    """Home, Questions at the table, one section per rule folder, Glossary, the other pages at the root
    (the page for rule writers). Pages keep the order in which the home page links them (the reading
    order its authors chose); pages it does not link follow, sorted by path. A translation's rule pages
    are listed with their own title (their first heading): the generators would otherwise title them
    from the file name, which is English (the language switcher above the heading keeps them from
    taking the heading)."""
    pages = sorted(pages)
    reading = {path: i for i, path in enumerate(_in_link_order(graph, "index.md"))}
    said = words(language)
    nav: list[Any] = [{said["home"]: "index.md"}] if "index.md" in pages else []
    if QUESTIONS in pages:
        nav.append({title_of(graph, QUESTIONS): QUESTIONS})
    for folder in rule_dirs:
        inside = [p for p in pages if p.startswith(folder + "/")]
        inside.sort(key=lambda p: (reading.get(p, len(reading)), p))
        if inside:
            entries: list[Any] = [{title_of(graph, p): p} for p in inside] if language else inside
            nav.append({said.get(folder, folder.capitalize()): entries})
    if GLOSSARY in pages:
        nav.append({said["glossary"]: GLOSSARY})
    # the other pages at the root (the page for rule writers), by title, after the rules
    for path in pages:
        if "/" not in path and path not in ("index.md", QUESTIONS, GLOSSARY):
            nav.append({title_of(graph, path): path})
    return nav


def _in_link_order(graph: Graph, path: str) -> list[str]:
    """The pages ``path`` links to, in the order its text first links them (from the graph's own parse)."""
    document = graph.documents.get(path)
    if document is None:
        return sorted(graph.links_from(path))
    ordered: list[str] = []
    for link in sorted(document.links, key=lambda link: (link.line, link.column)):
        target = resolve(path, link.target).path
        if target and target not in ordered:
            ordered.append(target)
    return ordered


def header_links(path: str, concepts: Sequence[Concept]) -> list[tuple[Concept, str]]:
    """The concepts page ``path`` owns, each with the link its header makes to it."""
    return [(c, f"#{c.anchor}") for c in concepts if c.file == path]


def page_header(path: str, concepts: Sequence[Concept], language: str | None = None) -> list[str]:
    """Markdown placed under a rule page's title: the concepts the page owns, each linked (links only:
    the linker links nothing in it, and counts its links as read: ``rulespy.render.linker.link_page``)."""
    owned = header_links(path, concepts)
    if not owned:
        return []
    said = words(language)
    term = f" ({said['term']})"
    items = ", ".join(f"[{c.name}]({href})" + (term if c.terminology else "") for c, href in owned)
    return [f'!!! abstract "{said["defined"]}"', "", f"    {items}", ""]


def page_footer(path: str, graph: Graph, pages: frozenset[str], language: str | None = None) -> list[str]:
    """Markdown appended to a rule page: every site page that links to it, from the link graph."""
    sources = [p for p in graph.referenced_by(path) if p in pages and p != path]
    said = words(language)
    lines = ["", "---", "", f"## {said['referenced']} {{#referenced-by .vs-referenced-by}}", ""]
    if not sources:
        return lines + [said["no-references"], ""]
    base = posixpath.dirname(path) or "."
    for source in sources:
        lines.append(f"- [{title_of(graph, source)} (`{source}`)]({posixpath.relpath(source, base)})")
    return lines + [""]


def glossary(
    concepts: Sequence[Concept], previews: Previews, pages: frozenset[str], language: str | None = None
) -> str:
    """The glossary page: every concept of the registry, one line from its owner, linked to it."""
    said = words(language)
    lines = [f"# {said['glossary']} {{#glossary}}", "", said["glossary-intro"], ""]
    letter = ""
    for concept in sorted(concepts, key=lambda c: (c.name.strip("«»").lower(), c.file)):
        initial = next((ch for ch in concept.name if ch.isalnum()), concept.name[0]).upper()
        if initial != letter:
            letter = initial
            lines += [f"## {letter} {{#letter-{letter.lower()}}}", ""]
        paragraph = previews.paragraph(concept)
        line = first_sentence(paragraph) if paragraph else said["not-written"]
        also = f" {said['also']}: {', '.join(_shown_aliases(concept))}." if _shown_aliases(concept) else ""
        link = f"[{concept.name}]({concept.target})" if concept.file in pages else concept.name
        lines.append(f"- **{link}**: {line}{also} ({concept.file})")
        lines.append("")
    return "\n".join(lines)


def _shown_aliases(concept: Concept) -> list[str]:
    """The other forms a glossary line lists: each once, whatever the case of its first letter."""
    seen = {concept.name.lower()}
    shown = []
    for alias in concept.aliases:
        if alias.lower() not in seen:
            seen.add(alias.lower())
            shown.append(alias)
    return shown
