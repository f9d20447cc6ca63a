"""The one link resolution of the rule book: where a link written on a page points.

``rulespy check`` (its link graph, RS001-RS003), the site's linker (concept links, "Referenced by") and
the printable rulebook all resolve links here, so they can never disagree about a target:

>>> resolve("core/shooting.md", "damage.md#target-limit")
Target(path='core/damage.md', fragment='target-limit', external=False, escapes=False)
>>> resolve("core/shooting.md", "/core/damage.md?x=1#target-limit").ref
'core/damage.md#target-limit'
>>> resolve("core/shooting.md", "https://example.org").external
True
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from urllib.parse import unquote

_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


@dataclass(frozen=True, slots=True)
class Target:
    """A link destination resolved against its page. ``path`` is repository-relative (``""`` = the root)."""

    path: str | None
    fragment: str | None
    external: bool = False
    escapes: bool = False

    @property
    def ref(self) -> str | None:
        """``PATH#FRAGMENT`` (or ``PATH``) of a link inside the repository; ``None`` for an external link
        or one that climbs out of the repository."""
        if self.path is None:
            return None
        return f"{self.path}#{self.fragment}" if self.fragment else self.path


def is_external(destination: str) -> bool:
    """An external URL (any ``scheme:`` or ``//host``): never resolved nor fetched."""
    return destination.startswith("//") or _SCHEME_RE.match(destination) is not None


def resolve(source: str, destination: str) -> Target:
    """Resolve ``destination`` written in repository file ``source``.

    External URLs (any ``scheme:`` or ``//host``) are not followed. ``/x`` is read from the repository
    root. The path part is percent-decoded (``%20`` is a space); a query string is ignored.
    """
    destination = destination.strip()
    if not destination or is_external(destination):
        return Target(None, None, external=True)
    path, hashmark, fragment = destination.partition("#")
    path = path.partition("?")[0]
    frag = unquote(fragment) if hashmark else None
    if not path:
        return Target(source, frag)
    if "%" in path:
        path = unquote(path)
    if path.startswith("/"):
        joined = path.lstrip("/")
    else:
        folder = source.rpartition("/")[0]
        joined = f"{folder}/{path}" if folder else path
    if not joined:
        return Target("", frag)
    plain = "/." not in joined and "//" not in joined and not joined.startswith(".") and joined[-1] != "/"
    normal = joined if plain else posixpath.normpath(joined)
    if normal == ".." or normal.startswith("../"):
        return Target(None, frag, escapes=True)
    return Target("" if normal == "." else normal, frag)
