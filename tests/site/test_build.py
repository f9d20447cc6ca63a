"""The repository's own site builds strictly with each generator: what ``make site`` builds, proved once
in the suite (``make test`` no longer renders and builds again after pytest). The ``staged`` fixture ran
``rulespy render . --strict``; ``built`` (``conftest.py``) ran ``build_all`` with ``--strict`` for the
English site and each translation and fails on a warning; the browser tests look at the same build."""

from __future__ import annotations

from pathlib import Path

from rulespy.render.build import languages_staged


def test_the_rules_site_builds_strictly_in_every_language(built: Path, staged: Path) -> None:
    languages = languages_staged(staged)
    assert languages, "rulespy render staged no translation"
    for home in (built, *(built / language for language in languages)):
        assert (home / "index.html").is_file(), home
        assert (home / "core" / "damage" / "index.html").is_file(), home
        assert (home / "glossary" / "index.html").is_file(), home
