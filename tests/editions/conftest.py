"""A small rules repository made in the test: the real engine copied, one rule file with two sections,
a scenario file, and two releases recorded only in its CHANGELOG.md, no tag: v1.0.0 (heavy cover -2)
and v1.1.0 (heavy cover -1, in the rule, the engine and the example that shows it)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.coverage.conftest import MAIN, _copy_engine, _git
from tests.installs import share_installs

SCENARIO = """\
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - id: shooters
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, weapons: [rifle]}
  - id: dug_in
    side: red
    models:
      - {id: d1, at: [10, 0], cover: COVER}
attack: {unit: shooters, command: shoot, targets: [{unit: dug_in, mark: d1}]}
dice: [DIE]
"""


def scenario(cover: str, die: int) -> str:
    return SCENARIO.replace("COVER", cover).replace("DIE", str(die))


def example(cover: str, die: int, wounds: int) -> str:
    return (
        '```{.python}\nfrom rulespy.play import play\n\nSHOT = """\n'
        + scenario(cover, die)
        + f'"""\nassert play(SHOT).wounds("d1") == {wounds}\n```\n'
    )


def cover_page(heavy: int, wounds_through_heavy: int) -> str:
    return (
        "# Cover {#cover}\n\nTerrain between a shooter and its target makes hits harder.\n\n"
        "## Heavy Cover {#heavy-cover}\n\n"
        f"A target in heavy cover gives a modifier of {heavy} to every Target Lock roll against it.\n\n"
        + example("heavy", 5, wounds_through_heavy)
        + "\n## Light Cover {#light-cover}\n\n"
        "A target in light cover gives a modifier of -1 to every Target Lock roll against it.\n\n"
        + example("light", 5, 0)
    )


def changelog(*released: tuple[str, str]) -> str:
    """A CHANGELOG.md with an empty Unreleased section and a heading per (version, date), newest first."""
    entries = "".join(f"## [{number}] - {date}\n\nWhat changed in {number}.\n\n" for number, date in released)
    return f"# Changelog\n\n## [Unreleased]\n\n{entries}"


def at(repo: Path, tag: str) -> str:
    """The commit of release ``tag`` in the repository made here, found apart from the code under test
    (``git log -S`` on its CHANGELOG heading, on the branch ``main``, which holds every release)."""
    heading = f"## [{tag[1:]}] - "
    found = _git(repo, "log", "main", "--format=%H", "--reverse", "-S", heading, "--", "CHANGELOG.md")
    return found.split()[0]


def make_repository(root: Path) -> Path:
    """Two releases: v1.0.0, then v1.1.0 with heavy cover -1 instead of -2."""
    _copy_engine(root)
    shutil.copy(MAIN / "mkdocs.yml", root / "mkdocs.yml")  # the site's own configuration, for the builds
    (root / "core").mkdir()
    (root / "examples/scenarios").mkdir(parents=True)
    (root / "concepts.yml").write_text(
        "owners:\n  core/cover.md:\n"
        "    - {concept: Heavy Cover, anchor: heavy-cover}\n"
        "    - {concept: Light Cover, anchor: light-cover}\n",
        encoding="utf-8",
    )
    (root / "index.md").write_text(
        "# Rules {#rules}\n\nStart with [Cover](core/cover.md).\n", encoding="utf-8"
    )
    (root / "core/cover.md").write_text(cover_page(-2, 1), encoding="utf-8")
    (root / "examples/scenarios/critical_through_cover.yaml").write_text(
        scenario("heavy", 6), encoding="utf-8"
    )
    (root / "ru/core").mkdir(parents=True)  # a Russian site: the edition line in both languages
    (root / "ru/index.md").write_text("# Правила {#rules}\n\nНачните с [Укрытия](core/cover.md).\n", "utf-8")
    (root / "ru/core/cover.md").write_text(
        "# Укрытие {#cover}\n\nМестность мешает попасть.\n\n"
        "## Тяжёлое укрытие {#heavy-cover}\n\nМодификатор.\n\n"
        "## Лёгкое укрытие {#light-cover}\n\nМодификатор -1.\n",
        encoding="utf-8",
    )
    (root / "CHANGELOG.md").write_text(changelog(("1.0.0", "2026-11-30")), encoding="utf-8")
    _git(root, "init", "-q", "-b", "main")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "first edition")
    engine = root / "rulespy/core/cover.py"
    engine.write_text(
        engine.read_text(encoding="utf-8").replace("Cover.HEAVY: -2}", "Cover.HEAVY: -1}"), encoding="utf-8"
    )
    # the 5 through heavy cover now hits (5 - 1 = 4): the example shows it
    (root / "core/cover.md").write_text(cover_page(-1, 0), encoding="utf-8")
    (root / "CHANGELOG.md").write_text(
        changelog(("1.1.0", "2026-12-01"), ("1.0.0", "2026-11-30")), encoding="utf-8"
    )
    _git(root, "commit", "-q", "-am", "heavy cover -1")
    share_installs(root)  # build/ (never committed): the repository's npm installs, not npm ci again
    return root


@pytest.fixture(scope="module")
def editions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repository(tmp_path_factory.mktemp("editions") / "rules")
