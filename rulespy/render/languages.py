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

from rulespy.check.files import LANGUAGES, page_url
from rulespy.check.parse import parse_markdown
from rulespy.check.translations import sections

from .registry import Concept

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
        "cover": "The shooting rules of VoidSiege, with every worked example drawn as a board.",
        "cover-2": (
            "Printed from the rules repository: the rule files are the source of truth, and every worked\n"
            "example in this book is executed against the reference engine."
        ),
        "contents": "Contents",
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
        "judge-loading": "Loading the rules engine (the first time only)…",
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
        "cover": "Правила стрельбы VoidSiege; каждый разобранный пример нарисован на поле.",
        "cover-2": (
            "Напечатано из репозитория правил: файлы правил — первоисточник, и каждый разобранный\n"
            "пример этой книги исполняется эталонным движком."
        ),
        "contents": "Содержание",
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
        "judge-loading": "Загружается движок правил (только в первый раз)…",
        "judge-resolving": "Движок судит…",
        "judge-no-start": "Движок правил не запустился: {error}",
        "judge-illegal": "Недопустимое объявление: {message} (нарушенное правило: {rule})",
        "judge-computing": "Рассужено rulespy. Считаются точные шансы…",
        "judge-done": "Рассужено rulespy, с точными шансами по всем кубикам.",
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
    """The raw HTML link from page ``path`` of edition ``language`` to the same page of ``other``."""
    attributes = _other_site(path, language, other)
    label = NAMES.get(other, other or "")
    return (
        f'<p class="vs-language"><a class="vs-language-link" {attributes} lang="{other or "en"}">'
        f"{label}</a></p>"
    )


def with_switchers(page: str, path: str, language: str | None, others: list[str | None]) -> str:
    """``page`` with a switcher to each edition in ``others`` above it (unchanged when there is none)."""
    if not others:
        return page
    return "\n".join([*(switcher(path, language, other) for other in others), "", page])


def stale_notices(page: str, path: str, translated: str, english: str | None, language: str) -> str:
    """``page`` (the rendered markdown of translated page ``path``) with a notice under the heading of
    each section whose stamp is missing or does not match the English section now (``english``: the
    English twin's text). The notice links to that section of the English site."""
    if english is None:
        return page
    current = {s.anchor: s.hash for s in sections(english, parse_markdown("", english))}
    stale = [
        s.anchor
        for s in sections(translated, parse_markdown("", translated))
        if s.anchor in current and (s.stamp is None or s.stamp[2] != current[s.anchor])
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
        full = posixpath.normpath(posixpath.join(language, posixpath.dirname(path), target))
        if full in files:
            return match.group(1) + posixpath.relpath(full, posixpath.dirname(path) or ".") + match.group(3)
        return match.group(0)

    return re.sub(r"(\]\()(\.\./[^)\s#]+)([)\s#])", fix, text)


def has_twin(root: Path, path: str, language: str) -> bool:
    return (Path(root) / language / path).is_file()
