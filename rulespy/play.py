"""Short entry points for worked examples: a scenario written inline, played by the engine.

```python
from rulespy.play import play, refused
result = play('''...scenario YAML...''')
assert result.removed == {"s1": "end_of_attack"}
```
"""

from __future__ import annotations

from rulespy.errors import IllegalDeclaration
from rulespy.scenario import parse_scenario
from rulespy.sequences.resolution import Resolution, resolve


def play(scenario: str) -> Resolution:
    """Resolve the scenario written in ``scenario`` (YAML, with its ``dice`` or ``seed``)."""
    return resolve(parse_scenario(scenario, "<example>"))


def refused(scenario: str) -> IllegalDeclaration:
    """The refusal of an illegal declaration; fails if the declaration turns out to be legal."""
    try:
        play(scenario)
    except IllegalDeclaration as refusal:
        return refusal
    raise AssertionError("the declaration was expected to be refused, but it is legal")
