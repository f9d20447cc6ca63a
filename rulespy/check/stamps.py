"""File stamps: a file whose ``stat`` is unchanged since its content was hashed is not read again.

``rulespy check`` with nothing changed must cost little more than starting Python, so the content hash
of each walked file (markdown and cited Python) is remembered with the file's stamp
``(mtime_ns, ctime_ns, size, inode, device)`` in ``NAME.stamps.pickle`` beside the other cache files.
When a file's stamp is the remembered one, its remembered hash is used without opening it; otherwise
the file is read and hashed as before.

Why an edit cannot hide behind an equal stamp:

- any write sets the modification and change times to the clock at that moment; setting the
  modification time back (``touch -d``, ``os.utime``, ``cp -p``, ``git checkout`` of an old file)
  still sets the change time to now, which no user can set back; a file replaced by a new one (a
  rename into place, delete and re-create) has a new change time, and usually a new inode too;
- a file written twice within one tick of the filesystem's clock keeps its times (and its size, if
  the length did not change): such a file is "racily clean", as git calls it. A stamp is therefore
  only remembered when both times are older than ``RACY_NS`` before the run began; a file changed
  more recently is hashed on every run until it is older. ``RACY_NS`` (3 s) covers the coarsest common
  timestamps (FAT's 2 s) and modest clock differences of a network filesystem; times in the future
  are always racy.

The stamps are keyed by the content hashes of ``concepts.yml`` and ``mkdocs.yml`` and also remember
the layout and the parser's terms they gave, so that a run with both unchanged can walk the tree and find
its remembered findings without parsing either file (or importing the parser). ``--no-cache``
never reads or writes stamps.
"""

from __future__ import annotations

import os
import time
from typing import Any

from rulespy.check.cache import DocumentCache, code_key, digest, read_pickle, write_pickle
from rulespy.check.files import Layout, Tree
from rulespy.errors import BookError

#: files changed less than this long before the run began are hashed again (see the module docstring)
RACY_NS = 3_000_000_000

Stamp = tuple[int, int, int, int, int]
#: (for these config keys: the registry's layout, ``repr`` of the parser's terms, the read limit the
#: hashes were taken with, {path: (stamp, content hash)})
Remembered = tuple[tuple[bytes, bytes], Layout, str, int, dict[str, tuple[Stamp, bytes]]]


class ChangedWhileRead(BookError):
    """A file read later in the run no longer has the content hash the run started with."""


def stamp_of(result: os.stat_result) -> Stamp:
    return (result.st_mtime_ns, result.st_ctime_ns, result.st_size, result.st_ino, result.st_dev)


def trusted(stamp: Stamp, started_ns: int) -> bool:
    """Whether a file stamped ``stamp`` may later be known by its stamp: changed long enough before
    ``started_ns`` (the run's start, taken before any file was looked at) that a later write within
    the same clock tick is impossible."""
    return max(stamp[0], stamp[1]) < started_ns - RACY_NS


class Stamps:
    """One run's stamps: the remembered ones (if any) and those seen now."""

    def __init__(self, cache: DocumentCache, config_keys: tuple[bytes, bytes]) -> None:
        self.cache, self.config_keys = cache, config_keys
        self.file = cache.file.with_suffix(".stamps.pickle")
        self.started_ns = time.time_ns()
        self.remembered: Remembered | None = None
        if cache.enabled:
            data = read_pickle(self.file)
            if _valid(data) and data[1][0] == config_keys:
                self.remembered = data[1]
        self.old: dict[str, tuple[Stamp, bytes]] = {}
        self.new: dict[str, tuple[Stamp, bytes]] = {}
        self.limit = -1

    def layout(self) -> Layout | None:
        return self.remembered[1] if self.remembered else None

    def terms(self) -> str | None:
        """``repr`` of the parser's terms (from the registry), when remembered."""
        return self.remembered[2] if self.remembered else None

    def hash_files(self, tree: Tree, paths: list[str]) -> dict[str, tuple[bytes | None, bytes]]:
        """``{path: (data, content hash)}``: ``data`` ``None`` when the file was known by its stamp
        (read it with ``read``), hash ``b""`` when it cannot be read."""
        root = str(tree.root)
        self.limit = tree.layout.max_bytes
        if self.remembered is not None and self.remembered[3] == self.limit:
            self.old = self.remembered[4]
        found: dict[str, tuple[bytes | None, bytes]] = {}
        old, new, started, walked = self.old, self.new, self.started_ns, tree.stats
        for path in paths:
            info = walked.get(path)  # taken by the walk after this run started, as a stat now would be
            try:
                stamp = stamp_of(info if info is not None else os.stat(os.path.join(root, path)))
            except (OSError, ValueError):
                stamp = None
            if stamp is not None:
                known = old.get(path)
                if known is not None and known[0] == stamp:
                    new[path] = known
                    found[path] = (None, known[1])
                    continue
            data = tree.read(path)
            key = digest(data) if data is not None else b""
            found[path] = (data, key)
            if stamp is not None and data is not None and trusted(stamp, started):
                new[path] = (stamp, key)
        return found

    def save(self, layout: Layout, terms: str) -> None:
        """Remember this run's stamps with the registry's ``layout`` and ``terms`` (their ``repr``)."""
        if not self.cache.enabled:
            return
        value: Remembered = (self.config_keys, layout, terms, self.limit, self.new)
        if self.remembered != value:
            write_pickle(self.file, (code_key(), value))


def read_checked(tree: Tree, path: str, key: bytes) -> bytes:
    """The content of ``path``, which must still hash to ``key`` (else ``ChangedWhileRead``)."""
    data = tree.read(path)
    if data is None or digest(data) != key:
        raise ChangedWhileRead(path)
    return data


def _valid(data: Any) -> bool:
    if not (isinstance(data, tuple) and len(data) == 2 and data[0] == code_key()):
        return False
    value = data[1]
    return (
        isinstance(value, tuple)
        and len(value) == 5
        and isinstance(value[1], Layout)
        and isinstance(value[2], str)
        and isinstance(value[3], int)
        and isinstance(value[4], dict)
    )
