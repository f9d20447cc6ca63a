"""The folders the build writes and cleans (``build/``, ``site/``) never lead out of the repository.

``rulespy render`` rewrites and deletes files under ``build/pages``, the generators empty their site
folder before they build (mkdocs' "Cleaning site directory"), and the editions build replaces
``site/vX.Y``. A pull request that commits ``site`` as a symlink to ``~`` would have a maintainer's
``make site`` delete their home folder. So each tool asks ``outside_links`` first and refuses to start
when the folder it writes, any folder on the way to it, or anything inside it is a symlink resolving
outside the repository (outside the folder itself, for a folder the caller chose outside the
repository): nothing is written or deleted before that answer. ``rulespy check`` reports the same for
``build`` and ``site`` and what they hold at their first level (RS045), every run.
"""

from __future__ import annotations

import os
from pathlib import Path

from rulespy.check.files import within
from rulespy.check.findings import Finding

#: The output folders of a repository, checked by ``rulespy check`` (RS045).
OUTPUT_FOLDERS = ("build", "site")


def outside_links(root: Path, folder: Path, depth: int | None = None) -> list[tuple[str, str]]:
    """``(path, target)`` of each symlink resolving outside the repository at ``root`` that writing
    into ``folder`` would go through: a folder between ``root`` and ``folder``, ``folder`` itself, or
    anything under it (``depth`` levels deep at most; all of them by default). Paths are relative to
    ``root`` where they are inside it."""
    root_abs, folder_abs = os.path.abspath(root), os.path.abspath(folder)
    real_root = os.path.realpath(root_abs)
    found: list[tuple[str, str]] = []

    def shown(path: str) -> str:
        return os.path.relpath(path, root_abs) if within(path, root_abs) else path

    def check(path: str, base: str) -> bool:
        if os.path.islink(path) and not within(os.path.realpath(path), base):
            found.append((shown(path), _target(path)))
            return True
        return False

    if within(folder_abs, root_abs):
        base, current = real_root, root_abs
        for part in Path(os.path.relpath(folder_abs, root_abs)).parts:
            current = os.path.join(current, part)
            if check(current, base):
                return found
    else:  # a folder the caller chose outside the repository: nothing in it may lead out of it
        base = os.path.realpath(folder_abs)
    if not os.path.isdir(folder_abs):
        return found
    start = folder_abs.count(os.sep)
    for current, dirs, files in os.walk(folder_abs):  # never follows a symlinked folder
        for name in sorted(dirs + files):
            check(os.path.join(current, name), base)
        if depth is not None and current.count(os.sep) - start + 1 >= depth:
            dirs.clear()
    return found


def refusal(root: Path, folder: Path, what: str) -> str | None:
    """The message refusing to write ``folder`` (``what``: who would write it), or None when it is safe."""
    found = outside_links(root, folder)
    if not found:
        return None
    listed = "; ".join(f"{path} -> {target}" for path, target in found[:5])
    return (
        f"{listed}: a symlink out of the repository; {what} writes and deletes there, so nothing was "
        "done: remove the symlink"
    )


def findings(root: Path) -> list[Finding]:
    """RS045 for ``build`` and ``site`` of ``root``: the folder a symlink out of the repository, or one
    of its entries (the first level only: the tools that write there look deeper themselves)."""
    found: list[Finding] = []
    for folder in OUTPUT_FOLDERS:
        for path, target in outside_links(root, Path(root) / folder, depth=1):
            message = (
                f"symbolic link to {target}, outside the repository: render and the site build would "
                "write and delete there, so they refuse to run"
            )
            found.append(Finding(Path(path).as_posix(), 1, 1, "RS045", message))
    return found


def _target(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "?"
