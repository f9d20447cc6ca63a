"""Events: what a rule step did, each citing the rule that decided it.

The event log is what ``rulespy resolve`` prints.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    """One line of the account. ``rule`` is a ``PATH#ANCHOR`` in the rules repository."""

    rule: str
    text: str

    def to_json(self) -> dict[str, str]:
        return {"rule": self.rule, "text": self.text}
