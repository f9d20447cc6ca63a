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

Each page is loaded once for both schemes (a module fixture per generator; each scheme's test asserts
its own findings): checked light by every rule, then switched to dark in place, as the toggle switches a
reader's page, and checked again by the rules a scheme can change, the colour rules over the whole page
and every rule over the palette toggle (which of its labels shows). The styles of the theme and the site
change nothing but colours with the scheme. Only the rules that can report a serious or critical
violation run (axe-core reports each violation with its rule's impact), so the findings are those of a
run by every rule. The search dialog is typed into once a page and checked in both schemes the same way.

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
#: the reader's choice in the theme's palette toggle (kept for the next pages, as for a reader)
_PALETTE = """const input = document.querySelector(
  `input[name=__palette][data-md-color-scheme='${arguments[0]}']`);
if (input && !input.checked) { input.checked = true;
  input.dispatchEvent(new Event('change', {bubbles: true})); }"""
#: the palette toggle, the one part of a page whose elements (which label shows) the scheme changes
_TOGGLE = "form[data-md-component=palette]"
#: the theme's colour transitions turned off before a switch of scheme, so that axe reads the colours a
#: reader sees once the switch is over (as on a page loaded in that scheme), never ones mid-fade
_NO_FADE = """if (!document.getElementById('vs-no-fade')) {
  const off = document.createElement('style');
  off.id = 'vs-no-fade';
  off.textContent = '*, *::before, *::after { transition: none !important; }';
  document.head.append(off);
}"""
#: axe-core over the selectors ``arguments[0]`` (null: the whole page) less ``arguments[1]``, by the rules
#: of ``arguments[2]``'s category (null: all) that can find a serious or critical violation. axe-core
#: gives each violation its rule's impact (axe 4: every check result of a rule takes the rule's
#: ``impact`` before the violations are summed up), so a rule of minor or moderate impact can never
#: fail these tests: it is not run.
_RUN = """const done = arguments[arguments.length - 1];
const [include, exclude, category] = arguments;
if (!axe._audit || !axe._audit.rules.some((r) => r.impact)) {
  done(['axe failed: its rules carry no impact (axe-core changed: see _RUN in test_accessibility.py)']);
  return;
}
const keep = (r) => r.impact !== 'minor' && r.impact !== 'moderate'
                    && (!category || r.tags.includes(category));
const rules = Object.fromEntries(
  axe._audit.rules.filter((r) => !keep(r)).map((r) => [r.id, {enabled: false}]));
axe.run({include: include || [document], exclude: exclude}, {resultTypes: ['violations'], rules: rules}).then(
  (r) => done(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map(
    (v) => `${v.id} (${v.impact}, ${v.nodes.length}): ` +
           v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | '))),
  (e) => done([`axe failed: ${e}`]));"""


@pytest.fixture(scope="module")
def axe_source() -> str:
    modules = npm_ci(ROOT / "tests" / "axe", ROOT / "build" / "axe", Path("axe-core") / "axe.min.js")
    return (modules / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


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


def _emulate(browser: Any, scheme: str | None) -> None:
    """The reader's system preference (``prefers-color-scheme``), emulated; None: Chromium's own."""
    features = [{"name": "prefers-color-scheme", "value": scheme}] if scheme else []
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": features})


def _in_scheme(browser: Any, scheme: str) -> str | None:
    """Switch the open page to ``scheme`` as a reader does (the system's preference and the theme's palette
    toggle set to it), its colours switched at once: None, or why it was not applied."""
    from selenium.common.exceptions import TimeoutException

    browser.execute_script(_NO_FADE)
    _emulate(browser, scheme)
    wanted = SCHEMES[scheme]
    browser.execute_script(_PALETTE, wanted)
    try:
        wait(browser, lambda d: d.execute_script(_SCHEME) == wanted)
    except TimeoutException:
        return f"the {scheme} palette is not applied"
    return None


def _open(browser: Any, axe_source: str, url: str) -> None:
    """Load ``url`` in the light scheme, wait for its content and give it axe-core."""
    from selenium.webdriver.common.by import By

    _emulate(browser, "light")
    browser.get(url)
    wait(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".md-content h1"))
    browser.execute_script(axe_source)


def _page_violations(browser: Any, axe_source: str, url: str) -> dict[str, list[str]]:
    """The violations of the page at ``url`` in each scheme, from one load: in the light scheme by every
    rule; then switched to the dark one, its colours by the colour rules (``cat.color``) and the palette
    toggle, whose shown label the switch changes, by every rule. Nothing else on a page depends on the
    scheme: the theme's and the site's styles key only colours on it (``[data-md-color-scheme=slate]``)."""
    _open(browser, axe_source, url)
    exclude = [[".vs-judge-page"]] if url.endswith("/judge/") else []
    found: dict[str, list[str]] = {}
    for scheme in SCHEMES:
        problem = _in_scheme(browser, scheme)
        if problem is not None:
            found[scheme] = [problem]
        elif scheme == "light":
            found[scheme] = browser.execute_async_script(_RUN, None, exclude, None)
        else:
            found[scheme] = browser.execute_async_script(_RUN, [_TOGGLE], [], None)
            found[scheme] += browser.execute_async_script(_RUN, None, exclude, "cat.color")
    return {scheme: [f"{url} ({scheme}): {v}" for v in said] for scheme, said in found.items()}


def _each_size(browser: Any) -> Iterator[tuple[int, int]]:
    """The desktop and the phone size, the window set to each in turn; afterwards desktop again and no
    emulated colour scheme, however the loop ended."""
    try:
        for size in ((1280, 1000), PHONE):
            browser.set_window_size(*size)
            yield size
    finally:
        browser.set_window_size(1280, 1000)
        _emulate(browser, None)


@pytest.fixture(scope="module")
def page_violations(
    browser: Any, base_url: str, built: Path, axe_source: str, past_editions: list[str]
) -> Iterator[dict[str, list[str]]]:
    """Every page type of this generator's site checked at desktop and phone size, each page loaded once
    for both schemes (``_page_violations``): the violations found, per scheme."""
    browser.set_script_timeout(120)
    found: dict[str, list[str]] = {scheme: [] for scheme in SCHEMES}
    for size in _each_size(browser):
        for page in _pages(built) if size != PHONE else ("", "core/damage/", "ru/"):
            for scheme, said in _page_violations(browser, axe_source, urljoin(base_url, page)).items():
                found[scheme] += [f"{size[0]}px {v}" for v in said]
    yield found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_or_critical_axe_violation_on_any_page_type(
    page_violations: dict[str, list[str]], scheme: str, past_editions: list[str]
) -> None:
    assert past_editions, "no past edition was built into the test site: CHANGELOG.md has a release (v1.0)"
    found = page_violations[scheme]
    assert not found, "\n".join(found)


@pytest.fixture(scope="module")
def dialog_violations(browser: Any, base_url: str, axe_source: str) -> Iterator[dict[str, list[str]]]:
    """The site's search dialog open with results on an English and a Russian page, at desktop and phone
    size, checked in each scheme (the search typed once a page, the scheme then switched): per scheme."""
    from tests.browser import search

    browser.set_script_timeout(120)
    found: dict[str, list[str]] = {scheme: [] for scheme in SCHEMES}
    for size in _each_size(browser):
        for page, words in (("core/damage/", "overkill damage"), ("ru/core/damage/", "лишний урон")):
            url = urljoin(base_url, page)
            _open(browser, axe_source, url)
            for scheme in SCHEMES:
                problem = _in_scheme(browser, scheme)  # the page and palette, as a reader has them
                if problem is not None:
                    found[scheme].append(f"{size[0]}px {url}: {problem}")
                    continue
                if scheme == "light":
                    assert search(browser, words, "/core/damage/")
                violations = browser.execute_async_script(_RUN, ["dialog.vs-search"], [], None)
                found[scheme] += [f"{size[0]}px {url} search ({scheme}): {v}" for v in violations]
    yield found


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_search_dialog_with_its_results_has_no_serious_or_critical_axe_violation(
    dialog_violations: dict[str, list[str]], scheme: str
) -> None:
    """The site's search (Pagefind's UI in ``assets/search.js``'s dialog) open, with results, in both
    editions, at desktop and phone size: axe-core checks the dialog alone (the page behind it is inert)."""
    found = dialog_violations[scheme]
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
