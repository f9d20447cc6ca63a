"""Past editions of the site, each built from its release commit into ``SITE/vX.Y/``.

``python -m rulespy.editions.site mkdocs|zensical [--site-dir site] [--root .]`` (``make site`` runs it
after building the current site, which it leaves untouched apart from the edition folders and
``versions.json``).

For each edition (the latest release of each minor version, as ``CHANGELOG.md`` records them:
``rulespy.editions.versions``) the repository is cloned (``git clone --shared``, so the repository, its
index and its working tree are untouched) into a temporary folder and its release commit checked out,
and that tree's own code renders and builds it: ``rulespy render`` of the release, then ``python -m
rulespy.render.build GENERATOR --pdf`` of it (with the edition's own rulebook PDF, which its home page
links), with its own ``mkdocs.yml``. The clone gets a tag ``vX.Y.Z`` for that release and each one before
it (made in the clone only): a release's code from before releases were read from ``CHANGELOG.md``
(v1.0.0's) finds its editions from tags, and so lists itself on its own What changed page. Both
generators work: each edition is a whole site of its own, so nothing depends on a generator's plugins.
Before the build, every staged page gets a banner: on an old edition, a warning that points to the same
page in the current rules (or their home page, when the page is gone) and to "What changed"; on the
latest release, a note that the current rules may hold unreleased changes.

Search: each edition carries its own search index and the current site's index is built before the
edition folders are copied in, so a search lists each page once, from the edition being read.

The version selector is the theme's own (``extra.version.provider: mike`` in ``mkdocs.yml``, which
mkdocs-material and Zensical both read): it fetches ``versions.json`` from the folder above the site's
base, so ``SITE/versions.json`` lists the current rules (version ``..``, which resolves to the site's
root from the root and from every edition folder) and each edition. ``rulespy render`` stages it too,
so the current site has one even before any edition is built.
"""

from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rulespy.check.files import LANGUAGES, page_url
from rulespy.editions.versions import Release, ReleaseError, editions, releases
from rulespy.errors import BookError

CURRENT = ".."  # the selector links to ../VERSION/ from a site's base: ../../ is the root, from either
RENDER = "import sys; sys.path.insert(0, '.'); from rulespy.cli import main; sys.exit(main(['render', '.']))"


class EditionError(BookError):
    """An edition that cannot be built: its release, and why."""


#: The banner's words, by language (None: English; the Russian site of an edition gets its own).
BANNERS = {
    None: {
        "released": "released in {tag} on {date} (commit <code>{commit}</code>)",
        "latest-title": "Edition {edition}: the latest release ({tag})",
        "latest": 'These are the rules as {released}. The <a href="{here}">current rules</a> may hold '
        'changes not released yet (<a href="{changes}">What changed</a>).',
        "old-title": "Edition {edition} ({tag}): an old edition",
        "old": "These are the rules as {released}, replaced since by {latest} of {latest_date}. "
        '<a href="{here}">Read this in the current rules</a>, or see <a href="{changes}">What changed</a>.',
    },
    "ru": {
        "released": "выпуска {tag} от {date} (коммит <code>{commit}</code>)",
        "latest-title": "Редакция {edition}: последний выпуск ({tag})",
        "latest": 'Это правила {released}. В <a href="{here}">действующих правилах</a> могут быть '
        'ещё не выпущенные изменения (<a href="{changes}">Что изменилось</a>).',
        "old-title": "Редакция {edition} ({tag}): старая редакция",
        "old": "Это правила {released}; с тех пор их заменил выпуск {latest} от {latest_date}. "
        '<a href="{here}">Читать это в действующих правилах</a> '
        'или см. <a href="{changes}">Что изменилось</a>.',
    },
}


def banner(
    path: str,
    release: Release,
    latest: Release,
    current: set[str],
    generator: str,
    language: str | None = None,
) -> list[str]:
    """The banner of one staged page of ``release``'s edition: links up to the current rules (with
    ``language``, of a page of the edition's translation, ``SITE/vX.Y/ru/``, up to ``SITE/ru/``).

    The links lead out of the edition's site, so they are raw HTML. mkdocs leaves a raw ``href`` as
    written: relative to the page's URL (``SITE/v1.0/core/cover/``). Zensical rewrites it as it does a
    markdown link: written relative to the page's file (``core/cover.md``), it comes out right."""
    base = page_url(path) if generator == "mkdocs" else posixpath.dirname(path) + "/"
    up = "../" * (base.count("/") + (1 if base != "/" else 0))  # from the edition's page to SITE/
    site = f"{language}/" if language else ""
    up += "../" if language else ""  # the translation is a site of its own, one folder down
    here = up + site + (page_url(path) if path in current else "")
    said = BANNERS.get(language, BANNERS[None])
    values = {"tag": release.tag, "edition": release.edition, "here": here, "changes": up + site + "changes/"}
    commit = release.commit[:12]
    values["released"] = said["released"].format(tag=release.tag, date=release.date, commit=commit)
    kind = "latest" if release == latest else "old"
    text = said[kind].format(latest=latest.tag, latest_date=latest.date, **values)
    title = said[kind + "-title"].format(**values)
    return [f'!!! {"note" if kind == "latest" else "warning"} "{title}"', f"    {text}"]


def add_banners(
    pages: Path,
    release: Release,
    latest: Release,
    current: set[str],
    generator: str,
    language: str | None = None,
) -> None:
    for file in sorted(pages.rglob("*.md")):
        path = file.relative_to(pages).as_posix()
        lines = file.read_text(encoding="utf-8").split("\n")
        at = next((i + 1 for i, line in enumerate(lines) if line.startswith("# ")), 0)
        lines[at:at] = ["", *banner(path, release, latest, current, generator, language), ""]
        file.write_text("\n".join(lines), encoding="utf-8")


def _edition_address(tree: Path, release: Release) -> str | None:
    """With ``SITE_URL`` set (the published address, ``rulespy.render.build``), the edition's own:
    ``SITE_URL`` and ``vX.Y/``. A release's build that reads ``SITE_URL`` gets it so; one that does not
    (v1.0.0's) reads its ``mkdocs.yml``, whose ``site_url`` line is rewritten in the clone."""
    site = os.environ.get("SITE_URL", "").strip()
    if not site:
        return None
    if not re.fullmatch(r"https?://[^\s'\"<>\\]+", site):  # written into YAML: one plain address only
        raise EditionError(f"SITE_URL={site!r} is not an http(s) address such as https://example.org/rules/")
    address = f"{site.rstrip('/')}/{release.edition}/"
    config = tree / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(re.sub(r"(?m)^site_url:.*$", f"site_url: {address}", text, count=1), encoding="utf-8")
    return address


def _run(command: list[str], cwd: Path, what: str, release: Release, address: str | None = None) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    if address is not None:
        env["SITE_URL"] = address
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stderr.strip() or done.stdout.strip()).splitlines()[-5:])
        raise EditionError(f"{release.tag}: {what} failed:\n{tail}")


def share_installs(root: Path, tree: Path, pinned: Path | None = None) -> list[str]:
    """Give ``tree`` (a clone of ``root``) ``root``'s npm installs instead of running ``npm ci`` again:
    each ``root/build/NAME/`` holding a ``package-lock.json`` and its ``node_modules`` (the judge's
    Pyodide, ``build/pyodide``; Workbox for the offline copy, ``build/offline``) whose lock is byte for
    byte the one ``tree``'s code pins (``PINNED/NAME/package-lock.json``, ``pinned`` by default
    ``tree/rulespy/render``: a tree built by another rulespy names that one's) is copied to
    ``tree/build/NAME/``, its files hard-linked where the file system allows (no data copied; never a
    symbolic link, which ``rulespy render`` refuses in ``build/``). The installers then find it
    installed and never run npm for it; an edition whose release pinned another version installs its
    own. Its ``bundles/`` go along (the bundled service worker ``rulespy.render.offline`` keeps, so that
    a tree's build bundles none of its own). The names shared, for the curious. (Two editions and the
    current site each installed 90 MB from the npm registry before: about 15 s of CPU and up to minutes
    of wall time each.)"""

    def link(source: str, target: str) -> None:
        try:
            os.link(source, target)
        except OSError:  # another file system, or links refused: a copy
            shutil.copy2(source, target)

    shared = []
    for installed in sorted(p for p in (root / "build").glob("*/package-lock.json") if p.is_file()):
        folder = installed.parent
        lock = (pinned or tree / "rulespy" / "render") / folder.name / "package-lock.json"
        modules = folder / "node_modules"
        if not (modules.is_dir() and lock.is_file() and lock.read_bytes() == installed.read_bytes()):
            continue
        target = tree / "build" / folder.name
        if target.exists() or target.is_symlink():
            continue
        target.mkdir(parents=True)
        shutil.copytree(modules, target / "node_modules", symlinks=True, copy_function=link)
        if (folder / "bundles").is_dir():  # what the install keeps between builds (Workbox's worker)
            shutil.copytree(folder / "bundles", target / "bundles", symlinks=True, copy_function=link)
        for name in ("package.json", "package-lock.json"):  # the lock last: it says "installed"
            if (folder / name).is_file():
                shutil.copyfile(folder / name, target / name)
        shared.append(folder.name)
    return shared


def build_edition(
    root: Path,
    release: Release,
    latest: Release,
    generator: str,
    into: Path,
    current: set[str],
    before: list[Release] | None = None,
    translations: dict[str, set[str]] | None = None,
) -> None:
    """Build ``release``'s edition with its own render step and ``generator`` into the folder ``into``;
    ``before``: the releases before it, tagged in the clone beside it; ``translations``: for each
    language, the pages of the current translation (an edition's translated pages get a banner too)."""
    translations = translations or {}
    with tempfile.TemporaryDirectory(prefix="rulespy-edition-") as temp:
        tree = Path(temp) / release.edition
        _run(
            ["git", "clone", "-q", "--shared", "--no-checkout", str(root), str(tree)],
            root,
            "git clone",
            release,
        )
        _run(["git", "checkout", "-q", "--detach", release.commit], tree, "git checkout", release)
        for earlier in [*(before or []), release]:  # for a release whose code reads tags (v1.0.0's)
            _run(["git", "tag", "-f", earlier.tag, earlier.commit], tree, "git tag", release)
        if not (tree / "rulespy/render/build.py").is_file():
            raise EditionError(f"{release.tag}: its tree has no `rulespy render` (issue 16) to build it with")
        address = _edition_address(tree, release)
        share_installs(root, tree)
        _run([sys.executable, "-c", RENDER], tree, "rulespy render", release)
        add_banners(tree / "build/pages", release, latest, current, generator)
        for language, pages in translations.items():
            if (tree / "build" / language / "pages").is_dir():
                add_banners(tree / "build" / language / "pages", release, latest, pages, generator, language)
        carry_presentation(tree)
        _run(
            [sys.executable, "-m", "rulespy.render.build", generator, "--pdf"],  # the edition's own rulebook
            tree,
            f"the {generator} build",
            release,
            address,
        )
        if into.exists():
            shutil.rmtree(into)
        shutil.copytree(tree / "site", into)


#: the current site's styles and accessibility script, laid over a past edition's own: its rules, words
#: and pages stay its release's, but what axe-core found in the presentation since (links told apart by
#: colour alone, contrast, the theme's unnamed search dialog and version selector) is mended in every
#: edition a reader can open (tests/site/test_accessibility.py checks each past edition)
PRESENTATION = ("voidsiege.css", "accessibility.js")
ASSETS = Path(__file__).resolve().parents[1] / "render" / "assets"


def carry_presentation(tree: Path) -> None:
    """Copy ``PRESENTATION`` into the staged pages of the edition cloned at ``tree`` (each language's),
    and list ``assets/accessibility.js`` in its ``mkdocs.yml`` when its release did not."""
    for pages in [tree / "build" / "pages", *(tree / "build" / language / "pages" for language in LANGUAGES)]:
        if (pages / "assets").is_dir():
            for name in PRESENTATION:
                shutil.copyfile(ASSETS / name, pages / "assets" / name)
    config = tree / "mkdocs.yml"
    if not config.is_file():
        return
    text = config.read_text(encoding="utf-8")
    if "assets/accessibility.js" not in text and "\nextra_javascript:\n" in text:
        text = text.replace("\nextra_javascript:\n", "\nextra_javascript:\n  - assets/accessibility.js\n", 1)
        config.write_text(text, encoding="utf-8")


def versions(built: list[Release]) -> list[dict[str, object]]:
    """``versions.json`` for the theme's selector: the current rules, then each edition, newest first."""
    found: list[dict[str, object]] = [{"version": CURRENT, "title": "current rules", "aliases": []}]
    for release in reversed(built):
        found.append(
            {"version": release.edition, "title": f"{release.edition} ({release.tag})", "aliases": []}
        )
    return found


def versions_json(root: Path) -> bytes:
    """What ``rulespy render`` stages as ``versions.json``, so that the site's root always has one (the
    theme's selector asks for it on every page; with no release yet it lists the current rules alone)."""
    return (json.dumps(versions(editions(releases(root))), indent=1) + "\n").encode("utf-8")


def build_editions(root: Path, generator: str, site_dir: Path) -> list[Release]:
    """Every edition into ``site_dir/vX.Y/`` and ``site_dir/versions.json``; the editions built."""
    found = editions(releases(root))
    if not found:
        return []
    def staged(pages: Path) -> set[str]:
        return {p.relative_to(pages).as_posix() for p in pages.rglob("*.md")} if pages.is_dir() else set()

    current = staged(root / "build" / "pages")
    translations = {language: staged(root / "build" / language / "pages") for language in LANGUAGES}
    every = releases(root)
    for release in found:
        before = [r for r in every if r < release]
        into = site_dir / release.edition
        build_edition(root, release, found[-1], generator, into, current, before, translations)
    (site_dir / "versions.json").write_bytes(versions_json(root))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulespy.editions.site", description=__doc__)
    parser.add_argument("generator", choices=("mkdocs", "zensical"))
    parser.add_argument("--site-dir", default="site")
    parser.add_argument("--root", default=".")
    args = parser.parse_args(argv)
    root = Path(args.root).resolve()
    from rulespy.check.outputs import refusal  # site/ a symlink out: refused before anything is replaced

    refused = refusal(root, Path(args.site_dir).absolute(), "the editions build")
    if refused is not None:
        print(f"{parser.prog}: {refused}", file=sys.stderr)
        return 2
    try:
        built = build_editions(root, args.generator, Path(args.site_dir).resolve())
    except (EditionError, ReleaseError) as error:
        for line in str(error).splitlines():
            print(f"{parser.prog}: {line}", file=sys.stderr)
        return 1
    names = ", ".join(posixpath.join(args.site_dir, r.edition) for r in built) or "none (no release yet)"
    print(f"Past editions: {names}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
