"""Build the site from the staged pages with either generator, strictly, into any folder.

``python -m rulespy.render.build mkdocs|zensical [--site-dir DIR] [--pdf]`` (what ``make site`` runs).
Both read the same ``mkdocs.yml``. Zensical has no ``--site-dir`` and refuses a site folder outside
its config's folder, so for a folder other than ``site/`` a small config in ``build/`` INHERITs
``mkdocs.yml`` and sets ``docs_dir`` and ``site_dir``, which must then lie inside ``build/``.
Zensical ends a strict build that found warnings with a Python traceback of its own; the warnings it
printed before are kept and the traceback is replaced by one line.

Each translation staged by ``rulespy render`` (``build/ru/pages``) is a site of its own, built after the
English one into ``SITE/ru/`` (``build_all``): a config ``build/<generator>-ru.yml``, ``mkdocs.yml``
merged with the staged folder, the navigation, ``theme.language``, the edition's words and the search language
(Material's ``search`` with ``lang: [ru, en]``: Russian stemming, and English words such as the
examples' code still found). Zensical builds it inside ``build/`` and it is copied into place.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rulespy.errors import BookError

GENERATORS = ("mkdocs", "zensical")
_ABORT = "Aborted because --strict flag is set"
SITE_URL = "SITE_URL"
#: Where Zensical builds a site with ``SITE_URL`` set before it is copied to ``site/`` (it writes only
#: inside its config's folder, here ``build/``).
_PUBLISHED = "site-published"


def site_url(root: Path) -> str | None:
    """The site's address from ``SITE_URL`` (always ending in ``/``), or None when it is not set (the
    generators then read ``mkdocs.yml``'s). ``ValueError`` for a value that is not an http(s) address."""
    value = os.environ.get(SITE_URL, "").strip()
    if not value:
        return None
    if not value.startswith(("https://", "http://")) or any(c in value for c in " \"'<>\n"):
        raise ValueError(f"{SITE_URL}={value!r} is not an http(s) address such as https://example.org/rules/")
    return value if value.endswith("/") else value + "/"


def _configured_url(root: Path) -> str:
    """``mkdocs.yml``'s ``site_url`` (the address ``make serve`` serves on), read as the checker reads it."""
    import yaml

    try:
        config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        config = {}
    found = config.get("site_url") if isinstance(config, dict) else None
    return str(found) if found else "http://127.0.0.1:8000/"


def command(generator: str, root: Path, site_dir: Path) -> list[str]:
    """The command line that builds the site of ``root`` into ``site_dir`` with ``generator`` (with
    ``SITE_URL`` set, Zensical's goes to ``build/site-published``, which ``build`` copies into place)."""
    address = site_url(root)
    url = f"site_url: {address}\n" if address else ""
    if generator == "mkdocs":
        build = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir.resolve())]
        if address is None:
            return build
        config = root / "build" / "mkdocs-published.yml"
        config.parent.mkdir(parents=True, exist_ok=True)
        config.write_text(
            "# Written by rulespy.render.build: mkdocs.yml with the site's address from SITE_URL.\n"
            f"INHERIT: ../mkdocs.yml\ndocs_dir: pages\n{url}",
            encoding="utf-8",
        )
        return [*build, "-f", str(config)]
    if site_dir.resolve() == (root / "site").resolve() and address is None:
        return [sys.executable, "-m", "zensical", "build", "--strict", "--clean"]
    config = root / "build" / "zensical.yml"
    if address is not None:
        site_dir = config.parent / _PUBLISHED
    if not site_dir.resolve().is_relative_to(config.parent.resolve()):
        raise ValueError(
            f"zensical builds into {root / 'site'} or a folder inside {config.parent}, not {site_dir}"
        )
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(
        "# Written by rulespy.render.build: mkdocs.yml with other folders, for Zensical.\n"
        "INHERIT: ../mkdocs.yml\n"
        "docs_dir: pages\n"
        f"site_dir: {site_dir.resolve().relative_to(config.parent.resolve()).as_posix()}\n{url}",
        encoding="utf-8",
    )
    return [sys.executable, "-m", "zensical", "build", "--strict", "--clean", "-f", str(config)]


def _without_traceback(text: str) -> str:
    lines = text.splitlines()
    kept: list[str] = []
    skipping = False
    for line in lines:
        if line.startswith("Traceback (most recent call last):"):
            skipping = True
            continue
        if skipping and _ABORT in line:
            kept.append("zensical: the strict build failed on the warnings above")
            skipping = False
            continue
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


class UnsafeBuild(BookError, ValueError):
    """The build refuses to start: the configuration runs code or leads outside (RS082-RS084), or a
    folder it writes is a symlink out of the repository (RS045). Nothing was written or deleted."""


def refuse_unsafe(root: Path, site_dir: Path) -> None:
    """``UnsafeBuild`` listing each ``path:line: CODE message`` when ``mkdocs.yml`` (or what it INHERITs)
    holds what ``rulespy check`` reports as RS082-RS084, or when ``site_dir`` or ``build/`` leads out of
    the repository: read with the checker's safe composer, before either generator sees the file."""
    from rulespy.check import config, outputs
    from rulespy.check.findings import CheckError

    try:
        problems = [str(finding) for finding in config.findings(root)[0]]
    except CheckError as error:
        problems = [error.located()]
    for folder in (site_dir, root / "build"):
        refused = outputs.refusal(root, folder, "the site build")
        if refused is not None:
            problems.append(refused)
    if problems:
        raise UnsafeBuild("\n".join([*problems, "the site is not built: nothing was written or deleted"]))


def build(generator: str, root: Path, site_dir: Path) -> subprocess.CompletedProcess[str]:
    """Run ``generator`` strictly (a failed strict build's output carries no generator traceback), then
    copy the rules judge's runtime into the site (``rulespy.render.judge.publish``). ``UnsafeBuild``
    before anything runs when the configuration or the folders are unsafe (``refuse_unsafe``)."""
    refuse_unsafe(root, site_dir)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        command(generator, root, site_dir), cwd=root, capture_output=True, text=True, env=env, check=False
    )
    done.stdout, done.stderr = _without_traceback(done.stdout), _without_traceback(done.stderr)
    if done.returncode == 0 and generator == "zensical" and site_url(root) is not None:
        shutil.rmtree(site_dir, ignore_errors=True)
        shutil.copytree(root / "build" / _PUBLISHED, site_dir)
    if done.returncode == 0:  # the rules judge's runtime (Pyodide and rulespy), copied in, never a CDN
        from rulespy.render.judge import JudgeError, publish

        try:
            publish(root, site_dir)
        except JudgeError as error:  # without npm the site is built without it, except in CI
            if error.no_npm and os.environ.get("CI") != "true":
                done.stdout += f"\nThe rules judge is left out: {error}.\n"
            else:
                done.stderr += f"\nthe rules judge's runtime: {error}\n"
                done.returncode = 1
        except OSError as error:
            done.stderr += f"\nthe rules judge's runtime: {error}\n"
            done.returncode = 1
    return done


def languages_staged(root: Path) -> list[str]:
    """The translations ``rulespy render`` staged (``build/<language>/pages`` and its ``nav.yml``)."""
    from rulespy.check.files import LANGUAGES

    return [lang for lang in LANGUAGES if (root / "build" / lang / "nav.yml").is_file()]


def language_config(generator: str, root: Path, language: str) -> Path:
    """Write ``build/<generator>-<language>.yml``: ``mkdocs.yml`` for the translation's own site, whole.

    It is ``mkdocs.yml`` merged here (mappings key by key, anything else replaced) with the translation's
    folder, navigation, theme language, search languages and words (``_translated_settings``), rather
    than a small file that INHERITs it: Zensical 0.0.73 keeps the parent's navigation and palette over a
    child's, so an inheriting file gave its Russian site the English navigation and toggles."""
    import yaml

    staged = root / "build" / language
    nav = (yaml.safe_load((staged / "nav.yml").read_text(encoding="utf-8")) or {}).get("nav")
    base = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8")) or {}
    base.pop("INHERIT", None)  # the English navigation: the translation has its own
    config = _merged(
        base,
        {
            "docs_dir": f"{language}/pages",
            "site_dir": f"site-{language}" if generator == "zensical" else base.get("site_dir", "site"),
            "site_url": f"{site_url(root) or _configured_url(root)}{language}/",
            "theme": {"language": language},
            "plugins": [{"search": {"lang": [language, "en"]}}],
            "nav": nav,
            **_translated_settings(base, language),
        },
    )
    path = root / "build" / f"{generator}-{language}.yml"
    header = f"# Written by rulespy.render.build: the {language} site, mkdocs.yml with its own pages.\n"
    path.write_text(header + yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def _merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``over`` laid on it: a mapping in both is merged key by key, anything else replaced."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merged(merged[key], value)
        else:
            merged[key] = value
    return merged


def _translated_settings(base: dict[str, Any], language: str) -> dict[str, Any]:
    """The settings of ``base`` (``mkdocs.yml``) that carry words, in ``language`` (``WORDS`` of
    ``rulespy/render/languages.py``): the site's name and description, the footer's credit line, the
    palette toggles' names (the theme shows them as titles), and the heading permalinks' title. A list
    replaces the one it is merged over, so the palette and the extensions are ``base``'s with only their
    words changed; a setting ``base`` lacks is left out."""
    import copy

    from rulespy.render.languages import words

    said = words(language)
    base = copy.deepcopy(base)
    settings: dict[str, Any] = {
        "site_name": said["title"],
        "site_description": said["description"],
        # the theme's "Made with ..." line has no translation: the edition says it in its own words
        "copyright": said["made-with"],
        "extra": {"generator": False},
    }
    palette = (base.get("theme") or {}).get("palette")
    if isinstance(palette, list):
        toggles = {"Switch to dark mode": said["dark-mode"], "Switch to light mode": said["light-mode"]}
        for scheme in palette:
            toggle = scheme.get("toggle") if isinstance(scheme, dict) else None
            if isinstance(toggle, dict) and toggle.get("name") in toggles:
                toggle["name"] = toggles[toggle["name"]]
        settings["theme"] = {"language": language, "palette": palette}
    extensions = base.get("markdown_extensions")
    if isinstance(extensions, list):
        for index, extension in enumerate(extensions):
            if extension == "toc" or (isinstance(extension, dict) and "toc" in extension):
                options = dict(extension["toc"] or {}) if isinstance(extension, dict) else {}
                extensions[index] = {"toc": {**options, "permalink_title": said["permalink"]}}
        settings["markdown_extensions"] = extensions
    return settings


def build_language(
    generator: str, root: Path, site_dir: Path, language: str
) -> subprocess.CompletedProcess[str]:
    """Build translation ``language`` into ``site_dir/<language>`` (after the English site: a clean
    English build empties ``site_dir``)."""
    refuse_unsafe(root, site_dir)
    config = language_config(generator, root, language)
    target = site_dir / language
    if generator == "mkdocs":
        command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config)]
        command += ["--site-dir", str(target.resolve())]
    else:
        command = [sys.executable, "-m", "zensical", "build", "--strict", "--clean", "-f", str(config)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, env=env, check=False)
    done.stdout, done.stderr = _without_traceback(done.stdout), _without_traceback(done.stderr)
    if generator == "zensical" and done.returncode == 0:
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(root / "build" / f"site-{language}", target)
    return done


def build_all(generator: str, root: Path, site_dir: Path) -> list[subprocess.CompletedProcess[str]]:
    """The English site, then each staged translation, then each edition's search index (Pagefind,
    ``rulespy.render.search``), then its offline copy (its service worker and manifest,
    ``rulespy.render.offline``); stops at the first failed build."""
    languages = languages_staged(root)
    done = [build(generator, root, site_dir)]
    for language in languages:
        if done[-1].returncode != 0:
            break
        done.append(build_language(generator, root, site_dir, language))
    if done[-1].returncode == 0:
        done.append(search_index(root, site_dir, languages))
    if done[-1].returncode == 0:
        done.append(offline_copy(root, site_dir, languages))
    return done


def search_index(root: Path, site_dir: Path, languages: list[str]) -> subprocess.CompletedProcess[str]:
    """Write each edition's search index (Pagefind, ``rulespy.render.search``); without npm the theme's
    own search is left in its place and the build says so (under ``CI=true`` that is a failure)."""
    from rulespy.render import search

    return _npm_step(
        "pagefind",
        "the search index",
        "The search index is left out (the theme's own search stays)",
        lambda: search.publish(root, site_dir, languages),
        search.SearchError,
    )


def offline_copy(root: Path, site_dir: Path, languages: list[str]) -> subprocess.CompletedProcess[str]:
    """Write each edition's service worker and manifest; without npm the site is left online-only and
    says so (under ``CI=true`` that is a failure, as for the judge)."""
    from rulespy.render import offline

    return _npm_step(
        "workbox-build",
        "the offline copy",
        "The offline copy is left out",
        lambda: offline.publish(root, site_dir, languages),
        offline.OfflineError,
    )


def _npm_step(
    program: str,
    what: str,
    left_out: str,
    publish: Callable[[], list[str]],
    failure: type[Exception],
) -> subprocess.CompletedProcess[str]:
    """One build step that needs an npm package (``program``): ``publish()``'s lines as its output; when
    npm is missing (``failure`` with ``no_npm``) the step is skipped with the ``left_out`` sentence, except
    under ``CI=true``; any other failure fails the step naming ``what``."""
    done = subprocess.CompletedProcess([program], 0, "", "")
    try:
        done.stdout = "\n".join(publish()) + "\n"
    except failure as error:
        if getattr(error, "no_npm", False) and os.environ.get("CI") != "true":
            done.stdout = f"{left_out}: {error}.\n"
        else:
            done.stderr, done.returncode = f"{what}: {error}\n", 1
    except OSError as error:
        done.stderr, done.returncode = f"{what}: {error}\n", 1
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulespy.render.build", description=__doc__)
    parser.add_argument("generator", choices=GENERATORS)
    parser.add_argument("--site-dir", default="site")
    parser.add_argument("--root", default=".")
    parser.add_argument("--pdf", action="store_true", help="also print the rulebook PDF into the site")
    args = parser.parse_args(argv)
    root, site_dir = Path(args.root), Path(args.site_dir)
    if not root.is_dir():
        print(f"{parser.prog}: {root}: no such folder", file=sys.stderr)
        return 2
    try:
        builds = build_all(args.generator, root, site_dir)
    except ValueError as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 2
    for done in builds:
        sys.stdout.write(done.stdout + ("\n" if done.stdout and not done.stdout.endswith("\n") else ""))
        sys.stderr.write(done.stderr + ("\n" if done.stderr and not done.stderr.endswith("\n") else ""))
        if done.returncode != 0:
            return done.returncode
    if args.pdf:
        from rulespy.render.pages import RULEBOOK
        from rulespy.render.pdf import CHROMIUM, PdfError, print_rulebooks

        if not CHROMIUM.exists() and os.environ.get("CI") != "true":
            for language in (None, *languages_staged(root)):  # no rulebook of an earlier build stays
                stale = site_dir / (language or "") / RULEBOOK
                if stale.is_file() and not stale.is_symlink():
                    stale.unlink()
            print(f"The rulebook PDF is skipped: it needs {CHROMIUM} (apt-get install chromium).")
            return 0

        try:  # every language's by one Chromium
            paths = print_rulebooks(root, site_dir, [None, *languages_staged(root)])
        except PdfError as error:
            print(f"rulebook PDF: {error}", file=sys.stderr)
            return 1
        for path in paths:
            print(f"The rulebook: {path} ({path.stat().st_size // 1024} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
