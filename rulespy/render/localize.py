"""The words the render writes around a worked example, in each edition: the Example block's title and
summary line, the board's legend and hover texts, the odds table.

English is what ``board.py``, ``examples.py`` and ``rulespy.odds.render`` write; a translation's words
are data here. The board and the odds table are written in English by modules that know nothing of
languages (``board.py`` draws, the odds engine's reader words its table), so a translated page gets
their output **rewritten** by the patterns below (``PATTERNS``): each is one English phrase those
modules write, with its translation. A phrase they start writing and no pattern covers stays English,
and the browser test that reads every page of ``/ru/`` for English words
(``tests/site/test_russian_words.py``) fails and names it: add its pattern here.

Scenario values (unit, model and weapon ids, sides) are the scenario's own text, byte for byte the
English example's, and are never translated.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

#: The words of an Example block, per edition (``None``: English).
EXAMPLE_WORDS: dict[str | None, dict[str, str]] = {
    None: {
        "title": "Worked example",
        "check": "The executable check (run by the test suite)",
        "odds-lead": "Before any die is rolled, the exact odds of this attack (computed by `rulespy odds`):",
        "too-large": "The exact odds of this attack are too large to show here; `rulespy odds` can try them.",
        "and": "and",
        "no-one": "no one",
    },
    "ru": {
        "title": "Разобранный пример",
        "check": "Исполняемая проверка (её запускает набор тестов)",
        "odds-lead": "До броска любого кубика — точные шансы этой атаки (их считает `rulespy odds`):",
        "too-large": (
            "Точные шансы этой атаки слишком велики для этой страницы; их может посчитать `rulespy odds`."
        ),
        "and": "и",
        "no-one": "никого",
    },
}

#: What a command is called in each edition's text (the command pages' own names, ``concepts.yml``).
COMMANDS: dict[str | None, dict[str, str]] = {
    "ru": {
        "shoot": "«Стрельба»",
        "advance": "«Наступление»",
        "assault": "«Штурм»",
        "covering_fire": "«Огонь прикрытия»",
        "snap_fire": "«Огонь навскидку»",
    },
}

#: (English pattern, translation) for the board's texts and the odds table, tried in order on every text.
PATTERNS: dict[str, tuple[tuple[str, str], ...]] = {
    "ru": (
        # the board (rulespy/render/board.py): its title, each model's hover text, sight lines, terrain
        (r"^Board: ", "Поле: "),
        (r"^Board \(also as a table below it\): ", "Поле (оно же таблицей под ним): "),
        (r' at (-?\d[\d.]*)", (-?\d[\d.]*)"', r' в \1", \2"'),
        (r"\bcover: none\b", "укрытие: нет"),
        (r"\bcover: light\b", "укрытие: лёгкое"),
        (r"\bcover: heavy\b", "укрытие: тяжёлое"),
        # the board as text (board.py's table under each board): its summary, headings and cells
        (r"^The board as text$", "Поле текстом"),
        (r"^model$", "модель"),
        (r"^side$", "сторона"),
        (r"^unit$", "отряд"),
        (r"^position$", "позиция"),
        (r"^wounds$", "раны"),
        (r"^cover$", "укрытие"),
        (r"^marked$", "отмечена"),
        (r"^no$", "нет"),
        (r"^none$", "нет"),
        (r"^light$", "лёгкое"),
        (r"^heavy$", "тяжёлое"),
        (r" \(solid\)$", " (сплошные)"),
        (r" \(striped\)$", " (в полоску)"),
        (r" \(dotted\)$", " (в точку)"),
        (r"(\d+) wounds\b", r"ран: \1"),
        (r"\bpinned\b", "прижат"),
        (r"\bimmobilised\b", "обездвижен"),
        (r"\babandoned\b", "покинут"),
        (r" \(leader\)", " (лидер)"),
        (r" \(marked\)", " (отмечена)"),
        (r"^(\S+) to (\S+): ", r"\1 → \2: "),
        (r"^blocking terrain$", "блокирующая местность"),
        (r"^light terrain$", "лёгкая местность"),
        (r"^heavy terrain$", "тяжёлая местность"),
        (r'^min (\d[\d.]*)"$', r'мин. \1"'),
        # the board's legend
        (r"Bases to scale", "Подставки в масштабе"),
        (r"\bsolid: ", "сплошные: "),
        (r"\bstriped: ", "в полоску: "),
        (r"\bdotted: ", "в точку: "),
        (r'grid (\d[\d.]*)"', r'сетка \1"'),
        (r"ringed \u2605: leader", "\u2605 в кольце: лидер"),
        (r"cross-hairs: marked model", "перекрестие: отмеченная модель"),
        (
            r"dashed lines: sight from each firing model to its mark",
            "пунктир: видимость от стреляющих к отметке",
        ),
        (r"grey: blocking terrain", "серое: блокирующая местность"),
        (r"green: light cover", "зелёное: лёгкое укрытие"),
        (r"hatched: heavy cover", "штриховка: тяжёлое укрытие"),
        (r"wedge: fire arc", "клин: сектор обстрела"),
        # the odds table (rulespy/odds/render.py, markdown_table)
        (r"\| casualties in (\S+) \| chance \| exact \|", r"| потери в \1 | шанс | точно |"),
        (r"Expected casualties: ", "Ожидаемые потери: "),
        (r"(?<=\d)\.(?=\d)", ","),  # the decimal comma (after the words: no pattern above has a digit dot)
        (r"(?<=\d)%", "\u00a0%"),
    ),
}


def example_words(language: str | None) -> dict[str, str]:
    return EXAMPLE_WORDS.get(language, EXAMPLE_WORDS[None])


def command_name(command: str, language: str | None) -> str:
    """A scenario's command (``covering_fire``) as the edition's text names it."""
    return COMMANDS.get(language or "", {}).get(command, command.replace("_", " "))


def translate(text: str, language: str | None) -> str:
    """``text`` (an English phrase of the board or the odds table) in ``language``; unchanged in English."""
    for pattern, replacement in PATTERNS.get(language or "", ()):
        text = re.sub(pattern, replacement, text)
    return text


def translate_board(figure: ET.Element, language: str | None) -> ET.Element:
    """The board ``figure`` (``board.render``) with every text and ``aria-label`` in ``language``."""
    if language not in PATTERNS:
        return figure
    for element in figure.iter():
        if element.text and element.text.strip():
            element.text = translate(element.text, language)
        label = element.get("aria-label")
        if label:
            element.set("aria-label", translate(label, language))
    return figure
