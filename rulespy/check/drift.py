"""Drift between the steps the rules number and the steps the engine runs (finding code RS060).

Two pairs are compared, each in order:

- the numbered step headings of ``sequences/shooting_sequence.md`` (``### 1. Declare the attack
  {#step-declare}``) with ``rulespy.sequences.steps.STEPS``;
- the step headings of ``timing/firefight.md`` (``### 1. Initiative criticals
  {#firefight-initiative-criticals}``) with ``rulespy.timing.firefight.FIREFIGHT_STEPS``.

A step heading is a heading with an explicit id whose text starts with a number and a full stop, or whose
id starts with the pair's prefix (``step-``, ``firefight-``). A step on one side only, or in a different
place in the order, is a finding: at the heading's line, or at line 1 of the rule file for a step only the
code has (the message names the code's file and line). A missing rule file gives no finding (the link
checks report missing files). The engine's lists are read when ``findings`` runs, so a test may
monkeypatch them.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from dataclasses import dataclass
from pathlib import Path

from rulespy.check.findings import Finding
from rulespy.coverage.rules import Section, parse_rule_file

CODE = "RS060"
_NUMBERED = re.compile(r"^\d+\.\s")


@dataclass(frozen=True)
class StepPair:
    """One rule file's numbered steps and the engine constant that must list the same ids."""

    rules: str
    prefix: str
    module: str
    constant: str


PAIRS = (
    StepPair("sequences/shooting_sequence.md", "step-", "rulespy.sequences.steps", "STEPS"),
    StepPair("timing/firefight.md", "firefight-", "rulespy.timing.firefight", "FIREFIGHT_STEPS"),
)


def rule_steps(pair: StepPair, text: str) -> list[Section]:
    """The step headings of the rule file, in reading order."""
    sections = parse_rule_file(pair.rules, text).sections
    return [s for s in sections if _NUMBERED.match(s.title) or s.anchor.startswith(pair.prefix)]


def code_steps(pair: StepPair) -> tuple[tuple[str, ...], str, dict[str, int]]:
    """The engine's step ids, the file that defines them, and the line of each (or of the constant)."""
    module = importlib.import_module(pair.module)
    steps = tuple(str(s) for s in getattr(module, pair.constant, ()))
    try:
        source = inspect.getsourcefile(module) or pair.module
        tree = ast.parse(Path(source).read_text(encoding="utf-8"))
    except (OSError, TypeError, SyntaxError, ValueError):
        return steps, pair.module.replace(".", "/") + ".py", {}
    lines: dict[str, int] = {}
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if any(isinstance(t, ast.Name) and t.id == pair.constant for t in targets):
            assert isinstance(node, ast.Assign)
            lines[""] = node.lineno
            for element in ast.walk(node.value):
                if isinstance(element, ast.Constant) and isinstance(element.value, str):
                    lines.setdefault(element.value, element.lineno)
    return steps, _shown(source), lines


def _shown(source: str) -> str:
    parts = Path(source).parts
    return "/".join(parts[parts.index("rulespy") :]) if "rulespy" in parts else source


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


def compare(pair: StepPair, text: str) -> list[Finding]:
    """The RS060 findings of one pair, given the rule file's text."""
    headings = rule_steps(pair, text)
    steps, source, lines = code_steps(pair)
    where = f"{source}:{lines.get('', 1)}"
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
                    f"the engine runs step {step!r} ({pair.constant} in {source}:"
                    f"{lines.get(step, lines.get('', 1))}) but no numbered heading here "
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


def findings(root: Path | str) -> list[Finding]:
    """Every RS060 finding for the rules repository at ``root``, sorted by path and line."""
    base = Path(root)
    found: list[Finding] = []
    for pair in PAIRS:
        file = base / pair.rules
        if not file.is_file():
            continue
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # the checker reports unreadable files (RS040)
        found.extend(compare(pair, text))
    return sorted(found, key=lambda f: (f.path, f.line, f.column, f.message))
