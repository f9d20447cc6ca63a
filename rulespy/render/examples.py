"""Worked examples: find each executable example's scenario and present it as a readable Example block.

A worked example (``rulespy.check.examples.worked_examples``, the definition the checker and coverage
use too) gets a board when it builds a scenario from an inline YAML string passed to ``play``,
``refused`` or ``parse_scenario`` (``load_scenario("path")`` reads the file, inside the repository
only). The YAML is read from the code by ``rulespy.check.examples`` (with ``ast``, never by running the
code), and every scenario goes through the scenario loader ``rulespy.scenario.parse_scenario`` with its
limits (size, alias fan-out, nesting, finite positions) before anything is drawn: a scenario the loader
refuses gets no board and a warning naming the page and line, never a hang or a traceback. The fence is
replaced by an Example block: the board, a one-line summary, the odds when asked for, and the unchanged
fence folded beneath (``??? example``), which is what the test suite executes.
"""

from __future__ import annotations

import multiprocessing
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape

from rulespy.check.examples import WorkedExample, scenario_texts, worked_examples
from rulespy.errors import InvalidInput, RulesError
from rulespy.scenario import parse_scenario, read_scenario_text
from rulespy.state import Scenario

from . import board
from .localize import command_name, example_words, translate, translate_board
from .web import encode

ODDS_MARKER = "# show the odds"
"""A comment line in an example fence that asks the site to show the exact odds of its attack."""
ODDS_SECONDS = 5.0
"""The longest a page's odds table may take (in a child process, killed at the limit)."""
ODDS_MEMORY = 512 << 20
"""The most memory that child may use."""
BOARD_INCHES = board.BOARD_INCHES
"""The widest board drawn (20 feet): a scenario spread wider than this is named in a warning, not drawn."""
TOO_LARGE = example_words(None)["too-large"]


@dataclass(frozen=True)
class Example:
    """One example fence: its lines in the page (0-based, end exclusive) and the scenarios it builds."""

    start: int
    end: int
    indent: str
    scenarios: tuple[Scenario, ...]
    odds_source: str | None = None  # the first scenario's text, when the fence asks for its odds
    warnings: tuple[str, ...] = field(default=())
    sources: tuple[str, ...] = field(default=())  # each scenario's YAML, for the page's "Try it"


def _scenario_file(root: Path, name: str, refused: list[str] | None) -> str | None:
    """The text of the scenario file ``name`` under ``root`` (read by the loader's own reader), or
    ``None`` when it is missing, not a regular file, or refused (said in ``refused``): outside the
    repository (an absolute path, ``..`` or a symlink out), too large or not UTF-8."""
    base = root.resolve()
    path = (base / name).resolve()
    if not path.is_relative_to(base):
        why = f"load_scenario({name!r}) names a file outside the repository: not read"
    elif not path.is_file():
        return None
    else:
        try:
            return read_scenario_text(path)
        except InvalidInput as error:
            why = f"load_scenario({name!r}): {error.message}"
    if refused is not None:
        refused.append(why)
    return None


def scenario_sources(code: str, root: Path | None = None, refused: list[str] | None = None) -> list[str]:
    """The scenario texts ``code`` plays (``rulespy.check.examples.scenario_texts``), dedented, in order
    and without repeats (the same scenario passed twice is one board). With ``root``, a
    ``load_scenario("path")`` reads that file, inside the repository only."""
    read = None if root is None else (lambda name: _scenario_file(root, name, refused))
    return list(dict.fromkeys(textwrap.dedent(text) for text in scenario_texts(code, read)))


def _looks_like_a_scenario(text: str) -> bool:
    return any(line.startswith(("units:", "attack:")) for line in text.splitlines())


def load(text: str, where: str) -> tuple[Scenario | None, str | None]:
    """The scenario in ``text`` through the loader, or ``(None, warning)`` when it is refused or too
    wide to draw; ``(None, None)`` for a text that is not meant as a scenario (nothing to say)."""
    try:
        scenario = parse_scenario(text, where)
    except (RulesError, ValueError, RecursionError) as error:  # the last two: a loader limit missed
        message = getattr(error, "message", None) or f"{type(error).__name__}: {str(error)[:200]}"
        if not _looks_like_a_scenario(text):
            return None, None
        return None, f"{where}: scenario refused by the loader, no board drawn: {message}"
    if board.too_wide(scenario):
        return None, f"{where}: the board is wider than {BOARD_INCHES:g} inches, no board drawn"
    return scenario, None


def find_examples(
    markdown: str,
    root: Path | None = None,
    page: str = "<page>",
    worked_found: Sequence[WorkedExample] | None = None,
) -> list[Example]:
    """Every worked example of ``markdown`` (``rulespy.check.examples.worked_examples``; ``worked_found``:
    those the rule book's page already holds) that sets up a board the loader accepts, or whose scenario
    the loader refuses (with its warning)."""
    examples: list[Example] = []
    lines = markdown.splitlines()
    for worked in worked_examples(markdown) if worked_found is None else worked_found:
        where = f"{page}:{worked.line}"
        refused: list[str] = []
        warnings: list[str] = []
        loaded: list[tuple[str, Scenario]] = []
        for text in scenario_sources(worked.content, root, refused):
            scenario, warning = load(text, where)
            if scenario is not None:
                loaded.append((text, scenario))
            if warning:
                warnings.append(warning)
        warnings += [f"{where}: {reason}" for reason in refused]
        if loaded or warnings:
            first = lines[worked.line - 1]
            indent = first[: len(first) - len(first.lstrip())]
            odds_source = loaded[0][0] if loaded and ODDS_MARKER in worked.content else None
            scenarios = tuple(s for _, s in loaded)
            sources = tuple(text for text, _ in loaded)
            examples.append(
                Example(worked.line - 1, worked.end, indent, scenarios, odds_source, tuple(warnings), sources)
            )
    return examples


def _odds_child(source: str, answer: multiprocessing.connection.Connection) -> None:
    import resource

    from rulespy.odds import markdown_table

    try:
        resource.setrlimit(resource.RLIMIT_AS, (ODDS_MEMORY, ODDS_MEMORY))
        answer.send(markdown_table(parse_scenario(source, "<example>")))
    except (RulesError, MemoryError, RecursionError):
        answer.send(None)


def odds_table(source: str) -> str | None:
    """The exact casualty odds of the scenario in ``source`` as a markdown table, or ``None`` when they
    take more than ``ODDS_SECONDS`` or ``ODDS_MEMORY`` (or the engine refuses them)."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_odds_child, args=(source, send), daemon=True)
    child.start()
    send.close()
    try:
        table: str | None = receive.recv() if receive.poll(ODDS_SECONDS) else None
    except EOFError:
        table = None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receive.close()
    return table


def odds_block(source: str, language: str | None = None) -> list[str]:
    """The lines a page shows for an example marked ``# show the odds``, in ``language``."""
    said = example_words(language)
    table = odds_table(source)
    if table is None:
        return [said["too-large"]]
    return [said["odds-lead"], "", *(translate(row, language) for row in table.strip().splitlines())]


def _names(items: list[str], language: str | None = None) -> str:
    last = " " + example_words(language)["and"] + " "
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + last + items[-1]


def summary(scenario: Scenario, language: str | None = None) -> str:
    """One plain sentence saying who shoots at whom, with which mark and which dice."""
    if language == "ru":
        return _summary_ru(scenario)
    attack = scenario.attack
    command = str(attack.command).replace("_", " ")
    aimed = [f"*{t.unit}* (marking {t.mark})" for t in attack.targets]
    against = _names(aimed) if aimed else "no one"
    parts = [f"The *{attack.unit}* unit uses the {command} command against {against}."]
    response = scenario.response
    if response is not None:
        parts.append(
            f"The target answers with {str(response.command).replace('_', ' ')} (marking {response.mark})."
        )
    if scenario.dice is not None:
        parts.append("Dice, in order: " + ", ".join(str(d) for d in scenario.dice) + ".")
    elif scenario.seed is not None:
        parts.append(f"Dice: seeded random dice (seed {scenario.seed}).")
    return " ".join(parts)


def _summary_ru(scenario: Scenario) -> str:
    """``summary`` on a Russian page: the same facts, the command under its Russian name."""
    attack = scenario.attack
    aimed = [f"*{t.unit}* (отметка {t.mark})" for t in attack.targets]
    against = _names(aimed, "ru") if aimed else example_words("ru")["no-one"]
    parts = [
        f"Отряд *{attack.unit}* по приказу {command_name(str(attack.command), 'ru')} стреляет по {against}."
    ]
    response = scenario.response
    if response is not None:
        answer = command_name(str(response.command), "ru")
        parts.append(f"Цель отвечает приказом {answer} (отметка {response.mark}).")
    if scenario.dice is not None:
        parts.append("Кубики по порядку: " + ", ".join(str(d) for d in scenario.dice) + ".")
    elif scenario.seed is not None:
        parts.append(f"Кубики: случайные, по зерну {scenario.seed}.")
    return " ".join(parts)


def example_block(example: Example, fence: list[str], key: str, language: str | None = None) -> list[str]:
    """The markdown that replaces an example fence: an Example block (Material's admonition markup,
    written as HTML with ``md_in_html`` so that the board's SVG stays a block of its own), boards,
    summaries, odds, and the folded code. ``key`` makes the boards' SVG ids unique on the page. On a
    translated page (``language``) the block's words are the edition's (``localize.py``), and the
    scenario's English ``description`` is not shown: it stays in the code, with the other scenario text."""
    pad = example.indent
    said = example_words(language)
    first = example.scenarios[0] if example.scenarios and language is None else None
    description = " ".join(str(first.description or "").split()) if first else ""
    title = description if description and len(description) <= 90 else said["title"]
    out = [f'{pad}<div class="admonition example vs-example" markdown>']
    out += [f'{pad}<p class="admonition-title">{escape(title)}</p>', ""]
    if description and description != title:
        out += [f"{pad}{description}", ""]
    for offset, scenario in enumerate(example.scenarios):
        figure = translate_board(board.render(scenario, f"{key}-{offset}"), language)
        out += [f"{pad}{ET.tostring(figure, encoding='unicode')}", ""]
        out += [f"{pad}{summary(scenario, language)}", ""]
        if offset < len(example.sources):  # the rules judge's "Try it" (assets/judge.js) opens this text
            out += [f'{pad}<div class="vs-try" data-scenario="{encode(example.sources[offset])}"></div>', ""]
    if example.odds_source is not None:
        out += [f"{pad}{row}" if row else "" for row in odds_block(example.odds_source, language)] + [""]
    out += [f'{pad}??? example "{said["check"]}"', ""]
    out += [(pad + "    " + line[len(pad) :]) if line.strip() else "" for line in fence]
    return out + ["", f"{pad}</div>", ""]
