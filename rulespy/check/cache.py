"""Parsed documents cached by file content, in the user's cache directory (never inside the repository).

One cache file per repository (named by a hash of its real path) maps ``(path, content hash)`` to the
parsed ``Document``. A file whose bytes changed has a new hash, so the cache is never stale; anything that
changes how files are parsed (the registry's terms, the size limit, this code's version) changes the
``salt`` and starts a fresh cache. Unreadable or foreign cache files are ignored; only the checker's own
classes can be loaded from one.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import tempfile
from pathlib import Path
from typing import Any

from rulespy.check.doc import Document

VERSION = "rulespy-check-3"
_ALLOWED = {
    ("rulespy.check.doc", name) for name in ("Document", "Heading", "Link", "Mention", "TermUse", "Claim")
} | {("builtins", name) for name in ("dict", "tuple", "list", "set", "frozenset", "str", "int", "bool")}
_ALLOWED |= {("copyreg", "_reconstructor"), ("builtins", "object")}


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in the check cache")
        return super().find_class(module, name)


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def default_cache_dir() -> Path:
    override = os.environ.get("RULESPY_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("rulespy", appauthor=False)) / "check"


class DocumentCache:
    """Load once, look documents up by content, save only when something changed."""

    def __init__(self, root: Path, salt: str, enabled: bool = True, directory: Path | None = None) -> None:
        self.enabled = enabled
        self.salt = f"{VERSION}:{salt}"
        self.entries: dict[tuple[str, bytes], Document] = {}
        self.used: set[tuple[str, bytes]] = set()
        self.dirty = False
        real_root = os.path.realpath(root)
        directory = directory or default_cache_dir()
        real_dir = os.path.realpath(directory)
        if real_dir == real_root or real_dir.startswith(real_root + os.sep):
            self.enabled = False  # the cache must never land inside the repository
        name = hashlib.sha256(real_root.encode("utf-8", "surrogateescape")).hexdigest()[:24]
        self.file = directory / f"{name}.pickle"
        if self.enabled:
            self._load()

    def _load(self) -> None:
        try:
            with open(self.file, "rb") as handle:
                data = _Unpickler(io.BytesIO(handle.read())).load()
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError, TypeError, IndexError):
            return
        if isinstance(data, tuple) and len(data) == 2 and data[0] == self.salt and isinstance(data[1], dict):
            self.entries = data[1]

    def get(self, path: str, key: bytes) -> Document | None:
        found = self.entries.get((path, key))
        if found is not None:
            self.used.add((path, key))
        return found

    def put(self, path: str, key: bytes, document: Document) -> None:
        self.entries[(path, key)] = document
        self.used.add((path, key))
        self.dirty = True

    def save(self) -> None:
        if not self.enabled:
            return
        if not self.dirty and len(self.used) == len(self.entries):
            return
        kept = {key: doc for key, doc in self.entries.items() if key in self.used}
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=self.file.parent, prefix=".check-", suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump((self.salt, kept), handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, self.file)
        except OSError:
            return
