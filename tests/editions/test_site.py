"""Past editions under ``/vX.Y/`` (issue 18, items 3 and 5; issue 23), built from the releases the
repository made in the test records only in its CHANGELOG.md (no tag), by each release's own render
step, with both generators: the old edition still shows heavy cover -2, carries a banner pointing to
the current rules, and searches only its own pages; the selector lists both editions, What changed
lists both releases, and every page of both languages names its edition, date and commit."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulespy.editions.site import banner, build_editions, page_url
from rulespy.editions.versions import releases
from tests.browser import CHROMIUM, serving, wait
from tests.coverage.conftest import _git

from .conftest import at

_CLI = "import sys; from rulespy.cli import main; sys.exit(main(sys.argv[1:]))"
OUT = Path(__file__).resolve().parents[1] / "out"
SEARCH = {"mkdocs": "search/search_index.json", "zensical": "search.json"}
# two editions rendered, built and printed per generator: a minute and more on a busy 2-core machine
pytestmark = pytest.mark.timeout(600)  # a hang guard: two editions built per generator, under load


@pytest.fixture(scope="module")
def rendered(editions: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A copy of the repository at v1.1.0 for each generator, its current rules rendered (``rulespy
    render .``, as `make site` does first) once and the staged tree copied for the other generator:
    a render takes no generator, so both builds read the same staged pages (before, each generator's
    copy rendered them again)."""
    repo = tmp_path_factory.mktemp("mkdocs") / "rules"
    shutil.copytree(editions, repo, symlinks=True)
    _git(repo, "checkout", "-q", at(repo, "v1.1.0"))
    subprocess.run([sys.executable, "-c", _CLI, "render", "."], cwd=repo, check=True, capture_output=True)
    other = tmp_path_factory.mktemp("zensical") / "rules"
    shutil.copytree(repo, other, symlinks=True)  # before either build writes into it
    return {"mkdocs": repo, "zensical": other}


@pytest.fixture(scope="module", params=["mkdocs", "zensical"])
def site(request: pytest.FixtureRequest, rendered: dict[str, Path]) -> Path:
    generator = request.param
    repo = rendered[generator]
    # the current rules, built first, as `make site` does, then each past edition
    command = [sys.executable, "-m", "rulespy.render.build", generator]
    subprocess.run(command, cwd=repo, check=True, capture_output=True)
    assert [r.edition for r in build_editions(repo, generator, repo / "site")] == ["v1.0", "v1.1"]
    return repo / "site"


def _locations(index: Path) -> list[str]:
    data = json.loads(index.read_text(encoding="utf-8"))
    return [doc["location"] for doc in data.get("docs", data.get("items", []))]  # mkdocs, Zensical


def test_the_old_edition_still_shows_the_old_number(site: Path) -> None:
    old = (site / "v1.0/core/cover/index.html").read_text(encoding="utf-8")
    assert "heavy cover gives a modifier of -2" in old and "heavy cover gives a modifier of -1" not in old
    assert "heavy cover gives a modifier of -1" in (site / "core/cover/index.html").read_text(
        encoding="utf-8"
    )
    assert "heavy cover gives a modifier of -1" in (site / "v1.1/core/cover/index.html").read_text(
        encoding="utf-8"
    )


def test_no_tag_is_needed(site: Path) -> None:
    assert _git(site.parent, "tag", "--list") == ""


def test_an_old_edition_has_a_banner_to_the_current_rules(site: Path) -> None:
    old = (site / "v1.0/core/cover/index.html").read_text(encoding="utf-8")
    assert "Edition v1.0 (v1.0.0): an old edition" in old
    commit = at(site.parent, "v1.0.0")[:12]
    assert f"released in v1.0.0 on 2026-11-30 (commit <code>{commit}</code>), replaced since by v1.1.0" in old
    russian = (site / "v1.0/ru/core/cover/index.html").read_text(encoding="utf-8")
    assert "Редакция v1.0 (v1.0.0): старая редакция" in russian
    assert f"выпуска v1.0.0 от 2026-11-30 (коммит <code>{commit}</code>)" in russian
    assert '<a href="../../../../ru/core/cover/">Читать это в действующих правилах</a>' in russian
    assert (site / "v1.0/ru/core/cover/../../../../ru/core/cover/index.html").is_file()
    assert '<a href="../../../core/cover/">Read this in the current rules</a>' in old
    assert (site / "v1.0/core/cover/../../../core/cover/index.html").is_file()
    assert (site / "v1.0/voidsiege-rules.pdf").is_file() or not CHROMIUM.exists()
    latest = (site / "v1.1/index.html").read_text(encoding="utf-8")
    assert "Edition v1.1: the latest release (v1.1.0)" in latest
    assert "an old edition" not in (site / "core/cover/index.html").read_text(encoding="utf-8")


def test_the_version_selector_lists_the_current_rules_and_each_edition(site: Path) -> None:
    listed = json.loads((site / "versions.json").read_text(encoding="utf-8"))
    assert [(v["version"], v["title"]) for v in listed] == [
        ("..", "current rules"),
        ("v1.1", "v1.1 (v1.1.0)"),
        ("v1.0", "v1.0 (v1.0.0)"),
    ]
    for page in ("index.html", "v1.0/index.html"):
        assert re.search(
            r'"version":\s*\{"default":\s*"\.\.",\s*"provider":\s*"mike"\}', (site / page).read_text()
        )


def test_every_page_of_both_languages_names_its_edition_date_and_commit(site: Path) -> None:
    commit = at(site.parent, "v1.1.0")[:12]
    english = f"Edition v1.1.0 of 2026-12-01 · built from commit <code>{commit}</code>"
    russian = f"Редакция v1.1.0 от 2026-12-01 · собрано из коммита <code>{commit}</code>"
    for page, said in [
        ("index.html", english),
        ("core/cover/index.html", english),
        ("changes/index.html", english),
        ("glossary/index.html", english),
        ("ru/index.html", russian),
        ("ru/glossary/index.html", russian),
    ]:
        html = (site / page).read_text(encoding="utf-8")
        assert f'<small class="vs-edition">{said}</small>' in html, page


def test_what_changed_lists_both_releases_and_compares_them(site: Path) -> None:
    html = (site / "changes/index.html").read_text(encoding="utf-8")
    assert re.search(r'<h2 id="v1-1-0">v1\.1\.0 of 2026-12-01 \(from v1\.0\.0\)', html)
    assert re.search(r'<h2 id="v1-0-0">v1\.0\.0 of 2026-11-30', html)
    assert '<a href="#v1-1-0">v1.0.0 → v1.1.0</a>' in html
    assert "modifier of <del>-2</del> <strong>-1</strong>" in html
    assert "Unreleased" not in html  # the release is checked out as released


def test_search_lists_each_page_once_from_its_own_edition(site: Path) -> None:
    generator = "zensical" if (site / "search.json").is_file() else "mkdocs"
    current = _locations(site / SEARCH[generator])
    old = _locations(site / "v1.0" / SEARCH[generator])
    assert current and old
    assert not [loc for loc in current if loc.startswith(("v1.0", "v1.1"))]
    assert any(loc.startswith("core/cover/") for loc in old)  # relative to the edition's own base
    assert not [loc for loc in old if loc.startswith(("v1.", "../"))]


def test_the_edition_folder_of_a_page() -> None:
    assert [page_url(p) for p in ("index.md", "core/cover.md", "core/index.md")] == [
        "",
        "core/cover/",
        "core/",
    ]


def test_a_page_gone_from_the_current_rules_links_to_their_home(editions: Path) -> None:
    old, latest = releases(editions)
    lines = banner("core/gone.md", old, latest, {"core/cover.md"}, "mkdocs")
    assert '<a href="../../../">Read this in the current rules</a>' in lines[1]
    # Zensical rewrites the link from the page's file (core/) to its URL (core/gone/): one level less
    lines = banner("core/gone.md", old, latest, {"core/cover.md"}, "zensical")
    assert '<a href="../../">Read this in the current rules</a>' in lines[1]
    lines = banner("index.md", old, latest, {"index.md"}, "zensical")
    assert '<a href="../">Read this in the current rules</a>' in lines[1]
    # a page of the edition's Russian site (SITE/v1.0/ru/index.md) leads to the current one (SITE/ru/)
    lines = banner("index.md", old, latest, {"index.md"}, "zensical", "ru")
    assert '<a href="../../ru/">Читать это в действующих правилах</a>' in lines[1]
    assert '<a href="../../ru/changes/">Что изменилось</a>' in lines[1]


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    with serving(site) as url:
        yield url


@pytest.mark.timeout(300)
def test_in_a_browser_the_selector_and_the_banner_lead_between_editions(served: str, browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = browser
    wait = WebDriverWait(driver, 15)
    driver.get(served + "v1.0/core/cover/")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".md-version__list"))
    titles = [
        a.get_attribute("textContent").strip()
        for a in driver.find_elements(By.CSS_SELECTOR, ".md-version__link")
    ]
    assert titles == ["current rules", "v1.1 (v1.1.0)", "v1.0 (v1.0.0)"]
    assert (
        driver.find_element(By.CSS_SELECTOR, ".md-version__current").get_attribute("textContent").strip()
        == "v1.0 (v1.0.0)"
    )
    driver.find_element(By.LINK_TEXT, "Read this in the current rules").click()
    wait.until(lambda d: d.current_url == served + "core/cover/")
    assert "heavy cover gives a modifier of -1" in driver.find_element(By.CSS_SELECTOR, "article").text
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, ".md-version__current"))
    assert (
        driver.find_element(By.CSS_SELECTOR, ".md-version__current").get_attribute("textContent").strip()
        == "current rules"
    )
    links = {
        a.get_attribute("textContent").strip(): a.get_attribute("href")
        for a in driver.find_elements(By.CSS_SELECTOR, ".md-version__link")
    }
    assert links["v1.0 (v1.0.0)"] == served + "v1.0/" and links["current rules"] == served


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("width", "height"), [(1280, 900), (390, 844)])
def test_in_a_browser_the_edition_line_reads_under_the_title_in_both_languages(
    served: str, browser: Any, width: int, height: int
) -> None:
    """Screenshots go to ``tests/out/`` (``edition-PAGE-WIDTH.png``), as tests/site/test_browser.py does."""
    from selenium.webdriver.common.by import By

    driver = browser
    driver.set_window_size(width, height)
    for page, start in (
        ("core/cover/", "Edition v1.1.0 of 2026-12-01 · built from commit "),
        ("ru/", "Редакция v1.1.0 от 2026-12-01 · собрано из коммита "),
    ):
        driver.get(served + page)
        line = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, "article .vs-edition"))
        assert line.is_displayed() and line.text.startswith(start)
        title = driver.find_element(By.CSS_SELECTOR, "article h1")
        assert title.location["y"] < line.location["y"] < title.location["y"] + 3 * title.size["height"]
        assert line.size["width"] <= driver.execute_script("return document.documentElement.clientWidth")
        OUT.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(OUT / f"edition-{page.strip('/').replace('/', '-')}-{width}.png"))
    driver.get(served + "changes/")
    wait(driver, lambda d: d.find_element(By.LINK_TEXT, "v1.0.0 → v1.1.0")).click()
    wait(driver, lambda d: d.current_url.endswith("changes/#v1-1-0"))
