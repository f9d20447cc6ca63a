"""``share_installs``: an edition's clone (or a test's copy) gets the repository's npm installs, hard-linked,
only where its code pins the same lock, and never as a symbolic link (``rulespy render`` refuses one in
``build/``)."""

from __future__ import annotations

from pathlib import Path

from rulespy.editions.site import share_installs


def _install(root: Path, name: str, lock: str) -> Path:
    folder = root / "build" / name
    (folder / "node_modules" / "pkg" / "bin").mkdir(parents=True)
    (folder / "node_modules" / "pkg" / "index.js").write_text(f"// {name}\n", encoding="utf-8")
    (folder / "node_modules" / ".bin").mkdir()
    (folder / "node_modules" / ".bin" / "pkg").symlink_to("../pkg/index.js")
    (folder / "package.json").write_text("{}\n", encoding="utf-8")
    (folder / "package-lock.json").write_text(lock, encoding="utf-8")
    return folder


def _pin(tree: Path, name: str, lock: str) -> None:
    pinned = tree / "rulespy" / "render" / name
    pinned.mkdir(parents=True)
    (pinned / "package-lock.json").write_text(lock, encoding="utf-8")


def test_the_same_lock_is_shared_hard_linked_another_lock_is_left_to_npm(tmp_path: Path) -> None:
    root, tree = tmp_path / "root", tmp_path / "tree"
    same = _install(root, "pyodide", '{"lock": 1}\n')
    _install(root, "offline", '{"lock": 1}\n')
    _install(root, "axe", '{"lock": 1}\n')  # pinned nowhere in the tree's code: never shared
    _pin(tree, "pyodide", '{"lock": 1}\n')
    _pin(tree, "offline", '{"lock": 2}\n')  # the release pinned another version: it installs its own
    (same / "bundles").mkdir()  # what the install keeps between builds goes along
    (same / "bundles" / "sw-1.json").write_text("{}\n", encoding="utf-8")
    assert share_installs(root, tree) == ["pyodide"]
    bundle = tree / "build" / "pyodide" / "bundles" / "sw-1.json"
    assert bundle.stat().st_ino == (same / "bundles" / "sw-1.json").stat().st_ino
    shared = tree / "build" / "pyodide"
    copied = shared / "node_modules" / "pkg" / "index.js"
    assert copied.read_text(encoding="utf-8") == "// pyodide\n"
    assert copied.stat().st_ino == (same / "node_modules" / "pkg" / "index.js").stat().st_ino
    assert not (shared / "node_modules").is_symlink() and not copied.is_symlink()
    assert (shared / "node_modules" / ".bin" / "pkg").readlink() == Path("../pkg/index.js")  # as npm made it
    assert (shared / "package-lock.json").read_bytes() == (same / "package-lock.json").read_bytes()
    assert not (tree / "build" / "offline").exists() and not (tree / "build" / "axe").exists()


def test_an_install_already_there_is_left_alone_and_pinned_names_another_code(tmp_path: Path) -> None:
    root, tree, code = tmp_path / "root", tmp_path / "tree", tmp_path / "code"
    _install(root, "pyodide", '{"lock": 1}\n')
    mine = tree / "build" / "pyodide"
    mine.mkdir(parents=True)
    (mine / "package-lock.json").write_text("its own\n", encoding="utf-8")
    (code / "pyodide").mkdir(parents=True)
    (code / "pyodide" / "package-lock.json").write_text('{"lock": 1}\n', encoding="utf-8")
    assert share_installs(root, tree, code) == []
    assert (mine / "package-lock.json").read_text(encoding="utf-8") == "its own\n"
    other = tmp_path / "other"
    assert share_installs(root, other, code) == ["pyodide"]
    assert share_installs(root, tmp_path / "bare") == []  # no rulespy of its own, none named: no pin
    assert not (tmp_path / "bare" / "build").exists()
