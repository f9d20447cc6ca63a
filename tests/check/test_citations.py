"""RS051: every rule the engine cites exists, in a docstring ``Rule:`` line or in an ``Event(...)`` or
error call."""

from __future__ import annotations

import shutil
from pathlib import Path

from rulespy.check.checks_code import citations
from rulespy.check.runner import CheckOptions, check_tree

FIXTURE = Path(__file__).parent / "fixtures" / "RS051"
MAIN = Path(__file__).resolve().parents[2]

ENGINE = '''"""Events of the fixture.

Rule: core/cover.md#cover
"""

from rulespy.errors import IllegalDeclaration
from rulespy.events import Event


def light(step: str) -> Event:
    """Rule: core/cover.md#cover"""
    if step:
        return Event(f"core/cover.md#{step}", "built at run time: not checked")
    return Event("core/cover.md#hard-cover", "no such anchor")


def refuse() -> None:
    raise IllegalDeclaration(
        "core/missing.md#cover",
        "no such file",
    )
'''


def test_rs051_reports_a_missing_rule_cited_by_an_event_or_an_error(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    shutil.copytree(FIXTURE, root)
    (root / "rulespy" / "core" / "cover.py").unlink()
    (root / "rulespy" / "core" / "events.py").write_text(ENGINE, encoding="utf-8")
    found = check_tree(root, CheckOptions(use_cache=False))
    assert [(f.path, f.line, f.column, f.code) for f in found] == [
        ("rulespy/core/events.py", 14, 18, "RS051"),
        ("rulespy/core/events.py", 19, 9, "RS051"),
    ], "\n".join(map(str, found))
    assert "core/cover.md#hard-cover" in found[0].message
    assert "core/missing.md does not exist" in found[1].message


def test_the_engine_cites_rules_in_its_events_and_errors() -> None:
    source = MAIN / "rulespy" / "core" / "statuses.py"
    cited = {link.target for link in citations("rulespy/core/statuses.py", source.read_bytes()).links}
    assert "core/statuses.md#shaken" in cited  # IllegalDeclaration("core/statuses.md#shaken", ...)
