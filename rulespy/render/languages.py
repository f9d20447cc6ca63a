"""The site in each language: the English edition at ``/``, each translation (``ru/``) as a site of its
own at ``/<language>/``, built by either generator with no i18n plugin.

``rulespy render`` stages the English pages in ``build/pages/`` and each translation's in
``build/<language>/pages/`` (navigation in ``build/<language>/nav.yml``); ``python -m
rulespy.render.build`` builds each into ``site/`` and ``site/<language>/``, and prints a rulebook for
each. What a translated page gets besides the English enrichments:

- concept names in its language (``ru:`` in concepts.yml), in links, tooltips, "Defined on this page"
  and the glossary, and the site's own words (``WORDS``);
- a **language switcher** at the top of every page that has a twin (raw HTML, so the generators do not
  validate a link into the other site): it leads to the same page, and ``assets/language.js`` adds the
  section being read (the URL's ``#id``, kept current by Material's ``navigation.tracking``), so the
  reader lands on the same rule, whose id both editions share;
- a **notice on each stale section** (RS074 in ``rulespy check``: its stamp is missing or older than
  the English text), linking to the current English text of that section;
- links to the published scenario files, which live beside the English pages, pointed at their copy in
  the translation's site.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from rulespy.book.links import resolve
from rulespy.book.sections import stale_reason
from rulespy.check.files import LANGUAGES, page_url

from .registry import Concept

if TYPE_CHECKING:
    from rulespy.book.book import Page

__all__ = ["LANGUAGES", "WORDS", "localized", "switcher", "stale_notices", "words"]

NAMES = {None: "English", "ru": "Русский"}

#: The words the site writes around the rules, for each edition (``None``: English).
WORDS: dict[str | None, dict[str, str]] = {
    None: {
        "defined": "Defined on this page",
        "term": "term",
        "referenced": "Referenced by",
        "no-references": "No other page links here yet.",
        "home": "Home",
        "core": "Core",
        "sequences": "Sequences",
        "timing": "Timing",
        "commands": "Commands",
        "glossary": "Glossary",
        "rulebook": "The whole rulebook as one printable PDF",
        "home-judge": "The rules judge: set up a situation and let the engine rule on it",
        "glossary-intro": (
            "Every concept of the rules, in alphabetical order, with the first sentence of the rule that\n"
            "defines it. Each name links to that rule: the rule file is the definition, this page only "
            "points\nat it. It is generated from `concepts.yml` each time the site is built."
        ),
        "not-written": "Not yet written in its owner file.",
        "also": "Also written",
        "title": "VoidSiege Rules",
        "description": "The VoidSiege shooting rules, with worked examples checked by the reference engine.",
        "dark-mode": "Switch to dark mode",
        "light-mode": "Switch to light mode",
        "permalink": "Permanent link",
        "made-with": "Made with Material for MkDocs",
        "current-rules": "current rules",
        # the edition line under each page's title and on the rulebook's cover (rulespy/render/currency.py)
        "edition": "Edition {tag} of {date}",
        "edition-none": "No edition released yet (the first will be v1.0.0)",
        "edition-change": "{count} change since",
        "edition-changes": "{count} changes since",
        "edition-later": "What changed since",
        "edition-commit": "built from commit {commit}",
        "edition-dirty": "built from commit {commit} with uncommitted changes",
        "cover": "The shooting rules of VoidSiege, with every worked example drawn as a board.",
        "cover-2": (
            "Printed from the rules repository: the rule files are the source of truth, and every worked\n"
            "example in this book is executed against the reference engine."
        ),
        "contents": "Contents",
        # the printed rulebook (pdf.py, book.py): a worked example's outcome and a link's page
        "book-what-happens": "What happens",
        "book-illegal": "An illegal declaration: nothing is rolled",
        "book-see": "see p. {page}",
        # the rules judge (judge.py's Judge page and assets/judge.js, which reads them from
        # assets/judge-words.js); {name} and the like are filled in by the page
        "judge-title": "The rules judge",
        "judge-intro": (
            "Set up a situation of your own, or start from a published scenario, and press Run: the\n"
            "reference engine, `rulespy`, runs in this page (the same code as `rulespy resolve` and\n"
            "`rulespy odds`) and answers with the outcome, an account citing each rule it applied, and\n"
            "the exact odds. The scenario format is the one the command line reads: `weapons`, `units`\n"
            "with their models, the `attack` declared, and `dice` (scripted, in Dice Order) or `seed`.\n"
            "Add models and weapons (from the published scenarios' profiles, or typed in), move models\n"
            "by dragging them on the board or by typing where they stand, declare the attack, and roll\n"
            "seeded, scripted or random dice: each change is written into the scenario and judged again.\n"
            '"Link to this ruling" gives an address that opens this same situation for anyone.'
        ),
        "judge-start": "Start from",
        "judge-empty": "a small board of your own",
        "judge-try": "Try it",
        "judge-try-title": "Edit this example's scenario and dice, and let the rules engine judge it",
        "judge-run": "Run",
        "judge-permalink": "Link to this ruling",
        "judge-yaml": "Scenario (YAML, as rulespy resolve reads it)",
        "judge-loading": "Loading the rules engine {download}…",
        "judge-resolving": "Resolving…",
        "judge-no-start": "The rules engine could not start: {error}",
        "judge-illegal": "Illegal declaration: {message} (the rule it breaks: {rule})",
        "judge-computing": "Resolved by rulespy. Computing the exact odds…",
        "judge-done": "Resolved by rulespy, with the exact odds over every die.",
        "judge-no-casualties": "Outcome: no casualties.",
        "judge-casualties": "Outcome: casualties {list}.",
        "judge-immediate": "removed at once",
        "judge-end_of_attack": "removed at the end of the attack",
        "judge-end_of_firefight": "removed at the end of the firefight",
        "judge-declare-legend": "Declare the attack",
        "judge-command": "command",
        "judge-firing": "firing unit",
        "judge-target": "target",
        "judge-mark": "mark of {unit}",
        "judge-fires-at": "{weapon} fires at",
        "judge-main": "the target",
        "judge-nowhere": "nowhere (holds)",
        "judge-move-legend": "Move a model",
        "judge-model": "model",
        "judge-move": "Move it",
        "judge-x": "x",
        "judge-y": "y",
        "judge-add-legend": "Add a model, with a weapon from the library or typed in",
        "judge-unit": "unit",
        "judge-side": "side (for a new unit)",
        "judge-library": "from the library",
        "judge-typed": "typed in below",
        "judge-profile": "{name} (range {range}, {dice} dice, lock {lock}+, damage {damage})",
        "judge-weapon": "weapon",
        "judge-range": "range",
        "judge-dice": "dice",
        "judge-lock": "lock",
        "judge-damage": "damage",
        "judge-traits": "traits (comma-separated)",
        "judge-write-weapon": "Write the weapon",
        "judge-add": "Add the model",
        "judge-roll-legend": "Roll the dice",
        "judge-seeded": "seeded",
        "judge-scripted": "scripted",
        "judge-random": "random",
        "judge-seed": "seed",
        "judge-faces": "dice in Dice Order, such as 4, 6, 2",
        "judge-roll": "Roll",
        "judge-not-a-number": "{value} is not a number: nothing was written",
        "judge-download": (
            "(the first time, this downloads the rules engine: about {mb} MB, kept by your browser)"
        ),
        "judge-download-unknown": "(the first time, this downloads the rules engine: a few megabytes)",
        "judge-begin": "Start the rules engine",
        "judge-loading-runtime": "Downloading and starting Python {download}…",
        "judge-loading-python": "Python is running; loading rulespy…",
        "judge-loading-saved": "Starting the rules engine this browser saved…",
        "judge-loading-rulespy": "Starting rulespy…",
        "judge-loading-ready": "The rules engine is ready.",
        "judge-progress": "Starting the rules engine",
        "judge-too-long": (
            "The rules engine took more than {seconds} s and was stopped; it starts again on the next "
            "Run"
        ),
        "judge-engine-error": "The rules engine failed: {error}",
        "judge-link-too-large": "it unpacks to more than {limit} MB, the most a scenario may be",
        "judge-broken-link": (
            "This link does not open a situation ({error}): it may be cut short. Here is a board to "
            "start from."
        ),
        "judge-col-model": "model",
        "judge-col-unit": "unit",
        "judge-col-wounds-left": "wounds left",
        "judge-col-removed": "removed",
        "judge-as-printed": "The account as printed by rulespy resolve",
        "judge-as-printed-odds": "The odds as printed by rulespy odds",
        "judge-show": "Show the chance of",
        "judge-mode-exactly": "exactly N casualties",
        "judge-mode-atleast": "at least N casualties",
        "judge-chart-title": "Chance of each number of casualties in {unit}",
        "judge-chart-exactly": "exactly {count}: {chance}",
        "judge-chart-atleast": "at least {count}: {chance}",
        "judge-chart-axis": "casualties in {unit}",
        "judge-exact": "Exact odds, over every die.",
        "judge-sampled": (
            "Sampled, not exact: the attack is too large for the exact engine, so it was played "
            "{trials} times with seeded dice (seed {seed}); the bars' whiskers and the brackets give "
            "95% intervals."
        ),
        "judge-expected": "Expected casualties in {unit}: {value}",
        "judge-expected-wounds": "expected wounds: {value}",
        "judge-interval": "(95%: {low} to {high})",
        "judge-done-sampled": "Resolved by rulespy, with sampled odds.",
        "judge-done-no-odds": "Resolved by rulespy; the odds could not be computed (see below).",
        "judge-compare": "Compare",
        "judge-situation-a": "Situation A",
        "judge-situation-b": "Situation B",
        "judge-yaml-b": "Scenario B (YAML)",
        "judge-difference": "B − A in {unit}: {value} expected casualties.",
        "judge-dice-mode": "dice",
        "judge-dice-typed": "seed, or scripted dice",
    },
    "ru": {
        "defined": "Определено на этой странице",
        "term": "термин",
        "referenced": "Ссылаются сюда",
        "no-references": "Пока ни одна другая страница не ссылается сюда.",
        "home": "Главная",
        "core": "Основные правила",
        "sequences": "Последовательности",
        "timing": "Время",
        "commands": "Приказы",
        "glossary": "Глоссарий",
        "rulebook": "Вся книга правил одним PDF для печати",
        "home-judge": "Судья правил: расставьте ситуацию, и движок рассудит её",
        "glossary-intro": (
            "Все понятия правил по алфавиту, с первым предложением правила, которое их определяет.\n"
            "Каждое название ведёт к этому правилу: определение даёт файл правил, эта страница лишь\n"
            "указывает на него. Она создаётся из `concepts.yml` при каждой сборке сайта."
        ),
        "not-written": "Ещё не написано в файле-владельце.",
        "also": "Также пишут",
        "title": "Правила VoidSiege",
        "description": "Правила стрельбы VoidSiege; каждый разобранный пример проверен эталонным движком.",
        "dark-mode": "Включить тёмную тему",
        "light-mode": "Включить светлую тему",
        "permalink": "Постоянная ссылка на раздел",
        "made-with": "Сайт собран с помощью Material for MkDocs",
        "current-rules": "текущие правила",
        "edition": "Редакция {tag} от {date}",
        "edition-none": "Ни одна редакция ещё не выпущена (первой будет v1.0.0)",
        "edition-change": "изменений с тех пор: {count}",
        "edition-changes": "изменений с тех пор: {count}",
        "edition-later": "Что изменилось с тех пор",
        "edition-commit": "собрано из коммита {commit}",
        "edition-dirty": "собрано из коммита {commit} с незафиксированными изменениями",
        "cover": "Правила стрельбы VoidSiege; каждый разобранный пример нарисован на поле.",
        "cover-2": (
            "Напечатано из репозитория правил: файлы правил — первоисточник, и каждый разобранный\n"
            "пример этой книги исполняется эталонным движком."
        ),
        "contents": "Содержание",
        "book-what-happens": "Что происходит",
        "book-illegal": "Недопустимое объявление: кубики не бросаются",
        "book-see": "см. с. {page}",
        "stale": "Перевод отстаёт",
        "stale-text": (
            "Английский текст этого раздела изменился после перевода (или перевод не отмечен). "
            "Действует английский текст:"
        ),
        "stale-link": "актуальный английский текст раздела",
        "judge-title": "Судья правил",
        "judge-intro": (
            "Расставьте свою ситуацию или начните с опубликованного сценария и нажмите\n"
            "«Рассудить»: эталонный движок `rulespy` работает прямо на этой странице (тот же код,\n"
            "что у `rulespy resolve` и `rulespy odds`) и отвечает исходом, отчётом со ссылкой на\n"
            "каждое применённое правило и точными шансами. Формат сценария тот же, что читает\n"
            "командная строка: `weapons`, `units` с моделями, объявленная атака `attack` и кубики\n"
            "`dice` (заданные, в Порядке кубиков) или `seed`. Добавляйте модели и оружие (из профилей\n"
            "опубликованных сценариев или вписанное вручную), двигайте модели мышью по полю или\n"
            "вписывая координаты, объявляйте атаку и бросайте кубики — по зерну, заданные или\n"
            "случайные: каждое изменение записывается в сценарий и судится заново. «Ссылка на это\n"
            "решение» даёт адрес, открывающий ту же ситуацию у любого читателя. Отчёт движка\n"
            "печатается по-английски, как в командной строке."
        ),
        "judge-start": "Начать с",
        "judge-empty": "небольшого своего поля",
        "judge-try": "Попробовать",
        "judge-try-title": "Изменить сценарий и кубики этого примера и отдать их на суд движка правил",
        "judge-run": "Рассудить",
        "judge-permalink": "Ссылка на это решение",
        "judge-yaml": "Сценарий (YAML, как его читает rulespy resolve)",
        "judge-loading": "Загружается движок правил {download}…",
        "judge-resolving": "Движок судит…",
        "judge-no-start": "Движок правил не запустился: {error}",
        "judge-illegal": "Недопустимое объявление: {message} (нарушенное правило: {rule})",
        "judge-computing": "Разобрано движком rulespy. Считаются точные шансы…",
        "judge-done": "Разобрано движком rulespy, с точными шансами по всем кубикам.",
        "judge-no-casualties": "Исход: потерь нет.",
        "judge-casualties": "Исход: потери {list}.",
        "judge-immediate": "убрана сразу",
        "judge-end_of_attack": "убрана в конце атаки",
        "judge-end_of_firefight": "убрана в конце перестрелки",
        "judge-declare-legend": "Объявить атаку",
        "judge-command": "приказ",
        "judge-firing": "стреляющий отряд",
        "judge-target": "цель",
        "judge-mark": "отмеченная модель в {unit}",
        "judge-fires-at": "{weapon} стреляет в",
        "judge-main": "цель",
        "judge-nowhere": "никуда (молчит)",
        "judge-move-legend": "Передвинуть модель",
        "judge-model": "модель",
        "judge-move": "Передвинуть",
        "judge-add-legend": "Добавить модель с оружием из библиотеки или вписанным вручную",
        "judge-unit": "отряд",
        "judge-side": "сторона (для нового отряда)",
        "judge-library": "из библиотеки",
        "judge-typed": "вписанное ниже",
        "judge-profile": "{name} (дальность {range}, кубиков {dice}, захват {lock}+, урон {damage})",
        "judge-weapon": "оружие",
        "judge-range": "дальность",
        "judge-dice": "кубики",
        "judge-lock": "захват",
        "judge-damage": "урон",
        "judge-traits": "свойства (через запятую)",
        "judge-write-weapon": "Записать оружие",
        "judge-add": "Добавить модель",
        "judge-roll-legend": "Бросить кубики",
        "judge-seeded": "по зерну",
        "judge-scripted": "заданные",
        "judge-random": "случайные",
        "judge-seed": "зерно",
        "judge-faces": "кубики в Порядке кубиков, например 4, 6, 2",
        "judge-roll": "Бросить",
        "judge-not-a-number": "«{value}» — не число: ничего не записано",
        "judge-download": "(в первый раз загрузится движок правил: около {mb} МБ, браузер его сохранит)",
        "judge-download-unknown": "(в первый раз загрузится движок правил: несколько мегабайт)",
        "judge-begin": "Запустить движок правил",
        "judge-loading-runtime": "Загружается и запускается Python {download}…",
        "judge-loading-python": "Python запущен; загружается rulespy…",
        "judge-loading-saved": "Запускается движок правил, сохранённый браузером…",
        "judge-loading-rulespy": "Запускается rulespy…",
        "judge-loading-ready": "Движок правил готов.",
        "judge-progress": "Запуск движка правил",
        "judge-too-long": (
            "Движок правил работал дольше {seconds} с и был остановлен; он запустится снова при "
            "следующем суде"
        ),
        "judge-engine-error": "Сбой движка правил: {error}",
        "judge-link-too-large": "она распаковывается больше чем в {limit} МБ, предел для сценария",
        "judge-broken-link": (
            "Эта ссылка не открывает ситуацию ({error}): возможно, она обрезана. Вот поле, с которого "
            "можно начать."
        ),
        "judge-col-model": "модель",
        "judge-col-unit": "отряд",
        "judge-col-wounds-left": "осталось ран",
        "judge-col-removed": "убрана",
        "judge-as-printed": "Ход атаки, как его печатает rulespy resolve",
        "judge-as-printed-odds": "Шансы, как их печатает rulespy odds",
        "judge-show": "Показать шанс",
        "judge-mode-exactly": "ровно N потерь",
        "judge-mode-atleast": "не меньше N потерь",
        "judge-chart-title": "Шанс каждого числа потерь в отряде {unit}",
        "judge-chart-exactly": "ровно {count}: {chance}",
        "judge-chart-atleast": "не меньше {count}: {chance}",
        "judge-chart-axis": "потери в отряде {unit}",
        "judge-exact": "Точные шансы по всем кубикам.",
        "judge-sampled": (
            "Выборка, не точный расчёт: атака слишком велика для точного движка, поэтому она сыграна "
            "{trials} раз с кубиками от зерна {seed}; усы столбцов и скобки дают 95-процентные "
            "интервалы."
        ),
        "judge-expected": "Ожидаемые потери в отряде {unit}: {value}",
        "judge-expected-wounds": "ожидаемые раны: {value}",
        "judge-interval": "(95%: от {low} до {high})",
        "judge-done-sampled": "Рассужено rulespy, шансы по выборке.",
        "judge-done-no-odds": "Рассужено rulespy; шансы посчитать не удалось (см. ниже).",
        "judge-compare": "Сравнить",
        "judge-situation-a": "Ситуация A",
        "judge-situation-b": "Ситуация B",
        "judge-yaml-b": "Сценарий B (YAML)",
        "judge-difference": "B − A в отряде {unit}: {value} ожидаемых потерь.",
        "judge-dice-mode": "кубики",
        "judge-dice-typed": "зерно или заданные кубики",
    },
}


def words(language: str | None) -> dict[str, str]:
    return WORDS.get(language, WORDS[None])


def localized(concepts: Iterable[Concept], language: str | None) -> tuple[Concept, ...]:
    """The concepts as a page of ``language`` names them: its name first, its other forms as aliases,
    each form also with its first letter in the other case (Russian writes terms in lower case inside
    a sentence and capitalised at its start). English: unchanged."""
    if language is None:
        return tuple(concepts)
    found = []
    for concept in concepts:
        names = concept.names_in(language)
        forms: list[str] = []
        for name in names:
            for form in (name, name[:1].lower() + name[1:], name[:1].upper() + name[1:]):
                if form not in forms:
                    forms.append(form)
        found.append(replace(concept, name=names[0], aliases=tuple(forms[1:])))
    return tuple(found)


def _to_site_root(url: str) -> str:
    """The relative path from a page published at ``url`` (``core/damage/``) back to its site's root."""
    return "../" * url.count("/")


def _other_site(path: str, language: str | None, other: str | None, anchor: str = "") -> str:
    """The attributes of a raw HTML link from page ``path`` of edition ``language`` to the same page of
    edition ``other``: ``data-vs-href``, relative to the page's URL, which ``assets/language.js``
    follows (so the site works under any folder), and ``href`` from the host's root as the fallback
    without JavaScript. The generators leave both alone: Zensical rewrites a relative ``href`` in raw
    HTML as if it were relative to the markdown file, mkdocs does not, so no relative ``href`` suits both."""
    url = page_url(path)
    to = f"{other}/{url}" if other else url
    relative = _to_site_root(url) + ("../" if language else "") + to
    fragment = f"#{anchor}" if anchor else ""
    return f'href="/{to}{fragment}" data-vs-href="{relative}{fragment}" hreflang="{other or "en"}"'


def switcher(path: str, language: str | None, other: str | None) -> str:
    """The raw HTML link from page ``path`` of edition ``language`` to the same page of ``other``. On a
    translation it also carries the edition's name for the current rules in the theme's version
    selector (``data-vs-current-rules``), which ``assets/language.js`` writes there, and the selector's
    links then lead to this edition's pages of each release (``vX.Y/ru/...``)."""
    attributes = _other_site(path, language, other)
    label = NAMES.get(other, other or "")
    current = f' data-vs-current-rules="{words(language)["current-rules"]}"' if language else ""
    return (
        f'<p class="vs-language"{current}><a class="vs-language-link" {attributes} lang="{other or "en"}">'
        f"{label}</a></p>"
    )


def with_switchers(page: str, path: str, language: str | None, others: list[str | None]) -> str:
    """``page`` with a switcher to each edition in ``others`` above it (unchanged when there is none)."""
    if not others:
        return page
    return "\n".join([*(switcher(path, language, other) for other in others), "", page])


def stale_notices(
    page: str, path: str, translated: Page | None, english: Page | None, language: str
) -> str:
    """``page`` (the rendered markdown of translated page ``path``) with a notice under the heading of
    each stale section (``rulespy.book.sections.stale_reason``, the rule RS074 of ``rulespy check``
    follows: no stamp, a stamp naming another section, or the English section changed since); ``english``:
    the English twin. The notice links to that section of the English site."""
    if english is None or translated is None:
        return page
    current = {s.anchor: s for s in english.sections}
    stale = [
        s.anchor
        for s in translated.sections
        if s.anchor in current and stale_reason(s, english.path, current[s.anchor]) is not None
    ]
    if not stale:
        return page
    said = words(language)
    lines = page.split("\n")
    for anchor in reversed(stale):
        heading = re.compile(r"^#{1,6}\s.*\{[^}]*#" + re.escape(anchor) + r"[\s}]")
        index = next((i for i, line in enumerate(lines) if heading.match(line)), None)
        if index is None:
            continue
        attributes = _other_site(path, language, None, anchor)
        notice = [
            "",
            f'!!! warning "{said["stale"]}"',
            "",
            f'    {said["stale-text"]} <a class="vs-stale-link" {attributes}>'
            f'{said["stale-link"]}</a>.',
            "",
        ]
        lines[index + 1 : index + 1] = notice
    return "\n".join(lines)


def scenario_links(text: str, path: str, language: str, published: Iterable[str]) -> str:
    """Links of a translated page to published files outside its folder (the scenario files), pointed at
    their copy in the translation's site: ``../../examples/scenarios/a.yaml`` from ``core/x.md``."""
    files = set(published)

    def fix(match: re.Match[str]) -> str:
        target = match.group(2)
        full = resolve(f"{language}/{path}", target).path  # the rule book's one link resolution
        if full is not None and full in files:
            return match.group(1) + posixpath.relpath(full, posixpath.dirname(path) or ".") + match.group(3)
        return match.group(0)

    return re.sub(r"(\]\()(\.\./[^)\s#]+)([)\s#])", fix, text)


def has_twin(root: Path, path: str, language: str) -> bool:
    return (Path(root) / language / path).is_file()
