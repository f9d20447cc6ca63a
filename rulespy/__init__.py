"""rulespy: the reference implementation of the VoidSiege shooting rules.

The package mirrors the rules tree: ``rulespy/core/cover.py`` implements ``core/cover.md``.
Every public rule function names the rule it implements in a ``Rule: PATH#ANCHOR`` docstring line.

The few names a user of the library needs are here; each is loaded on first use, so ``import rulespy``
(which every ``import rulespy.state`` runs first) stays as cheap as the package's own ``__init__``.

Read a scenario (the format ``rulespy resolve`` reads) and play its attack with its dice:

>>> import rulespy
>>> scenario = rulespy.parse_scenario('''
... weapons: {rifle: {range: 24, dice: 2, lock: 4, damage: 1}}
... units:
...   - {id: squad, side: blue, models: [{id: s1, at: [0, 0], leader: true, weapons: [rifle]}]}
...   - {id: foes, side: red, models: [{id: f1, at: [10, 0]}, {id: f2, at: [10, 2]}]}
... attack: {unit: squad, command: shoot, targets: [{unit: foes, mark: f1}]}
... dice: [4, 2]
... ''')
>>> rulespy.resolve(scenario).removed
{'f1': 'end_of_attack'}

Every die enumerated instead, with its exact probability (the scenario's dice are ignored):

>>> odds = rulespy.exact_odds(scenario)
>>> odds.casualties
((0, Fraction(1, 4)), (1, Fraction(1, 2)), (2, Fraction(1, 4)))
>>> odds.expected_casualties
Fraction(1, 1)

Input that is no scenario is refused with its line; a declaration the rules forbid, with the rule it
breaks (``IllegalDeclaration``); both are a ``RulesError``:

>>> try:
...     rulespy.parse_scenario("units: [}", "bad.yaml")
... except rulespy.RulesError as error:
...     print(error.kind, error.located())
invalid-input bad.yaml:1: YAML syntax error: expected the node content, but found '}'

What the command line prints, as values (``rulespy.api``): ``rulespy.api.resolve(text)`` and
``rulespy.api.odds(text)``. The checker, on a repository of rules, and the rule book itself:

>>> from pathlib import Path
>>> fixture = Path(rulespy.__file__).parents[1] / "tests" / "check" / "fixtures" / "RS001"
>>> [(f.path, f.line, f.code) for f in rulespy.check_tree(fixture)]
[('index.md', 5, 'RS001')]

``rulespy.open_book(root, language=None)`` opens the rule book of a repository (``rulespy.book.Book``:
its pages, sections, links, concepts and translation twins), or raises ``BookError`` saying so in a
version without ``rulespy.book``.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from rulespy.errors import BookError, IllegalDeclaration, InvalidInput, RulesError

if TYPE_CHECKING:
    from pathlib import Path

__version__ = "0.1.0"

_LAZY = {
    "parse_scenario": ("rulespy.scenario", "parse_scenario"),
    "load_scenario": ("rulespy.scenario", "load_scenario"),
    "resolve": ("rulespy.sequences.resolution", "resolve"),
    "exact_odds": ("rulespy.odds", "odds"),
    "check_tree": ("rulespy.check", "check_tree"),
}
"""Each public name loaded on first use: the module that defines it and its name there. Named by string
and imported with ``importlib``, so that the package's ``__init__``, which every submodule's import runs
first, never pulls the layers above (``tests/test_public_names.py`` checks both)."""

__all__ = [
    "BookError",
    "IllegalDeclaration",
    "InvalidInput",
    "RulesError",
    "__version__",
    "check_tree",
    "exact_odds",
    "load_scenario",
    "open_book",
    "parse_scenario",
    "resolve",
]


def open_book(root: str | Path, language: str | None = None) -> Any:
    """The rule book of the repository at ``root``, edition ``language`` (``None``: English), as
    ``rulespy.book.Book.open`` reads it; ``BookError`` in a version of rulespy without ``rulespy.book``."""
    try:
        book = importlib.import_module("rulespy.book")
    except ModuleNotFoundError as error:
        if error.name not in ("rulespy.book", "rulespy.book.book"):
            raise
        raise BookError("this version of rulespy has no rule book reader (rulespy.book)") from None
    from pathlib import Path

    return book.Book.open(Path(root), language)


def __getattr__(name: str) -> Any:
    """The public names of ``_LAZY``, imported on first use and kept."""
    if name not in _LAZY:
        raise AttributeError(f"module 'rulespy' has no attribute {name!r}")
    module, attribute = _LAZY[name]
    value = getattr(importlib.import_module(module), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
