"""Publishing (issue 23, item 5): the workflow that builds and deploys the site on a push to main, and
``SITE_URL``, the one source of the published ``site_url``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from rulespy.render.build import command, language_config, site_url

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github/workflows/publish.yml"


def _workflow() -> dict[Any, Any]:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def test_the_site_is_published_on_every_push_to_main_from_the_whole_history() -> None:
    flow = _workflow()
    assert flow[True]["push"] == {"branches": ["main"]}  # YAML 1.1 reads the key `on` as True
    steps = flow["jobs"]["build"]["steps"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0
    build = next(s for s in steps if "run" in s)
    assert build["run"] == "bash .ci/run site" and build["env"]["CI"] == "true"
    assert build["env"]["SITE_URL"] == "${{ steps.pages.outputs.base_url }}/"
    assert next(s for s in steps if s.get("id") == "pages")["uses"].startswith("actions/configure-pages@")
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "site"
    deploy = flow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert [s["uses"].split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]


def test_each_job_has_the_least_permissions() -> None:
    flow = _workflow()
    assert flow["permissions"] == {}
    assert flow["jobs"]["build"]["permissions"] == {"contents": "read", "pages": "read"}
    assert flow["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}


def test_ci_run_builds_the_target_it_is_given() -> None:
    script = (ROOT / ".ci/run").read_text(encoding="utf-8")
    assert script.rstrip().endswith('make "${1:-test}"')


def test_without_site_url_the_generators_read_mkdocs_yml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SITE_URL", raising=False)
    assert site_url(tmp_path) is None
    assert "-f" not in command("mkdocs", tmp_path, tmp_path / "site")
    assert command("zensical", tmp_path, tmp_path / "site")[-1] == "--clean"
    (tmp_path / "mkdocs.yml").write_text("site_url: http://127.0.0.1:8000/\n", encoding="utf-8")
    (tmp_path / "build/ru").mkdir(parents=True)
    (tmp_path / "build/ru/nav.yml").write_text("nav: []\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: Rules\n", encoding="utf-8")  # the translation's base
    config = yaml.safe_load(language_config("mkdocs", tmp_path, "ru").read_text(encoding="utf-8"))
    assert config["site_url"] == "http://127.0.0.1:8000/ru/"


def test_site_url_sets_the_address_of_both_generators_and_the_translation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SITE_URL", "https://rules.example.org/voidsiege")
    assert site_url(tmp_path) == "https://rules.example.org/voidsiege/"
    mkdocs = command("mkdocs", tmp_path, tmp_path / "site")
    overlay = yaml.safe_load(Path(mkdocs[mkdocs.index("-f") + 1]).read_text(encoding="utf-8"))
    assert overlay == {
        "INHERIT": "../mkdocs.yml",
        "docs_dir": "pages",
        "site_url": "https://rules.example.org/voidsiege/",
    }
    assert mkdocs[mkdocs.index("--site-dir") + 1] == str((tmp_path / "site").resolve())
    zensical = command("zensical", tmp_path, tmp_path / "site")
    overlay = yaml.safe_load(Path(zensical[-1]).read_text(encoding="utf-8"))
    assert overlay["site_url"] == "https://rules.example.org/voidsiege/"
    assert overlay["site_dir"] == "site-published"  # inside build/, copied to site/ after the build
    (tmp_path / "build/ru").mkdir(parents=True)
    (tmp_path / "build/ru/nav.yml").write_text("nav: []\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: Rules\n", encoding="utf-8")  # the translation's base
    config = yaml.safe_load(language_config("mkdocs", tmp_path, "ru").read_text(encoding="utf-8"))
    assert config["site_url"] == "https://rules.example.org/voidsiege/ru/"


@pytest.mark.parametrize("bad", ["rules.example.org", "javascript:alert(1)", "https://a b/", "https://x/'\n"])
def test_a_site_url_that_is_not_an_address_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bad: str
) -> None:
    monkeypatch.setenv("SITE_URL", bad)
    with pytest.raises(ValueError, match="SITE_URL=.* is not an http"):
        site_url(tmp_path)


def test_a_past_edition_is_published_at_its_own_folder_of_the_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulespy.editions.site import EditionError, _edition_address
    from rulespy.editions.versions import Release

    (tmp_path / "mkdocs.yml").write_text("site_name: x\nsite_url: http://127.0.0.1:8000/\nstrict: true\n")
    release = Release((1, 0, 0), "v1.0.0", "c", "2026-11-30")
    monkeypatch.delenv("SITE_URL", raising=False)
    assert _edition_address(tmp_path, release) is None
    assert "site_url: http://127.0.0.1:8000/" in (tmp_path / "mkdocs.yml").read_text()
    monkeypatch.setenv("SITE_URL", "https://rules.example.org/voidsiege/")
    assert _edition_address(tmp_path, release) == "https://rules.example.org/voidsiege/v1.0/"
    assert (tmp_path / "mkdocs.yml").read_text() == (
        "site_name: x\nsite_url: https://rules.example.org/voidsiege/v1.0/\nstrict: true\n"
    )
    monkeypatch.setenv("SITE_URL", "https://x.example/\nhooks: [evil.py]")
    with pytest.raises(EditionError, match="is not an http"):
        _edition_address(tmp_path, release)
