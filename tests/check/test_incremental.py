"""The incremental cache is never stale: after any edit, a cached ``rulespy check`` equals ``--no-cache``.

A cached run reuses a file's findings only while its content and every answer its checks depended on
are unchanged (``rulespy/check/incremental.py``). These tests edit one side of each kind of dependency
(a linked heading, a target file's existence, letter case, concepts.yml, mkdocs.yml, the section that
explains a retired term) and then walk a seeded random sequence of edits over a generated 30-file tree,
comparing the cached report with a cold one after every edit.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulespy.check.runner import CheckOptions, run_check

from .helpers import COLD, agree, codes, write

FOLDERS = ("core", "sequences", "timing", "commands")


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, CheckOptions]:
    root = tmp_path / "repo"
    files = {
        "index.md": "# Home\n\n[cover](core/cover.md) and [shoot](commands/shoot.md)\n",
        "core/cover.md": "# Cover {#cover}\n\n## Light Cover {#light-cover}\n\nText.\n",
        "commands/shoot.md": "# Shoot {#shoot}\n\nSee [light](../core/cover.md#light-cover).\n",
        "concepts.yml": "owners:\n  core/cover.md:\n    - {concept: Light Cover, anchor: light-cover}\n",
    }
    write(root, files)
    options = CheckOptions(cache_dir=tmp_path / "cache")
    assert agree(root, options).findings == ()
    return root, options


def test_renaming_a_linked_heading_reports_the_file_that_links_to_it(repo: tuple[Path, CheckOptions]) -> None:
    root, options = repo
    page = root / "core" / "cover.md"
    page.write_text(page.read_text().replace("{#light-cover}", "{#soft-cover}"))
    assert ("commands/shoot.md", "RS003") in codes(agree(root, options))
    page.write_text(page.read_text().replace("{#soft-cover}", "{#light-cover}"))
    assert agree(root, options).findings == ()


def test_adding_the_missing_target_file_clears_the_finding(repo: tuple[Path, CheckOptions]) -> None:
    root, options = repo
    write(root, {"commands/shoot.md": "# Shoot {#shoot}\n\nSee [melee](../core/melee.md#melee).\n"})
    assert codes(agree(root, options)) == [("commands/shoot.md", "RS001")]
    write(root, {"core/melee.md": "# Melee {#melee}\n"})
    assert codes(agree(root, options)) == []
    (root / "core" / "melee.md").unlink()
    assert codes(agree(root, options)) == [("commands/shoot.md", "RS001")]


def test_a_file_differing_only_in_case_changes_the_hint(repo: tuple[Path, CheckOptions]) -> None:
    root, options = repo
    write(root, {"commands/shoot.md": "# Shoot {#shoot}\n\nMentions core/Melee.md here.\n"})
    before = agree(root, options)
    write(root, {"core/melee.md": "# Melee {#melee}\n\n[home](../index.md)\n"})
    after = agree(root, options)
    assert [f.message for f in after.findings if f.code == "RS004"] != [
        f.message for f in before.findings if f.code == "RS004"
    ]


def test_editing_concepts_yml_is_seen(repo: tuple[Path, CheckOptions]) -> None:
    root, options = repo
    write(root, {"commands/shoot.md": "# Shoot {#shoot}\n\n## Light Cover {#lc}\n\nRestated here.\n"})
    assert ("commands/shoot.md", "RS013") in codes(agree(root, options))
    write(root, {"concepts.yml": "owners:\n  core/cover.md:\n    - {concept: Cover, anchor: cover}\n"})
    assert ("commands/shoot.md", "RS013") not in codes(agree(root, options))
    (root / "concepts.yml").unlink()
    agree(root, options)


def test_moving_a_concept_to_another_owner_keeps_names_but_changes_claims(
    repo: tuple[Path, CheckOptions],
) -> None:
    root, options = repo  # the concept names (the parser's terms) stay the same: only ownership moves
    write(root, {"commands/shoot.md": "# Shoot {#shoot}\n\nLight Cover is owned by `core/cover.md`.\n"})
    assert codes(agree(root, options)) == []
    owners = "owners:\n  commands/shoot.md:\n    - {concept: Light Cover, anchor: shoot}\n"
    write(root, {"concepts.yml": owners})
    assert ("commands/shoot.md", "RS012") in codes(agree(root, options))


def test_bytes_that_change_nothing_keep_the_findings(repo: tuple[Path, CheckOptions]) -> None:
    root, options = repo
    write(root, {"commands/shoot.md": "# Shoot {#shoot}\n\n[gone](../core/gone.md)\n"})
    first = agree(root, options)
    write(root, {"commands/shoot.md": "# Shoot {#shoot}\n\n[gone](../core/gone.md)   \n\n\n"})
    assert agree(root, options) == first


def test_moving_the_section_that_explains_a_retired_term(repo: tuple[Path, CheckOptions]) -> None:
    root, options = repo
    registry = (root / "concepts.yml").read_text()
    registry += (
        "retired:\n  - {term: soft cover, current: Light Cover, explained_in: core/cover.md#light-cover}\n"
    )
    write(root, {"concepts.yml": registry})
    write(root, {"core/cover.md": "# Cover {#cover}\n\n## Light Cover {#light-cover}\n\nOnce soft cover.\n"})
    assert codes(agree(root, options)) == []
    write(root, {"core/cover.md": "# Cover {#cover}\n\nOnce soft cover.\n\n## Light Cover {#light-cover}\n"})
    assert codes(agree(root, options)) == [("core/cover.md", "RS031")]


def test_no_cache_writes_nothing(repo: tuple[Path, CheckOptions], tmp_path: Path) -> None:
    root, _ = repo
    run_check(root, CheckOptions(use_cache=False, cache_dir=tmp_path / "unused"))
    assert not (tmp_path / "unused").exists()


# ---- a seeded random walk of edits over a generated tree ----------------------------------------------


def _tree(root: Path, rng: random.Random, files: int = 30) -> list[str]:
    names = [f"{FOLDERS[i % 4]}/rule_{i:02d}.md" for i in range(files)]
    for i, name in enumerate(names):
        other = names[rng.randrange(files)]
        text = f"# Rule {i} {{#rule-{i}}}\n\n## Part A {{#a}}\n\nSee [next](/{other}#a) and `{other}`.\n"
        text += f"\n## Part B {{#b}}\n\nConcept {i} is owned by `{name}`.\n"
        write(root, {name: text})
    write(root, {"index.md": "# Home\n\n" + "".join(f"- [{n}]({n})\n" for n in names)})
    owners = "".join(
        f"  {n}:\n    - {{concept: Concept {i}, anchor: rule-{i}}}\n" for i, n in enumerate(names)
    )
    write(root, {"concepts.yml": "owners:\n" + owners})
    return names


def _edit(root: Path, rng: random.Random, names: list[str]) -> str:
    """One random edit; returns a description for the failure message."""
    name = rng.choice(names)
    path = root / name
    other = rng.choice(names)
    anchor = rng.choice(["a", "b", "c", "rule-1", "Part-A", ""])
    text = path.read_text(encoding="utf-8", errors="replace") if path.exists() else "# New {#new}\n"
    choice = rng.randrange(15)
    if choice == 0:  # rename a heading id others link to
        old, new = rng.choice([("{#a}", "{#c}"), ("{#c}", "{#a}"), ("{#b}", "{#a}"), ("{#a}", "{#b}")])
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    elif choice == 1:  # add a link to some file and anchor
        path.write_text(text + f"\n[x](/{other}#{anchor})\n", encoding="utf-8")
    elif choice == 2:  # delete a file
        path.unlink(missing_ok=True)
    elif choice == 3:  # create or recreate a file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"# Back {{#back}}\n\n## Part A {{#a}}\n\n`{other}#{anchor or 'a'}`\n", encoding="utf-8"
        )
    elif choice == 4:  # a file differing only in letter case
        write(root, {name.replace("rule", "Rule"): "# Case {#case}\n"})
    elif choice == 5:  # a mention, maybe with a wrong case
        path.write_text(
            text + f"\nAlso {rng.choice([other, other.upper(), other + '#b'])}.\n", encoding="utf-8"
        )
    elif choice == 6:  # an ownership claim, right or wrong
        path.write_text(text + f"\nConcept {rng.randrange(32)} is owned by `{other}`.\n", encoding="utf-8")
    elif choice == 7:  # a section restating another file's concept
        path.write_text(text + f"\n## Concept {rng.randrange(30)} {{#restated}}\n\nSame.\n", encoding="utf-8")
    elif choice == 8:  # concepts.yml: drop or add an owner, or a retired term
        owners, _, retired = (root / "concepts.yml").read_text(encoding="utf-8").partition("retired:\n")
        lines = owners.rstrip("\n").split("\n")
        if rng.random() < 0.5 and len(lines) > 4:
            index = rng.randrange(1, len(lines) - 1, 2)
            del lines[index : index + 2]
        else:
            lines += [f"  {other}:", f"    - {{concept: Extra {rng.randrange(5)}, anchor: {anchor or 'a'}}}"]
        if not retired and rng.random() < 0.5:
            retired = f"  - {{term: old word, current: Concept 1, explained_in: {other}#a}}\n"
        registry = "\n".join(lines) + "\n" + (f"retired:\n{retired}" if retired else "")
        write(root, {"concepts.yml": registry})
    elif choice == 9:  # a retired term in prose
        path.write_text(text + "\nThe old word is gone.\n", encoding="utf-8")
    elif choice == 10:  # bytes that are not UTF-8, or a fix
        path.write_bytes(b"# Bad \xff\n" if rng.random() < 0.5 else text.encode("utf-8", "replace"))
    elif choice == 11:  # whitespace only
        path.write_text(text + "\n\n", encoding="utf-8")
    elif choice == 12:  # mkdocs.yml nav
        write(root, {"mkdocs.yml": "nav:\n" + "".join(f"  - {n}\n" for n in rng.sample(names, 3))})
    elif choice == 13:  # concepts.yml: the same concept names, owned by other files
        registry = (root / "concepts.yml").read_text(encoding="utf-8")
        write(root, {"concepts.yml": registry.replace(f"  {name}:", f"  {other}:", 1)})
    else:  # a folder index page (folder links land there)
        folder = name.split("/")[0]
        index = root / folder / "index.md"
        if index.exists():
            index.unlink()
        else:
            write(root, {f"{folder}/index.md": "# Folder {#folder}\n\n## Part A {#a}\n"})
        path.write_text(text + f"\n[folder](/{folder}/#a)\n", encoding="utf-8")
    return f"edit {choice} on {name}"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_edits_never_leave_the_cache_stale(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    root = tmp_path / "repo"
    names = _tree(root, rng)
    options = CheckOptions(cache_dir=tmp_path / "cache")
    agree(root, options)
    done = []
    for _ in range(40):
        done.append(_edit(root, rng, names))
        cached, cold = run_check(root, options), run_check(root, COLD)
        assert cached == cold, done
