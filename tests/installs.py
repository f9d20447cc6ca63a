"""The npm installs of the repository, shared with the copies of it that tests build.

A site build installs two npm packages into the tree it builds (``build/pyodide``, the judge's runtime,
``rulespy.render.judge``; ``build/offline``, Workbox, ``rulespy.render.offline``): about 90 MB and 15 s
of CPU, and on a busy machine minutes of wall time, per tree. Tests that render or build a copy of the
repository (the bilingual fixture, the editions' repository and the clone of each edition) give it the
repository's own installs instead, made once per run (under the site tests' build lock):
``share_installs(copy)``, the same sharing ``rulespy.editions.site.share_installs`` gives each edition's
clone, with the service worker Workbox bundled once (``rulespy.render.offline``: each tree's offline
copy then only lists its files). A test that is about the installing itself
(``tests/site/test_judge.py``) uses a tree of its own.
"""

from __future__ import annotations

from pathlib import Path

import rulespy.render
from rulespy.editions.site import share_installs as _share

ROOT = Path(__file__).resolve().parents[1]
PINNED = Path(rulespy.render.__file__).resolve().parent  # NAME/package-lock.json: what this rulespy pins


def _install() -> None:
    from rulespy.render import judge, offline

    try:
        judge.install_runtime(ROOT)
        offline.keep_bundle(ROOT)  # Workbox's install, and its bundled worker for every tree's builds
    except (judge.JudgeError, offline.OfflineError):  # no npm here: each copy says so, as before
        pass


def root_installs() -> Path:
    """The repository root, its npm installs made (once per run, one worker at a time)."""
    from tests.site.conftest import _once

    _once("npm-installs", _install)
    return ROOT


def share_installs(tree: Path) -> list[str]:
    """Give ``tree`` the repository's npm installs (``build/NAME/``, its ``node_modules`` hard-linked to
    the repository's) where the rulespy that builds it pins the same lock; the names shared."""
    return _share(root_installs(), tree, PINNED if not (tree / "rulespy" / "render").is_dir() else None)
