"""``check_tree(root)``: every check over one repository, as a sorted list of findings."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulespy.check.cache import DocumentCache, code_key, digest
from rulespy.check.files import Layout, Tree, read_config, same_url
from rulespy.check.findings import CheckError, Finding
from rulespy.check.stamps import ChangedWhileRead, Stamps, read_checked

if TYPE_CHECKING:
    from rulespy.book.book import Book
    from rulespy.check.nav import Nav
    from rulespy.check.registry import Registry

# The parser, the checks and YAML are imported only when something has to be checked: with nothing
# changed, a run walks the tree, compares stamps and returns the remembered findings (stamps.py).


@dataclass(frozen=True)
class CheckOptions:
    """``use_cache=False`` is ``--no-cache``; ``cache_dir`` overrides the user cache directory."""

    use_cache: bool = True
    cache_dir: Path | None = None
    layout: Layout | None = None  # replaces the defaults and any ``check:`` key of concepts.yml


@dataclass(frozen=True)
class Report:
    findings: tuple[Finding, ...]
    files: int


def run_check(root: Path, options: CheckOptions | None = None) -> Report:
    """Check the repository at ``root``. Raises ``CheckError`` when it cannot be checked at all."""
    options = options or CheckOptions()
    report, run = _run_documents(root, options)
    from rulespy.check import outputs, scenarios  # a few lstat calls, every run: never remembered

    extra = _drift(Path(root), run.cache, run.book) + _translations(Path(root), run)
    extra += outputs.findings(Path(root))
    extra += scenarios.findings(Path(root), run.cache)  # remembered by the files' content hashes
    extra += _catalogue(Path(root), run.cache)
    if not extra:
        return report
    return Report(tuple(sorted({*report.findings, *extra})), report.files)


@dataclass(frozen=True)
class _Run:
    """What the per-file run leaves for the passes after it: its walk, each markdown file's content hash
    (``b""`` when unreadable), its cache."""

    book: Book
    keys: dict[str, bytes]
    cache: DocumentCache

    @property
    def tree(self) -> Tree:
        return self.book.tree


def _translations(root: Path, run: _Run) -> list[Finding]:
    """A translation against its English pages (RS070-RS074; ``rulespy/check/translations.py``), on the
    run's walk and content hashes (never concepts.yml or the tree a second time), each translated page's
    findings remembered by both pages' content hashes."""
    from rulespy.check.files import LANGUAGES

    if not any((root / language).is_dir() for language in LANGUAGES):  # no translation: nothing to read
        return []
    from rulespy.check import translations

    return list(translations.findings(root, run.tree.layout, run.book, run.keys, run.cache))


def _catalogue(root: Path, cache: DocumentCache | None = None) -> list[Finding]:
    """RS090: the engine's message catalogues in the tree (``rulespy/locale/``, ``rulespy.i18n``), each
    message translated with the English placeholders; a tree without them has none to check. Remembered
    under a hash of the catalogues (reading them takes Babel, 0.15 s; an unchanged tree reads none)."""
    from rulespy import i18n

    locale = root / "rulespy" / "locale"
    pos = [i18n.po_path(code, locale) for code in i18n.LANGUAGES[1:]]
    if not any(po.is_file() for po in pos):
        return []
    inputs = [p.read_bytes() if p.is_file() else b"" for p in [locale / f"{i18n.DOMAIN}.pot", *pos]]
    key, target = digest(b"\0".join(inputs)), None
    if cache is not None and cache.enabled:
        target = cache.drift_file.with_name(cache.drift_file.name.replace(".drift.", ".catalogue."))
        stored = cache.load_blob(target, key)
        if stored is not None and len(stored) == 1 and isinstance(stored[0], tuple):
            return list(stored[0])
    found = []
    for code, po in zip(i18n.LANGUAGES[1:], pos, strict=True):
        if po.is_file():
            name = po.relative_to(root).as_posix()
            found += [Finding(name, line, 1, "RS090", text) for line, text in i18n.problems(code, locale)]
    if cache is not None and target is not None:
        cache.save_blob(target, key, (tuple(found),))
    return found


def _drift(root: Path, cache: DocumentCache, book: Book | None = None) -> list[Finding]:
    """Step drift (RS060) between the rules' numbered steps and the step lists of the engine in the same
    tree (``rulespy/`` beside its rules, read as source); other trees have no engine to compare, and do
    not import the comparison (``ast`` and dataclasses) either."""
    if not (root / "rulespy").is_dir():  # drift.ENGINE
        return []
    from rulespy.check import drift

    return list(drift.findings(root, cache, book))


def _run_documents(root: Path, options: CheckOptions, trust_stamps: bool = True) -> tuple[Report, _Run]:
    """The per-file and cross-file findings, and the walk, content hashes and cache they came from."""
    root = Path(root)
    if not root.exists():
        raise CheckError(f"{root}: no such folder")
    if not root.is_dir():
        raise CheckError(f"{root}: not a folder")
    cache = DocumentCache(root, "", options.use_cache, options.cache_dir)
    keys = (_key(root / "concepts.yml"), _key(root / "mkdocs.yml"))
    stamps = Stamps(cache, keys)
    if not trust_stamps:
        stamps.remembered = None
    registry: Registry | None = None
    nav: Nav | None = None
    registry_layout, terms = stamps.layout(), stamps.terms()
    if registry_layout is None or terms is None:
        registry, nav = _configuration(root, cache, keys)
        registry_layout, terms = registry.layout, repr(_terms(registry))
    from rulespy.book.book import Book  # the rule book: its walk is the run's

    book = Book.walked(root, options.layout or registry_layout, registry)
    tree = book.tree
    cache.salt = _salt(terms, tree.layout)
    fingerprint = hashlib.sha256(tree.fingerprint().encode("utf-8", "surrogateescape"))
    fingerprint.update(keys[0] + keys[1])
    blobs = stamps.hash_files(tree, [*tree.markdown, *tree.python])
    for _, key in blobs.values():
        fingerprint.update(key)
    memo = fingerprint.hexdigest()
    run_left = _Run(book, {path: blobs[path][1] for path in tree.markdown}, cache)
    remembered = cache.load_blob(cache.result_file, memo)
    if remembered is not None and len(remembered) == 4 and _still_outside(tree, remembered[2], remembered[3]):
        stamps.save(registry_layout, terms)
        return Report(tuple(remembered[0]), int(remembered[1])), run_left
    from rulespy.check.incremental import Incremental

    if registry is None or nav is None:
        registry, nav = _configuration(root, cache, keys)

    def read(path: str) -> bytes:  # a file known by its stamp, read only when it must be parsed
        return read_checked(tree, path, blobs[path][1])

    try:
        words = _terms(registry)
        book = book.with_terms(words)  # the pages the checks parse, the translation pass reads them too
        run = Incremental(book, words, registry, keys[0], cache, blobs, read)
        code = [path for path in tree.python if blobs[path][1]]
        findings = set(run.file_findings((*tree.markdown, *code)))
        findings.update(run.cross_file_findings(nav))
        findings.update(tree_findings(tree))
        findings.update(_site_configuration(root, tree))
    except ChangedWhileRead:  # a file changed during the run: start again, hashing every file
        return _run_documents(root, options, trust_stamps=False)
    run.save()
    stamps.save(registry_layout, terms)
    report = Report(tuple(sorted(findings)), len(tree.markdown) + len(code))
    # every answer came from the fingerprinted inputs or from the outside ones remembered with it
    outside = (tuple(tree.outside_kinds.items()), tuple(tree.outside_reads.items()))
    cache.save_blob(cache.result_file, memo, (report.findings, report.files, *outside))
    return report, _Run(book, run_left.keys, cache)


def _site_configuration(root: Path, tree: Tree) -> list[Finding]:
    """RS082-RS084 of ``mkdocs.yml`` and what it INHERITs (``rulespy/check/config.py``); each inherited
    file's content hash is remembered with the result (``Tree.outside_reads``), so that a change of it is
    checked again (``mkdocs.yml``'s own hash is in the fingerprint)."""
    from rulespy.check import config

    found, read = config.findings(root)
    for path, data in read.items():
        if path != config.CONFIG:
            tree.outside_reads[path] = b"" if data is None else digest(data)
    return found


def _still_outside(tree: Tree, kinds: object, reads: object) -> bool:
    """Whether every answer a remembered result took from outside the walk (``Tree.outside_kinds``: a
    link into an excluded folder; ``Tree.outside_reads``: anchors of a page that is not checked) is the
    same now."""
    if not isinstance(kinds, tuple) or not isinstance(reads, tuple):
        return False
    for path, found in kinds:
        if tree.kind(path) != found:
            return False
    for path, key in reads:
        data = tree.read(path)
        if (b"" if data is None else digest(data)) != key:
            return False
    return True


def tree_findings(tree: Tree) -> list[Finding]:
    """What the walk found about files as a whole: symlinks resolving outside (RS043), folders it could
    not list (RS040), two pages for one URL (RS022)."""
    found = [
        Finding(path, 1, 1, "RS043", f"symbolic link to {target}, outside the repository: never read")
        for path, target in tree.outside
    ]
    pages = [path for path in tree.markdown if tree.is_page(path)]
    for page, url, earlier in same_url(pages):
        message = f"publishes to the same URL /{url} as {earlier}: one page would replace the other"
        found.append(Finding(page, 1, 1, "RS022", message))
    for path, why in tree.unlisted:
        message = f"folder cannot be listed ({why}): its files are not checked"
        found.append(Finding(path, 1, 1, "RS040", message))
    return found


def _terms(registry: Registry):  # type: ignore[no-untyped-def]
    """The registry words the parser looks for (``parse.Terms``)."""
    from rulespy.check import checks_owner
    from rulespy.check.parse import Terms

    concept_names = sorted({checks_owner.norm(n) for c in registry.concepts for n in c.names})
    forbidden = sorted(
        {(lang, checks_owner.norm(v)) for c in registry.concepts for lang, vs in c.forbidden for v in vs}
    )
    retired = tuple(sorted(checks_owner.norm(r.term) for r in registry.retired))
    return Terms(retired, tuple(concept_names), tuple(forbidden))


def _salt(terms: str, layout: Layout) -> str:
    """Anything that changes how a file parses: the parser's terms (their ``repr``) and the layout."""
    return f"{code_key()}:" + hashlib.sha256(f"({terms}, {layout!r})".encode()).hexdigest()[:16]


def _configuration(root: Path, cache: DocumentCache, keys: tuple[bytes, bytes]) -> tuple[Registry, Nav]:
    """``concepts.yml`` and ``mkdocs.yml`` (content hashes ``keys``), parsed, or from the cache."""
    from rulespy.check.nav import Nav, load_nav
    from rulespy.check.registry import Registry, load_registry

    stored = cache.load_blob(cache.config_file, keys, salted=False)  # the same whatever the run's salt
    if stored is not None and len(stored) == 2:
        registry, nav = stored
        if isinstance(registry, Registry) and isinstance(nav, Nav):
            return registry, nav
    registry, nav = load_registry(root), load_nav(root)
    if (_key(root / "concepts.yml"), _key(root / "mkdocs.yml")) == keys:  # unchanged while read
        cache.save_blob(cache.config_file, keys, (registry, nav), salted=False)
    return registry, nav


def _key(path: Path) -> bytes:
    """The content hash of a configuration file, ``b"-"`` when absent (or a symlink out: RS043)."""
    data = read_config(path.parent, path.name)
    return b"-" if data is None else digest(data)


def check_tree(root: Path, options: CheckOptions | None = None) -> list[Finding]:
    """Every finding for the repository at ``root``, sorted by path, line, column and code."""
    return list(run_check(root, options).findings)
