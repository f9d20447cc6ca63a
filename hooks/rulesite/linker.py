"""Links added while a page is converted: rule-file mentions, concept links with previews, diagrams.

This is a Python-Markdown tree processor. It runs on the element tree of each page after inline
markdown is parsed (so text, inline code, links and headings are real elements) and before MkDocs'
own link processor, which then resolves and validates the links added here exactly like
hand-written ones. Fenced code is stashed by superfences and never reaches this tree, so code
blocks are never touched; inline code is linked only when it is a whole rule-file path.
"""

from __future__ import annotations

import posixpath
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

from .registry import Concept

MENTION = re.compile(r"(?<![\w/.-])((?:core|sequences|timing|commands)/[\w-]+\.md)(#[\w-]+)?(?![\w/-])")
DIAGRAM_SLOT = re.compile(r"^VSDIAGRAM:(\d+)$")
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_NEVER = {"a", "pre", "script", "style", "svg", "abbr", "summary", "button"} | _HEADINGS


@dataclass
class PageContext:
    """What the tree processor needs to know about the page being converted."""

    src_uri: str  # the page's path from the repository root, e.g. core/shooting.md
    files: frozenset[str]  # every page of the site, by the same kind of path
    concepts: tuple[Concept, ...] = ()
    tooltip: Callable[[Concept], str] = lambda concept: concept.name
    diagrams: dict[int, ET.Element] = field(default_factory=dict)

    def href(self, target: str) -> str:
        """A link from this page to ``target`` (``path.md`` or ``path.md#anchor``), as markdown writes it."""
        path, _, anchor = target.partition("#")
        if path == self.src_uri:
            return f"#{anchor}" if anchor else posixpath.basename(path)
        rel = posixpath.relpath(path, posixpath.dirname(self.src_uri) or ".")
        return f"{rel}#{anchor}" if anchor else rel

    def resolve(self, href: str) -> str:
        """The repository path (with ``#anchor``) that a relative ``href`` on this page points at."""
        path, _, anchor = href.partition("#")
        full = (
            posixpath.normpath(posixpath.join(posixpath.dirname(self.src_uri), path))
            if path
            else self.src_uri
        )
        return f"{full}#{anchor}" if anchor else full


class _Concepts:
    """Finds concept names in text (case as the registry writes them, longest spelling first)."""

    def __init__(self, concepts: Iterable[Concept]) -> None:
        self.by_spelling: dict[str, Concept] = {}
        for concept in concepts:
            for spelling in concept.names:
                self.by_spelling.setdefault(spelling, concept)
        names = sorted(self.by_spelling, key=len, reverse=True)
        alternation = "|".join(re.escape(n) for n in names)
        self.pattern = re.compile(rf"(?<![\w'-])({alternation})(s?)(?![\w'-])") if names else None
        self.by_target = {c.target: c for c in self.by_spelling.values()}


class RulesLinker(Treeprocessor):
    def __init__(self, md: Markdown, context: Callable[[], PageContext | None]) -> None:
        super().__init__(md)
        self._context = context

    def run(self, root: ET.Element) -> None:
        page = self._context()
        if page is None:
            return
        self.page = page
        self.concepts = _Concepts(page.concepts)
        self.section: str | None = None
        self.linked: set[str] = set()
        self._walk(root)

    # -- walking the tree -------------------------------------------------------------------------

    def _walk(self, element: ET.Element) -> None:
        if element.text and element.tag not in _NEVER and element.tag != "code":
            lead, new = self._link_text(element.text)
            element.text = lead
            for i, child in enumerate(new):
                element.insert(i, child)
            skip = len(new)
        else:
            skip = 0
        for child in list(element)[skip:]:
            self._visit(element, child)

    def _visit(self, parent: ET.Element, child: ET.Element) -> None:
        slot: ET.Element | None = self._diagram(child)
        if slot is not None:
            index = list(parent).index(child)
            slot.tail = child.tail
            parent.remove(child)
            parent.insert(index, slot)
            child = slot
        elif child.tag in _HEADINGS:
            self.section = child.get("id")
            self.linked = set()
        elif child.tag == "a":
            self._note_existing_link(child)
        elif child.tag == "code":
            child = self._link_code(parent, child)
        elif child.tag not in _NEVER and "admonition-title" not in child.get("class", ""):
            self._walk(child)
        if child.tail:
            lead, new = self._link_text(child.tail)
            child.tail = lead
            index = list(parent).index(child)
            for offset, element in enumerate(new, start=1):
                parent.insert(index + offset, element)

    # -- the three kinds of addition ------------------------------------------------------------

    def _diagram(self, element: ET.Element) -> ET.Element | None:
        if element.tag != "p" or len(element) or not element.text:
            return None
        match = DIAGRAM_SLOT.match(element.text.strip())
        return self.page.diagrams.get(int(match.group(1))) if match else None

    def _note_existing_link(self, link: ET.Element) -> None:
        href = link.get("href", "")
        if "://" in href:
            return
        concept = self.concepts.by_target.get(self.page.resolve(href))
        if concept is not None:
            self.linked.add(concept.target)

    def _link_code(self, parent: ET.Element, code: ET.Element) -> ET.Element:
        match = MENTION.fullmatch((code.text or "").strip())
        if match is None or match.group(1) not in self.page.files:
            return code
        link = ET.Element("a", {"href": self.page.href(match.group(1) + (match.group(2) or ""))})
        index = list(parent).index(code)
        parent.remove(code)
        link.tail, code.tail = code.tail, None
        link.append(code)
        parent.insert(index, link)
        return link

    def _link_text(self, text: str) -> tuple[str, list[ET.Element]]:
        """Split ``text`` into its leading part and link elements (each carrying the text after it)."""
        spans: list[tuple[int, int, ET.Element]] = []
        for match in MENTION.finditer(text):
            if match.group(1) in self.page.files:
                link = ET.Element("a", {"href": self.page.href(match.group(0))})
                link.text = match.group(0)
                spans.append((match.start(), match.end(), link))
        if self.concepts.pattern is not None:
            for match in self.concepts.pattern.finditer(text):
                if any(s < match.end() and match.start() < e for s, e, _ in spans):
                    continue
                concept_link = self._concept_link(match.group(0), self.concepts.by_spelling[match.group(1)])
                if concept_link is not None:
                    spans.append((match.start(), match.end(), concept_link))
        if not spans:
            return text, []
        spans.sort(key=lambda span: span[0])
        lead = text[: spans[0][0]]
        for (_, end, link), following in zip(spans, [*spans[1:], None], strict=True):
            link.tail = text[end : following[0] if following else len(text)]
        return lead, [link for _, _, link in spans]

    def _concept_link(self, text: str, concept: Concept) -> ET.Element | None:
        defining = concept.file == self.page.src_uri and self.section == concept.anchor
        if defining or concept.target in self.linked or concept.file not in self.page.files:
            return None
        self.linked.add(concept.target)
        link = ET.Element(
            "a",
            {
                "href": self.page.href(concept.target),
                "title": self.page.tooltip(concept),
                "class": "vs-concept",
            },
        )
        link.text = text
        return link


class RulesLinkerExtension(Extension):
    """Registers the tree processor after attr_list (8) and abbr (7), before toc (5) and MkDocs' links (0)."""

    def __init__(self, context: Callable[[], PageContext | None]) -> None:
        super().__init__()
        self._context = context

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 - Python-Markdown's name
        md.treeprocessors.register(RulesLinker(md, self._context), "voidsiege_links", 6)
