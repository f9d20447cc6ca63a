"""Parsing many files at once on every core the process may use (a cold ``rulespy check``).

Parsing is nearly all of a cold run, and files parse independently, so when at least ``PARALLEL_FROM``
files need parsing and more than one core is available, this process parses the last share of them
while a pool of forked workers (one for each other core) parses the rest in contiguous chunks, and the
documents come back in the order asked for: the findings are the same, in the same order, as a
one-process run. The workers inherit the parser and its terms by ``fork``, so nothing is imported
again; where ``fork`` is not the safe default (anything but Linux) or the pool cannot start, files are
parsed in this process as before.

Without ``RULESPY_CHECK_JOBS``, the pool has one worker for each core the load average leaves free (none
when other work keeps every core busy): a second process then gets no more CPU (Linux shares it between
sessions, not processes) and only adds the cost of sending every document back, which made a cold check
slower under load than one process. ``RULESPY_CHECK_JOBS=N`` sets the processes instead (at most one a
core; ``1``: never start any).

Either way, a batch parses with Python's automatic cycle collection paused and only the youngest
generation collected every ``COLLECT_EVERY`` files: the documents already parsed stay alive, and each
automatic full collection walked all of them again (about a tenth of a cold run's CPU). The few cycles
a parse leaves behind are collected with the youngest generation, so memory stays as before.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rulespy.check.doc import Document

#: fewer files than this parse faster in one process than the pool starts and returns them
PARALLEL_FROM = 256
_CHUNKS_PER_WORKER = 4
COLLECT_EVERY = 200

Parse = Callable[[str, bytes], Document]
_job: tuple[Parse, list[tuple[str, bytes]]] | None = None


def workers() -> int:
    """How many processes to parse with: ``RULESPY_CHECK_JOBS`` (at most the cores this process may run
    on), else this process and one more for each whole core the load average leaves free."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        cap = int(os.environ.get("RULESPY_CHECK_JOBS", "0"))
    except ValueError:
        cap = 0
    if cap > 0:
        return min(cores, cap)
    try:
        free = cores - os.getloadavg()[0]
    except (AttributeError, OSError):  # no load average (Windows): every core
        return cores
    return max(1, min(cores, 1 + int(free)))


@contextmanager
def young_collections_only() -> Iterator[None]:
    """Pause automatic garbage collection; ``collect_young`` then keeps memory in check."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def parse_each(parse: Parse, items: list[tuple[str, bytes]]) -> list[Document]:
    """``[parse(path, data) for path, data in items]`` in this process, collecting young cycles only."""
    documents = []
    with young_collections_only():
        for number, (path, data) in enumerate(items, 1):
            documents.append(parse(path, data))
            if number % COLLECT_EVERY == 0:
                gc.collect(0)
    return documents


def parse_all(parse: Parse, items: list[tuple[str, bytes]]) -> list[Document] | None:
    """``parse_each`` on a process pool; ``None`` when it is not worth it or not possible here (then
    the caller parses them itself)."""
    global _job
    count = min(workers(), len(items) // (PARALLEL_FROM // 2) or 1)
    if count < 2 or len(items) < PARALLEL_FROM or not sys.platform.startswith("linux"):
        return None
    import multiprocessing

    mine = len(items) // count  # this process parses the last share itself: one fork fewer
    rest, pieces = len(items) - mine, (count - 1) * _CHUNKS_PER_WORKER
    bounds = [(rest * i // pieces, rest * (i + 1) // pieces) for i in range(pieces)]
    _job = (parse, items)
    try:
        with multiprocessing.get_context("fork").Pool(count - 1) as pool:
            pending = pool.map_async(_parse_chunk, bounds, chunksize=1)
            own = parse_each(parse, items[rest:])
            chunks = pending.get()
    except (OSError, ValueError, ImportError):  # no fork, no semaphores (some sandboxes), no pipes
        return None
    finally:
        _job = None
    return [document for chunk in chunks for document in chunk] + own


def _parse_chunk(bounds: tuple[int, int]) -> list[Any]:
    assert _job is not None  # set before the fork
    parse, items = _job
    return parse_each(parse, items[bounds[0] : bounds[1]])
