"""What the site adds around the rule text: the navigation, each page's owned concepts and
"Referenced by" list, and the generated glossary.

"Referenced by" comes from ``rulespy.check.graph`` (``build_graph``), the same link graph
``rulespy check`` uses, so the site and the checker can never disagree about who links where.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from typing import Any

from rulespy.check.files import RULE_DIRS
from rulespy.check.graph import LinkGraph as Graph
from rulespy.check.graph import resolve  # the checker's own link resolution, not a second one

from .registry import Concept, Previews, first_sentence

RULE_FOLDERS = RULE_DIRS  # the checker's rule folders: one list for the whole project
GLOSSARY = "glossary.md"
RULEBOOK = "voidsiege-rules.pdf"


def rulebook_link() -> str:
    """The home page's link to the printable rulebook. Raw HTML on purpose: the PDF is printed from the
    built site, so it is not among the pages the generators validate links against (the browser
    test follows this link like every other)."""
    return f'<p class="vs-rulebook"><a href="{RULEBOOK}">The whole rulebook as one printable PDF</a></p>'


def is_rule_file(path: str) -> bool:
    return path.endswith(".md") and path.split("/", 1)[0] in RULE_FOLDERS and "/" in path


def title_of(graph: Graph, path: str) -> str:
    """A page's title: its first level-1 heading, else its file name."""
    for heading in graph.headings(path):
        if heading.level == 1:
            return heading.text
    return posixpath.basename(path).removesuffix(".md").replace("_", " ").capitalize()


def navigation(pages: Iterable[str], graph: Graph) -> list[Any]:
    """Home, one section per rule folder, Glossary. Pages keep the order in which the home page links
    them (the reading order its authors chose); pages it does not link follow, sorted by path."""
    pages = sorted(pages)
    reading = {path: i for i, path in enumerate(_in_link_order(graph, "index.md"))}
    nav: list[Any] = [{"Home": "index.md"}] if "index.md" in pages else []
    for folder in RULE_FOLDERS:
        inside = [p for p in pages if p.startswith(folder + "/")]
        inside.sort(key=lambda p: (reading.get(p, len(reading)), p))
        if inside:
            nav.append({folder.capitalize(): inside})
    if GLOSSARY in pages:
        nav.append({"Glossary": GLOSSARY})
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


def page_header(path: str, concepts: Sequence[Concept]) -> list[str]:
    """Markdown placed under a rule page's title: the concepts the page owns, each linked."""
    owned = [c for c in concepts if c.file == path]
    if not owned:
        return []
    items = ", ".join(f"[{c.name}](#{c.anchor})" + (" (term)" if c.terminology else "") for c in owned)
    return ['!!! abstract "Defined on this page"', "", f"    {items}", ""]


def page_footer(path: str, graph: Graph, pages: frozenset[str]) -> list[str]:
    """Markdown appended to a rule page: every site page that links to it, from the link graph."""
    sources = [p for p in graph.referenced_by(path) if p in pages and p != path]
    lines = ["", "---", "", "## Referenced by {#referenced-by .vs-referenced-by}", ""]
    if not sources:
        return lines + ["No other page links here yet.", ""]
    base = posixpath.dirname(path) or "."
    for source in sources:
        lines.append(f"- [{title_of(graph, source)} (`{source}`)]({posixpath.relpath(source, base)})")
    return lines + [""]


def glossary(concepts: Sequence[Concept], previews: Previews, pages: frozenset[str]) -> str:
    """The glossary page: every concept of the registry, one line from its owner, linked to it."""
    lines = [
        "# Glossary {#glossary}",
        "",
        "Every concept of the rules, in alphabetical order, with the first sentence of the rule that",
        "defines it. Each name links to that rule: the rule file is the definition, this page only points",
        "at it. It is generated from `concepts.yml` each time the site is built.",
        "",
    ]
    letter = ""
    for concept in sorted(concepts, key=lambda c: (c.name.lower(), c.file)):
        initial = concept.name[0].upper()
        if initial != letter:
            letter = initial
            lines += [f"## {letter} {{#letter-{letter.lower()}}}", ""]
        paragraph = previews.paragraph(concept)
        line = first_sentence(paragraph) if paragraph else "Not yet written in its owner file."
        also = f" Also written: {', '.join(concept.aliases)}." if concept.aliases else ""
        link = f"[{concept.name}]({concept.target})" if concept.file in pages else concept.name
        lines.append(f"- **{link}**: {line}{also} ({concept.file})")
        lines.append("")
    return "\n".join(lines)
