"""Worked examples: find each executable example's scenario and present it as a readable Example block.

A worked example (``rulespy.check.examples.worked_examples``, the definition coverage uses too) gets a
board when it builds a scenario from an inline YAML string passed to ``play``, ``refused`` or
``parse_scenario`` (``load_scenario("path")`` reads the file). The YAML is read from the code by
``rulespy.check.examples`` (with ``ast``, never by running the code), the same reader ``rulespy
coverage`` and ``rulespy diff`` use, and the fence is replaced by an ``!!! example`` block: the diagram,
a one-line summary of the setup, and the unchanged fence folded beneath (``??? example``), which is what
the test suite executes."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from rulespy.check.examples import scenario_texts, worked_examples


@dataclass(frozen=True)
class Example:
    """One example fence: its lines in the page (0-based, end exclusive) and the scenarios it builds."""

    start: int
    end: int
    indent: str
    scenarios: tuple[dict[str, Any], ...]
    odds_source: str | None = None  # the first scenario's text, when the fence asks for its odds


def scenario_sources(code: str, root: Path | None = None) -> list[str]:
    """The scenario texts ``code`` plays (``rulespy.check.examples``), dedented, in order and without repeats
    (the same scenario passed twice is one board); callers keep those that are scenarios."""
    return list(dict.fromkeys(textwrap.dedent(text) for text in scenario_texts(code, root)))


def _scenario(text: str) -> dict[str, Any] | None:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None  # a deliberately malformed scenario (an example of an input error): no board to draw
    if not isinstance(data, dict) or not isinstance(data.get("units"), list):
        return None
    return data


def find_examples(markdown: str, root: Path | None = None) -> list[Example]:
    """Every worked example of ``markdown`` that sets up at least one board."""
    examples: list[Example] = []
    lines = markdown.splitlines()
    for worked in worked_examples(markdown):
        sources = [t for t in scenario_sources(worked.content, root) if _scenario(t) is not None]
        if sources:
            first = lines[worked.line - 1]
            indent = first[: len(first) - len(first.lstrip())]
            boards = tuple(s for s in map(_scenario, sources) if s is not None)
            odds_source = sources[0] if ODDS_MARKER in worked.content else None
            examples.append(Example(worked.line - 1, worked.end, indent, boards, odds_source))
    return examples


ODDS_MARKER = "# show the odds"
"""A comment line in an example fence that asks the site to show the exact odds of its attack."""


def odds_block(source: str) -> list[str]:
    """The exact casualty odds of the scenario in ``source``, computed by rulespy at build time."""
    from rulespy.odds import markdown_table
    from rulespy.scenario import parse_scenario

    table = markdown_table(parse_scenario(source, "<example>")).strip().splitlines()
    lead = "Before any die is rolled, the exact odds of this attack (computed by `rulespy odds`):"
    return [lead, "", *table]


def _names(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def summary(scenario: dict[str, Any]) -> str:
    """One plain sentence saying who shoots at whom, with which mark and which dice."""
    attack = scenario.get("attack") or {}
    parts: list[str] = []
    if isinstance(attack, dict) and attack.get("unit"):
        command = str(attack.get("command", "shoot")).replace("_", " ")
        targets = [t for t in attack.get("targets") or () if isinstance(t, dict)]
        aimed = [f"*{t.get('unit')}* (marking {t.get('mark')})" for t in targets]
        against = _names(aimed) if aimed else "no one"
        parts.append(f"The *{attack['unit']}* unit uses the {command} command against {against}.")
    response = scenario.get("response")
    if isinstance(response, dict) and response.get("command"):
        command = str(response["command"]).replace("_", " ")
        parts.append(f"The target answers with {command} (marking {response.get('mark')}).")
    if isinstance(scenario.get("dice"), list):
        parts.append("Dice, in order: " + ", ".join(str(d) for d in scenario["dice"]) + ".")
    elif "seed" in scenario:
        parts.append(f"Dice: seeded random dice (seed {scenario['seed']}).")
    return " ".join(parts)


def example_block(example: Example, fence: list[str], first_slot: int) -> list[str]:
    """The markdown that replaces an example fence: Example block, diagrams, summary, folded code."""
    pad = example.indent
    first = example.scenarios[0]
    description = str(first.get("description") or "").strip().replace('"', "'")
    title = description if description and len(description) <= 90 else "Worked example"
    out = [f'{pad}!!! example "{title}"', ""]
    if description and description != title:
        out += [f"{pad}    {' '.join(description.split())}", ""]
    for offset, scenario in enumerate(example.scenarios):
        out += [f"{pad}    VSDIAGRAM:{first_slot + offset}", ""]
        line = summary(scenario)
        if line:
            out += [f"{pad}    {line}", ""]
    if example.odds_source is not None:
        out += [f"{pad}    {row}" if row else "" for row in odds_block(example.odds_source)] + [""]
    out += [f'{pad}    ??? example "The executable check (run by the test suite)"', ""]
    out += [("        " + line) if line.strip() else "" for line in fence]
    return out + [""]
