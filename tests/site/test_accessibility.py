"""Every page type of the built site checked by axe-core in headless Chromium, with either generator,
in light and dark mode, at desktop and phone size: no violation of serious or critical impact.

axe-core comes from npm at the version locked in ``tests/axe/package-lock.json`` (``npm ci`` into
``build/axe/`` the first time, ``rulespy.render.offline.npm_ci``) and is injected into each page by
selenium. Dark mode is the reader's system preference (Chromium's emulated ``prefers-color-scheme``)
and the theme's palette toggle set to it. The page types: home, Questions at the table, a rule page, the
glossary, the Judge page, What changed, a Russian page, and each past edition (``vX.Y/``: its home, a
rule page and its Russian home), built into the test site by the ``past_editions`` fixture as ``make
site`` builds it. On the Judge page the judge's own forms and editor
(``.vs-judge-page``) are left to that page's tests; the theme and text around them are checked here.

Also here: tooltips open on keyboard focus and on a tap, and show the owner's first paragraph whole.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest

from rulespy.render.offline import npm_ci
from tests.browser import wait

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "out"
PAGES = ("", "questions/", "core/damage/", "glossary/", "judge/", "changes/", "ru/core/cover/", "ru/")
PHONE = (390, 844)
SCHEMES = {"light": "default", "dark": "slate"}

pytestmark = pytest.mark.timeout(900)

_SCHEME = "return document.body.getAttribute('data-md-color-scheme');"
_RUN = """const done = arguments[arguments.length - 1];
const exclude = arguments[0];
axe.run({include: [document], exclude: exclude}, {resultTypes: ['violations']}).then(
  (r) => done(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map(
    (v) => `${v.id} (${v.impact}, ${v.nodes.length}): ` +
           v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '))),
  (e) => done([`axe failed: ${e}`]));"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    modules = npm_ci(ROOT / "tests" / "axe", ROOT / "build" / "axe", Path("axe-core") / "axe.min.js")
    return (modules / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


@pytest.fixture
def scheme(browser: Any, request: pytest.FixtureRequest) -> Iterator[str]:
    value = request.param
    browser.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": value}]}
    )
    yield value
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


@pytest.fixture(scope="module")
def past_editions(built: Path) -> list[str]:
    """Each past edition (``vX.Y/``, a release of CHANGELOG.md) built into the test site as ``make site``
    builds it (``rulespy.editions.site``: from its release commit, by its own render step, with the
    current site's styles and accessibility script carried over); their folders."""
    from rulespy.editions.site import build_editions
    from tests.site.conftest import _once

    generator = built.name  # the test site of each generator is built into a folder of its name
    found: list[str] = []

    def build() -> None:
        found.extend(f"{release.edition}/" for release in build_editions(ROOT, generator, built))

    # into the shared site under the build lock, once per run, as every step that writes into build/
    _once(f"editions-{generator}", build)
    return found or sorted(f"{p.parent.name}/" for p in built.glob("v[0-9]*/index.html"))


def _pages(built: Path) -> list[str]:
    """Every page type; of each past edition built into the site, its home, a rule page and its
    Russian home."""
    past = sorted(p.parent.name for p in built.glob("v[0-9]*/index.html"))
    return [*PAGES, *(f"{v}/{page}" for v in past for page in ("", "core/damage/", "ru/"))]


def _violations(browser: Any, axe_source: str, url: str, scheme: str) -> list[str]:
    from selenium.webdriver.common.by import By

    browser.get(url)
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".md-content h1"))
    wanted = SCHEMES[scheme]
    # the reader's choice in the theme's palette toggle (it is kept for the next pages, as for a reader)
    browser.execute_script(
        "const input = document.querySelector("
        "  `input[name=__palette][data-md-color-scheme='${arguments[0]}']`);"
        "if (input && !input.checked) { input.checked = true;"
        "  input.dispatchEvent(new Event('change', {bubbles: true})); }",
        wanted,
    )
    shown = wait(browser, lambda d: d.execute_script(_SCHEME) == wanted and wanted)
    assert shown == wanted, f"{url}: the {scheme} palette is not applied"
    browser.execute_script(axe_source)
    exclude = [[".vs-judge-page"]] if url.endswith("/judge/") else []
    return [f"{url} ({scheme}): {v}" for v in browser.execute_async_script(_RUN, exclude)]


@pytest.mark.parametrize("scheme", ["light", "dark"], indirect=True)
def test_no_serious_or_critical_axe_violation_on_any_page_type(
    browser: Any, base_url: str, built: Path, axe_source: str, scheme: str, past_editions: list[str]
) -> None:
    assert past_editions, "no past edition was built into the test site: CHANGELOG.md has a release (v1.0)"
    browser.set_script_timeout(120)
    found: list[str] = []
    for size in ((1280, 1000), PHONE):
        browser.set_window_size(*size)
        for page in _pages(built) if size != PHONE else ("", "core/damage/", "ru/"):
            found += [
                f"{size[0]}px {v}" for v in _violations(browser, axe_source, urljoin(base_url, page), scheme)
            ]
    browser.set_window_size(1280, 1000)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("scheme", ["light", "dark"], indirect=True)
def test_the_search_dialog_with_its_results_has_no_serious_or_critical_axe_violation(
    browser: Any, base_url: str, axe_source: str, scheme: str
) -> None:
    """The site's search (Pagefind's UI in ``assets/search.js``'s dialog) open, with results, in both
    editions, at desktop and phone size: axe-core checks the dialog alone (the page behind it is inert)."""
    from tests.browser import search

    browser.set_script_timeout(120)
    found: list[str] = []
    for size in ((1280, 1000), PHONE):
        browser.set_window_size(*size)
        for page, words in (("core/damage/", "overkill damage"), ("ru/core/damage/", "лишний урон")):
            url = urljoin(base_url, page)
            _violations(browser, axe_source, url, scheme)  # the page and palette, as a reader has them
            assert search(browser, words, "/core/damage/")
            violations = browser.execute_async_script(_RUN.replace("[document]", "['dialog.vs-search']"), [])
            found += [f"{size[0]}px {url} search ({scheme}): {v}" for v in violations]
    browser.set_window_size(1280, 1000)
    assert not found, "\n".join(found)


def test_links_in_the_text_are_underlined_not_told_apart_by_colour_alone(browser: Any, base_url: str) -> None:
    browser.get(urljoin(base_url, "glossary/"))
    decorations = wait(
        browser,
        lambda d: d.execute_script(
            "return [...document.querySelectorAll('article p a, article li a')].map("
            "a => getComputedStyle(a).textDecorationLine);"
        ),
    )
    assert len(decorations) > 20
    assert all("underline" in d for d in decorations), sorted(set(decorations))


def _tooltip(browser: Any) -> str:
    from selenium.webdriver.common.by import By

    def shown(driver: Any) -> Any:
        tips = driver.find_elements(By.CSS_SELECTOR, "[role=tooltip]")
        return next((tip.text for tip in tips if tip.is_displayed() and tip.text.strip()), None)

    return str(wait(browser, shown))


def _first_concept(browser: Any) -> tuple[Any, str]:
    from selenium.webdriver.common.by import By

    link = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "article a.vs-concept"))
    text = link.get_attribute("title") or link.get_attribute("data-md-title") or ""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    return link, text


def test_a_tooltip_opens_on_keyboard_focus_with_the_whole_first_paragraph(
    browser: Any, base_url: str
) -> None:
    browser.get(urljoin(base_url, "core/shooting/"))
    link, preview = _first_concept(browser)
    assert ": " in preview and ".md" not in preview and "…" not in preview, preview  # no file path, not cut
    browser.execute_script("arguments[0].focus();", link)
    assert " ".join(_tooltip(browser).split()) == " ".join(preview.split())


def test_a_tap_on_a_concept_link_shows_its_definition_before_following_it(
    browser: Any, base_url: str
) -> None:
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.interaction import POINTER_TOUCH
    from selenium.webdriver.common.actions.pointer_input import PointerInput
    from selenium.webdriver.common.by import By

    browser.set_window_size(*PHONE)
    try:
        page = urljoin(base_url, "core/shooting/")
        browser.get(page)
        link, text = _first_concept(browser)

        def tap() -> None:
            actions = ActionBuilder(browser, mouse=PointerInput(POINTER_TOUCH, "finger"))
            actions.pointer_action.move_to(link).pointer_down().pointer_up()
            actions.perform()

        tap()
        tip = wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, "#vs-tip"))
        assert " ".join(tip.find_element(By.CSS_SELECTOR, "p").text.split()) == " ".join(text.split())
        assert browser.current_url.split("#")[0] == page  # the first tap did not follow the link
        OUT.mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(OUT / "tooltip-tap.png"))
        tap()  # the second tap follows it
        wait(browser, lambda d: d.current_url.split("#")[0] != page)
    finally:
        browser.set_window_size(1280, 1000)
