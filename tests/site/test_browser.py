"""The published site in a real browser: render it, build it with each generator (mkdocs-material and
Zensical, from the same mkdocs.yml and staged pages), serve it on 127.0.0.1, drive headless Chromium.

The site is built once per generator for the session and Chromium started once (``tests/site/conftest.py``,
``tests/conftest.py``; the helpers are ``tests/browser.py``). Needs Debian's Chromium and its driver
(``apt-get install chromium chromium-driver``, which ``.ci/run`` does). Without them the tests are
skipped with that message, except under ``CI=true``, where a missing browser is a failure. A screenshot
of a rule page is saved in ``tests/out/``.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest

from tests.browser import loaded, search, severe, wait

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "out"

pytestmark = pytest.mark.timeout(300)


def test_home_page_renders(browser: Any, base_url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(base_url)
    heading = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".md-content h1"))
    assert heading.text.strip()
    nav = browser.find_element(By.CSS_SELECTOR, "nav.md-nav--primary").get_attribute("textContent")
    for section in ("Core", "Sequences", "Timing", "Glossary"):
        assert section in nav
    assert severe(browser) == []


def test_search_for_target_limit_lists_the_damage_page(browser: Any, base_url: str) -> None:
    browser.get(base_url)
    assert search(browser, "Target Limit", "/core/damage/")


def test_the_shooting_pages_mention_of_core_damage_md_is_a_working_link(browser: Any, base_url: str) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By

    browser.get(urljoin(base_url, "core/shooting/"))

    def mentioned(d: Any) -> list[Any]:  # found afresh: on a busy machine the article may not be drawn yet
        links = d.find_elements(By.CSS_SELECTOR, "article a")
        return [a for a in links if a.text.strip() == "core/damage.md"]

    try:
        mentions = wait(browser, mentioned)
    except TimeoutException:
        raise AssertionError("the shooting page has no link whose text is core/damage.md") from None
    mentions[0].click()
    wait(browser, lambda d: "/core/damage/" in d.current_url)
    wait(browser, lambda d: "Damage" in d.find_element(By.CSS_SELECTOR, ".md-content h1").text)
    assert severe(browser) == []


def test_a_concept_link_shows_its_owners_definition_on_hover(browser: Any, base_url: str) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    browser.get(urljoin(base_url, "core/shooting/"))
    concept = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "article a.vs-concept"))
    preview = concept.get_attribute("title") or concept.get_attribute("data-md-title") or ""
    # "Concept: the owner's first paragraph", whole, and no file path
    assert ": " in preview and ".md" not in preview and not preview.endswith("…"), preview
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", concept)
    ActionChains(browser).move_to_element(concept).perform()

    def shown(driver: Any) -> Any:
        tips = driver.find_elements(By.CSS_SELECTOR, "[role=tooltip]")
        return next((tip for tip in tips if tip.is_displayed()), None)

    try:
        tooltip = wait(browser, shown, 4)
    except TimeoutException:  # Zensical 0.0.73 opens it on keyboard focus; headless hover does not
        browser.execute_script("arguments[0].focus();", concept)
        tooltip = wait(browser, shown)
    assert " ".join(tooltip.text.split()) == " ".join(preview.split())


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        wanted = {"a": "href", "link": "href", "script": "src", "img": "src"}.get(tag)
        for key, value in attrs:
            if key == wanted and value:
                self.found.append(value)


def test_every_internal_link_on_every_page_answers_200(built: Path, base_url: str) -> None:
    host = urlsplit(base_url).netloc
    checked: dict[str, int] = {}
    broken: list[str] = []
    pages = sorted(built.rglob("*.html"))
    assert len(pages) > 5
    for page in pages:
        page_url = urljoin(base_url, page.relative_to(built).as_posix())
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for link in parser.found:
            url = urljoin(page_url, link).split("#")[0]
            if urlsplit(url).netloc != host or urlsplit(url).scheme not in ("http", "https"):
                continue
            if url not in checked:
                try:
                    with urllib.request.urlopen(url, timeout=10) as answer:
                        checked[url] = answer.status
                except urllib.error.HTTPError as error:
                    checked[url] = error.code
            if checked[url] != 200:
                broken.append(f"{page.relative_to(built)}: {link} -> {checked[url]}")
    assert not broken, "\n".join(broken)


def test_every_page_loads_without_console_errors_and_screenshot(browser: Any, base_url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(base_url)
    rule_pages = wait(
        browser,
        lambda d: [
            a.get_attribute("href")
            for a in d.find_elements(By.CSS_SELECTOR, "nav.md-nav--primary a.md-nav__link[href]")
        ],
    )
    errors: list[str] = []
    shot: str | None = None
    for url in dict.fromkeys(u.split("#")[0] for u in rule_pages if u and u.startswith(base_url)):
        browser.get(url)
        errors += [f"{url}: {message}" for message in severe(browser)]
        if shot is None and browser.find_elements(By.CSS_SELECTOR, "figure.vs-board"):
            shot = url
    assert not errors, "\n".join(errors)
    browser.get(shot or urljoin(base_url, "core/damage/"))
    wait(browser, lambda d: loaded(d))
    boards = browser.find_elements(By.CSS_SELECTOR, "figure.vs-board")
    if boards:
        browser.execute_script("arguments[0].scrollIntoView({block: 'start'});", boards[0])
    OUT.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(OUT / "rule-page.png"))


def test_boards_and_odds_tables_are_drawn_in_the_example_blocks(browser: Any, base_url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(urljoin(base_url, "core/damage/"))
    example = "article .admonition.example.vs-example"
    examples = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, example))
    assert examples
    board = examples[0].find_element(By.CSS_SELECTOR, "figure.vs-board svg")
    assert board.size["width"] > 200 and board.size["height"] > 50
    assert board.find_elements(By.CSS_SELECTOR, ".vs-model")
    odds = [t for t in browser.find_elements(By.CSS_SELECTOR, "article table") if "casualties in" in t.text]
    assert odds and "%" in odds[0].text


def test_the_glossary_lists_concepts_linked_to_their_owners(browser: Any, base_url: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(urljoin(base_url, "glossary/"))
    links = wait(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "article li strong a"))
    assert len(links) > 20
    target = next(a for a in links if a.text == "Target Limit")
    target.click()
    wait(browser, lambda d: "/core/damage/" in d.current_url and d.current_url.endswith("#target-limit"))
