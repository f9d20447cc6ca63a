"""RS046: a scenario file under ``examples/scenarios/`` that is not YAML the scenario loader can read.

The scenario files are published beside the rule pages and offered to players in the site's rules
judge; ``rulespy resolve`` and ``rulespy render`` read them through the scenario loader, which refuses
one that is not YAML or whose aliases expand it past the budget of ``rulespy.yamlbudget`` (an "alias
bomb": a few lines that name each other into billions of values). The checker stands beside the engine
and never imports the loader, so it composes each file with the same shared budget and the same
pure-Python parser (``yamlbudget.compose(portable=True)``) and reports what the loader would refuse
before any value is read, at the loader's line. Whether the scenario's values are a valid scenario
(units, weapons, an attack) is the loader's question, answered by ``rulespy resolve`` and the tests.

The findings are remembered by the files' content hashes (``findings``): a run that finds every
scenario file as it was composes none of them.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from rulespy.check.findings import CheckError, Finding

if TYPE_CHECKING:
    from rulespy.check.cache import DocumentCache

#: The folder of the scenario files, from the repository root.
SCENARIOS = Path("examples") / "scenarios"
#: How a scenario file's name ends.
SUFFIXES = (".yaml", ".yml")


def scenario_files(root: Path) -> list[str]:
    """Every scenario file under ``root/examples/scenarios/`` (any depth), relative to ``root``, sorted;
    hidden folders and symbolic links are not followed (RS043 reports one that leads out)."""
    base = Path(root) / SCENARIOS
    found: list[str] = []
    for current, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(current) / name
            if name.endswith(SUFFIXES) and not path.is_symlink():
                found.append(path.relative_to(root).as_posix())
    return found


def findings(root: Path, cache: DocumentCache | None = None) -> list[Finding]:
    """RS046 for each scenario file the loader would refuse as YAML: its line and the loader's words.
    Remembered in ``cache`` by every file's path and content hash: composing them all takes more than a
    second with the pure-Python parser, hashing them a few milliseconds."""
    from rulespy.check.files import read_config

    read: dict[str, bytes | str | None] = {}
    for path in scenario_files(root):
        try:
            read[path] = read_config(Path(root), path)
        except CheckError as error:
            read[path] = error.message
    key = tuple(
        (path, data if isinstance(data, str | None) else hashlib.sha256(data).hexdigest())
        for path, data in read.items()
    )
    target = cache.file.with_suffix(".scenarios.pickle") if cache is not None else None
    if cache is not None and target is not None:
        stored = cache.load_blob(target, key, salted=False)
        if stored is not None:
            return list(stored)
    found: list[Finding] = []
    for path, data in read.items():
        if isinstance(data, str):
            found.append(Finding(path, 1, 1, "RS046", data))
            continue
        problem = None if data is None else _refusal(data)
        if problem is not None:
            line, message = problem
            found.append(Finding(path, line, 1, "RS046", f"{message}: the scenario loader refuses it"))
    if cache is not None and target is not None:
        cache.save_blob(target, key, tuple(found), salted=False)
    return found


def _refusal(data: bytes) -> tuple[int, str] | None:
    """``(line, message)`` of what makes ``data`` unreadable as a scenario's YAML, or ``None``."""
    import yaml

    from rulespy import yamlbudget

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return data[: error.start].count(b"\n") + 1, "the scenario file is not UTF-8 text"
    try:
        yamlbudget.compose(text, portable=True)
    except yamlbudget.YAMLTooLarge as error:
        return error.line, error.message.replace("the document", "the scenario")
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        return (mark.line + 1 if mark is not None else 1), f"YAML syntax error: {error.problem or 'invalid'}"
    except yaml.YAMLError as error:
        return 1, f"YAML syntax error: {error}"
    return None
