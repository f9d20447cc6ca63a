"""Every word of the Russian site is Russian (issue 28, item 1): headless Chromium reads every page of
``/ru/``, built by each generator, as a reader sees it (the text of the page after its scripts ran, the
page title, and the ``title``, ``aria-label``, ``alt`` and ``placeholder`` texts a reader meets as
tooltips or hears from a screen reader) and fails on each English word it finds, naming the page and
the text it stands in.

What is not English prose, and so not counted:

- code (``code``, ``pre``, ``kbd``), which is byte for byte the English examples' (RS073);
- scenario values: the unit, model and weapon ids, sides, statuses and traits of the pages' own example
  scenarios and of the published scenario files (the judge's library of profiles), which the boards,
  summaries and the judge's forms quote (read from the scenarios themselves, not listed);
- a deliberate gloss in brackets, the English term at its definition: ``Захват цели (Target Lock)``;
- file paths and addresses (``ru/core/damage.md``), and words the pages write as inline code (a
  tooltip repeats its owner's first paragraph as plain text: ``её значение wounds``);
- ``ALLOWED``: the game's and the tools' names and the other language's own name on the switcher.

The count is printed (``-s`` shows it; the goal and the assertion: 0).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest
import yaml

from rulespy.check.examples import scenario_texts, worked_examples

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_FILES = ROOT / "examples" / "scenarios"

pytestmark = pytest.mark.timeout(900)

#: Names, not English words: the game, the tools a reader is told to run or that made the site
#: ("Material for MkDocs"), the formats, the dice, "English" (the name the switcher gives the other
#: edition) and "en" (the language code of each heading's link to its English twin section).
ALLOWED = frozenset(
    {"VoidSiege", "rulespy", "Material", "MkDocs", "Zensical", "Pyodide", "PDF", "YAML", "JSON"}
    | {"D6", "2D6", "English", "en"}
)

#: Pages left out, and why (each is a known gap, printed by the test). None now: the What changed page
#: is generated in Russian on /ru/ (``rulespy/editions/page.py``), so the crawl reads it too.
NOT_YET_TRANSLATED: dict[str, str] = {}

#: What the page shows a reader, as [where, text] pairs: visible text outside code, then the texts of
#: titles, labels and placeholders, and the document's title.
READ = """
const skip = new Set(["SCRIPT", "STYLE", "CODE", "PRE", "KBD", "SAMP", "NOSCRIPT", "TEMPLATE"]);
const found = [["title", document.title]];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  let hidden = false;
  for (let up = node.parentElement; up; up = up.parentElement) {
    if (skip.has(up.tagName.toUpperCase())) { hidden = true; break; }
  }
  if (!hidden && node.textContent.trim()) found.push([node.parentElement.tagName, node.textContent]);
}
for (const element of document.querySelectorAll("[title], [aria-label], [alt], [placeholder]")) {
  for (const name of ["title", "aria-label", "alt", "placeholder"]) {
    const value = element.getAttribute(name);
    if (value && value.trim()) found.push(["@" + name, value]);
  }
}
return found;
"""

#: the English term in brackets at its definition, alone or before more words: (Target Lock), (Critical N;
_GLOSS = re.compile(r"\([A-Za-z][\w .,'’/-]*(?=[);])")
_PHRASES = re.compile(r"Material for MkDocs")
_PATH = re.compile(r"\S*[/\\]\S*|\S+\.(?:md|ya?ml|pdf|html|js|json)\b|https?://\S+")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")


def code_words(folder: Path) -> frozenset[str]:
    """Every word written as inline code on the pages under ``folder`` (``wounds``, ``ld``): a tooltip
    shows an owner's first paragraph as plain text, its code among its words."""
    words: set[str] = set()
    for page in folder.rglob("*.md"):
        for code in re.findall(r"`([^`\n]+)`", page.read_text(encoding="utf-8")):
            words.update(_WORD.findall(code))
    return frozenset(words)


def scenario_words(folder: Path) -> frozenset[str]:
    """Every word of a value in the example scenarios of the pages under ``folder`` (ids, names,
    sides, statuses, traits): the text the boards and summaries quote from the scenario."""
    words: set[str] = set()

    def walk(node: Any, key: str = "") -> None:
        if isinstance(node, dict):
            for name, value in node.items():
                if key == "weapons":  # the weapons table: its keys are the weapons' names
                    words.update(_WORD.findall(str(name)))
                walk(value, str(name))
        elif isinstance(node, list):
            for item in node:
                walk(item, key)
        elif isinstance(node, str) and key != "description":
            words.update(_WORD.findall(node))

    sources = [p.read_text(encoding="utf-8") for p in SCENARIO_FILES.glob("*.yaml")]  # the judge's library
    for page in folder.rglob("*.md"):
        for example in worked_examples(page.read_text(encoding="utf-8")):
            sources += scenario_texts(example.content)
    for source in sources:
        try:
            walk(yaml.safe_load(source))
        except yaml.YAMLError:
            continue  # a malformed example is the loader's test, not this one
    return frozenset(words)


def english_words(pairs: list[list[str]], allowed: frozenset[str]) -> Iterator[tuple[str, str]]:
    """(word, the text it stands in) for each English word of ``pairs`` (``READ``'s answer)."""
    for _, text in pairs:
        plain = _PATH.sub(" ", _GLOSS.sub(" ", _PHRASES.sub(" ", text)))
        for word in _WORD.findall(plain):
            if len(word) > 1 and word not in allowed and word.strip("'’") not in allowed:
                yield word, " ".join(text.split())[:120]


def test_english_words_counts_words_outside_glosses_paths_and_names() -> None:
    pairs = [
        ["P", "Захват цели (Target Lock) по файлу ru/core/damage.md: rulespy"],
        ["P", "Со свойством «Критическое N» (Critical N; N от 2 до 6); собран Material for MkDocs"],
        ["P", "Board: g1 (gun, blue): 1 wounds"],
        ["@title", "Switch to dark mode"],
    ]
    found = [word for word, _ in english_words(pairs, ALLOWED | {"gun", "blue"})]
    assert found == ["Board", "wounds", "Switch", "to", "dark", "mode"]


def test_scenario_words_are_the_values_of_the_example_scenarios() -> None:
    words = scenario_words(ROOT / "ru" / "core")
    assert {"gun", "walker", "cannon", "blue", "red"} <= words
    assert "weapons" not in words and "units" not in words  # keys are not values


def _russian_pages(site: Path) -> list[str]:
    """Every page of the Russian site (past editions under ``ru/vX.Y/`` are their own tags' business)."""
    russian = site / "ru"
    pages = []
    for page in sorted(russian.rglob("*.html")):
        relative = page.relative_to(site).as_posix()
        url = relative.removesuffix("index.html")
        if re.match(r"ru/v\d+\.\d+/", relative) or page.name == "404.html" or url in NOT_YET_TRANSLATED:
            continue
        pages.append(url)
    return pages


def test_every_word_of_the_russian_site_is_russian(
    browser: Any, base_url: str, built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the judge's list of example scenarios quotes their file names, which are ids, not prose
    files = frozenset(
        w for f in (ROOT / "examples" / "scenarios").glob("*.yaml") for w in _WORD.findall(f.stem)
    )
    allowed = ALLOWED | scenario_words(ROOT / "ru") | code_words(ROOT / "ru") | files
    pages = _russian_pages(built)
    assert len(pages) >= 20, pages  # every rule page, the home page, the glossary, the judge
    found: list[str] = []
    for page in pages:
        browser.get(urljoin(base_url, page))
        browser.find_element("css selector", "article")  # the page is drawn
        for word, text in english_words(browser.execute_script(READ), allowed):
            found.append(f"/{page}: {word!r} in {text!r}")
    with capsys.disabled():
        print(f"\n{built.name}: {len(found)} English words on {len(pages)} pages of /ru/")
        for url, why in NOT_YET_TRANSLATED.items():
            print(f"  not read: /{url} ({why})")
    assert not found, f"{len(found)} English words on /ru/:\n" + "\n".join(found[:200])


VERSIONS = """
return [...document.querySelectorAll('.md-version__current, .md-version__link')]
  .map(item => [item.tagName, item.textContent.trim(), item.href || ""]);
"""


def test_the_version_selector_on_ru_names_the_current_rules_in_russian_and_leads_to_ru(
    browser: Any, base_url: str, built: Path
) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.browser import PATIENCE

    browser.get(urljoin(base_url, "ru/core/damage/"))
    browser.find_element("css selector", "article")
    try:
        WebDriverWait(browser, PATIENCE).until(lambda d: d.execute_script(VERSIONS))
    except Exception:  # noqa: BLE001 - selenium's TimeoutException: the theme drew no selector
        pytest.skip(f"{built.name} draws no version selector on /ru/ (no version of versions.json is /ru/)")
    items = browser.execute_script(VERSIONS)
    # the current rules in Russian words, and each released edition (v1.0, ...) by its number
    texts = {text for _, text, _ in items}
    current = "текущие правила"
    assert current in texts and all(t == current or t.startswith("v") for t in texts), items
    links = [(text, href) for tag, text, href in items if tag == "A"]
    assert links, items
    for text, href in links:  # every entry leads to that edition's Russian pages
        edition = "" if text == "текущие правила" else text.split(" ")[0] + "/"
        assert href == urljoin(base_url, f"{edition}ru/"), links
