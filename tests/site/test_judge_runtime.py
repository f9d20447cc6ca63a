"""The judge's runtime as published: precompressed beside each file (``judge.precompress``), its size
said before the first download (``judge.download_size``), the rule titles the steps cite
(``judge.rule_titles``)."""

from __future__ import annotations

import gzip
from pathlib import Path

import brotli

from rulespy.check.graph import build_graph
from rulespy.render import judge

ROOT = Path(__file__).resolve().parents[2]


def test_precompressed_files_unpack_to_the_file_and_come_out_the_same_every_time(tmp_path: Path) -> None:
    path = tmp_path / "pyodide.asm.js"
    path.write_bytes(b"function f() { return 1; }\n" * 500)
    cache = tmp_path / "cache"
    made = judge.precompress(path, cache)
    assert [p.name for p in made] == ["pyodide.asm.js.gz", "pyodide.asm.js.br"]
    assert gzip.decompress(made[0].read_bytes()) == path.read_bytes()
    assert brotli.decompress(made[1].read_bytes()) == path.read_bytes()
    assert all(p.stat().st_size < path.stat().st_size / 10 for p in made)
    first = [p.read_bytes() for p in made]
    for p in made:
        p.unlink()
    assert [p.read_bytes() for p in judge.precompress(path, cache)] == first  # from the cache, same bytes
    assert len(list(cache.iterdir())) == 2
    assert {f"judge/pyodide/pyodide.asm.wasm{end}" for end in ("", ".gz", ".br")} <= judge.RUNTIME_PATHS
    assert "judge/pyodide/python_stdlib.zip.gz" not in judge.RUNTIME_PATHS  # a zip already


def test_the_download_size_is_the_runtime_and_the_bundle_and_unknown_before_install(tmp_path: Path) -> None:
    assert judge.download_size(tmp_path) is None
    package = tmp_path / judge.INSTALL / "node_modules" / "pyodide"
    package.mkdir(parents=True)
    for number, name in enumerate(judge.RUNTIME_FILES):
        (package / name).write_bytes(b"x" * (number + 1) * 1000)
    expected = sum((n + 1) * 1000 for n in range(len(judge.RUNTIME_FILES))) + len(judge.bundle())
    assert judge.download_size(tmp_path) == expected


def test_rule_titles_name_each_section_by_its_heading_in_each_language() -> None:
    english = judge.rule_titles(build_graph(ROOT), ["core/damage.md", "index.md"])
    assert english["core/damage.md#target-limit"] == "Target Limit"
    assert not [k for k in english if not k.startswith("core/damage.md#")]  # rule files only
    russian = judge.rule_titles(build_graph(ROOT / "ru"), ["core/damage.md"])
    assert russian["core/damage.md#target-limit"] == "Предел цели"
