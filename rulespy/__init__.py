"""rulespy: the reference implementation of the VoidSiege shooting rules.

The package mirrors the rules tree: ``rulespy/core/cover.py`` implements ``core/cover.md``.
Every public rule function names the rule it implements in a ``Rule: PATH#ANCHOR`` docstring line.
"""

__version__ = "0.1.0"
