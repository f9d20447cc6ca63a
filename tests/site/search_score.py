"""Score the built site's search with the table questions (``tests/site/table_questions.yml``).

``score(driver, site_url, language)`` opens the site's home page, types each question into the site's
search: Pagefind's, in the dialog the header's search button opens (``assets/search.js``), or, on a site
built without its index, the theme's own (Material's box in the header, Zensical's dialog in a shadow root),
waits until the results for that very question are drawn, and counts a question as answered when one of
the first three results is an answering section (``PAGE#ID``; ``PAGE`` alone: the page as a whole). A
result is an entry the engine matched, in the order shown: Material heads each page's group with the
page's title even when only a section matched (score 0), and such a heading is not counted.

Pagefind's dialog says when its answer is complete, so the wait is on that condition, never on time
(``_answered``): its message names the question typed ("12 results for ...", "No results for ..."; a
search still running draws no result list), and each of the first three results has its link once its
data arrived (a result not loaded yet is an empty placeholder). Only the themes' own searches, which
say nothing of the kind, are read once their list has stayed the same for half a second (``_settled``:
a site built without npm, measured by hand).

Run by ``tests/site/test_search_questions.py``; also by hand on any built site, to measure a change:
``python -m tests.site.search_score build/sites-under-test/mkdocs [ru]``.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import yaml

from rulespy.check.files import page_url

QUESTIONS = Path(__file__).resolve().parent / "table_questions.yml"
TOP = 3

_RESULTS = """
const pagefind = document.querySelector('dialog.vs-search');
if (pagefind) return [...pagefind.querySelectorAll('.pagefind-ui__result-link')].map(a => a.href);
const host = [...document.querySelectorAll('*')].find(
    e => e.shadowRoot && e.shadowRoot.querySelector('dialog[aria-label=Search]'));
const root = host ? host.shadowRoot : document;
const links = host ? [...root.querySelectorAll('dialog ol[role=listbox] a[href]')]
                   : [...root.querySelectorAll('.md-search-result__list a[href]')].filter(
                       a => a.querySelector('article[data-md-score]:not([data-md-score="0.00"])'));
return links.filter(a => a.checkVisibility()).map(a => a.href);"""

_TYPE = """
const words = arguments[0];
const host = [...document.querySelectorAll('*')].find(
    e => e.shadowRoot && e.shadowRoot.querySelector('dialog[aria-label=Search]'));
const pagefind = document.querySelector('dialog.vs-search input');
const input = pagefind || (host ? host.shadowRoot.querySelector('input')
                                : document.querySelector('input.md-search__input'));
if (!input) return false;
input.focus();
input.value = words;
for (const kind of ['input', 'keyup', 'change']) input.dispatchEvent(new Event(kind, {bubbles: true}));
return true;"""


@dataclass(frozen=True)
class Asked:
    question: str
    answers: tuple[str, ...]
    results: tuple[str, ...]

    @property
    def answered(self) -> bool:
        return any(_answers(url, self.answers) for url in self.results[:TOP])


def questions(language: str | None) -> list[tuple[str, tuple[str, ...]]]:
    """The questions of ``language`` (``None``: English), each with its answering sections."""
    data = yaml.safe_load(QUESTIONS.read_text(encoding="utf-8"))
    return [(q["ask"], tuple(q["answers"])) for q in data[language or "en"]]


def _answers(url: str, answers: tuple[str, ...]) -> bool:
    """Whether result ``url`` is one of ``answers`` (``core/cover.md#cover``; ``core/cover.md``: the page)."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/") + "/"
    for answer in answers:
        page, _, anchor = answer.partition("#")
        if path.endswith("/" + page_url(page)) and parts.fragment == anchor:
            return True
    return False


def _open_search(driver: Any) -> bool:
    """Open the page's search; whether it is Pagefind's."""
    from selenium.webdriver.common.by import By

    from tests.browser import PAGEFIND, wait

    if wait(driver, lambda d: d.execute_script(PAGEFIND)) == "button":
        driver.execute_script("document.querySelector('.vs-search-open').click();")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "dialog.vs-search[open] input"))
        return True
    if driver.find_elements(By.CSS_SELECTOR, "input.md-search__input"):
        driver.execute_script("document.querySelector('input.md-search__input').focus();")
    else:  # Zensical: the header's button opens the dialog
        driver.execute_script("document.querySelector('.md-search__button').click();")
    return False


#: the first TOP results of the question ``arguments[0]`` once Pagefind's dialog has drawn them, or null
_ANSWERED = """
const box = document.querySelector('dialog.vs-search');
const input = box && box.querySelector('input');
if (!input || input.value !== arguments[0]) return null;
const message = box.querySelector('.pagefind-ui__message');
const list = box.querySelector('ol.pagefind-ui__results');
if (!message || !list || !message.textContent.includes(arguments[0])) return null;
const first = [...list.children].slice(0, arguments[1]);
const links = first.map(li => li.querySelector('a.pagefind-ui__result-link[href]'));
if (links.some(a => !a)) return null;
return {links: links.filter(a => a.checkVisibility()).map(a => a.href)};"""


def _answered(driver: Any, question: str) -> tuple[str, ...]:
    """The first ``TOP`` results Pagefind's dialog drew for ``question``, once it has drawn them all: a
    condition, not a time (``tests.browser.wait`` stops a search that never answers, as a hang guard)."""
    from tests.browser import PATIENCE, wait

    found = wait(driver, lambda d: d.execute_script(_ANSWERED, question, TOP), 4 * PATIENCE)
    return tuple(found["links"])


def _settled(driver: Any, patience: float = 10.0) -> tuple[str, ...]:
    """The theme's result list (a site without Pagefind's index) once it has stayed the same for half a
    second (empty after ``patience``): those searches never say that they are done."""
    last: list[str] | None = None
    since = time.monotonic()
    start = since
    while True:
        now = driver.execute_script(_RESULTS)
        if now != last:
            last, since = now, time.monotonic()
        elif last and time.monotonic() - since > 0.5:
            return tuple(last)
        if time.monotonic() - start > patience:
            return tuple(last or ())
        time.sleep(0.1)


def score(driver: Any, site_url: str, language: str | None) -> list[Asked]:
    """Every question of ``language`` asked of the site at ``site_url`` (its root, ``/ru/`` for Russian)."""
    driver.get(site_url)
    pagefind = _open_search(driver)
    asked = []
    for question, answers in questions(language):
        if pagefind:  # each question differs from the last: its own results are told apart by its words
            assert driver.execute_script(_TYPE, question), "no search box on the page"
            asked.append(Asked(question, answers, _answered(driver, question)))
            continue
        driver.execute_script(_TYPE, "")
        time.sleep(0.2)
        assert driver.execute_script(_TYPE, question), "no search box on the page"
        asked.append(Asked(question, answers, _settled(driver)))
    return asked


def report(asked: list[Asked]) -> str:
    """One line per question missed, and the total."""
    lines = []
    for a in asked:
        if not a.answered:
            top = ", ".join(urlsplit(u).path + "#" + urlsplit(u).fragment for u in a.results[:TOP])
            lines.append(f"  missed: {a.question!r} (top: {top or 'none'})")
    hits = sum(a.answered for a in asked)
    share = 100 * hits // max(1, len(asked))
    return "\n".join([*lines, f"{hits} of {len(asked)} questions ({share}%) answered in the first {TOP}"])


def main(argv: list[str]) -> int:
    from tests.browser import chromium, serving

    site, language = Path(argv[0]), (argv[1] if len(argv) > 1 else None)
    import tempfile

    with serving(site) as url, tempfile.TemporaryDirectory() as profile, chromium(Path(profile)) as driver:
        print(report(score(driver, urljoin(url, f"{language}/" if language else ""), language)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
