"""A cold check parses on a process pool (``rulespy/check/parallel.py``) and reports exactly what one
process reports, in the same order."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rulespy.check import parallel
from rulespy.check.runner import CheckOptions, run_check

from .helpers import write

COLD = CheckOptions(use_cache=False)


def _tree(root: Path, files: int = 24) -> Path:
    names = [f"{('core', 'timing')[i % 2]}/rule_{i:02d}.md" for i in range(files)]
    for i, name in enumerate(names):
        other = names[(i * 5 + 1) % files]
        links = f"[next](/{other}#a) [bad](/{other}#b{i % 3})"
        write(root, {name: f"# Rule {i} {{#r{i}}}\n\n## Part {{#a}}\n\n{links}\n"})
    write(root, {"index.md": "".join(f"- [{n}]({n})\n" for n in names[1:]), "core/bad.md": b"# \xff\n"})
    return root


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the pool forks, on Linux only")
def test_the_pool_reports_what_one_process_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _tree(tmp_path / "repo")
    monkeypatch.setenv("RULESPY_CHECK_JOBS", "1")
    alone = run_check(root, COLD)
    used = []
    real = parallel.parse_all

    def spy(parse, items):  # type: ignore[no-untyped-def]
        found = real(parse, items)
        used.append(found is not None)
        return found

    monkeypatch.setattr(parallel, "PARALLEL_FROM", 4)
    monkeypatch.setattr(parallel, "parse_all", spy)
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    pooled = run_check(root, COLD)
    assert used == [True]
    assert pooled == alone
    assert {f.code for f in alone.findings} == {"RS003", "RS020", "RS040"}
    cached = CheckOptions(cache_dir=tmp_path / "cache")
    assert run_check(root, cached) == alone  # documents parsed by the pool are cached and reused
    assert run_check(root, cached) == alone


def test_jobs_variable_caps_the_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULESPY_CHECK_JOBS", "1")
    assert parallel.workers() == 1
    assert parallel.parse_all(lambda path, data: None, [("x.md", b"")] * 1000) is None  # type: ignore
    monkeypatch.setenv("RULESPY_CHECK_JOBS", "many")
    assert parallel.workers() >= 1


def test_the_pool_takes_only_the_cores_the_load_leaves_free(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RULESPY_CHECK_JOBS", raising=False)
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    for load, expected in ((0.0, 2), (0.9, 2), (1.2, 1), (7.5, 1)):
        monkeypatch.setattr(parallel.os, "getloadavg", lambda load=load: (load, load, load))
        assert parallel.workers() == expected, load
    monkeypatch.setenv("RULESPY_CHECK_JOBS", "2")  # asked for: two processes whatever the load
    assert parallel.workers() == 2
