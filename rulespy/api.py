"""What ``rulespy resolve`` and ``rulespy odds`` answer, as a value: the library's door to both commands.

``resolve(text)`` and ``odds(text)`` judge a scenario written as YAML text (or an already loaded
``Scenario``); ``resolve_file(path)`` and ``odds_file(path)`` read a scenario file first. Each returns an
``Answer``: the exit status the command line exits with (0 answered, 1 the declaration is illegal, 2 the
scenario cannot be worked on), ``json`` (what ``--json`` prints), ``text`` (what the command prints
without it) and ``error`` (what it prints on standard error: ``PATH:LINE: message``), byte for byte. The
command line (``rulespy/cli/resolve.py``, ``rulespy/cli/odds.py``) prints from these answers and the
site's rules judge (``rulespy/render/web.py``, in Pyodide) returns them to the page, so both say the
same; ``tests/cli/resolve_outputs.json`` records what they say for every scenario and worked example.

Checks run in the command line's order: the scenario's form (exit 2), the declaration's legality
(exit 1), then for ``resolve`` the scripted dice (exit 2) and for ``odds`` the exact engine's size
limit (exit 2 with ``exact=True``, else the attack is sampled). No input raises: every failure is an
answer with exit 2 and a located message, never a traceback.

``language`` (``"en"``, the default, or ``"ru"``) is ``--lang``: the words of the account, the odds and a
refusal (``rulespy.i18n``); a malformed scenario's message stays English.

``outputs`` names the outputs to make, ``("json", "text")`` by default; one left out is ``None`` (the
command line makes only the one it prints: the account of a resolution is never written for
``--json``).

>>> from rulespy import api
>>> answer = api.resolve('''
... weapons: {rifle: {range: 24, dice: 1, lock: 4, damage: 1}}
... units:
...   - {id: squad, side: blue, models: [{id: s1, at: [0, 0], leader: true, weapons: [rifle]}]}
...   - {id: foes, side: red, models: [{id: f1, at: [10, 0]}]}
... attack: {unit: squad, command: shoot, targets: [{unit: foes, mark: f1}]}
... dice: [4]
... ''')
>>> answer.exit
0
>>> import json
>>> json.loads(answer.json)["casualties"]
[{'model': 'f1', 'removed': 'end_of_attack'}]
>>> api.resolve("units: [}", "scenario.yaml").error.startswith("scenario.yaml:1: YAML syntax error")
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import TYPE_CHECKING

from rulespy.frozen import frozen

if TYPE_CHECKING:
    from rulespy.errors import IllegalDeclaration
    from rulespy.odds.summary import Odds
    from rulespy.state import Scenario

__all__ = ["BOTH", "SCENARIO", "Answer", "odds", "odds_file", "resolve", "resolve_file"]

SCENARIO = "<scenario>"
"""The name a scenario given as text has in messages, unless the caller names it."""
BOTH = ("json", "text")
"""Both outputs: what ``--json`` prints and what the command prints without it."""


@frozen
class Answer:
    """One command's answer: ``exit`` (0, 1 or 2), ``json`` and ``text`` (its two standard outputs, ``None``
    when not asked for; ``""`` on exit 2), ``error`` (its standard error, ``""`` when it answered) and the
    ``scenario`` it judged (``None`` when the scenario could not be read)."""

    exit: int
    json: str | None
    text: str | None
    error: str = ""
    scenario: Scenario | None = None

    def printed(self, as_json: bool) -> str:
        """What the command prints on standard output, with ``--json`` or without."""
        return (self.json if as_json else self.text) or ""


def resolve(
    scenario: str | Scenario, path: str = SCENARIO, outputs: Collection[str] = BOTH, *, language: str = "en"
) -> Answer:
    """``rulespy resolve`` on the scenario written in ``scenario`` (YAML text, named ``path`` in messages)
    or on a loaded ``Scenario``."""
    where = path if isinstance(scenario, str) else scenario.path or path
    return _answer(where, "resolving", outputs, lambda: _resolve(_parsed(scenario, path), outputs), language)


def resolve_file(path: str | Path, outputs: Collection[str] = BOTH, *, language: str = "en") -> Answer:
    """``rulespy resolve PATH``: the scenario file read by the scenario loader, then resolved."""
    return _answer(str(path), "resolving", outputs, lambda: _resolve(_loaded(path), outputs), language)


def odds(
    scenario: str | Scenario,
    path: str = SCENARIO,
    outputs: Collection[str] = BOTH,
    *,
    fractions: bool = False,
    exact: bool = False,
    seed: int | None = None,
    language: str = "en",
) -> Answer:
    """``rulespy odds`` on the scenario written in ``scenario`` (or a loaded ``Scenario``): ``fractions``
    is ``--fractions``, ``exact`` is ``--exact`` (refuse instead of sampling) and ``seed`` is ``--seed``
    (``None``: ``rulespy.odds.sampled.SEED``, the command line's default)."""
    where = path if isinstance(scenario, str) else scenario.path or path
    return _answer(
        where,
        "computing odds for",
        outputs,
        lambda: _odds(_parsed(scenario, path), outputs, fractions, exact, seed),
        language,
    )


def odds_file(
    path: str | Path,
    outputs: Collection[str] = BOTH,
    *,
    fractions: bool = False,
    exact: bool = False,
    seed: int | None = None,
    language: str = "en",
) -> Answer:
    """``rulespy odds PATH``: the scenario file read by the scenario loader, then its odds."""
    return _answer(
        str(path),
        "computing odds for",
        outputs,
        lambda: _odds(_loaded(path), outputs, fractions, exact, seed),
        language,
    )


def _parsed(scenario: str | Scenario, path: str) -> Scenario:
    if not isinstance(scenario, str):
        return scenario
    from rulespy.scenario import parse_scenario

    return parse_scenario(scenario, path)


def _loaded(path: str | Path) -> Scenario:
    from rulespy.scenario import load_scenario

    return load_scenario(path)


def _answer(
    path: str, doing: str, outputs: Collection[str], work: Callable[[], Answer], language: str = "en"
) -> Answer:
    """``work``'s answer, worded in ``language``; every failure turned into exit 2 and a located message
    (``doing`` names the work for it, e.g. "resolving" or "computing odds for")."""
    from rulespy.errors import InvalidInput, RulesError
    from rulespy.i18n import language as speaking

    try:
        with speaking(language):
            return work()
    except InvalidInput as error:
        if error.path is None:
            error.path = path
        message = error.located()
    except RulesError as error:
        message = f"{path}:1: {error}"
    except RecursionError:
        message = f"{path}:1: the scenario is too deeply nested for {doing} it"
    except MemoryError:
        message = f"{path}:1: the scenario is too large for {doing} it in memory"
    except Exception as error:  # never a traceback
        message = (
            f"{path}:1: internal error in rulespy while {doing} this scenario "
            f"({type(error).__name__}: {error}); please report it with the scenario file"
        )
    return Answer(2, "" if "json" in outputs else None, "" if "text" in outputs else None, message + "\n")


def _resolve(scenario: Scenario, outputs: Collection[str]) -> Answer:
    """Form (exit 2, already judged), then legality (exit 1), then the scripted dice (exit 2)."""
    from rulespy.errors import IllegalDeclaration
    from rulespy.sequences.resolution import check_dice_source
    from rulespy.sequences.resolution import resolve as resolved

    check_dice_source(scenario)
    try:
        resolution = resolved(scenario)
    except IllegalDeclaration as error:
        return _illegal(scenario, error, outputs)
    as_json = as_text = None
    if "json" in outputs:
        from rulespy.account import to_json

        as_json = _json(to_json(resolution))
    if "text" in outputs:
        from rulespy.account import render

        as_text = render(scenario, resolution)
    return Answer(0, as_json, as_text, "", scenario)


def _odds(
    scenario: Scenario, outputs: Collection[str], fractions: bool, exact: bool, seed: int | None
) -> Answer:
    """Form (already judged), then legality (exit 1), then the size limit: exit 2 with ``exact``, else
    sampled."""
    from rulespy.errors import IllegalDeclaration
    from rulespy.odds import TooLarge
    from rulespy.odds import odds as exact_odds

    try:
        result: Odds = exact_odds(scenario)
    except IllegalDeclaration as error:
        return _illegal(scenario, error, outputs)
    except TooLarge:
        if exact:
            raise
        return _sampled(scenario, outputs, seed)
    as_json = as_text = None
    if "json" in outputs:
        as_json = _json(result.to_json(fractions))
    if "text" in outputs:
        from rulespy.odds.render import render_text

        as_text = render_text(result, fractions)
    return Answer(0, as_json, as_text, "", scenario)


def _sampled(scenario: Scenario, outputs: Collection[str], seed: int | None) -> Answer:
    """The sampled answer for an attack too large for exact odds (its legality is already judged)."""
    from rulespy.odds.sampled import SEED, sample

    found = sample(scenario, SEED if seed is None else seed)
    as_json = as_text = None
    if "json" in outputs:
        as_json = _json(found.to_json())
    if "text" in outputs:
        from rulespy.odds.render import render_sampled

        as_text = render_sampled(found)
    return Answer(0, as_json, as_text, "", scenario)


def _illegal(scenario: Scenario, error: IllegalDeclaration, outputs: Collection[str]) -> Answer:
    """Exit 1 for an illegal declaration: the JSON document, and the account of what the rules forbid."""
    as_json = as_text = None
    if "json" in outputs:
        refusal = {"rule": error.rule, "message": error.message}
        if error.response:  # a refused response: its own rule (the attack alone is legal)
            refusal["response"] = error.response
        as_json = _json({"legal": False, "error": refusal})
    if "text" in outputs:
        from rulespy.account import render_illegal

        as_text = render_illegal(scenario, error)
    return Answer(1, as_json, as_text, "", scenario)


def _json(data: object) -> str:
    import json  # only the JSON output needs it: the text answer stays off this import

    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
