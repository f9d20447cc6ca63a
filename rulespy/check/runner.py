"""``check_tree(root)``: every check over one repository, as a sorted list of findings."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from rulespy.check import checks_owner
from rulespy.check.cache import DocumentCache, code_key, digest
from rulespy.check.files import Layout, Tree, read_config, same_url
from rulespy.check.findings import CheckError, Finding
from rulespy.check.incremental import Incremental
from rulespy.check.nav import Nav, load_nav
from rulespy.check.parse import Terms
from rulespy.check.registry import Registry, load_registry


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
    report = _run_documents(root, options)
    extra = _drift(Path(root)) + _translations(Path(root), options)
    if not extra:
        return report
    return Report(tuple(sorted({*report.findings, *extra})), report.files)


def _translations(root: Path, options: CheckOptions) -> list[Finding]:
    """A translation against its English pages (RS070-RS074; ``rulespy/check/translations.py``)."""
    from rulespy.check import translations

    layout = options.layout or load_registry(root).layout
    return list(translations.findings(root, layout))


def _drift(root: Path) -> list[Finding]:
    """Step drift (RS060) between the rules' numbered steps and the step lists of the engine in the same
    tree (``rulespy/`` beside its rules, read as source); other trees have no engine to compare."""
    from rulespy.check import drift

    return list(drift.findings(root))


def _run_documents(root: Path, options: CheckOptions) -> Report:
    root = Path(root)
    if not root.exists():
        raise CheckError(f"{root}: no such folder")
    if not root.is_dir():
        raise CheckError(f"{root}: not a folder")
    cache = DocumentCache(root, "", options.use_cache, options.cache_dir)
    registry, registry_key, nav, nav_key = _configuration(root, cache)
    tree = Tree(root, options.layout or registry.layout).walk()
    concept_names = sorted({checks_owner.norm(n) for c in registry.concepts for n in c.names})
    terms = Terms(tuple(sorted(checks_owner.norm(r.term) for r in registry.retired)), tuple(concept_names))
    cache.salt = f"{code_key()}:" + hashlib.sha256(repr((terms, tree.layout)).encode()).hexdigest()[:16]
    blobs = {}
    fingerprint = hashlib.sha256(tree.fingerprint().encode("utf-8", "surrogateescape"))
    fingerprint.update(registry_key + nav_key)
    for path in (*tree.markdown, *tree.python):
        data = tree.read(path)
        key = digest(data) if data is not None else b""
        blobs[path] = (data, key)
        fingerprint.update(key)
    memo = fingerprint.hexdigest()
    remembered = cache.load_blob(cache.result_file, memo)
    if remembered is not None and len(remembered) == 2:
        return Report(tuple(remembered[0]), int(remembered[1]))
    run = Incremental(tree, terms, registry, registry_key, cache, blobs)
    code = [path for path in tree.python if blobs[path][0] is not None]
    findings = set(run.file_findings((*tree.markdown, *code)))
    findings.update(run.cross_file_findings(nav))
    findings.update(tree_findings(tree))
    run.save()
    report = Report(tuple(sorted(findings)), len(tree.markdown) + len(code))
    if not tree.looked_outside:  # every answer came from the fingerprinted inputs: safe to remember
        cache.save_blob(cache.result_file, memo, (report.findings, report.files))
    return report


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


def _configuration(root: Path, cache: DocumentCache) -> tuple[Registry, bytes, Nav, bytes]:
    """``concepts.yml`` and ``mkdocs.yml``, parsed, or from the cache when their bytes are unchanged."""
    keys = (_key(root / "concepts.yml"), _key(root / "mkdocs.yml"))
    stored = cache.load_blob(cache.config_file, keys)
    if stored is not None and len(stored) == 2:
        registry, nav = stored
        if isinstance(registry, Registry) and isinstance(nav, Nav):
            return registry, keys[0], nav, keys[1]
    registry, nav = load_registry(root), load_nav(root)
    if (_key(root / "concepts.yml"), _key(root / "mkdocs.yml")) == keys:  # unchanged while read
        cache.save_blob(cache.config_file, keys, (registry, nav))
    return registry, keys[0], nav, keys[1]


def _key(path: Path) -> bytes:
    """The content hash of a configuration file, ``b"-"`` when absent (or a symlink out: RS043)."""
    data = read_config(path.parent, path.name)
    return b"-" if data is None else digest(data)


def check_tree(root: Path, options: CheckOptions | None = None) -> list[Finding]:
    """Every finding for the repository at ``root``, sorted by path, line, column and code."""
    return list(run_check(root, options).findings)
