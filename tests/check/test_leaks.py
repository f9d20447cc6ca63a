"""Issue 13: nothing outside the repository is read, no link or id goes unseen, no input ends in
"internal error". One small repository per reproduction of the issue."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulespy.check.files import Tree, same_url
from rulespy.check.findings import Finding
from rulespy.check.publish import publishable
from rulespy.check.runner import CheckOptions, check_tree
from rulespy.cli import main

from .helpers import write

HOME = "# Home\n\n[cover](core/cover.md)\n"
COVER = "# Cover {#cover}\n\n## Light cover {#light-cover}\n"
SECRET = "outside-secret-do-not-publish"


def _repo(tmp_path: Path, extra: dict[str, str | bytes] | None = None) -> Path:
    return write(tmp_path / "repo", {"index.md": HOME, "core/cover.md": COVER, **(extra or {})})


def _check(root: Path) -> list[Finding]:
    return check_tree(root, CheckOptions(use_cache=False))


def _found(root: Path) -> set[tuple[str, int, str]]:
    return {(f.path, f.line, f.code) for f in _check(root)}


def _outside(tmp_path: Path) -> Path:
    secret = tmp_path / "outside-secret.txt"
    secret.write_text(f"# Secret\n\n{SECRET} [x](nowhere.md)\n", encoding="utf-8")
    return secret


def test_a_rule_file_symlinked_outside_is_a_finding_and_never_read(tmp_path: Path) -> None:
    root = _repo(tmp_path, {"index.md": HOME + "\n[notes](core/notes.md)\n"})
    (root / "core" / "notes.md").symlink_to(os.path.relpath(_outside(tmp_path), root / "core"))
    findings = _check(root)
    # the link to it finds nothing: the symlink is refused, not read
    assert [(f.path, f.code) for f in findings] == [("core/notes.md", "RS043"), ("index.md", "RS001")]
    assert "../../outside-secret.txt" in findings[0].message
    assert not any(SECRET in f.message or "nowhere.md" in f.message for f in findings)
    assert "core/notes.md" not in publishable(root).pages and "core/notes.md" not in publishable(root).files
    assert publishable(root).refused == (("core/notes.md", "../../outside-secret.txt"),)


def test_a_link_through_a_folder_symlinked_outside_does_not_exist(tmp_path: Path) -> None:
    _outside(tmp_path)
    root = _repo(tmp_path, {"index.md": HOME + "\n[x](core/root/outside-secret.txt)\n"})
    (root / "core" / "root").symlink_to(tmp_path)
    assert _found(root) == {("core/root", 1, "RS043"), ("index.md", 5, "RS001")}


def test_a_config_file_symlinked_outside_is_a_finding_and_never_read(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (root / "concepts.yml").symlink_to("/dev/zero")
    (root / "mkdocs.yml").symlink_to(_outside(tmp_path))
    assert _found(root) == {("concepts.yml", 1, "RS043"), ("mkdocs.yml", 1, "RS043")}


@pytest.mark.parametrize("name", ["concepts.yml", "mkdocs.yml"])
def test_a_config_file_that_is_a_fifo_is_refused_without_reading(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path)
    os.mkfifo(root / name)
    assert main(["check", str(root), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err == f"rulespy check: {name}:1: is not a regular file (a FIFO, a device or a socket); not read\n"


def test_a_too_large_config_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path, {"concepts.yml": "# padding\n" * 200_000})
    assert main(["check", str(root), "--no-cache"]) == 2
    assert "concepts.yml:1: is larger than 1024 KiB" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["100000000000", "'²'", "9" * 5000])
def test_a_bad_max_file_kb_is_a_located_message(
    tmp_path: Path, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path, {"concepts.yml": f"owners:\n\ncheck:\n  max_file_kb: {value}\n"})
    assert main(["check", str(root), "--no-cache"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rulespy check: concepts.yml:4: max_file_kb must be a whole number from 1 to")
    assert "internal error" not in err


def test_a_root_folder_that_cannot_be_listed_is_a_located_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path)
    real = os.scandir

    def denied(path: str | Path = ".") -> os.ScandirIterator[str]:
        if os.path.realpath(path) == os.path.realpath(root):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", denied)  # mode 0711 cannot stop root, who runs CI containers
    assert main(["check", str(root), "--no-cache"]) == 2
    assert capsys.readouterr().err == f"rulespy check: {root}: cannot list the folder: Permission denied\n"


def test_a_subfolder_that_cannot_be_listed_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repo(tmp_path, {"timing/secret.md": "# Hidden\n"})
    real = os.scandir

    def denied(path: str | Path = ".") -> os.ScandirIterator[str]:
        if str(path).endswith("timing"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", denied)
    [finding] = _check(root)
    assert (finding.path, finding.code) == ("timing", "RS040") and "Permission denied" in finding.message


def test_a_link_ten_list_levels_deep_is_checked(tmp_path: Path) -> None:
    root = _repo(tmp_path, {"index.md": HOME + "\n" + "- " * 10 + "See [the old rule](nope.md).\n"})
    assert _found(root) == {("index.md", 5, "RS001")}


def test_a_link_25_quote_levels_deep_is_checked(tmp_path: Path) -> None:
    root = _repo(tmp_path, {"index.md": HOME + "\n" + "> " * 25 + "See [the old rule](nope.md).\n"})
    assert _found(root) == {("index.md", 5, "RS001")}


def test_a_link_deeper_than_the_parser_reads_is_a_finding(tmp_path: Path) -> None:
    root = _repo(tmp_path, {"index.md": HOME + "\n" + "- " * 30 + "See [the old rule](nope.md).\n"})
    assert _found(root) == {("index.md", 5, "RS006")}


def test_utf16_without_a_byte_order_mark_is_a_finding(tmp_path: Path) -> None:
    root = _repo(tmp_path, {"core/cover.md": (COVER + "[x](nope.md)\n").encode("utf-16-le")})
    assert _found(root) == {("core/cover.md", 1, "RS040")}


def test_ten_thousand_identical_explicit_ids_are_one_finding(tmp_path: Path) -> None:
    headings = "".join(f"## Part {n} {{#same}}\n\n" for n in range(10_000))
    root = _repo(tmp_path, {"core/cover.md": COVER + "\n" + headings})
    assert _found(root) == {("core/cover.md", 7, "RS005")}  # once, at the second heading


@pytest.mark.parametrize("anchor", ["'#'", "'# x'", "'a b'"])
def test_an_empty_or_malformed_anchor_in_concepts_yml_is_a_finding(tmp_path: Path, anchor: str) -> None:
    registry = f"owners:\n  core/cover.md:\n    - {{concept: Cover, anchor: {anchor}}}\n"
    root = _repo(tmp_path, {"concepts.yml": registry})
    assert _found(root) == {("concepts.yml", 3, "RS003")}


def test_two_pages_for_one_url_are_a_finding(tmp_path: Path) -> None:
    root = _repo(tmp_path, {"index.md": HOME + "[d](core/damage.md) [e](core/damage/index.md)\n"})
    write(root, {"core/damage.md": "# Damage\n", "core/damage/index.md": "# Damage again\n"})
    assert _found(root) == {("core/damage/index.md", 1, "RS022")}
    assert same_url(["index.md", "README.md", "core/a.md", "core/a/index.md"]) == [
        ("core/a/index.md", "core/a/", "core/a.md"),
        ("index.md", "", "README.md"),
    ]


def test_the_walk_records_what_it_left_out(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    (root / "core" / "away").symlink_to(tmp_path)
    tree = Tree(root).walk()
    assert tree.outside == [("core/away", str(tmp_path))] and "core/away" not in tree.dirs


def _forging_repo(tmp_path: Path) -> Path:
    """A file name with a newline, a link target with ``%0A``, a right-to-left override and a NUL."""
    forged = "index.md:1:1: RS001 fake\nrulespy check: 0 findings"
    root = _repo(
        tmp_path, {"index.md": HOME + "\n[a](x%0Aindex.md:9:9:%20RS001%20fake.md) [b](\u202egnp.md)\n"}
    )
    write(root, {f"core/{forged}.md": "# Odd\n\n[c](nope%00.md)\n"})
    return root


def test_text_output_escapes_control_and_bidi_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _forging_repo(tmp_path)
    assert main(["check", str(root), "--no-cache"]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) == 5 and lines[-1].startswith("rulespy check: 4 findings"), out
    assert "\u202e" not in out and "\x00" not in out and "\\u202e" in out and "\\x0a" in out


def test_github_output_escapes_control_and_bidi_characters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _forging_repo(tmp_path)
    assert main(["check", str(root), "--no-cache", "--format", "github"]) == 1
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 5 and all(
        line.startswith(("::error ", "rulespy")) for line in out.splitlines()
    )
    assert "\u202e" not in out and "\x00" not in out


def test_json_output_keeps_paths_and_messages_exact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    root = _forging_repo(tmp_path)
    assert main(["check", str(root), "--no-cache", "--format", "json"]) == 1
    paths = {f["path"] for f in json.loads(capsys.readouterr().out)["findings"]}
    assert "core/index.md:1:1: RS001 fake\nrulespy check: 0 findings.md" in paths


def test_a_file_name_that_is_not_utf8_prints_under_a_strict_utf8_output(tmp_path: Path) -> None:
    import subprocess
    import sys

    root = _repo(tmp_path)
    (root / "core").joinpath(os.fsdecode(b"bad\xff.md")).write_text("# Bad\n\n[x](nope.md)\n")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "RULESPY_CACHE_DIR": str(tmp_path / "c")}
    done = subprocess.run(
        [sys.executable, "-c", "from rulespy.cli import entry; entry()", "check", str(root)],
        capture_output=True,
        env=env,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert b"core/bad\\xff.md:3:1: RS001" in done.stdout and b"internal error" not in done.stderr


def test_rule_files_the_site_and_coverage_read_leave_out_symlinks_to_outside(tmp_path: Path) -> None:
    """``rule_paths`` (the site build's and coverage's list of rule files) is the checker's walk."""
    from rulespy.coverage.rules import rule_paths

    root = _repo(tmp_path, {"core/.drafts/x.md": "# Draft\n"})
    (root / "core" / "notes.md").symlink_to(_outside(tmp_path))
    (root / "timing").symlink_to(tmp_path)
    assert rule_paths(root) == ["core/cover.md"]
