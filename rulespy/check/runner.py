"""``check_tree(root)``: every check over one repository, as a sorted list of findings."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from rulespy.check import checks_code, checks_links, checks_owner
from rulespy.check.cache import DocumentCache, digest
from rulespy.check.files import Layout, Tree
from rulespy.check.findings import CheckError, Finding
from rulespy.check.graph import LinkGraph, load_documents
from rulespy.check.nav import load_nav
from rulespy.check.parse import Terms
from rulespy.check.registry import load_registry


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
    report = _run_documents(root, options or CheckOptions())
    drift = _drift(Path(root))
    if not drift:
        return report
    return Report(tuple(sorted({*report.findings, *drift})), report.files)


def _drift(root: Path) -> list[Finding]:
    """Step drift (RS060) between the rules' numbered steps and the engine's step lists, for a repository
    that carries the engine (``rulespy/`` beside its rules); other trees have no engine to compare."""
    if not (root / "rulespy" / "sequences" / "shooting_sequence.py").is_file():
        return []
    from rulespy.coverage import drift

    return list(drift.findings(root))


def _run_documents(root: Path, options: CheckOptions) -> Report:
    root = Path(root)
    if not root.exists():
        raise CheckError(f"{root}: no such folder")
    if not root.is_dir():
        raise CheckError(f"{root}: not a folder")
    registry = load_registry(root)
    nav = load_nav(root)
    tree = Tree(root, options.layout or registry.layout).walk()
    concept_names = sorted({checks_owner.norm(n) for c in registry.concepts for n in c.names})
    terms = Terms(tuple(sorted(checks_owner.norm(r.term) for r in registry.retired)), tuple(concept_names))
    salt = hashlib.sha256(repr((terms, tree.layout)).encode()).hexdigest()[:16]
    cache = DocumentCache(root, salt, options.use_cache, options.cache_dir)
    blobs = {}
    fingerprint = hashlib.sha256(tree.fingerprint().encode("utf-8", "surrogateescape"))
    for name in ("concepts.yml", "mkdocs.yml"):
        fingerprint.update(_bytes(root / name))
    for path in (*tree.markdown, *tree.python):
        data = tree.read(path)
        key = digest(data) if data is not None else b""
        blobs[path] = (data, key)
        fingerprint.update(key)
    memo = fingerprint.hexdigest()
    remembered = cache.result(memo)
    if remembered is not None and len(remembered) == 2:
        return Report(tuple(remembered[0]), int(remembered[1]))
    documents = load_documents(tree, terms, cache, blobs)
    graph = LinkGraph(tree, documents)
    code = checks_code.load_citations(graph, cache, blobs)
    cache.save()
    anchors = checks_links.Anchors(graph)
    findings: set[Finding] = set()
    findings.update(checks_links.check_documents(graph, anchors))
    findings.update(checks_links.check_navigation(graph, nav))
    findings.update(checks_code.check_rule_headings(graph))
    findings.update(checks_code.check_citations(code, anchors))
    if registry.present:
        findings.update(checks_owner.check_registry(graph, registry, anchors))
        findings.update(checks_owner.check_documents(graph, registry))
        findings.update(checks_owner.check_requires(graph, registry))
        findings.update(checks_owner.check_retired(graph, registry))
    report = Report(tuple(sorted(findings)), len(documents) + len(code))
    if not tree.looked_outside:  # every answer came from the fingerprinted inputs: safe to remember
        cache.save_result(memo, (report.findings, report.files))
    return report


def _bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b"-"


def check_tree(root: Path, options: CheckOptions | None = None) -> list[Finding]:
    """Every finding for the repository at ``root``, sorted by path, line, column and code."""
    return list(run_check(root, options).findings)

