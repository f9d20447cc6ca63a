"""The one digest of rulespy's code that cached outputs depend on.

A cached page, What changed entry or summary is reused only while the code that made it is unchanged.
Which modules a renderer depends on is not worth guessing (the What changed cache once hashed
``editions/`` and ``coverage/`` only, and missed the checker they read with), so the digest covers every
module of the package, plus the versions of the parsers that read the texts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
#: the libraries whose version changes what a text reads as
PARSERS = ("markdown-it-py", "mdit-py-plugins", "pyyaml")


def code_digest(extra: Iterable[Path] = ()) -> str:
    """SHA-256 (hex) of every ``*.py`` of rulespy and of its message catalogues (``locale/*/*.po``: the
    words the engine and the generated pages print), the ``extra`` files (the site's assets), and
    ``PARSERS``' versions."""
    h = hashlib.sha256()
    h.update(_package_digest().encode())
    for path in sorted(extra):
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


@lru_cache(maxsize=1)
def _package_digest() -> str:
    from importlib.metadata import version

    h = hashlib.sha256()
    for path in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.glob("locale/*/LC_MESSAGES/*.po")]):
        h.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes())
    for name in PARSERS:
        h.update(f"{name}={version(name)}".encode())
    return h.hexdigest()
