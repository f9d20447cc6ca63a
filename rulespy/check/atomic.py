"""Files written whole or not at all, one writer at a time (``translations stamp``, ``rulespy render``).

``write_atomic`` writes a temporary file beside the target (same folder, so the rename never crosses a
filesystem), then renames it over the target: a reader sees the old file or the new one, never half of
one. When the disk is full or the folder read-only, the temporary file is removed and ``WriteError``
names the file that could not be written; nothing is left behind.

``locked_file`` holds an exclusive ``flock`` on the file itself while a read-change-write runs, so two
runs stamping one page one after the other both keep their stamps (without it, the second read the
page before the first wrote it, and its write dropped the first's stamp). The lock is taken on the
file's open descriptor and checked against the path afterwards: a writer that renamed a new file into
place meanwhile is seen, and the lock is taken again on the new file. ``locked_folder`` does the same
for a folder (``rulespy render`` locks ``build/``). No lock file is ever made.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from rulespy.errors import BookError


class WriteError(BookError):
    """A file that could not be written: ``path`` and the system's reason."""

    path: Path

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: cannot write: {reason}")
        self.path, self.reason = path, reason


def write_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` by a file holding ``data``, all at once; ``WriteError`` (nothing left behind)."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    temporary: str | None = None
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fchmod(out.fileno(), mode)
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        raise WriteError(path, error.strerror or str(error)) from None
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


@contextlib.contextmanager
def locked_file(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on existing file ``path`` (the file now at the path, even when another
    writer replaced it while this one waited); ``WriteError`` when it cannot be opened."""
    while True:
        try:
            handle = os.open(path, os.O_RDONLY)
        except OSError as error:
            raise WriteError(Path(path), error.strerror or str(error)) from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                same = os.path.samestat(os.fstat(handle), os.stat(path))
            except OSError:
                same = False
            if same:
                yield
                return
        finally:
            os.close(handle)  # closing releases the lock


@contextlib.contextmanager
def locked_folder(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on folder ``path`` (made when missing) while the block runs."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise WriteError(Path(path), error.strerror or str(error)) from None
    with locked_file(path):
        yield
