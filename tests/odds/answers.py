"""Every attack whose exact odds the project shows, and the exact answer recorded for each.

``answers.json`` holds, for each scenario (keyed by a hash of its YAML text, so that moving an example
within its page changes nothing), the exact casualty distribution of its first target unit and a
SHA-256 digest of the full distribution of final states (each model's wounds left, the casualties with
their removal timing, the Pinned survivors, each with its exact probability). It was recorded from the
engine before the odds engine was rewritten for speed (issue 15); ``test_answers.py`` proves every
recorded scenario still found in the tree has the same answer. The eight scenarios and examples of
the rulings of 2026-11-30, which reached main while the rewrite was under way, were recorded when the
two were merged, once the engine of main before the merge had given them the very same answers. The
scenarios: every file in ``examples/scenarios/``, every scenario a worked example in a rule file plays,
the odds tests' scenarios and the bench attacks (``bench/odds_attacks.py``).

Record again (only when a rule change is meant to change an answer):
``.venv/bin/python -m tests.odds.answers > tests/odds/answers.json``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import sys
from collections.abc import Iterator, Mapping
from fractions import Fraction
from pathlib import Path

from rulespy.check.examples import scenario_texts
from rulespy.errors import RulesError
from rulespy.scenario import parse_scenario
from rulespy.state import Scenario

ROOT = Path(__file__).resolve().parents[2]
RULE_FOLDERS = ("core", "sequences", "timing", "commands")
_FENCE = re.compile(r"^```\{\.python[^}]*\}\n(.*?)^```", re.M | re.S)
Answer = list[list[object]]


def scenarios() -> Iterator[tuple[str, str]]:
    """Every scenario to check, by name, as YAML text."""
    for path in sorted((ROOT / "examples" / "scenarios").glob("*.yaml")):
        yield f"examples/scenarios/{path.name}", path.read_text(encoding="utf-8")
    for folder in RULE_FOLDERS:
        for page in sorted((ROOT / folder).glob("*.md")):
            text = page.read_text(encoding="utf-8")
            for fence in _FENCE.finditer(text):
                line = text.count("\n", 0, fence.start()) + 1
                for yaml_text in scenario_texts(fence.group(1)):
                    yield f"{folder}/{page.name}:{line}", yaml_text
    from tests.odds import scenarios as odds_scenarios

    for name in sorted(dir(odds_scenarios)):
        value = getattr(odds_scenarios, name)
        if name.isupper() and isinstance(value, str):
            yield f"tests/odds/scenarios.py:{name}", value
    sys.path.insert(0, str(ROOT / "bench"))
    import odds_attacks

    for name, text in odds_attacks.RECORDED.items():
        yield f"bench/odds_attacks.py:{name}", text


@functools.cache
def scenario_of(text: str) -> Scenario:
    """The scenario in ``text``, parsed once a process (a ``Scenario`` is frozen, so the tests that read
    the same recorded scenario share it): the parse costs more than the exact odds of most of them."""
    return parse_scenario(text, "<answer>")


def key(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def answer(text: str) -> dict[str, object]:
    """The scenario's answer: its first target's casualty distribution and a digest of its final
    states, or why it has none (a malformed scenario or an illegal declaration)."""
    from rulespy.odds.summary import summarise
    from rulespy.sequences.shooting_sequence import ShootingSequence
    from tests.odds.full_states import final_states

    try:
        sequence = ShootingSequence(scenario_of(text))
        finals = final_states(sequence, max_states=10**7, max_transitions=10**8)
    except RulesError as error:
        return {"refused": type(error).__name__}
    table = rows(sequence.scenario, finals)
    digest = hashlib.sha256(json.dumps(table).encode("utf-8")).hexdigest()
    casualties = [str(p) for _, p in summarise(sequence, finals).casualties]
    return {"casualties": casualties, "finals": digest, "states": len(table)}


def rows(scenario: Scenario, finals: Mapping[object, Fraction]) -> Answer:
    """Final states as rows ``[wounds, casualties, pins, probability]`` (wounds of every model)."""
    full = {m.id: m.wounds for m in scenario.battlefield.models()}
    merged: dict[str, Fraction] = {}
    for state, p in finals.items():
        wounds = dict(full)
        wounds.update(dict(state.wounds))  # type: ignore[attr-defined]
        key = json.dumps(
            [
                sorted(wounds.items()),
                sorted(state.casualties),  # type: ignore[attr-defined]
                sorted(state.pins),  # type: ignore[attr-defined]
            ]
        )
        merged[key] = merged.get(key, Fraction(0)) + p
    return sorted([*json.loads(key), str(p)] for key, p in merged.items())


def main() -> None:
    result = {key(text): {"name": name, **answer(text)} for name, text in scenarios()}
    json.dump(result, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
