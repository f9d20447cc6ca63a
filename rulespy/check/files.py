"""Which files the checker reads, and whether a path exists with exactly that spelling.

Markdown files checked: every ``*.md`` under the repository except inside hidden folders (``.git``,
``.venv``, ``.github``...), ``node_modules``, ``__pycache__``, and the top-level folders ``site``,
``build``, ``tests``, ``bench``, ``examples``, ``mutants`` (mutmut's copy of the repository, ``make
mutants``) (``check: exclude:`` in ``concepts.yml`` replaces that last list).
Symbolic links: folder symlinks are never followed (no loops); a file symlink is read only
when it resolves inside the repository; any symlink (file, folder or configuration) that resolves outside
it is recorded in ``Tree.outside`` (reported as RS043) and never read, listed or published, and a link
through a symlinked folder exists only when it still resolves inside the repository. Existence is
case-exact on every platform: ``Core/Damage.md`` does not name ``core/damage.md``.

``rulespy.check.publish.publishable(root)`` is the one list of what the site may publish (the render
step uses it); configuration files are read only through ``read_config`` (a regular file of bounded
size, inside the repository).
"""

from __future__ import annotations

import os
import posixpath
import stat
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_EXCLUDE = ("site", "build", "tests", "bench", "examples", "mutants")
SKIP_ANYWHERE = frozenset({"node_modules", "__pycache__"})
NOT_PAGES = frozenset({"README.md", "CONTRIBUTING.md", "CHANGELOG.md"})
RULE_DIRS = ("core", "sequences", "timing", "commands")
CODE_DIRS = ("rulespy",)
#: The translation editions: each is the folder of that name at the root, mirroring the English tree
#: (``ru/core/damage.md`` translates ``core/damage.md``; ``rulespy/check/translations.py``).
LANGUAGES = ("ru",)
MAX_BYTES = 2 << 20
#: the largest ``check: max_file_kb`` accepted (100 MiB): a file is read whole, so the limit is memory
MAX_FILE_KB = 100 << 10
#: ``concepts.yml`` and ``mkdocs.yml`` larger than this are refused before they are read
MAX_CONFIG_BYTES = 1 << 20


@dataclass(frozen=True)
class Layout:
    """Where things are. Defaults as documented above; ``concepts.yml`` ``check:`` can change them."""

    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    rule_dirs: tuple[str, ...] = RULE_DIRS
    code_dirs: tuple[str, ...] = CODE_DIRS
    max_bytes: int = MAX_BYTES


@dataclass
class Tree:
    """The repository's files, walked once without following folder symlinks."""

    root: Path
    layout: Layout = field(default_factory=Layout)
    markdown: list[str] = field(default_factory=list)
    python: list[str] = field(default_factory=list)
    files: set[str] = field(default_factory=set)
    dirs: set[str] = field(default_factory=lambda: {""})
    _listings: dict[str, frozenset[str] | None] = field(default_factory=dict)
    #: True once an answer came from outside the walked tree (so a memoised result could go stale)
    looked_outside: bool = False
    #: each ``kind`` answer that came from outside the walk (not in its fingerprint), by path
    outside_kinds: dict[str, str | None] = field(default_factory=dict)
    #: the content hash of each file outside the checked markdown whose anchors were read, by path
    outside_reads: dict[str, bytes] = field(default_factory=dict)
    #: when set, every ``kind`` and ``same_but_case`` answer is recorded here (a file's check dependencies)
    seen: dict[tuple[str, str], object] | None = None
    _lower: dict[str, tuple[str, ...]] | None = None
    #: symlinks that resolve outside the repository: (path, target as written), never read
    outside: list[tuple[str, str]] = field(default_factory=list)
    #: folders that could not be listed: (path, reason); their files are not checked
    unlisted: list[tuple[str, str]] = field(default_factory=list)
    _real_root: str = ""
    #: the ``lstat`` the walk took of each regular file (not of symlinks), reused by ``stamps.py``
    stats: dict[str, os.stat_result] = field(default_factory=dict)

    def walk(self) -> Tree:
        root = str(self.root)
        real_root = self._real_root = os.path.realpath(root)
        excluded = set(self.layout.exclude)
        code_dirs = tuple(d.strip("/") + "/" for d in self.layout.code_dirs)
        stack = [""]
        while stack:
            rel = stack.pop()
            try:
                with os.scandir(os.path.join(root, rel) if rel else root) as entries:
                    listing = list(entries)
            except OSError as error:
                if not rel:
                    from rulespy.check.findings import CheckError

                    raise CheckError(f"{root}: cannot list the folder: {error.strerror or error}") from None
                self.unlisted.append((rel, error.strerror or str(error)))
                continue
            for entry in listing:
                name = entry.name
                path = f"{rel}/{name}" if rel else name
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                mode = info.st_mode
                if stat.S_ISDIR(mode):
                    if name.startswith(".") or name in SKIP_ANYWHERE or (not rel and name in excluded):
                        continue
                    self.dirs.add(path)
                    stack.append(path)
                    continue
                if stat.S_ISLNK(mode):
                    if name.startswith(".") or name in SKIP_ANYWHERE or (not rel and name in excluded):
                        continue  # like the folders of those names: outside what is checked
                    target = os.path.realpath(entry.path)
                    if not within(target, real_root):
                        self.outside.append((path, _readlink(entry.path)))
                        continue
                    if not os.path.isfile(target):
                        continue
                elif not stat.S_ISREG(mode):
                    continue
                else:
                    self.stats[path] = info
                self.files.add(path)
                if name.endswith(".md") and not name.startswith("."):
                    self.markdown.append(path)
                elif name.endswith(".py") and path.startswith(code_dirs):
                    self.python.append(path)
        self.markdown.sort()
        self.python.sort()
        return self

    def is_page(self, path: str) -> bool:
        """Pages are what the site publishes: every checked file but README, CONTRIBUTING, CHANGELOG."""
        return posixpath.basename(path) not in NOT_PAGES

    def is_rule_file(self, path: str) -> bool:
        """A rule file, or its mirror in a translation (``ru/core/damage.md``)."""
        first, _, rest = path.partition("/")
        if first in LANGUAGES:
            first = rest.partition("/")[0]
        return first in self.layout.rule_dirs and path.endswith(".md")

    def kind(self, path: str) -> str | None:
        """``"file"``, ``"dir"`` or ``None`` for a repository-relative path, spelled exactly (case too)."""
        before, self.looked_outside = self.looked_outside, False
        found = self._kind(path)
        if self.looked_outside:
            self.outside_kinds[path] = found
        self.looked_outside = self.looked_outside or before
        if self.seen is not None:
            self.seen[("k", path)] = found
        return found

    def same_but_case(self, path: str) -> tuple[str, ...]:
        """Walked files whose name differs from ``path`` only in letter case (``path`` itself included)."""
        if self._lower is None:
            lower: dict[str, list[str]] = {}
            for known in sorted(self.files):
                lower.setdefault(known.lower(), []).append(known)
            self._lower = {key: tuple(value) for key, value in lower.items()}
        found = self._lower.get(path.lower(), ())
        if self.seen is not None:
            self.seen[("c", path.lower())] = found
        return found

    def _kind(self, path: str) -> str | None:
        if path in self.files:
            return "file"
        if path in self.dirs:
            return "dir"
        if len(path) > 4000 or "\x00" in path:
            return None
        # not walked: the answer comes from a folder listing, which the walk's fingerprint does not cover
        # (an excluded, hidden or symlinked folder, or a name the walk skips beside walked files)
        self.looked_outside = True
        parent, _, name = path.rpartition("/")
        if parent and self._kind(parent) != "dir":
            return None
        listing = self._listing(parent)
        if listing is None or name not in listing:
            return None
        full = os.path.join(self.root, path)
        if not self.inside(full):
            return None  # through a symlink that leaves the repository: never looked at
        if os.path.isdir(full):
            return "dir"
        return "file" if os.path.isfile(full) else None

    def _listing(self, rel: str) -> frozenset[str] | None:
        if rel not in self._listings:
            try:
                folder = os.path.join(self.root, rel) if rel else self.root
                self._listings[rel] = frozenset(os.listdir(folder))
            except OSError:
                self._listings[rel] = None
        return self._listings[rel]

    def inside(self, full: str) -> bool:
        """Whether ``full`` resolves (symlinks followed) inside the repository."""
        return within(os.path.realpath(full), self._real_root or os.path.realpath(self.root))

    def fingerprint(self) -> str:
        """Every walked file and folder name (and symlink left out), so that any change of them changes it."""
        skipped = sorted(f"{path}\0{why}" for path, why in (*self.outside, *self.unlisted))
        parts = ("\n".join(sorted(self.files)), "\n".join(sorted(self.dirs)), "\n".join(skipped))
        return "\n\n".join(parts)

    def read(self, path: str) -> bytes | None:
        limit = self.layout.max_bytes + 1
        try:
            with open(os.path.join(self.root, path), "rb") as handle:
                # ask for the file's size (+1), not the limit: a read of n bytes allocates n first
                want = min(os.fstat(handle.fileno()).st_size + 1, limit)
                data = handle.read(want)
                if len(data) == want < limit:  # grew since fstat
                    data += handle.read(limit - want)
                return data
        except OSError:
            return None


def within(real: str, real_root: str) -> bool:
    """Whether the resolved path ``real`` is the resolved repository root ``real_root`` or inside it."""
    return real == real_root or real.startswith(real_root + os.sep)


def _readlink(path: str) -> str:
    try:
        return os.readlink(path)
    except OSError:
        return "?"


@dataclass(frozen=True)
class Publishable:
    """What the site may publish, from one walk: ``pages`` (checked markdown files, repository-relative,
    sorted), ``files`` (every walked file), and ``refused`` (symlinks resolving outside: path, target)."""

    pages: tuple[str, ...]
    files: tuple[str, ...]
    refused: tuple[tuple[str, str], ...]


def page_url(path: str) -> str:
    """The site URL (``use_directory_urls``) a page publishes to: ``core/damage.md`` and
    ``core/damage/index.md`` both to ``core/damage/``; ``index.md`` to the empty URL (the home page)."""
    stem = path[:-3] if path.endswith(".md") else path
    folder, _, name = stem.rpartition("/")
    if name in ("index", "README"):
        return f"{folder}/" if folder else ""
    return f"{stem}/"


def same_url(pages: list[str] | tuple[str, ...]) -> list[tuple[str, str, str]]:
    """Pages that would publish to a URL an earlier page (sorted order) already takes:
    ``(page, url, earlier page)``, one for each page beyond the first of its URL."""
    first: dict[str, str] = {}
    clashes: list[tuple[str, str, str]] = []
    for page in sorted(pages):
        url = page_url(page)
        earlier = first.setdefault(url, page)
        if earlier != page:
            clashes.append((page, url, earlier))
    return clashes


def read_config(root: Path, name: str) -> bytes | None:
    """The bytes of configuration file ``name`` at the repository root, ``None`` when there is none or it
    is a symlink resolving outside the repository (RS043: never read). ``CheckError`` (located at
    ``name``) when it is not a regular file (a FIFO, a device) or is larger than ``MAX_CONFIG_BYTES``."""
    from rulespy.check.findings import CheckError

    full = os.path.join(root, name)
    real_root = os.path.realpath(root)
    real = os.path.realpath(full)
    if not real.startswith(real_root + os.sep):
        return None
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as error:
        if os.path.isdir(real):
            return None
        raise CheckError(f"cannot be read: {error.strerror or error}", name, 1) from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISDIR(info.st_mode):
            return None
        if not stat.S_ISREG(info.st_mode):
            raise CheckError("is not a regular file (a FIFO, a device or a socket); not read", name, 1)
        if info.st_size > MAX_CONFIG_BYTES:
            raise CheckError(f"is larger than {MAX_CONFIG_BYTES >> 10} KiB; not read", name, 1)
        data = handle.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise CheckError(f"is larger than {MAX_CONFIG_BYTES >> 10} KiB; not read", name, 1)
    return data
