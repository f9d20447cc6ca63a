"""The rules judge as a player uses it (issue 26), in headless Chromium, on each generator's build and in
both languages: the engine in a Web Worker that boots once and survives Material's instant navigation;
the outcome, the steps with rule titles and the command line's text one click away; the odds chart with
"exactly" and "at least"; a comparison and its permalink; sampled odds beyond the exact limit; broken and
hostile permalinks (issue 29); a phone-sized window with a finger dragging a model; axe-core with no
serious or critical violation on the Judge page and on a Try it box, light and dark; the focus kept after
a form's change, typing judged once the reader stops, the outcome announced; a new page load started
from the engine's saved snapshot (and a spoilt one forgotten); the main thread's CPU time over a re-run
after an edit (counted work, where a long task's wall-clock length would grow with the machine's load).

Material's instant navigation takes a link for one of the site's pages only when the link's port is the
port of ``site_url`` in its sitemap (``mkdocs.yml`` says 8000, whose value is not this module's to
change), so the site's server (``tests.browser.Site``) answers ``sitemap.xml`` with its own address: what
setting ``site_url`` to it would have built. axe-core comes from its npm package, pinned in
``tests/axe/package-lock.json`` and installed by ``npm ci`` into ``build/axe/``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulespy.render import judge, web
from rulespy.render.languages import WORDS
from rulespy.render.offline import npm_ci
from tests.browser import Servers, Site, require_browser, wait
from tests.odds.test_sampled import BEYOND

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "tests" / "axe"
LOAD_SECONDS = 180  # a cold Pyodide start on a busy 2-core machine
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
ARMOUR = (ROOT / "examples/scenarios/armour.yaml").read_text(encoding="utf-8")
SPLIT = (ROOT / "examples/scenarios/split_fire.yaml").read_text(encoding="utf-8")

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def player(browser: Any) -> Any:
    browser.set_window_size(1280, 1000)
    browser.set_page_load_timeout(60)
    browser.set_script_timeout(LOAD_SECONDS)
    return browser


@pytest.fixture(scope="module")
def site(built: Path, servers: Servers) -> str:
    """The built site, its sitemap naming the server's address (``tests.browser.Site``), on one address
    for the session (``tests.browser.Servers``): the engine's runtime, its saved snapshot and the service
    worker's copy of the pages stay in Chromium's caches when the module turns from one generator's site
    to the other's and back. The other modules' address (``base_url``) keeps the sitemap as built."""
    require_browser()
    return servers.url(built, Site)


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core's ``axe.min.js``, from the npm package ``tests/axe/package-lock.json`` pins (the one lock
    of every accessibility test; ``npm ci`` into build/axe/)."""
    modules = npm_ci(AXE, ROOT / "build" / "axe", Path("axe-core") / "axe.min.js")
    return (modules / "axe-core" / "axe.min.js").read_text(encoding="utf-8")


def _said(language: str | None, key: str, **values: object) -> str:
    word = WORDS.get(language, {}).get(f"judge-{key}") or WORDS[None][f"judge-{key}"]
    return str(word).format(**values) if values else str(word)


def _number(language: str | None, value: float, spec: str = ".2f") -> str:
    """``value`` as the page in ``language`` writes it: the Russian page with the decimal comma."""
    text = format(value, spec)
    return text.replace(".", ",") if language == "ru" else text


def _prefix(language: str | None) -> str:
    return f"{language}/" if language else ""


def _open_judge(driver: Any, url: str) -> Any:
    """Open the Judge page at ``url`` (loaded anew, even when only its #hash differs from the page open) and
    press its start button if it asks (a first visit): its editors."""
    driver.get("about:blank")
    driver.get(url)
    wait(driver, lambda d: d.find_elements("css selector", ".vs-judge-page .vs-judge"), LOAD_SECONDS)
    begin = driver.find_elements("css selector", ".vs-judge-begin")
    if begin:
        driver.execute_script("arguments[0].click();", begin[0])
    return driver.find_elements("css selector", ".vs-judge-page .vs-judge")


def _done(driver: Any, panel: Any, states: tuple[str, ...] = ("done",)) -> str:
    wait(driver, lambda d: panel.get_attribute("data-state") in (*states, "failed"), LOAD_SECONDS)
    state = str(panel.get_attribute("data-state"))
    assert state in states, driver.execute_script("return arguments[0].innerText", panel)[:2000]
    return state


def _set(driver: Any, panel: Any, text: str) -> None:
    """Type ``text`` into the editor as a script does and press Run."""
    area = panel.find_element("css selector", ".vs-judge-yaml")
    typed = "arguments[0].value = arguments[1]; arguments[2].dataset.state = '';"
    driver.execute_script(typed, area, text, panel)
    driver.execute_script("arguments[0].click();", panel.find_element("css selector", ".vs-judge-run"))


@pytest.mark.parametrize("language", [None, "ru"])
def test_try_it_runs_in_one_worker_that_survives_instant_navigation_and_speaks_as_a_player(
    player: Any, site: str, language: str | None
) -> None:
    prefix = _prefix(language)
    player.get(f"{site}{prefix}core/damage/")
    player.execute_script("window.vsVisit = 'same page object';")
    wait(player, lambda d: d.find_elements("css selector", ".vs-try-button"))
    # said before anything is fetched, as the pins give it (a fresh clone renders before the runtime is
    # installed), and the very bytes the browser will fetch: the installed runtime the site was built with
    installed = ROOT / judge.INSTALL / "node_modules" / "pyodide"
    size = sum((installed / name).stat().st_size for name in judge.RUNTIME_FILES) + len(judge.bundle())
    assert judge.download_size() == size
    note = player.find_element("css selector", ".vs-try-note").text
    shown = f"{size / 1e6:.1f}".replace(".", "," if language == "ru" else ".")
    assert f"{shown} {'МБ' if language == 'ru' else 'MB'}" in note, note
    fetched = "return performance.getEntriesByType('resource').map(e => e.name);"
    assert not [n for n in player.execute_script(fetched) if "/judge/" in n]
    box = player.find_element("css selector", ".vs-try")
    code = box.get_attribute("data-scenario")
    player.execute_script("arguments[0].click();", box.find_element("css selector", ".vs-try-button"))
    panel = wait(player, lambda d: box.find_elements("css selector", ".vs-judge"), LOAD_SECONDS)[0]
    _done(player, panel)
    # the engine ran in a worker: Pyodide never entered the page's own scripts
    assert player.execute_script("return typeof window.loadPyodide") == "undefined"
    assert player.execute_script("return vsJudge.boots") == 1
    by_worker = player.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "vsJudge.judge().then(w => w.fetched()).then(n => done(JSON.parse(n)));"
    )
    assert by_worker[0].endswith("/assets/judge-worker.js")
    assert any(n.endswith("/judge/pyodide/pyodide.asm.wasm") for n in by_worker)

    # the outcome first (sentence and table), then the steps citing rules by title; the command line's
    # text one click away, word for word
    expected = json.loads(web.resolve(web.decode(code), language or "en"))
    data = json.loads(expected["json"])
    order = player.execute_script(
        "return [...arguments[0].children].map(c => c.className.split(' ')[0]);", panel
    )
    place = order.index
    assert place("vs-judge-summary") < place("vs-judge-account-steps") < place("vs-judge-cli")
    cli = panel.find_element("css selector", "details.vs-judge-cli")
    assert cli.get_attribute("open") is None
    heading = cli.find_element("css selector", "summary").get_attribute("textContent")
    assert _said(language, "as-printed") in heading
    text = "return arguments[0].querySelector('.vs-judge-account').textContent"
    account = player.execute_script(text, panel)
    assert account == expected["account"]
    steps = panel.find_elements("css selector", ".vs-judge-steps > li")
    assert len(steps) == len(data["trace"])
    for link in panel.find_elements("css selector", ".vs-judge-steps a"):
        text, href = link.get_attribute("textContent"), link.get_attribute("href")
        assert ".md" not in text and "/" not in text  # the rule's title, never its path
        assert href.startswith(f"{site}{prefix}") and "#" in href
    rows = panel.find_elements("css selector", "table.vs-judge-models tbody tr")
    casualties = {c["model"] for c in data["casualties"]}
    assert {r.find_element("css selector", "th").text for r in rows} >= casualties

    # instant navigation keeps the page, its script and its worker: the next Try it starts at once
    player.execute_script("document.querySelector('article').dataset.vsLeft = 'damage';")
    player.execute_script(
        "[...document.querySelectorAll('a.md-nav__link')].find(a => a.href.endsWith('/core/cover/')).click();"
    )
    wait(player, lambda d: d.current_url.endswith("/core/cover/"), 60)
    wait(player, lambda d: not d.find_elements("css selector", "article[data-vs-left]"), 60)  # swapped
    wait(player, lambda d: d.find_elements("css selector", ".vs-try-button"), 60)
    assert player.execute_script("return window.vsVisit") == "same page object"
    player.execute_script("document.querySelector('.vs-try-button').click();")
    panel = wait(player, lambda d: d.find_elements("css selector", ".vs-judge"), LOAD_SECONDS)[0]
    _done(player, panel)
    assert player.execute_script("return vsJudge.boots") == 1


SAVE = """
const done = arguments[arguments.length - 1];
vsJudge.judge().then((w) => w.snapshot()).then(done, (e) => done(String(e)));
"""
SNAPSHOTS = """
const done = arguments[arguments.length - 1];
caches.open("vs-judge-engine").then(async (cache) => {
  const keys = await cache.keys();
  if (arguments[0]) for (const key of keys) await cache.put(key, new Response("not a snapshot"));
  const size = async (key) => (await (await cache.match(key)).arrayBuffer()).byteLength;
  done(await Promise.all(keys.map(async (key) => [key.url, await size(key)])));
});
"""


def _try_first(driver: Any, url: str) -> Any:
    """Load ``url`` anew, press its first Try it and wait until it is judged: its editor."""
    driver.get("about:blank")
    driver.get(url)
    wait(driver, lambda d: d.find_elements("css selector", ".vs-try-button"), 60)
    box = driver.find_element("css selector", ".vs-try")
    driver.execute_script("arguments[0].click();", box.find_element("css selector", ".vs-try-button"))
    panel = wait(driver, lambda d: box.find_elements("css selector", ".vs-judge"), LOAD_SECONDS)[0]
    _done(driver, panel)
    return panel


@pytest.mark.parametrize("language", [None, "ru"])
def test_a_new_page_load_starts_the_engine_from_its_saved_snapshot_and_judges_alike(
    player: Any, site: str, language: str | None
) -> None:
    # Issue 26, "within 1 s once cached": the engine this browser saved after a judgement (a Pyodide
    # memory snapshot in Cache Storage, keyed by the Pyodide version and the bundle's hash) starts the
    # next page load's engine without starting Python and importing rulespy again; a snapshot that
    # cannot be loaded is forgotten and the engine starts afresh, judging the same.
    url = f"{site}{_prefix(language)}core/damage/"
    _try_first(player, url)
    assert player.execute_async_script(SAVE) in ("made", "none")  # "none": saved after the first odds
    kept = player.execute_async_script(SNAPSHOTS, False)
    assert len(kept) == 1 and f"/engine-snapshot/{judge.pinned_version()}/" in kept[0][0]
    assert kept[0][1] > 10_000_000  # Python's memory: tens of megabytes
    panel = _try_first(player, url)
    assert player.execute_script("return window.vsJudgeBoot") == "snapshot"
    code = player.find_element("css selector", ".vs-try").get_attribute("data-scenario")
    expected = json.loads(web.resolve(web.decode(code), language or "en"))
    text = "return arguments[0].querySelector('.vs-judge-account').textContent"
    assert player.execute_script(text, panel) == expected["account"]
    odds = player.execute_script("return arguments[0].querySelector('.vs-judge-odds').textContent", panel)
    # a lazily imported module works too
    assert odds == json.loads(web.odds(web.decode(code), language or "en"))["text"]

    if language is not None:  # the spoilt snapshot's fresh start is the same in every language: once a site
        return
    assert player.execute_async_script(SNAPSHOTS, True)[0][1] == len("not a snapshot")  # spoilt
    panel = _try_first(player, url)
    assert player.execute_script("return window.vsJudgeBoot") == "fresh"
    assert player.execute_script(text, panel) == expected["account"]
    player.execute_async_script(SAVE)
    assert player.execute_async_script(SNAPSHOTS, False)[0][1] > 10_000_000  # saved anew


@pytest.mark.parametrize("language", [None, "ru"])
def test_the_chart_shows_exactly_and_at_least_n_as_rulespy_odds_computes_them(
    player: Any, site: str, language: str | None
) -> None:
    panel = _open_judge(player, f"{site}{_prefix(language)}judge/#s={web.encode(ARMOUR)}")[0]
    _done(player, panel)
    exact = json.loads(json.loads(web.odds(ARMOUR))["json"])
    assert panel.get_attribute("data-method") == "exact"
    bars = (
        "return [...arguments[0].querySelectorAll('.vs-judge-chart-bar')]"
        ".map(g => [g.dataset.count, +g.dataset.chance]);"
    )
    shown = player.execute_script(bars, panel)
    wanted = [(int(k), round(p, 9)) for k, p in exact["casualties"].items()]
    assert [(int(k), round(p, 9)) for k, p in shown] == wanted
    caption = panel.find_element("css selector", ".vs-judge-chart figcaption").text
    unit = next(iter(exact["targets"]))
    wounds = exact["targets"][unit]["expected_wounds"]  # exact expected wounds (issue 26)
    assert isinstance(wounds, float) and wounds > exact["expected_casualties"]  # a two-wound model's too
    mean = _number(language, exact["expected_casualties"])
    assert caption == _said(language, "expected", unit=unit, value=mean) + (
        "; " + _said(language, "expected-wounds", value=_number(language, wounds))
    )
    legend = panel.find_element("css selector", ".vs-judge-modes legend").text
    assert legend == _said(language, "show")
    player.execute_script("arguments[0].querySelector('.vs-judge-modes [value=atleast]').click();", panel)
    at_least = player.execute_script(bars, panel)
    chances = list(exact["casualties"].values())
    assert [round(p, 9) for _, p in at_least] == [round(sum(chances[i:]), 9) for i in range(len(chances))]
    assert at_least[0][1] == pytest.approx(1)
    labels = panel.find_elements("css selector", ".vs-judge-chart-count")
    assert labels[1].get_attribute("textContent") == "≥1"

    # a split: a chart, a mean and the wounds for every target, and the command line's text lists them all
    _set(player, panel, SPLIT)
    _done(player, panel)
    answer = json.loads(web.odds(SPLIT, language or "en"))
    split = json.loads(answer["json"])["targets"]
    assert len(split) == 3
    charts = panel.find_elements("css selector", ".vs-judge-chart")
    assert [c.get_attribute("data-unit") for c in charts] == list(split)
    for chart, odds in zip(charts, split.values(), strict=True):
        said = chart.find_element("css selector", "figcaption").text
        assert _said(language, "expected-wounds", value=_number(language, odds["expected_wounds"])) in said
    printed = player.execute_script("return arguments[0].querySelector('.vs-judge-odds').textContent", panel)
    heading = "Потери в отряде {unit} (точно" if language == "ru" else "Casualties in {unit} (exact"
    assert printed == answer["text"] and all(heading.format(unit=unit) in printed for unit in split)


@pytest.mark.parametrize("language", [None, "ru"])
def test_compare_puts_two_situations_side_by_side_and_the_permalink_keeps_both(
    player: Any, site: str, language: str | None
) -> None:
    prefix = _prefix(language)
    panel = _open_judge(player, f"{site}{prefix}judge/#s={web.encode(ARMOUR)}")[0]
    _done(player, panel)
    player.execute_script("document.querySelector('.vs-judge-compare-button').click();")
    pair = wait(player, lambda d: d.find_elements("css selector", ".vs-judge-compare .vs-judge"), 60)
    assert len(pair) == 2
    covered = ARMOUR.replace("armour: 1}", "armour: 0}")  # the same attack at unarmoured targets
    assert covered != ARMOUR
    _done(player, pair[1])
    _set(player, pair[1], covered)
    _done(player, pair[1])
    first = json.loads(json.loads(web.odds(ARMOUR))["json"])["targets"]
    second = json.loads(json.loads(web.odds(covered))["json"])["targets"]
    unit = next(iter(first))
    delta = second[unit]["expected_casualties"] - first[unit]["expected_casualties"]
    assert delta > 0.1  # a difference the page must show, not a tie
    difference = player.find_element("css selector", ".vs-judge-difference")
    wanted = _said(language, "difference", unit=unit, value=_number(language, delta, "+.2f"))
    wait(player, lambda d: difference.text == wanted)
    link = pair[0].find_element("css selector", ".vs-judge-permalink").get_attribute("href")
    assert link == f"{site}{prefix}judge/#s={_packed(player, ARMOUR)}&c={_packed(player, covered)}"
    assert pair[1].find_element("css selector", ".vs-judge-permalink").get_attribute("href") == link

    panels = _open_judge(player, link)
    assert len(panels) == 2
    texts = [p.find_element("css selector", ".vs-judge-yaml").get_attribute("value") for p in panels]
    assert texts == [ARMOUR, covered]
    for opened in panels:
        _done(player, opened)
    wait(player, lambda d: d.find_element("css selector", ".vs-judge-difference").text == wanted)


def _packed(driver: Any, text: str) -> str:
    """The page's own packing of ``text`` (the browser's DEFLATE may differ from zlib's byte for byte)."""
    return str(
        driver.execute_async_script(
            "const done = arguments[arguments.length - 1]; vsJudge.encode(arguments[0]).then(done);", text
        )
    )


def test_an_attack_beyond_the_exact_limit_gets_sampled_odds_labelled_as_such(player: Any, site: str) -> None:
    text = BEYOND + "seed: 3\n"
    panel = _open_judge(player, f"{site}judge/#s={web.encode(text)}")[0]
    _done(player, panel)
    assert panel.get_attribute("data-method") == "sampled"
    sampled = json.loads(json.loads(web.odds(text))["json"])
    method = panel.find_element("css selector", ".vs-judge-method").text
    assert method == _said(None, "sampled", trials=f"{sampled['trials']:,}", seed=sampled["seed"])
    caption = panel.find_element("css selector", ".vs-judge-chart figcaption").text
    low, high = sampled["intervals"]["expected_casualties"]
    assert f"(95%: {low:.2f} to {high:.2f})" in caption and "expected wounds" in caption
    assert len(panel.find_elements("css selector", ".vs-judge-whisker")) == len(sampled["casualties"])


def test_a_broken_or_hostile_permalink_says_so_and_never_freezes_the_page(player: Any, site: str) -> None:
    code = web.encode(ARMOUR)
    _open_judge(player, f"{site}judge/#s={code[: len(code) // 2]}")
    notice = player.find_element("css selector", ".vs-judge-notice").text
    assert notice.startswith("This link does not open a situation (")
    bomb = web.encode("#" * 3_000_000)  # a few KB that unpack to 3 MB
    assert len(bomb) < 20_000
    _open_judge(player, f"{site}judge/#s={bomb}")
    assert "more than 1 MB" in player.find_element("css selector", ".vs-judge-notice").text
    # an alias bomb inside the size limit: the loader refuses it, in the worker; the page answers meanwhile
    laughs = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    laughs += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    panel = _open_judge(player, f"{site}judge/#s={web.encode(chr(10).join(laughs) + chr(10))}")[0]
    assert player.execute_script("return 1 + 1") == 2
    _done(player, panel, ("malformed",))
    assert panel.find_element("css selector", ".vs-judge-status").text.startswith("scenario.yaml:")


@pytest.mark.parametrize("language", [None, "ru"])
def test_on_a_phone_nothing_is_wider_than_the_screen_controls_are_44px_and_a_finger_drags_a_model(
    player: Any, site: str, language: str | None
) -> None:
    player.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    player.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    try:
        panel = _open_judge(player, f"{site}{_prefix(language)}judge/")[0]
        _done(player, panel)
        player.execute_script("document.querySelectorAll('.vs-judge details').forEach(d => d.open = true);")
        assert player.execute_script("return document.documentElement.scrollWidth") <= PHONE["width"]
        small = player.execute_script(
            "return [...document.querySelectorAll('.vs-judge-page button, .vs-judge-page select,"
            " .vs-judge-page input:not([type=radio]), .vs-judge-page summary, .vs-judge-mode-choice')]"
            ".filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)"
            ".map(e => e.className + ' ' + e.getBoundingClientRect().height);"
        )
        assert small == []
        labels = player.execute_script(
            "const svg = document.querySelector('.vs-judge-board svg');"
            "const shrink = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;"
            "return [...svg.querySelectorAll('.vs-label')]"
            ".map(t => parseFloat(getComputedStyle(t).fontSize) * shrink);"
        )
        assert labels and min(labels) >= 11.9
        tiny = player.execute_script(
            "return [...document.querySelectorAll("
            "'.vs-judge-page label, .vs-judge-page legend, .vs-judge-page td')]"
            ".filter(e => e.offsetParent !== null && parseFloat(getComputedStyle(e).fontSize) < 12).length;"
        )
        assert tiny == 0
        # a finger drags the marked model t1 four inches towards the shooter
        box = player.execute_script(
            "const g = document.querySelector('.vs-judge-board g[data-model=t1] .vs-base');"
            "g.scrollIntoView({block: 'center'});"
            "const r = g.getBoundingClientRect(); const svg = g.ownerSVGElement;"
            "const inch = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width"
            " * Number(svg.dataset.frame.split(' ')[2]);"
            "return [r.x + r.width / 2, r.y + r.height / 2, inch];"
        )
        x, y, inch = box
        before = panel.find_element("css selector", ".vs-judge-yaml").get_attribute("value")
        player.execute_script("arguments[0].dataset.state = '';", panel)
        moves = (("touchStart", x), ("touchMove", x - 2 * inch), ("touchMove", x - 4 * inch), ("touchEnd", 0))
        for kind, at in moves:
            points = [] if kind == "touchEnd" else [{"x": at, "y": y}]
            player.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})
        _done(player, panel)
        after = panel.find_element("css selector", ".vs-judge-yaml").get_attribute("value")
        assert after != before and "{id: t1, at: [8, 0]}" in after
    finally:
        player.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        player.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


AXE_RUN = """
const done = arguments[arguments.length - 1];
// the rules that can report a serious or critical violation (axe-core gives each violation its rule's
// impact: one of minor or moderate impact never fails this test)
const quiet = (axe._audit ? axe._audit.rules : [])
  .filter((r) => r.impact === 'minor' || r.impact === 'moderate');
axe.run(arguments[0] ? document.querySelector(arguments[0]) : document,
        {resultTypes: ['violations'], rules: Object.fromEntries(quiet.map((r) => [r.id, {enabled: false}]))})
  .then(r => done(r.violations.filter(v => ['serious', 'critical'].includes(v.impact))
    .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).slice(0, 3).join(', '))));
"""
SCHEMES = ("default", "slate")


def _set_scheme(player: Any, scheme: str) -> None:
    """Switch the page to the colour ``scheme`` as the reader sees it once switched: the theme's colour
    transitions are turned off first, so that axe reads the final colours, not ones mid-fade (a button
    caught half-way between the light and dark palettes failed contrast on a busy machine)."""
    player.execute_script(
        "const off = document.createElement('style');"
        "off.textContent = '*, *::before, *::after {"
        " transition: none !important; animation: none !important; }';"
        "document.head.append(off);"
        "document.body.setAttribute('data-md-color-scheme', arguments[0]);"
        "document.body.getBoundingClientRect();",  # the new colours computed before axe reads them
        scheme,
    )


def _judge_violations(player: Any, site: str, axe_source: str, language: str | None) -> dict[str, list[str]]:
    """axe-core's serious and critical violations in the Judge page's content and in a rule page's Try it
    box once open, in each colour scheme: each page loaded and judged once, then checked in one scheme
    and switched to the other in place (the scheme changes only colours)."""
    prefix = _prefix(language)
    found: dict[str, list[str]] = {scheme: [] for scheme in SCHEMES}
    panel = _open_judge(player, f"{site}{prefix}judge/#s={web.encode(ARMOUR)}")[0]
    _done(player, panel)
    player.execute_script(axe_source)
    for scheme in SCHEMES:
        _set_scheme(player, scheme)
        found[scheme] += [f"Judge page: {v}" for v in player.execute_async_script(AXE_RUN, ".vs-judge-page")]

    player.get(f"{site}{prefix}core/damage/")
    wait(player, lambda d: d.find_elements("css selector", ".vs-try-button"))
    player.execute_script("document.querySelector('.vs-try-button').click();")
    panel = wait(player, lambda d: d.find_elements("css selector", ".vs-try .vs-judge"), LOAD_SECONDS)[0]
    _done(player, panel)
    player.execute_script(axe_source)
    player.execute_script("arguments[0].closest('.vs-try').id = 'vs-axe-box';", panel)
    for scheme in SCHEMES:
        _set_scheme(player, scheme)
        found[scheme] += [f"Try it box: {v}" for v in player.execute_async_script(AXE_RUN, "#vs-axe-box")]
    return found


@pytest.fixture(scope="module")
def judge_axe() -> dict[tuple[str, str | None], dict[str, list[str]]]:
    """``_judge_violations`` of each site and language, found by the first of its schemes' tests."""
    return {}


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("language", [None, "ru"])
def test_axe_finds_no_serious_violation_in_the_judge_and_a_try_it_box(
    player: Any,
    site: str,
    axe_source: str,
    language: str | None,
    scheme: str,
    judge_axe: dict[tuple[str, str | None], dict[str, list[str]]],
) -> None:
    """The judge's own parts: the Judge page's content, and a rule page's Try it box once open. The rest
    of a rule page (its links, the header) is issue 27's, measured by its own axe run. Both schemes are
    checked on the same page loads, by the first of the two tests (``judge_axe``)."""
    if (site, language) not in judge_axe:
        judge_axe[(site, language)] = _judge_violations(player, site, axe_source, language)
    assert judge_axe[(site, language)][scheme] == []


def test_focus_stays_after_a_change_typing_is_debounced_and_the_outcome_is_announced(
    player: Any, site: str
) -> None:
    from selenium.webdriver.support.ui import Select

    panel = _open_judge(player, f"{site}judge/")[0]
    _done(player, panel)
    assert panel.find_element("css selector", ".vs-judge-summary").get_attribute("aria-live") == "polite"
    assert panel.find_element("css selector", ".vs-judge-status").get_attribute("aria-live") == "polite"
    # a declaration changed from the keyboard's place: judged once, and the focus is where it was
    command = player.find_element("css selector", ".vs-judge-declare .vs-judge-command")
    player.execute_script("arguments[0].focus(); arguments[1].dataset.state = '';", command, panel)
    Select(command).select_by_value("advance")
    _done(player, panel)
    assert player.execute_script("return document.activeElement.classList.contains('vs-judge-command')")
    assert player.execute_script("return document.activeElement.value") == "advance"
    # five keys typed in the editor: one judgement after the reader stops, not five
    player.execute_script(
        "window.vsRuns = 0; new MutationObserver(() => { if (arguments[0].dataset.state === 'running')"
        " window.vsRuns += 1; }).observe(arguments[0], {attributes: true, attributeFilter: ['data-state']});",
        panel,
    )
    area = panel.find_element("css selector", ".vs-judge-yaml")
    player.execute_script("arguments[0].focus(); arguments[0].setSelectionRange(0, 0);", area)
    area.send_keys("# abc")
    wait(player, lambda d: d.execute_script("return window.vsRuns") >= 1, 30)
    _done(player, panel)
    assert player.execute_script("return window.vsRuns") == 1
    assert player.execute_script("return document.activeElement") == area


EDIT_AND_WAIT = """
const [panel, done] = [arguments[0], arguments[arguments.length - 1]];
const area = panel.querySelector(".vs-judge-yaml");
window.vsLongTasks = [];
const tasks = new PerformanceObserver((list) => {
  list.getEntries().forEach((e) => vsLongTasks.push(e.duration));
});
tasks.observe({ type: "longtask" });
const watch = new MutationObserver(() => {
  if (panel.dataset.state !== "done" && panel.dataset.state !== "failed") return;
  watch.disconnect();
  setTimeout(() => { tasks.disconnect(); done(panel.dataset.state); }, 0);
});
panel.dataset.state = "";
watch.observe(panel, { attributes: true, attributeFilter: ["data-state"] });
area.value = "# the reader's edit\\n" + area.value;
area.dispatchEvent(new Event("input", { bubbles: true }));
"""


def _main_thread_seconds(driver: Any) -> float:
    """The CPU time the page's main thread has used (Chromium's ``ThreadTime`` metric)."""
    metrics = driver.execute_cdp_cmd("Performance.getMetrics", {})["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "ThreadTime"))


@pytest.mark.parametrize("language", [None, "ru"])
def test_a_re_run_after_an_edit_costs_the_page_s_main_thread_under_200_ms_of_cpu(
    player: Any, site: str, language: str | None
) -> None:
    # Issue 26: no main-thread task over 200 ms. A long task's length is wall-clock time, which a loaded
    # machine stretches (the bench saw 195 ms at load 23 for the cold start's longest task), so this test
    # counts work instead: the CPU time the page's main thread spends on the whole re-run after an edit
    # (debounce, the worker's answers received, outcome, steps, board and chart drawn), which bounds its
    # longest task from above and does not grow with other processes' load. The engine itself runs in
    # the worker and costs the main thread nothing. The long tasks are recorded for the message only.
    panel = _open_judge(player, f"{site}{_prefix(language)}judge/#s={web.encode(ARMOUR)}")[0]
    _done(player, panel)
    player.execute_cdp_cmd("Performance.enable", {"timeDomain": "threadTicks"})
    try:
        before = _main_thread_seconds(player)
        assert player.execute_async_script(EDIT_AND_WAIT, panel) == "done"
        spent = _main_thread_seconds(player) - before
    finally:
        player.execute_cdp_cmd("Performance.disable", {})
    tasks = player.execute_script("return window.vsLongTasks")
    assert 0 < spent < 0.2, f"main thread: {spent * 1000:.0f} ms of CPU; long tasks (wall, ms): {tasks}"
    edited = panel.find_element("css selector", ".vs-judge-yaml").get_attribute("value")
    assert edited.startswith("# the reader's edit\n")
