"""Which files the checker reads, and whether a path exists with exactly that spelling.

Markdown files checked: every ``*.md`` under the repository except inside hidden folders (``.git``,
``.venv``, ``.github``...), ``node_modules``, ``__pycache__``, and the top-level folders ``site``,
``tests``, ``bench``, ``examples`` (``check: exclude:`` in ``concepts.yml`` replaces that last list).
Folder symlinks are never followed (no loops); a file symlink is read only when it points inside the
repository. Existence is case-exact on every platform: ``Core/Damage.md`` does not name ``core/damage.md``.
"""

from __future__ import annotations

import os
import posixpath
import stat
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_EXCLUDE = ("site", "tests", "bench", "examples")
SKIP_ANYWHERE = frozenset({"node_modules", "__pycache__"})
NOT_PAGES = frozenset({"README.md", "CONTRIBUTING.md", "CHANGELOG.md"})
RULE_DIRS = ("core", "sequences", "timing", "commands")
CODE_DIRS = ("rulespy",)
MAX_BYTES = 2 << 20


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
    #: when set, every ``kind`` and ``same_but_case`` answer is recorded here (a file's check dependencies)
    seen: dict[tuple[str, str], object] | None = None
    _lower: dict[str, tuple[str, ...]] | None = None

    def walk(self) -> Tree:
        root = str(self.root)
        real_root = os.path.realpath(root)
        excluded = set(self.layout.exclude)
        code_dirs = tuple(d.strip("/") + "/" for d in self.layout.code_dirs)
        stack = [""]
        while stack:
            rel = stack.pop()
            try:
                with os.scandir(os.path.join(root, rel) if rel else root) as entries:
                    listing = list(entries)
            except OSError:
                continue
            for entry in listing:
                name = entry.name
                path = f"{rel}/{name}" if rel else name
                try:
                    mode = entry.stat(follow_symlinks=False).st_mode
                except OSError:
                    continue
                if stat.S_ISDIR(mode):
                    if name.startswith(".") or name in SKIP_ANYWHERE or (not rel and name in excluded):
                        continue
                    self.dirs.add(path)
                    stack.append(path)
                    continue
                if stat.S_ISLNK(mode):
                    target = os.path.realpath(entry.path)
                    if not target.startswith(real_root + os.sep) or not os.path.isfile(target):
                        continue
                elif not stat.S_ISREG(mode):
                    continue
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
        return path.split("/", 1)[0] in self.layout.rule_dirs and path.endswith(".md")

    def kind(self, path: str) -> str | None:
        """``"file"``, ``"dir"`` or ``None`` for a repository-relative path, spelled exactly (case too)."""
        found = self._kind(path)
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
        parent, _, name = path.rpartition("/")
        if parent not in self.dirs:
            self.looked_outside = True  # an excluded or symlinked folder: not in the walk's fingerprint
        if parent and self._kind(parent) != "dir":
            return None
        listing = self._listing(parent)
        if listing is None or name not in listing:
            return None
        self.looked_outside = True
        full = os.path.join(self.root, path)
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

    def fingerprint(self) -> str:
        """Every walked file and folder name, so that adding or removing any file changes it."""
        return "\n".join(sorted(self.files)) + "\n\n" + "\n".join(sorted(self.dirs))

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
