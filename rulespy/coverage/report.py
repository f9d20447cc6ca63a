"""The coverage report: for every rule section and owned concept, its code, its examples, its tests.

An example exercises a section in three ways, all counted: it sits in the section (or in a section nested
in it), it names it in a ``# exercises: PATH#ANCHOR`` line, or its trace cites it when it runs (each
``resolve`` the example calls, and the rule of an illegal declaration it provokes). The examples run
contained (``sandbox.py``: one forked process per rule file, temporary folder, scrubbed environment and
5 s limit per example, well under a second per example in all), so it is on by default; ``run=False``
skips it.

The report fails (``Report.failed``) when an owned concept with a mechanic has no executed example in its
owner file, when code cites a rule that does not exist, when an ``exercises`` marker names a rule that
does not exist, when the steps of the rules and the engine drift apart (RS060), or when a worked example
that ran failed (a failing example is never a passing report).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulespy.check import drift
from rulespy.coverage.code import Citation, anchor_index, anchors_named, citations, unit_tests
from rulespy.coverage.rules import Concept, CoverageError, Example, RuleFile, load_rule_files, open_book

if TYPE_CHECKING:
    from rulespy.coverage.sandbox import Sandbox


@dataclass
class Entry:
    """One rule section (or a registry concept whose heading is missing)."""

    path: str
    anchor: str
    title: str
    line: int
    concept: str | None = None
    terminology: bool = False
    heading: bool = True
    functions: list[str] = field(default_factory=list)
    examples: dict[str, set[str]] = field(default_factory=dict)
    tests: list[str] = field(default_factory=list)

    @property
    def ref(self) -> str:
        return f"{self.path}#{self.anchor}"

    @property
    def mechanic(self) -> bool:
        return not self.terminology

    def owner_examples(self) -> list[str]:
        return sorted(e for e in self.examples if e.startswith(f"{self.path}:"))

    def to_json(self) -> dict[str, Any]:
        return {
            "rule": self.ref,
            "title": self.title,
            "line": self.line,
            "concept": self.concept,
            "terminology": self.terminology,
            "heading": self.heading,
            "functions": self.functions,
            "examples": [{"example": e, "via": sorted(v)} for e, v in sorted(self.examples.items())],
            "tests": self.tests,
        }


@dataclass
class Report:
    entries: list[Entry]
    problems: list[tuple[str, int, str]]
    drift: list[Any]
    example_runs: dict[str, dict[str, Any]]
    ran: bool

    def concepts(self) -> list[Entry]:
        return [e for e in self.entries if e.concept is not None and e.mechanic]

    def uncovered(self) -> list[Entry]:
        return [e for e in self.concepts() if not e.owner_examples()]

    @property
    def failed(self) -> bool:
        return bool(self.uncovered() or self.problems or self.drift or self.failing_examples())

    def failing_examples(self) -> list[str]:
        return sorted(name for name, run in self.example_runs.items() if run.get("error"))

    def totals(self) -> dict[str, int]:
        sections = [e for e in self.entries if e.heading and e.mechanic]
        concepts = self.concepts()
        return {
            "sections": len(sections),
            "sections_with_functions": sum(bool(e.functions) for e in sections),
            "sections_with_examples": sum(bool(e.examples) for e in sections),
            "sections_with_tests": sum(bool(e.tests) for e in sections),
            "concepts_with_mechanic": len(concepts),
            "concepts_with_owner_example": len(concepts) - len(self.uncovered()),
            "terminology_concepts": sum(e.concept is not None and e.terminology for e in self.entries),
            "examples": len(self.example_runs),
            "examples_failing": sum(bool(r.get("error")) for r in self.example_runs.values()),
            "bad_citations": sum(p[2].startswith("cites") for p in self.problems),
            "drift_findings": len(self.drift),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "entries": [e.to_json() for e in self.entries],
            "totals": self.totals(),
            "uncovered_concepts": [e.ref for e in self.uncovered()],
            "problems": [{"path": p, "line": n, "message": m} for p, n, m in self.problems],
            "drift": [str(f) for f in self.drift],
            "examples": self.example_runs,
            "examples_ran": self.ran,
        }


def _entries(files: dict[str, RuleFile], concepts: Sequence[Concept]) -> dict[str, Entry]:
    entries: dict[str, Entry] = {}
    for rule in files.values():
        for section in rule.sections:
            entries.setdefault(section.ref, Entry(rule.path, section.anchor, section.title, section.line))
    for concept in concepts:
        entry = entries.get(concept.target)
        if entry is None:
            entry = Entry(concept.file, concept.anchor, concept.name, concept.line, heading=False)
            entries[concept.target] = entry
        entry.concept, entry.terminology = concept.name, concept.terminology
    return entries


def _exists(root: Path, files: dict[str, RuleFile], target: str) -> bool:
    path, _, anchor = target.partition("#")
    rule = files.get(path)
    if rule is None:
        from rulespy.coverage.rules import parse_rule_file

        file = root / path
        if not file.is_file() or ".." in Path(path).parts:
            return False
        try:
            rule = parse_rule_file(path, file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            return False
    return not anchor or anchor in rule.anchors()


def _run_examples(sandbox: Sandbox, root: Path, examples: list[Example]) -> dict[str, dict[str, Any]]:
    """Each example run contained by the engine of the tree at ``root``, with the rules its trace cites
    and its error (``None`` when it passed). Each file's examples run in one sandboxed child
    (``Sandbox.run_file``: its own process group, folder and scrubbed environment, a time limit per
    example), a continuation running only its own code in its chain's namespace, so a file costs time
    in proportion to its size, not one process per example nor its chain again for each fence."""
    from rulespy.coverage.engine import EngineError

    results: dict[str, dict[str, Any]] = {}
    by_file: dict[str, list[Example]] = {}
    for example in examples:
        by_file.setdefault(example.path, []).append(example)
    try:
        for path, group in by_file.items():
            steps = [(e.content, e.line, e.worked.previous is not None) for e in group]
            outcomes = sandbox.run_file(steps, str(root / path), trace=True)
            for example, outcome in zip(group, outcomes, strict=True):
                results[example.name] = {
                    "rules": list(outcome.rules),
                    "error": None if outcome.ok else outcome.error,
                }
    except EngineError as error:
        raise CoverageError(f"cannot run the examples: {error}") from None
    return results


def _assign_tests(root: Path, entries: dict[str, Entry], concepts: Sequence[Concept]) -> None:
    by_anchor: dict[str, list[str]] = {}
    for ref, entry in entries.items():
        if entry.heading:
            by_anchor.setdefault(entry.anchor, []).append(ref)
    owners = {c.target for c in concepts}
    index = anchor_index(set(by_anchor))
    for test in unit_tests(root):
        refs: set[str] = {c for c in test.cites if c in entries}
        for anchor in anchors_named(test.name, index):
            candidates = by_anchor[anchor]
            owned = [r for r in candidates if r in owners]
            mirror = [r for r in candidates if test.path == _mirror(r)]
            refs.update(owned or mirror or candidates)
        for ref in refs:
            entries[ref].tests.append(test.nodeid)


def _mirror(ref: str) -> str:
    """``core/damage.md#x`` -> ``tests/core/test_damage.py``: the test module that mirrors the rule file."""
    folder, _, name = ref.partition("#")[0].rpartition("/")
    return f"tests/{folder}/test_{name.removesuffix('.md')}.py"


def build_report(root: Path, run: bool = True) -> Report:
    """The coverage of the rules repository at ``root``; ``run`` executes the examples for their traces."""
    if not root.is_dir():
        raise CoverageError(f"no such folder: {root}")
    if not run:
        return _build(root, None)
    from rulespy.coverage.sandbox import Sandbox

    sandbox = Sandbox(root, own_engine=True)
    sandbox.start()  # its interpreter imports the engine while this one reads the rule files
    try:
        return _build(root, sandbox)
    finally:
        sandbox.close()


def _build(root: Path, sandbox: Sandbox | None) -> Report:
    book = open_book(root)  # concepts.yml read once, for the rule files and the concepts
    files = load_rule_files(root, book)
    concepts = book.concepts
    entries = _entries(files, concepts)
    examples = [e for rule in files.values() for e in rule.examples]
    with ThreadPoolExecutor(1) as pool:  # the examples run (in the sandbox) while the code is read here
        running = pool.submit(_run_examples, sandbox, root, examples) if sandbox is not None else None
        problems: list[tuple[str, int, str]] = []
        cited: list[Citation] = citations(root)
        for citation in cited:
            if citation.target in entries:
                entries[citation.target].functions.append(citation.qualname)
            elif not _exists(root, files, citation.target):
                problems.append(
                    (
                        citation.path,
                        citation.line,
                        f"cites {citation.target}, which does not exist ({citation.qualname})",
                    )
                )
        _assign_tests(root, entries, concepts)
        drifted = drift.findings(root)
        if running is not None:
            runs = running.result()
        else:
            runs = {e.name: {"rules": [], "error": None} for e in examples}
    for example in examples:
        ways = [(f"{example.path}#{a}", "section") for a in example.sections]
        for marker in example.markers:
            target = example.marker_target(marker)
            ways.append((target, "marker"))
            if target not in entries and not _exists(root, files, target):
                problems.append(
                    (example.path, example.line, f"the example marks {marker}, which does not exist")
                )
        ways.extend((rule, "trace") for rule in runs.get(example.name, {}).get("rules", []))
        for ref, way in ways:
            if ref in entries:
                entries[ref].examples.setdefault(example.name, set()).add(way)
    ordered = sorted(entries.values(), key=lambda e: (e.path, not e.heading, e.line))
    return Report(ordered, sorted(problems), drifted, runs, running is not None)
