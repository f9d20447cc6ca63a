"""Everything ``rulespy check`` remembers, in the user's cache directory (never inside the repository).

Files per repository (named by a hash of its real path):

- ``NAME.pickle`` + ``NAME.journal.pickle``: parsed ``Document``s by ``(path, content hash)``, each kept as
  its own pickled bytes so that a run unpickles only the documents it needs; new documents are appended
  to the journal without reading the store, which is rewritten (keeping live entries) once the journal
  grows past an eighth of it.
- ``NAME.state.pickle`` + ``NAME.state.changes.pickle``: per-file summaries and per-file findings with
  their dependencies (``incremental.py``); a run that changes a few of them appends only those to the
  journal (``save_journaled``).
- ``NAME.config.pickle``: the parsed ``concepts.yml`` and ``mkdocs.yml`` by content hash.
- ``NAME.translations.pickle``: each translated page's findings against its English twin, by both
  pages' content hashes (``translations.Pairs``).
- ``NAME.drift.pickle``: the step-drift findings (RS060) by a hash of the files compared.
- ``NAME.result.pickle``: the last run's findings under a fingerprint of every input.

Anything that changes how files are parsed (the registry's terms, the layout) changes the ``salt`` and
so starts fresh documents and state. So does the checker itself (a cache must never answer for another
checker; its version follows from what is cached): every salt starts with ``code_key()``, a
hash of the Python version, of every ``rulespy/check/*.py`` source as installed and of the installed
versions of markdown-it-py, Python-Markdown (heading slugs) and PyYAML (front matter), computed once a
process, so a cache written by another checker or parser is never read.

Every file (and every journal record) carries a checksum of its bytes; a mismatch is a miss, so a
flipped bit cannot change an answer. Unreadable or foreign cache files are ignored; only the checker's
own classes can be loaded from one. Files are created 0600; a failed write leaves no temporary file.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import os
import pickle
import struct
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from rulespy.check.doc import Document
from rulespy.check.files import within

#: module -> distribution name prefix (lower case) of the libraries whose version changes what is parsed
_LIBRARIES = {
    "markdown_it": "markdown_it_py-",
    "markdown": "markdown-",
    "yaml": "pyyaml-",
    "mdit_py_plugins": "mdit_py_plugins-",  # its admonitions parser reads markup there (parse.py)
}
_MAGIC = b"RSCK1"
_SUM = 16
_FRAME = struct.Struct(">I")
_ALLOWED = {
    ("rulespy.check.doc", name) for name in ("Document", "Heading", "Link", "Mention", "TermUse", "Claim")
}
_BUILTINS = ("dict", "tuple", "list", "set", "frozenset", "str", "int", "bool")
_ALLOWED |= {("builtins", name) for name in _BUILTINS}
_ALLOWED |= {("copyreg", "_reconstructor"), ("builtins", "object"), ("rulespy.check.findings", "Finding")}
_ALLOWED |= {("rulespy.check.registry", n) for n in ("Registry", "Concept", "Retired", "Requirement")}
_ALLOWED |= {("rulespy.check.files", "Layout"), ("rulespy.check.nav", "Nav")}
_ALLOWED |= {("rulespy.check.nav", "NavEntry")}
#: parsing a byte of markdown costs about as much CPU as reading and unpickling this many bytes of the
#: document store (measured on the bench tree: 1.3 MB/s against 290 MB/s)
PARSE_COST = 200
_ERRORS = (OSError, pickle.UnpicklingError, EOFError, AttributeError, ValueError, TypeError, IndexError)


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in the check cache")
        return super().find_class(module, name)


def safe_load(data: bytes) -> Any:
    """Unpickle ``data`` allowing only the checker's own classes; ``None`` for anything unreadable."""
    try:
        return _Unpickler(io.BytesIO(data)).load()
    except _ERRORS:
        return None


@lru_cache(maxsize=1)
def code_key() -> str:
    """What the cached answers were computed by: this Python, the checker's sources and the rule book's
    (``rulespy/book/``: the parser configuration, the sections the checker reads with), with
    ``rulespy/yamlbudget.py``, the one module outside them it reads configuration through, and its
    parsers' versions (their ``*.dist-info`` folder names, found without importing anything). Once a
    process."""
    key = hashlib.blake2b(digest_size=12)
    key.update(sys.version.encode())
    folder = os.path.dirname(os.path.abspath(__file__))
    book = os.path.join(os.path.dirname(folder), "book")
    sources = [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".py")]
    sources += [os.path.join(book, name) for name in sorted(os.listdir(book)) if name.endswith(".py")]
    sources.append(os.path.join(os.path.dirname(folder), "yamlbudget.py"))
    for path in sources:
        with open(path, "rb") as handle:
            key.update(os.path.basename(path).encode() + b"\0" + handle.read() + b"\0")
    for module, distribution in sorted(_LIBRARIES.items()):
        spec = importlib.util.find_spec(module)
        origin = spec.origin if spec is not None else None
        site = os.path.dirname(os.path.dirname(origin)) if origin else ""
        try:
            names = sorted(n for n in os.listdir(site) if n.lower().startswith(distribution))
        except OSError:
            names = []
        key.update(f"{module}={names}".encode())
    return key.hexdigest()


def _sealed(payload: bytes) -> bytes:
    return _MAGIC + digest(payload) + payload


def _unsealed(data: bytes) -> bytes | None:
    """The payload of ``_sealed`` bytes, or ``None`` when the magic or the checksum does not match."""
    if not data.startswith(_MAGIC) or len(data) < len(_MAGIC) + _SUM:
        return None
    payload = data[len(_MAGIC) + _SUM :]
    return payload if digest(payload) == data[len(_MAGIC) : len(_MAGIC) + _SUM] else None


def read_pickle(path: Path) -> Any:
    """A value ``write_pickle`` wrote, or ``None`` (absent, foreign, or its checksum does not match)."""
    try:
        with open(path, "rb") as handle:
            payload = _unsealed(handle.read())
    except OSError:
        return None
    return None if payload is None else safe_load(payload)


def write_pickle(target: Path, value: object) -> None:
    """Write atomically (a temporary file renamed into place) with a checksum; a failure only loses the
    cache and leaves no temporary file behind."""
    temporary = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        # what tempfile.mkstemp does (a new 0600 file, never an existing one or a symlink's target),
        # without importing tempfile and random on every run that writes
        name = target.parent / f".check-{os.getpid()}-{os.urandom(8).hex()}.tmp"
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(name, flags, 0o600)
        temporary = name
        with os.fdopen(fd, "wb") as handle:
            handle.write(_sealed(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)))
        os.replace(temporary, target)
        temporary = None
    except (OSError, pickle.PicklingError):
        return
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass


def _frames(data: bytes) -> list[bytes]:
    """The journal's records: each a length, a checksum, a pickle; reading stops at the first bad one."""
    found: list[bytes] = []
    at = 0
    while at + _FRAME.size + _SUM <= len(data):
        (size,) = _FRAME.unpack_from(data, at)
        start = at + _FRAME.size + _SUM
        payload = data[start : start + size]
        if len(payload) != size or digest(payload) != data[at + _FRAME.size : start]:
            break
        found.append(payload)
        at = start + size
    return found


def _frame(payload: bytes) -> bytes:
    return _FRAME.pack(len(payload)) + digest(payload) + payload


def _journal_of(target: Path) -> Path:
    return target.with_name(target.name.replace(".pickle", ".changes.pickle"))


def digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=16).digest()


def default_cache_dir() -> Path:
    override = os.environ.get("RULESPY_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("rulespy", appauthor=False)) / "check"


class DocumentCache:
    """Documents by ``(path, content hash)``: loaded lazily, saved only when something changed."""

    def __init__(self, root: Path, salt: str, enabled: bool = True, directory: Path | None = None) -> None:
        self.enabled = enabled
        self.salt = f"{code_key()}:{salt}"
        self.entries: dict[tuple[str, bytes], bytes] = {}
        self.used: set[tuple[str, bytes]] = set()
        real_root = os.path.realpath(root)
        directory = directory or default_cache_dir()
        real_dir = os.path.realpath(directory)
        if within(real_dir, real_root):
            self.enabled = False  # the cache must never land inside the repository
        name = hashlib.sha256(real_root.encode("utf-8", "surrogateescape")).hexdigest()[:24]
        self.file = directory / f"{name}.pickle"
        self.result_file = directory / f"{name}.result.pickle"
        self.journal = directory / f"{name}.journal.pickle"
        self.state_file = directory / f"{name}.state.pickle"
        self.config_file = directory / f"{name}.config.pickle"
        self.translations_file = directory / f"{name}.translations.pickle"
        self.drift_file = directory / f"{name}.drift.pickle"
        self._loaded = not self.enabled
        self._new: list[tuple[str, bytes]] = []
        self._tokens: dict[Path, bytes] = {}  # the token of each journaled value as loaded or saved

    def load_blob(self, target: Path, key: object, salted: bool = True) -> tuple[Any, ...] | None:
        """A value saved with ``save_blob`` under the same salt (only the checker's ``code_key()`` when
        not ``salted``: for what does not depend on the layout or the parser's terms) and ``key``, else
        ``None``."""
        if not self.enabled:
            return None
        data = read_pickle(target)
        salt = self.salt if salted else code_key()
        if isinstance(data, tuple) and len(data) == 3 and data[0] == salt and data[1] == key:
            return tuple(data[2]) if isinstance(data[2], tuple) else None
        return None

    def save_blob(self, target: Path, key: object, value: tuple[Any, ...], salted: bool = True) -> None:
        if self.enabled:
            write_pickle(target, (self.salt if salted else code_key(), key, value))

    def load_journaled(self, target: Path, key: object) -> tuple[tuple[Any, ...] | None, list[Any]]:
        """A value ``save_journaled`` saved (``None`` when there is none) and the changes appended to it
        since, in order. Each save has a token; a change names the token it was made on and its own,
        and only the unbroken chain from the value's token counts: a change made by a run that read an
        older state (two checks at once, a rewrite in between) is never applied to a newer one. A journal
        with anything past that chain (such a change, a record cut short) is never appended to again:
        the next ``save_journaled`` rewrites the value whole, or its change would follow the break."""
        self._tokens.pop(target, None)
        stored = self.load_blob(target, key)
        if stored is None or len(stored) != 2:
            return None, []
        token, value = stored
        try:
            with open(_journal_of(target), "rb") as handle:
                data = handle.read()
        except OSError:
            data = b""
        frames = _frames(data)
        whole = sum(_FRAME.size + _SUM + len(payload) for payload in frames) == len(data)
        changes = []
        for payload in frames:
            record = safe_load(payload)
            if not (isinstance(record, tuple) and len(record) == 5 and record[:3] == (self.salt, key, token)):
                whole = False
                break
            token = record[3]
            changes.append(record[4])
        if whole:
            self._tokens[target] = token
        return value if isinstance(value, tuple) else None, changes

    def save_journaled(self, target: Path, key: object, value: tuple[Any, ...], change: object) -> None:
        """Save ``value`` as the small ``change`` appended to ``target``'s journal (made on the state
        ``load_journaled`` returned), or, once the journal would outgrow an eighth of ``target`` (16 KiB
        at least; or there is nothing to append to, or the journal had anything past its chain), by
        rewriting ``target`` whole. A run that changes a few files then writes a few kilobytes, not the
        state of every file."""
        if not self.enabled:
            return
        journal, token = _journal_of(target), os.urandom(8)
        parent = self._tokens.get(target)
        record = _frame(
            pickle.dumps((self.salt, key, parent, token, change), protocol=pickle.HIGHEST_PROTOCOL)
        )
        try:
            base = target.stat().st_size
            written = journal.stat().st_size if journal.exists() else 0
        except OSError:
            base = written = 0
        if parent is not None and base and written + len(record) <= max(16 << 10, base // 8):
            try:
                fd = os.open(journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                with os.fdopen(fd, "ab") as handle:
                    handle.write(record)
                self._tokens[target] = token
                return
            except OSError:
                pass  # rewritten whole below
        try:
            journal.unlink()  # first: no change is ever applied to the value written next
        except OSError:
            pass
        self.save_blob(target, key, (token, value))
        self._tokens[target] = token

    def _load(self) -> None:
        """The store, then the journal of entries appended since it was written."""
        self._loaded = True
        data = read_pickle(self.file)
        if isinstance(data, tuple) and len(data) == 2 and data[0] == self.salt and isinstance(data[1], dict):
            self.entries.update(data[1])
        try:
            with open(self.journal, "rb") as handle:
                data = handle.read()
        except OSError:
            return
        for payload in _frames(data):
            record = safe_load(payload)
            if isinstance(record, tuple) and len(record) == 3 and record[0] == self.salt:
                self.entries.setdefault(record[1], record[2])

    def get(self, path: str, key: bytes) -> Document | None:
        if not self._loaded:
            self._load()
        blob = self.entries.get((path, key))
        if blob is None:
            return None
        found = safe_load(blob) if isinstance(blob, bytes) else None
        if not isinstance(found, Document) or found.path != path:
            return None
        self.used.add((path, key))
        return found

    def worth_loading(self, markdown_bytes: int) -> bool:
        """Whether to look documents up in the store rather than parse ``markdown_bytes`` of markdown:
        always once it is loaded; before that, only when parsing would cost more than reading the store.
        A re-check with one file changed then parses that file instead of reading megabytes of documents."""
        if self._loaded:
            return True
        try:
            stored = self.file.stat().st_size + (self.journal.stat().st_size if self.journal.exists() else 0)
        except OSError:
            return True  # no store: loading it costs nothing
        return markdown_bytes * PARSE_COST > stored

    def load(
        self,
        path: str,
        data: bytes | None,
        key: bytes,
        parse: Callable[[str, bytes], Document],
        look_up: bool = True,
    ) -> Document:
        """The document of ``path`` with content ``data`` (hash ``key``): cached (unless ``look_up`` is
        false), else ``parse``d and kept; ``data`` ``None`` (the file cannot be read) is an RS040
        document."""
        if data is None:
            return Document(path, problems=((1, 1, "RS040", "cannot be read"),))
        found = self.get(path, key) if look_up else None
        if found is None:
            found = parse(path, data)
            self.put(path, key, found)
        return found

    def put(self, path: str, key: bytes, document: Document) -> None:
        if self.enabled:
            self.entries[(path, key)] = pickle.dumps(document, protocol=pickle.HIGHEST_PROTOCOL)
            self.used.add((path, key))
            self._new.append((path, key))

    def save(self, live: Callable[[], set[tuple[str, bytes]]] | None = None) -> None:
        """Append new documents to the journal; rewrite the store keeping the ``live()`` (or used) entries
        when the journal has grown past an eighth of the store (or there is no store yet)."""
        if not self.enabled or not self._new:
            return
        records = [_frame(pickle.dumps((self.salt, key, self.entries[key]), protocol=5)) for key in self._new]
        try:
            base = self.file.stat().st_size
            journal = self.journal.stat().st_size if self.journal.exists() else 0
        except OSError:
            base = journal = 0
        if base and journal + sum(map(len, records)) <= max(64 << 10, base // 8):
            try:
                fd = os.open(self.journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
                with os.fdopen(fd, "ab") as handle:
                    handle.write(b"".join(records))
                return
            except OSError:
                return
        if not self._loaded:
            self._load()
        keep = live() if live is not None else self.used
        kept = {key: blob for key, blob in self.entries.items() if key in keep}
        write_pickle(self.file, (self.salt, kept))
        try:
            self.journal.unlink()
        except OSError:
            pass
