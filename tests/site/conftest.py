"""The site tests' shared steps, each done once per run: the repository's pages rendered into build/ by
the command line, the rulebooks printed, and the site built with each generator.

The browser tests of several modules (``test_browser.py``, ``test_judge_browser.py``) and the
strict-build test (``test_build.py``) look at the same site, so each generator builds it once (English
and each translation, with the rulebooks copied in as ``make site`` puts them) and one static server per
generator serves it, on one address for the session (``tests/conftest.py``'s ``servers``). The rulebook
does not depend on the generator: it is printed once per language and copied into both sites.

``make test`` runs pytest in pytest-xdist workers (``--dist loadfile``: a test module stays in one
worker), and tests of two modules in two workers may need the same build. Every step that writes into
build/ therefore takes one lock file (``build/sites-under-test/build.lock``) and leaves a stamp with
the run's id (xdist's ``PYTEST_XDIST_TESTRUNUID``, the same in every worker of a run): the first worker
makes it, the others wait for the lock and find it made. Without xdist a step is made once per session.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rulespy.render.build import GENERATORS, build_all, languages_staged
from rulespy.render.pages import RULEBOOK
from rulespy.render.pdf import CHROMIUM, print_rulebooks
from tests.browser import Servers, require_browser

ROOT = Path(__file__).resolve().parents[2]
#: Zensical builds only inside build/ (or site/); mkdocs anywhere, so both build there
SITES = ROOT / "build" / "sites-under-test"


_MADE: set[str] = set()


def _once(name: str, make: Callable[[], None]) -> None:
    """Run ``make`` (which writes into build/) unless this run has made ``name`` already, in this process
    or in another xdist worker of the run; one process at a time."""
    if name in _MADE:
        return
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    SITES.mkdir(parents=True, exist_ok=True)
    with (SITES / "build.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        stamp = SITES / f"{name}.made"
        if run is None or not stamp.is_file() or stamp.read_text(encoding="utf-8") != run:
            stamp.unlink(missing_ok=True)
            make()
            if run is not None:
                stamp.write_text(run, encoding="utf-8")
    _MADE.add(name)


@pytest.fixture(scope="session")
def staged() -> Path:
    """Run ``rulespy render . --strict`` (what ``make site`` runs) and return the repository root."""

    def render() -> None:
        done = subprocess.run(
            [str(Path(sys.executable).parent / "rulespy"), "render", ".", "--strict", "--quiet"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, f"rulespy render failed:\n{done.stdout}\n{done.stderr}"

    _once("staged", render)
    return ROOT


@pytest.fixture(scope="session")
def rulebooks(staged: Path) -> Path:
    """The rulebook of each language, printed by headless Chromium into a folder laid out as the site
    lays them out (``voidsiege-rules.pdf``, ``ru/voidsiege-rules.pdf``)."""
    if not CHROMIUM.exists():
        require_browser()
    folder = SITES / "rulebooks"

    def print_all() -> None:
        shutil.rmtree(folder, ignore_errors=True)
        print_rulebooks(staged, folder, [None, *languages_staged(staged)])  # one Chromium for all

    _once("rulebooks", print_all)
    return folder


@pytest.fixture(scope="session", params=GENERATORS)
def built(request: pytest.FixtureRequest, staged: Path) -> Path:
    """The repository's site (English and each translation, ``build_all``, strictly) built by
    ``request.param``, with the rulebooks where ``make site`` puts them when Chromium is there."""
    generator, folder = request.param, SITES / request.param
    books = request.getfixturevalue("rulebooks") if CHROMIUM.exists() else None

    def build() -> None:
        for done in build_all(generator, staged, folder):  # English, then each translation (site/ru/)
            assert done.returncode == 0, f"{generator} build --strict failed:\n{done.stdout}\n{done.stderr}"
        for book in books.rglob(RULEBOOK) if books else ():  # the home pages link them
            target = folder / book.relative_to(books)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(book, target)

    _once(f"site-{generator}", build)
    return folder


@pytest.fixture(scope="session")
def base_url(built: Path, servers: Servers) -> str:
    """``built`` served on 127.0.0.1 (only for the browser tests: skipped without Chromium), on the same
    address every time a module asks for it (``tests.browser.Servers``)."""
    require_browser()
    return servers.url(built)
