"""The judge's runtime as published: precompressed beside each file (``judge.precompress``), its size
said before the first download (``judge.download_size``), the rule titles the steps cite
(``judge.rule_titles``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import brotli
import pytest

from rulespy.check.files import Layout
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


def test_the_download_size_is_known_from_the_pins_before_the_runtime_is_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fresh clone renders before `npm ci` ever ran: the figure comes from the committed pins.
    monkeypatch.chdir(tmp_path)  # no build/pyodide anywhere near
    pins = json.loads(judge.PINS.read_text(encoding="utf-8"))
    assert pins["pyodide"] == judge.pinned_version()
    assert sorted(pins["files"]) == sorted(judge.RUNTIME_FILES)
    expected = sum(f["bytes"] for f in pins["files"].values()) + len(judge.bundle())
    assert judge.download_size() == expected
    assert 5_000_000 < expected < 50_000_000  # megabytes: the WebAssembly module alone is 8.6 MB
    said = json.loads(judge.words_script(None, {}, judge.download_size()).decode().split(" = ", 1)[1][:-2])
    assert said["download"] == expected


def _fake_runtime(tmp_path: Path) -> Path:
    package = tmp_path / "pyodide"
    package.mkdir()
    for number, name in enumerate(judge.RUNTIME_FILES):
        (package / name).write_bytes(b"x" * (number + 1) * 1000)
    return package


def test_an_installed_runtime_that_differs_from_its_pins_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = _fake_runtime(tmp_path)
    pins = tmp_path / "runtime-files.json"
    files = {name: judge.file_pin(package / name) for name in judge.RUNTIME_FILES}
    pins.write_text(json.dumps({"pyodide": judge.pinned_version(), "files": files}), encoding="utf-8")
    monkeypatch.setattr(judge, "PINS", pins)
    assert judge.verified(package) == package
    assert judge.download_size() == sum((n + 1) * 1000 for n in range(len(judge.RUNTIME_FILES))) + len(
        judge.bundle()
    )
    (package / "pyodide.asm.wasm").write_bytes(b"y" * 3000)  # same size, other bytes
    differs = r"pyodide\.asm\.wasm is not the file runtime-files\.json pins"
    with pytest.raises(judge.JudgeError, match=differs):
        judge.verified(package)
    pins.write_text(json.dumps({"pyodide": "0.0.1", "files": files}), encoding="utf-8")
    with pytest.raises(judge.JudgeError, match="pins pyodide 0.0.1, the lock file"):
        judge.pinned_files()
    assert judge.download_size() is None  # unreadable pins: the page's words for an unknown size
    pins.write_text("{not json", encoding="utf-8")
    with pytest.raises(judge.JudgeError, match="not a list of the pinned runtime's files"):
        judge.pinned_files()


def test_rule_titles_name_each_section_by_its_heading_in_each_language() -> None:
    english = judge.rule_titles(build_graph(ROOT), ["core/damage.md", "index.md"], Layout().rule_dirs)
    assert english["core/damage.md#target-limit"] == "Target Limit"
    assert not [k for k in english if not k.startswith("core/damage.md#")]  # rule files only
    russian = judge.rule_titles(build_graph(ROOT / "ru"), ["core/damage.md"], Layout().rule_dirs)
    assert russian["core/damage.md#target-limit"] == "Предел цели"


LAUGHS = "\n".join(
    ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    + [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
)


def test_the_forms_read_no_yaml_the_loader_refuses_for_its_size() -> None:
    """Issue 29: an alias bomb (or a text over 1 MB) is never expanded by a form: each helper leaves the
    text as it is and the form reading gives the loader's own message."""
    from rulespy.render import web

    for text in (LAUGHS, "units: []\n" + "#" * 1_000_001):
        answer = json.loads(web.form(text))
        assert answer["error"].startswith("scenario.yaml:") and "units" not in answer
        assert web.move(text, "a1", 1, 1) == text
        assert web.declare(text, "a", "shoot", "b", "{}", "{}") == text
        assert web.weapon(text, "gun", '{"range": "1"}') == text
    said = json.loads(web.form(LAUGHS))["error"]
    assert said == json.loads(web.resolve(LAUGHS))["stderr"].strip()  # the loader's words, as Run says


def test_a_form_keeps_the_anchor_on_the_block_it_writes_again() -> None:
    """Issue 29: `weapons: &kit` survives the weapon form, so an alias of it still resolves."""
    import yaml

    from rulespy.render import web

    text = "weapons: &kit\n  rifle: {range: 24, dice: 2, lock: 4, damage: 1}\nunits: []\nspare: *kit\n"
    written = web.weapon(text, "lance", '{"range": "36", "dice": "1", "lock": "3", "damage": "3"}')
    assert written.startswith("weapons: &kit\n")
    data = yaml.safe_load(written)
    assert set(data["spare"]) == {"rifle", "lance"}
