"""Builders shared by the checker tests."""

from __future__ import annotations

from pathlib import Path

from rulespy.check.runner import CheckOptions, Report, run_check

COLD = CheckOptions(use_cache=False)


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``files`` (repository path -> text or bytes) under ``root``, making folders; returns ``root``."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


def agree(root: Path, warm: CheckOptions) -> Report:
    """``rulespy check`` of ``root`` with the cache of ``warm``, asserted equal to a cold run (the cache is
    never stale); the report."""
    cached, cold = run_check(root, warm), run_check(root, COLD)
    assert cached == cold
    return cached


def codes(report: Report) -> list[tuple[str, str]]:
    """The report's findings as (path, code)."""
    return [(f.path, f.code) for f in report.findings]
