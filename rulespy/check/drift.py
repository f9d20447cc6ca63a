"""Drift between the steps the rules number and the steps the engine runs (finding code RS060).

Two pairs are compared, each in order:

- the numbered step headings of ``sequences/shooting_sequence.md`` (``### 1. Declare the attack
  {#step-declare}``) with ``STEPS`` in ``rulespy/sequences/steps.py``;
- the step headings of ``timing/firefight.md`` (``### 1. Initiative criticals
  {#firefight-initiative-criticals}``) with ``FIREFIGHT_STEPS`` in ``rulespy/timing/firefight.py``.

Both sides are read from the checked tree itself: the rule file with the checker's markdown parser, the
engine file with ``ast`` (the constant must be a literal tuple or list of strings, or ``tuple(Phase)`` of
an enum class in the same file whose members are the step ids). The engine Python
has imported is never consulted, so checking another checkout compares that checkout's rules with that
checkout's engine. A tree without a ``rulespy/`` folder has no engine to compare and gets no RS060.

A step heading is a heading of level 2 or more with an explicit id whose text starts with a number and a
full stop, or whose id starts with the pair's prefix (``step-``, ``firefight-``). A step on one side only,
or in a different place in the order, is a finding: at the heading's line, or at line 1 of the rule file
for a step only the code has (the message names the engine file and line). A missing rule file gives no
finding (the link checks report missing files); an engine file without a readable literal list gives
one finding at line 1 of the rule file.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulespy.check.doc import Heading
from rulespy.check.findings import Finding

if TYPE_CHECKING:
    from rulespy.book.book import Book
    from rulespy.check.cache import DocumentCache

CODE = "RS060"
ENGINE = "rulespy"
"""The folder of a tree that carries the engine."""
_NUMBERED = re.compile(r"^\d+\.\s")


@dataclass(frozen=True)
class StepPair:
    """One rule file's numbered steps and the engine file and constant that must list the same ids."""

    rules: str
    prefix: str
    source: str
    constant: str


PAIRS = (
    StepPair("sequences/shooting_sequence.md", "step-", "rulespy/sequences/steps.py", "STEPS"),
    StepPair("timing/firefight.md", "firefight-", "rulespy/timing/firefight.py", "FIREFIGHT_STEPS"),
)


@dataclass(frozen=True)
class EngineSteps:
    """The step ids an engine file lists, the line of its constant and of each id."""

    steps: tuple[str, ...]
    line: int
    lines: dict[str, int]


def rule_steps(pair: StepPair, text: str, book: Book | None = None) -> list[Heading]:
    """The step headings of the rule file (``text``), in reading order: its page in ``book`` (the run's
    rule book, which the per-file checks parsed it into), else the page the book would read."""
    from rulespy.book.book import page_of  # only trees that carry an engine pay for the parser

    page = book.page(pair.rules, text) if book is not None else None
    headings = (page or page_of(pair.rules, pair.rules, text)).document.headings
    return [
        h
        for h in headings
        if h.level >= 2 and h.explicit and (_NUMBERED.match(h.text) or h.anchor.startswith(pair.prefix))
    ]


def engine_steps(pair: StepPair, source: str) -> EngineSteps | None:
    """The module-level ``pair.constant`` of an engine file's source, or ``None`` when the file does not
    assign it a literal tuple or list of strings, or ``tuple(Name)`` of a class of that module whose
    body assigns string constants (an enum of named phases), or does not parse.

    >>> engine_steps(PAIRS[0], 'STEPS = (\\n    "step-declare",\\n    "step-removal",\\n)\\n')
    EngineSteps(steps=('step-declare', 'step-removal'), line=1, lines={'step-declare': 2, 'step-removal': 3})
    >>> phases = 'class Phase(StrEnum):\\n    DECLARE = "step-declare"\\n\\nSTEPS = tuple(Phase)\\n'
    >>> engine_steps(PAIRS[0], phases)
    EngineSteps(steps=('step-declare',), line=4, lines={'step-declare': 2})
    >>> engine_steps(PAIRS[0], "STEPS = tuple(names)") is None
    True
    """
    try:
        module = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    classes = {node.name: node for node in module.body if isinstance(node, ast.ClassDef)}
    for node in module.body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if value is None or not any(isinstance(t, ast.Name) and t.id == pair.constant for t in targets):
            continue
        items = _listed(value, classes)
        if items is None or not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in items):
            return None
        steps = tuple(str(e.value) for e in items if isinstance(e, ast.Constant))
        lines: dict[str, int] = {}
        for element, step in zip(items, steps, strict=True):
            lines.setdefault(step, element.lineno)
        return EngineSteps(steps, node.lineno, lines)
    return None


def _listed(value: ast.expr, classes: dict[str, ast.ClassDef]) -> list[ast.expr] | None:
    """The elements of a literal tuple or list, or the assigned values of the class in ``tuple(Class)``."""
    if isinstance(value, ast.Tuple | ast.List):
        return list(value.elts)
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in ("tuple", "list")
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], ast.Name)
        and value.args[0].id in classes
    ):
        body = classes[value.args[0].id].body
        return [statement.value for statement in body if isinstance(statement, ast.Assign)]
    return None


def _lcs(a: list[str], b: list[str]) -> set[str]:
    """The steps of the longest common subsequence of two orders (the ones that are in place)."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a) - 1, -1, -1):
        for j in range(len(b) - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if a[i] == b[j] else max(table[i + 1][j], table[i][j + 1])
    kept, i, j = set(), 0, 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            kept.add(a[i])
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return kept


def compare(pair: StepPair, text: str, engine: EngineSteps, book: Book | None = None) -> list[Finding]:
    """The RS060 findings of one pair, given the rule file's text and the engine file's steps."""
    headings = rule_steps(pair, text, book)
    steps = engine.steps
    where = f"{pair.source}:{engine.line}"
    found: list[Finding] = []
    written = [h.anchor for h in headings]
    for heading in headings:
        if heading.anchor not in steps:
            found.append(
                Finding(
                    pair.rules,
                    heading.line,
                    1,
                    CODE,
                    f"step #{heading.anchor} is numbered here but the engine never runs it "
                    f"({pair.constant} in {where})",
                )
            )
    for step in steps:
        if step not in written:
            found.append(
                Finding(
                    pair.rules,
                    1,
                    1,
                    CODE,
                    f"the engine runs step {step!r} ({pair.constant} in {pair.source}:"
                    f"{engine.lines.get(step, engine.line)}) but no numbered heading here "
                    f"has the id #{step}",
                )
            )
    both_rules = [a for a in written if a in steps]
    both_code = [s for s in steps if s in written]
    in_place = _lcs(both_rules, both_code)
    for heading in headings:
        if heading.anchor in both_code and heading.anchor not in in_place:
            found.append(
                Finding(
                    pair.rules,
                    heading.line,
                    1,
                    CODE,
                    f"step #{heading.anchor} is step {both_rules.index(heading.anchor) + 1} "
                    f"here but step {both_code.index(heading.anchor) + 1} in the engine's "
                    f"{pair.constant} ({where})",
                )
            )
    return found


def _read(file: Path) -> str | None:
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None  # the checker reports unreadable markdown (RS040); unreadable code: see below


def findings(
    root: Path | str, cache: DocumentCache | None = None, book: Book | None = None
) -> list[Finding]:
    """Every RS060 finding for the rules repository at ``root``, sorted by path and line. With an enabled
    ``cache``, they are remembered under a hash of the files compared (``NAME.drift.pickle``), so an
    unchanged repository parses neither the rule files nor the engine's sources again. ``book``: the
    run's rule book, whose pages the rule files are read as (parsed once for the run)."""
    base = Path(root)
    if not (base / ENGINE).is_dir():
        return []
    inputs: list[tuple[str | None, str | None]] = []
    for pair in PAIRS:
        text = _read(base / pair.rules) if (base / pair.rules).is_file() else None
        inputs.append((text, None if text is None else _read(base / pair.source)))
    key = None
    if cache is not None and cache.enabled:
        from rulespy.check.cache import digest

        key = digest(repr(inputs).encode("utf-8", "surrogatepass"))
        stored = cache.load_blob(cache.drift_file, key)
        if stored is not None and len(stored) == 1 and isinstance(stored[0], tuple):
            return list(stored[0])
    found: list[Finding] = []
    for pair, (text, source) in zip(PAIRS, inputs, strict=True):
        if text is None:
            continue
        engine = None if source is None else engine_steps(pair, source)
        if engine is None:
            why = f"assigns no literal list to {pair.constant}"
            if source is None:
                why = "is missing or unreadable"
            message = f"cannot compare the numbered steps with the engine: {pair.source} {why}"
            found.append(Finding(pair.rules, 1, 1, CODE, message))
            continue
        found.extend(compare(pair, text, engine, book))
    result = sorted(found, key=lambda f: (f.path, f.line, f.column, f.message))
    if cache is not None and key is not None:
        cache.save_blob(cache.drift_file, key, (tuple(result),))
    return result
