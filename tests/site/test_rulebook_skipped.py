"""Without Chromium, the site build says the rulebook was skipped and leaves no rulebook of an earlier
build in the site (``python -m rulespy.render.build GENERATOR --pdf``, what ``make site`` runs), so
``make site``'s closing line, which names the PDF only when it is there, cannot name a stale one."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from rulespy.render import build, pdf
from rulespy.render.pages import RULEBOOK


def test_without_chromium_the_build_says_the_rulebook_was_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(pdf, "CHROMIUM", tmp_path / "no-chromium")
    monkeypatch.setattr(build, "build_all", lambda generator, root, site_dir: [])  # the site itself
    monkeypatch.setattr(build, "languages_staged", lambda root: ("ru",))
    site = tmp_path / "site"
    (site / "ru").mkdir(parents=True)
    for stale in (site / RULEBOOK, site / "ru" / RULEBOOK):
        stale.write_bytes(b"%PDF- of an earlier build")
    code = build.main(["mkdocs", "--site-dir", str(site), "--root", str(tmp_path), "--pdf"])
    said = capsys.readouterr().out
    assert code == 0
    assert "The rulebook PDF is skipped: it needs" in said and "The rulebook:" not in said
    assert not (site / RULEBOOK).exists() and not (site / "ru" / RULEBOOK).exists()


def test_make_site_names_the_rulebook_only_when_it_was_printed(tmp_path: Path) -> None:
    """The closing line of ``make site`` (as ``make -n`` shows it), run with and without a rulebook."""
    root = Path(__file__).resolve().parents[2]
    # under `make test` the outer make's flags would add "Entering directory" lines: a make of its own
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    shown = subprocess.run(
        ["make", "--no-print-directory", "-n", "site", f"SITE_DIR={tmp_path}"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    closing = shown[shown.rindex("\nif [ -f ") + 1 :]
    said = subprocess.run(["sh", "-c", closing], capture_output=True, text=True, check=True).stdout
    assert "the rulebook PDF skipped (it needs Chromium" in said and RULEBOOK not in said
    (tmp_path / RULEBOOK).write_bytes(b"%PDF-")
    said = subprocess.run(["sh", "-c", closing], capture_output=True, text=True, check=True).stdout
    assert f"the rulebook in {tmp_path / RULEBOOK}" in said
