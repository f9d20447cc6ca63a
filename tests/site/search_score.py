"""Score the built site's search with the table questions (``tests/site/table_questions.yml``).

``score(driver, site_url, language)`` opens the site's home page and asks each question of the site's
search, and counts a question as answered when one of the first three results is an answering section
(``PAGE#ID``; ``PAGE`` alone: the page as a whole). A result is an entry the engine matched, in the
order shown.

With Pagefind's index (the site's search, ``assets/search.js``), every question is asked of the very
engine the search dialog imports (``assets/pagefind.js``, in front of Pagefind's own), called as the
dialog calls it (``search(question, {filters: {}})``), in one script: the first three results, linked
as the dialog links them. The dialog draws the engine's results in the engine's order; that this holds
is checked on ``TYPED`` of the questions, spread over the list, which are also typed into the dialog
(the header's search button opens it) and whose first three links must be the engine's. Typing every
question costs about half a second each (the dialog waits 300 ms after the last keystroke before it
searches): 25 s of a 2-core machine per language and generator, where the engine answers all 48 in 3.
The dialog's answer is awaited on a condition, never for a time (``_typed``): its message names the
question typed ("12 results for ...", "No results for ..."; a search still running draws no result
list) and each of the first three results has its link once its data arrived.

A site built without the index has the theme's own search (Material's box in the header, Zensical's
dialog in a shadow root), whose list is read once it has stayed the same for half a second
(``_settled``: those searches never say that they are done; only by hand, on such a site). Material
heads each page's group with the page's title even when only a section matched (score 0), and such a
heading is not counted.

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


#: how many of the questions are also typed into Pagefind's dialog, whose first links must be the engine's
TYPED = 4

#: each question of ``arguments[0]`` asked of the engine the dialog imports, as the dialog asks it (it
#: also sets ``excerptLength``, which shapes the excerpts, not the order): the first ``arguments[1]``
#: results' addresses, as the dialog links them (``meta.url``, else ``url``)
_ENGINE = """
const [questions, top, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
(async () => {
  const root = new URL('../', document.querySelector('script[src*="assets/search.js"]').src);
  const engine = await import(new URL('assets/pagefind.js', root).href);
  await engine.options({});
  const found = [];
  for (const question of questions) {
    const answer = await engine.search(question, {filters: {}});
    const first = await Promise.all(answer.results.slice(0, top).map((result) => result.data()));
    found.push(first.map((data) => new URL((data.meta && data.meta.url) || data.url, root).href));
  }
  return found;
})().then(done, (error) => done(`the engine failed: ${error}`));"""

#: the first ``arguments[1]`` links Pagefind's dialog draws for the question ``arguments[0]`` (typed
#: already), as soon as it has drawn them: read at once, else on each change of the dialog
_TYPED = """
const [question, top, done] = [arguments[0], arguments[1], arguments[arguments.length - 1]];
const box = document.querySelector('dialog.vs-search');
function drawn() {
  const input = box.querySelector('input');
  if (!input || input.value !== question) return null;
  const message = box.querySelector('.pagefind-ui__message');
  const list = box.querySelector('ol.pagefind-ui__results');
  if (!message || !list || !message.textContent.includes(question)) return null;  // not yet searched
  const first = [...list.children].slice(0, top);
  const links = first.map((li) => li.querySelector('a.pagefind-ui__result-link[href]'));
  return links.some((a) => !a) ? null : links.filter((a) => a.checkVisibility()).map((a) => a.href);
}
const now = drawn();
if (now) done(now);
else {
  const watch = new MutationObserver(() => {
    const found = drawn();
    if (found) { watch.disconnect(); done(found); }
  });
  watch.observe(box, {childList: true, subtree: true, attributes: true, characterData: true});
}"""


def _engine(driver: Any, asked: list[str]) -> list[tuple[str, ...]]:
    """The first ``TOP`` results of each question of ``asked``, from the engine the dialog imports."""
    found = driver.execute_async_script(_ENGINE, asked, TOP)
    assert isinstance(found, list), found
    return [tuple(links) for links in found]


def _typed(driver: Any, question: str) -> tuple[str, ...]:
    """Type ``question`` into Pagefind's open dialog: the first ``TOP`` links it draws, once drawn."""
    assert driver.execute_script(_TYPE, question), "no search box on the page"
    return tuple(driver.execute_async_script(_TYPED, question, TOP))


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
    from tests.browser import PAGEFIND, PATIENCE, wait

    driver.get(site_url)
    driver.set_script_timeout(4 * PATIENCE)  # a hang guard: the scripts answer on a condition
    listed = questions(language)
    if wait(driver, lambda d: d.execute_script(PAGEFIND)) == "button":
        found = _engine(driver, [question for question, _ in listed])
        _open_search(driver)
        step = max(1, len(listed) // TYPED)
        for index in range(0, len(listed), step)[:TYPED]:  # the dialog draws what the engine found
            question = listed[index][0]
            drawn = _typed(driver, question)
            assert drawn == found[index], f"{question!r}: the dialog drew {drawn}, the engine {found[index]}"
        assert len(found) == len(listed), found
        return [Asked(q, answers, links) for (q, answers), links in zip(listed, found, strict=True)]
    _open_search(driver)
    asked = []
    for question, answers in listed:
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
