"""The translation pass (RS070-RS074) is cached and never stale (issue 15, item 4).

Each translated page's findings against its English twin are remembered by both pages' content hashes and
the answers the comparison asked the tree (``translations.Pairs``). After every edit below, a cached
``rulespy check`` equals a ``--no-cache`` one; with nothing changed, no page is read or compared again.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulespy.check import translations
from rulespy.check.runner import CheckOptions, run_check

from .helpers import agree, codes, write

FIXTURES = Path(__file__).parent / "fixtures"


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def edition(tmp_path: Path) -> tuple[Path, CheckOptions]:
    shutil.copytree(FIXTURES / "translated", tmp_path / "repo")
    options = CheckOptions(cache_dir=tmp_path / "cache")
    assert agree(tmp_path / "repo", options).findings == ()
    return tmp_path / "repo", options


def test_translation_cache_unchanged_pages_are_not_read_again(
    edition: tuple[Path, CheckOptions], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, options = edition
    read: list[str] = []
    original = translations.read_page

    def counted(tree: object, path: str, data: bytes | None = None) -> object:
        read.append(path)
        return original(tree, path, data)  # type: ignore[arg-type]

    monkeypatch.setattr(translations, "read_page", counted)
    assert run_check(root, options).findings == ()
    assert read == []
    english = root / "core" / "damage.md"
    _replace(english, "| 3 | 1 | 2 |", "| 4 | 1 | 3 |")
    assert ("ru/core/damage.md", "RS071") in codes(run_check(root, options))
    assert read == ["ru/core/damage.md", "core/damage.md"]  # only the pair whose English page changed


def test_translation_cache_follows_every_edit_of_either_page_and_of_the_tree(
    edition: tuple[Path, CheckOptions],
) -> None:
    root, options = edition
    english, russian = root / "core" / "damage.md", root / "ru" / "core" / "damage.md"
    # a number of the English table changes: RS071 on the translation
    _replace(english, "| 3 | 1 | 2 |", "| 4 | 1 | 2 |")
    assert ("ru/core/damage.md", "RS071") in codes(agree(root, options))
    # the translation follows: the table agrees again (its stamp is stale now: RS074)
    _replace(russian, "| 3 | 1 | 2 |", "| 4 | 1 | 2 |")
    assert ("ru/core/damage.md", "RS071") not in codes(agree(root, options))
    # a link from the translation to an English page that has no translation yet: no RS072
    write(root, {"core/rules.md": "# Rules {#rules}\n"})
    _replace(russian, "## Броня", "[правила](../../core/rules.md)\n\n## Броня")
    assert ("ru/core/damage.md", "RS072") not in codes(agree(root, options))
    # the mirror appears and neither page of the pair changes: the link must now be RS072
    mirror = "# Правила {#rules}\n<!-- translates: core/rules.md#rules sha256:0 -->\n"
    write(root, {"ru/core/rules.md": mirror})
    assert ("ru/core/damage.md", "RS072") in codes(agree(root, options))
    (root / "ru" / "core" / "rules.md").unlink()
    assert ("ru/core/damage.md", "RS072") not in codes(agree(root, options))
    # the English twin disappears, then comes back unchanged
    text = english.read_bytes()
    english.unlink()
    assert ("ru/core/damage.md", "RS070") in codes(agree(root, options))
    english.write_bytes(text)
    assert ("ru/core/damage.md", "RS070") not in codes(agree(root, options))
    # the translation stops being UTF-8 text, then is restored
    saved = russian.read_bytes()
    russian.write_bytes(saved + b"\xff")
    agree(root, options)
    russian.write_bytes(saved)
    agree(root, options)


def test_step_drift_is_cached_by_the_files_it_compares(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The step-drift pass (RS060) is remembered by a hash of the rule and engine files it compares: an
    unchanged repository parses neither again, and an edit of either is seen at once."""
    from rulespy.check import drift

    from .test_drift import STEPS_FILE, _tree

    root = _tree(tmp_path / "repo")
    options = CheckOptions(cache_dir=tmp_path / "cache")
    before = agree(root, options)  # the tree holds only the step files: their links are broken
    assert "RS060" not in {f.code for f in before.findings}
    parsed: list[str] = []
    original = drift.engine_steps
    monkeypatch.setattr(
        drift, "engine_steps", lambda pair, source: parsed.append(pair.source) or original(pair, source)
    )
    assert run_check(root, options) == before
    assert parsed == []
    _replace(root / STEPS_FILE, '"step-removal",', '"step-remove-casualties",')
    assert "RS060" in {f.code for f in agree(root, options).findings}
    assert parsed  # compared again
    _replace(root / STEPS_FILE, '"step-remove-casualties",', '"step-removal",')
    assert agree(root, options) == before
