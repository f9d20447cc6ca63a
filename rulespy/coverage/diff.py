"""``rulespy diff REV``: the scenarios and worked examples whose outcome a change of rules altered.

What is resolved, in each tree: every scenario file under ``examples/scenarios/`` (``*.yaml``, ``*.yml``)
and every YAML string a worked example of a rule file passes to ``parse_scenario``, ``rulespy.play.play``
or ``refused`` (found with ``ast``; the example's own assertions are not run, and a scenario given dice
only in Python, not in its YAML, resolves to the same "needs dice" answer on both sides). An example
scenario is named by its file, the innermost section it sits in and its place there
(``core/damage.md#target-limit[1]``), which survives edits elsewhere in the file.

REV's tree is written out with ``git archive`` into a temporary folder (removed afterwards) and resolved
by REV's own engine in a subprocess; the working tree is resolved the same way by its engine. Nothing
in the repository, its index or its working tree is touched.
"""

from __future__ import annotations

import io
import subprocess
import tarfile
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulespy.coverage.rules import CoverageError, load_rule_files
from rulespy.coverage.runner import run_engine, scenario_texts

if TYPE_CHECKING:
    from rulespy.book.book import Book

SCENARIOS = "examples/scenarios"


@dataclass(frozen=True)
class Change:
    """One scenario whose outcome differs. ``before``/``after`` are outcomes, None where it is absent."""

    name: str
    where: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    @property
    def kind(self) -> str:
        if self.before is None:
            return "added"
        return "removed" if self.after is None else "changed"

    def lines(self) -> list[str]:
        return describe(self.before, self.after)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "where": self.where,
            "kind": self.kind,
            "before": self.before,
            "after": self.after,
            "summary": self.lines(),
        }


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=repo, capture_output=True, check=False, timeout=120)
    except FileNotFoundError:
        raise CoverageError("git is not installed") from None
    except subprocess.TimeoutExpired:
        raise CoverageError(f"git {args[0]} took too long") from None


def repository_root(path: Path) -> Path:
    done = _git(path, "rev-parse", "--show-toplevel") if path.is_dir() else None
    if done is None or done.returncode != 0:
        raise CoverageError(f"not inside a git repository: {path}")
    return Path(done.stdout.decode().strip())


def commit_of(repo: Path, rev: str) -> str:
    """The commit ``rev`` names, or CoverageError (exit 2) with git's reason."""
    if rev.startswith("-"):
        raise CoverageError(f"not a revision: {rev!r}")
    done = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    if done.returncode != 0:
        raise CoverageError(f"not a revision of this repository: {rev!r}")
    return done.stdout.decode().strip()


def materialise(repo: Path, commit: str, into: Path) -> list[str]:
    """Write the tree of ``commit`` into the folder ``into`` (git archive; the repository is untouched).
    Members tarfile's ``data`` filter refuses (a symlink pointing outside, an absolute path) are left
    out; the answer names each one, for the notes."""
    done = _git(repo, "archive", "--format=tar", commit)
    if done.returncode != 0:
        raise CoverageError(
            f"git archive {commit[:12]} failed: {done.stderr.decode(errors='replace').strip()}"
        )
    skipped: list[str] = []

    def keep(member: tarfile.TarInfo, path: str) -> tarfile.TarInfo | None:
        try:
            return tarfile.data_filter(member, path)
        except tarfile.FilterError as error:
            skipped.append(f"{member.name} was left out of the copy of {commit[:12]} ({error})")
            return None

    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
        archive.extractall(into, filter=keep)
    return skipped


def jobs(root: Path, book: Book | None = None) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """What to resolve in the tree at ``root`` (``book``: its rule book, when the caller opened it), and
    where each one is written (``path:line``). Each job's
    ``shown`` is the text that shows its outcome to a reader: the scenario file, or the worked example's
    code (with the fences it continues); a worked example's ``exercises`` are the sections it sits in and
    those its ``# exercises:`` lines name (``PATH#ANCHOR``)."""
    found: list[dict[str, Any]] = []
    where: dict[str, str] = {}
    folder = root / SCENARIOS
    if folder.is_dir():
        for file in sorted(folder.rglob("*")):
            if file.is_file() and file.suffix in (".yaml", ".yml"):
                name = file.relative_to(root).as_posix()
                try:
                    text = file.read_text(encoding="utf-8")
                except (OSError, UnicodeDecodeError):
                    text = "\0"  # resolves to a malformed-input answer on both sides
                found.append({"id": name, "yaml": text, "path": name, "shown": text})
                where[name] = f"{name}:1"
    try:
        files = load_rule_files(root, book)
    except CoverageError:
        files = {}
    for rule in files.values():
        seen: dict[str, int] = {}
        for example in rule.examples:
            section = example.sections[-1] if example.sections else ""
            exercises = [f"{rule.path}#{s}" for s in example.sections]
            exercises += [example.marker_target(m) for m in example.markers]
            path, code = f"{rule.path}:{example.line}", example.code
            for text in scenario_texts(code):
                seen[section] = seen.get(section, 0) + 1
                name = f"{rule.path}#{section}[{seen[section]}]" if section else f"{rule.path}[{seen['']}]"
                found.append({"id": name, "yaml": text, "path": path, "shown": code, "exercises": exercises})
                where[name] = path
    return found, where


@dataclass
class Resolved:
    """One tree's answers, by job name: outcomes, where each is written, the text that shows it, the
    rules its account cites, its exact odds (``odds --json --fractions``, when asked), the engine's error."""

    outcomes: dict[str, Any]
    where: dict[str, str]
    shown: dict[str, str]
    exercises: dict[str, list[str]]
    cited: dict[str, list[str]]
    odds: dict[str, Any]
    error: str | None


def resolve_tree(
    root: Path,
    with_odds: bool = False,
    borrowed: Iterable[dict[str, Any]] = (),
    own_jobs: tuple[list[dict[str, Any]], dict[str, str]] | None = None,
) -> Resolved:
    """Resolve the tree's own jobs (``own_jobs``: ``jobs(root)``, when the caller found them already), and
    ``borrowed`` ones (another tree's jobs, by their text) it lacks; ``where``, ``shown`` and
    ``exercises`` describe its own jobs only."""
    todo, where = own_jobs if own_jobs is not None else jobs(root)
    own = {job["id"] for job in todo}
    answer = run_engine(root, todo + [j for j in borrowed if j["id"] not in own], odds=with_odds)
    return Resolved(
        dict(answer.get("results", {})),
        where,
        {job["id"]: job["shown"] for job in todo},
        {job["id"]: job.get("exercises", []) for job in todo},
        dict(answer.get("cited", {})),
        dict(answer.get("odds", {})),
        answer.get("engine_error"),
    )


def outcomes(root: Path) -> tuple[dict[str, Any], dict[str, str], str | None]:
    """Each job's outcome by the engine of the tree at ``root``, where each is, and the engine's error."""
    tree = resolve_tree(root)
    return tree.outcomes, tree.where, tree.error


def _show(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def describe(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[str]:
    """A short before -> after of what differs between two outcomes."""
    if before is None or after is None:
        return ["new" if before is None else "gone"]
    if "error" in before or "error" in after or before.get("legal") != after.get("legal"):

        def state(o: dict[str, Any]) -> str:
            if "error" in o:
                return f"error ({o['error']})"
            return "legal" if o.get("legal") else f"illegal ({o.get('rule')})"

        return [f"{state(before)} -> {state(after)}"]
    out = []
    for key, label in (
        ("casualties", "casualty"),
        ("wounds", "wounds"),
        ("status", "status"),
        ("successes", "successes, criticals"),
    ):
        old, new = before.get(key, {}), after.get(key, {})
        for item in sorted(set(old) | set(new)):
            if old.get(item) != new.get(item):
                if key == "casualties":
                    out.append(f"{item} casualty: {old.get(item, 'no')} -> {new.get(item, 'no')}")
                else:
                    out.append(f"{item} {label}: {_show(old.get(item))} -> {_show(new.get(item))}")
    return out


def diff(path: Path, rev: str) -> tuple[str, list[Change], int, list[str]]:
    """The commit REV names, the changes from REV to the working tree, how many ran, and notes."""
    repo = repository_root(path)
    commit = commit_of(repo, rev)
    notes: list[str] = []
    with tempfile.TemporaryDirectory(prefix="rulespy-diff-") as temp:
        tree = Path(temp) / "tree"
        tree.mkdir()
        notes.extend(materialise(repo, commit, tree))
        before, _, error = outcomes(tree)
    if error:
        notes.append(f"the engine at {rev} could not run: {error}")
    after, where, error = outcomes(repo)
    if error:
        notes.append(f"the engine of the working tree could not run: {error}")
    changes = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name), after.get(name)
        if old != new:
            changes.append(Change(name, where.get(name, name), old, new))
    return commit, changes, len(set(before) | set(after)), notes
