"""Short entry points for worked examples: a scenario written inline, played by the engine.

```python
from rulespy.play import play

result = play('''
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - {id: squad, side: blue, models: [{id: s1, at: [0, 0], leader: true, weapons: [rifle]}]}
  - {id: foes, side: red, models: [{id: f1, at: [10, 0]}]}
attack: {unit: squad, command: shoot, targets: [{unit: foes, mark: f1}]}
dice: [4]
''')
assert result.removed == {"f1": "end_of_attack"}
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
