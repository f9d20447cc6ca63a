"""Parsed documents cached by file content, in the user's cache directory (never inside the repository).

One cache file per repository (named by a hash of its real path) maps ``(path, content hash)`` to the
parsed ``Document``. A file whose bytes changed has a new hash, so the cache is never stale; anything that
changes how files are parsed (the registry's terms, the size limit, this code's version) changes the
``salt`` and starts a fresh cache. Unreadable or foreign cache files are ignored; only the checker's own
classes can be loaded from one.

A second, small file remembers the last run's findings with a fingerprint of every input (each file's
content hash, the names of all walked files and folders, concepts.yml and mkdocs.yml); a run whose
fingerprint matches returns those findings without parsing or checking anything. A run that looked at
anything outside the fingerprinted inputs (a file in an excluded folder, a symlink) is not remembered.
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

VERSION = "rulespy-check-4"
_ALLOWED = {
    ("rulespy.check.doc", name) for name in ("Document", "Heading", "Link", "Mention", "TermUse", "Claim")
}
_BUILTINS = ("dict", "tuple", "list", "set", "frozenset", "str", "int", "bool")
_ALLOWED |= {("builtins", name) for name in _BUILTINS}
_ALLOWED |= {("copyreg", "_reconstructor"), ("builtins", "object"), ("rulespy.check.findings", "Finding")}


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
        self.result_file = directory / f"{name}.result.pickle"
        self.journal = directory / f"{name}.journal.pickle"
        self._loaded = not self.enabled
        self._base = 0
        self._journalled = 0
        self._new: list[tuple[str, bytes]] = []

    def result(self, fingerprint: str) -> tuple[Any, ...] | None:
        """The findings of the last run if it saw exactly the same inputs (``fingerprint``), else ``None``."""
        if not self.enabled:
            return None
        try:
            with open(self.result_file, "rb") as handle:
                data = _Unpickler(io.BytesIO(handle.read())).load()
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError, TypeError, IndexError):
            return None
        if isinstance(data, tuple) and len(data) == 3 and data[0] == self.salt and data[1] == fingerprint:
            return tuple(data[2])
        return None

    def save_result(self, fingerprint: str, result: tuple[Any, ...]) -> None:
        if self.enabled:
            self._write(self.result_file, (self.salt, fingerprint, result))

    def _write(self, target: Path, value: object) -> None:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=".check-", suffix=".tmp")
            with os.fdopen(fd, "wb") as handle:
                pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, target)
        except OSError:
            return

    def _load(self) -> None:
        """The full cache file, then the journal of entries added since it was written."""
        self._loaded = True
        try:
            with open(self.file, "rb") as handle:
                data = _Unpickler(io.BytesIO(handle.read())).load()
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError, TypeError, IndexError):
            return
        if isinstance(data, tuple) and len(data) == 2 and data[0] == self.salt and isinstance(data[1], dict):
            self.entries = data[1]
        self._base = len(self.entries)
        try:
            with open(self.journal, "rb") as handle:
                stream = io.BytesIO(handle.read())
            while stream.tell() < len(stream.getbuffer()):
                record = _Unpickler(stream).load()
                if isinstance(record, tuple) and len(record) == 3 and record[0] == self.salt:
                    self.entries[record[1]] = record[2]
                    self._journalled += 1
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError, TypeError, IndexError):
            return

    def get(self, path: str, key: bytes) -> Document | None:
        if not self._loaded:
            self._load()
        found = self.entries.get((path, key))
        if found is not None:
            self.used.add((path, key))
        return found

    def put(self, path: str, key: bytes, document: Document) -> None:
        self.entries[(path, key)] = document
        self.used.add((path, key))
        self._new.append((path, key))
        self.dirty = True

    def save(self) -> None:
        if not self.enabled:
            return
        if not self.dirty and len(self.used) == len(self.entries):
            return
        small = len(self._new) + self._journalled <= max(16, self._base // 10)
        if self._base and small and self.file.exists():
            # a few edits: append them to the journal instead of rewriting the whole cache
            try:
                with open(self.journal, "ab") as handle:
                    for key in self._new:
                        record = (self.salt, key, self.entries[key])
                        pickle.dump(record, handle, protocol=pickle.HIGHEST_PROTOCOL)
                return
            except OSError:
                return
        kept = {key: doc for key, doc in self.entries.items() if key in self.used}
        self._write(self.file, (self.salt, kept))
        try:
            self.journal.unlink()
        except OSError:
            pass
