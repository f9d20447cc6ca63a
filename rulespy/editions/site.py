"""Past editions of the site, each built from its release tag into ``SITE/vX.Y/``.

``python -m rulespy.editions.site mkdocs|zensical [--site-dir site] [--root .]`` (``make site`` runs it
after building the current site, which it leaves untouched apart from the edition folders and
``versions.json``).

For each edition (the latest release of each minor version, ``rulespy.editions.versions``) the tag is
cloned (``git clone --shared``, so the repository, its index and its working tree are untouched) into a
temporary folder, and that tree's own code renders and builds it: ``rulespy render`` of the tag, then
``python -m rulespy.render.build GENERATOR --pdf`` of the tag (with the edition's own rulebook PDF, which
its home page links), with the tag's own ``mkdocs.yml``. Both generators work: each edition is a
whole site of its own, so nothing depends on a generator's plugins.
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
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rulespy.check.files import page_url
from rulespy.editions.versions import Release, editions, releases

CURRENT = ".."  # the selector links to ../VERSION/ from a site's base: ../../ is the root, from either
RENDER = "import sys; sys.path.insert(0, '.'); from rulespy.cli import main; sys.exit(main(['render', '.']))"


class EditionError(Exception):
    """An edition that cannot be built: its tag, and why."""


def banner(path: str, release: Release, latest: Release, current: set[str], generator: str) -> list[str]:
    """The banner of one staged page of ``release``'s edition: links up to the current rules.

    The links lead out of the edition's site, so they are raw HTML. mkdocs leaves a raw ``href`` as
    written: relative to the page's URL (``SITE/v1.0/core/cover/``). Zensical rewrites it as it does a
    markdown link: written relative to the page's file (``core/cover.md``), it comes out right."""
    base = page_url(path) if generator == "mkdocs" else posixpath.dirname(path) + "/"
    up = "../" * (base.count("/") + (1 if base != "/" else 0))  # from the edition's page to SITE/
    here = up + (page_url(path) if path in current else "")
    changes = up + "changes/"
    if release == latest:
        return [
            f'!!! note "Edition {release.edition}: the latest release ({release.tag})"',
            f'    These are the rules as released in {release.tag}. The <a href="{here}">current rules</a> '
            f'may hold changes not released yet (<a href="{changes}">What changed</a>).',
        ]
    return [
        f'!!! warning "Edition {release.edition} ({release.tag}): an old edition"',
        f"    These are the rules as released in {release.tag}, replaced since by {latest.tag}. "
        f'<a href="{here}">Read this in the current rules</a>, or see <a href="{changes}">What changed</a>.',
    ]


def add_banners(pages: Path, release: Release, latest: Release, current: set[str], generator: str) -> None:
    for file in sorted(pages.rglob("*.md")):
        path = file.relative_to(pages).as_posix()
        lines = file.read_text(encoding="utf-8").split("\n")
        at = next((i + 1 for i, line in enumerate(lines) if line.startswith("# ")), 0)
        lines[at:at] = ["", *banner(path, release, latest, current, generator), ""]
        file.write_text("\n".join(lines), encoding="utf-8")


def _run(command: list[str], cwd: Path, what: str, release: Release) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stderr.strip() or done.stdout.strip()).splitlines()[-5:])
        raise EditionError(f"{release.tag}: {what} failed:\n{tail}")


def build_edition(
    root: Path, release: Release, latest: Release, generator: str, into: Path, current: set[str]
) -> None:
    """Build ``release``'s edition with its own render step and ``generator`` into the folder ``into``."""
    with tempfile.TemporaryDirectory(prefix="rulespy-edition-") as temp:
        tree = Path(temp) / release.edition
        _run(
            ["git", "clone", "-q", "--shared", "--no-checkout", str(root), str(tree)],
            root,
            "git clone",
            release,
        )
        _run(["git", "checkout", "-q", "--detach", release.commit], tree, "git checkout", release)
        if not (tree / "rulespy/render/build.py").is_file():
            raise EditionError(f"{release.tag}: its tree has no `rulespy render` (issue 16) to build it with")
        _run([sys.executable, "-c", RENDER], tree, "rulespy render", release)
        add_banners(tree / "build/pages", release, latest, current, generator)
        _run(
            [sys.executable, "-m", "rulespy.render.build", generator, "--pdf"],  # the edition's own rulebook
            tree,
            f"the {generator} build",
            release,
        )
        if into.exists():
            shutil.rmtree(into)
        shutil.copytree(tree / "site", into)


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
    staged = root / "build" / "pages"
    current = {p.relative_to(staged).as_posix() for p in staged.rglob("*.md")} if staged.is_dir() else set()
    for release in found:
        build_edition(root, release, found[-1], generator, site_dir / release.edition, current)
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
    except EditionError as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return 1
    names = ", ".join(posixpath.join(args.site_dir, r.edition) for r in built) or "none (no release tag yet)"
    print(f"Past editions: {names}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
