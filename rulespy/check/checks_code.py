"""Rule sections carry explicit ids (RS050) and the rules code cites exist (RS051).

Code cites a rule in two ways, both read with ``ast`` and both verified:

- a docstring line (module, class or function docstring) starting with ``Rule:`` followed by a
  repository path ending in ``.md``, optionally ``#anchor``; anything else after ``Rule:`` (such as the
  placeholder ``PATH#ANCHOR``) is not a citation;
- a string literal that is exactly ``PATH.md#anchor``, passed as an argument to a call: the rule an
  ``Event(...)`` cites, the rule an ``IllegalDeclaration(...)`` names, a modifier's rule. A string built
  at run time (an f-string) is not checked.

Python files that do not parse are left to the linters.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from rulespy.check.checks_links import Anchors
from rulespy.check.doc import Document, Link
from rulespy.check.findings import Finding
from rulespy.check.graph import LinkGraph

_CITE_RE = re.compile(r"^\s*Rule:\s*(\S+)")
_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
_RULE_REFERENCE = re.compile(r"[\w./-]+\.md#[\w-]+")


def docstring_citations(node: ast.AST) -> Iterator[tuple[int, str]]:
    """The ``(line, PATH#ANCHOR)`` citations in the docstring of a module, class or function node."""
    body = getattr(node, "body", None)
    if not isinstance(node, _DOCUMENTED) or not body:
        return
    first = body[0]
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)):
        return
    if not isinstance(first.value.value, str) or "Rule:" not in first.value.value:
        return
    for offset, docline in enumerate(first.value.value.split("\n")):
        match = _CITE_RE.match(docline)
        if match is None:
            continue
        cited = match.group(1).rstrip(".,;:)")
        if ".md" in cited:
            yield first.value.lineno + offset, cited


def call_citations(node: ast.AST) -> Iterator[tuple[int, int, str]]:
    """The ``(line, column, PATH#ANCHOR)`` string literals passed to a call node, 1-based.

    >>> call = ast.parse('Event("core/cover.md#light-cover", f"{x}.md#y", text="a.md#b c")').body[0].value
    >>> list(call_citations(call))
    [(1, 7, 'core/cover.md#light-cover')]
    """
    if not isinstance(node, ast.Call):
        return
    for argument in (*node.args, *(k.value for k in node.keywords)):
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            if _RULE_REFERENCE.fullmatch(argument.value):
                yield argument.lineno, argument.col_offset + 1, argument.value


def citations(path: str, data: bytes) -> Document:
    """The ``Rule:`` citations of one Python file, as ``citation`` links."""
    try:
        text = data.decode("utf-8")
        module = ast.parse(text, filename=path)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        return Document(path, problems=((line, 1, "RS040", "not UTF-8"),))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return Document(path)
    lines = text.split("\n")
    found: list[Link] = []
    for node in ast.walk(module):
        for line, cited in docstring_citations(node):
            source = lines[line - 1] if 0 < line <= len(lines) else ""
            column = source.find("Rule:") + 1 if "Rule:" in source else 1
            found.append(Link(cited, line, column, "citation"))
        for line, column, cited in call_citations(node):
            found.append(Link(cited, line, column, "citation"))
    return Document(path, links=tuple(sorted(found, key=lambda link: (link.line, link.column))))


def check_citation_document(anchors: Anchors, path: str, document: Document) -> Iterator[Finding]:
    """RS040 and RS051 for one Python file's ``Rule:`` citations."""
    tree = anchors.graph.tree
    for line, column, problem, message in document.problems:
        yield Finding(path, line, column, problem, message)
    for cite in document.links:
        file, hashmark, fragment = cite.target.partition("#")
        if tree.kind(file) != "file":
            message = f"cites {cite.target}, but {file} does not exist"
            yield Finding(path, cite.line, cite.column, "RS051", message)
        elif hashmark:
            why = anchors.missing(file, fragment) if fragment else f"empty anchor after {file}#"
            if why is not None:
                yield Finding(path, cite.line, cite.column, "RS051", f"cites {cite.target}: {why}")


def check_rule_heading_document(graph: LinkGraph, path: str, document: Document) -> Iterator[Finding]:
    """RS050 for one file: in a rule folder, every heading of level 2+ carries ``{#id}``."""
    if graph.tree.is_rule_file(path):
        for heading in document.headings:
            if heading.level >= 2 and not heading.explicit:
                marks = "#" * heading.level
                message = (
                    f"rule section {heading.text!r} has no explicit id: "
                    f"write `{marks} {heading.text} {{#{heading.anchor}}}`"
                )
                yield Finding(path, heading.line, heading.column, "RS050", message)
