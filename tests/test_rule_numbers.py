"""Every number the rule text states is the engine's number.

The rules keep their numbers in the rule files (tables and sentences players read); the engine keeps them
as named constants. These tests read the numbers out of the rule files and compare them with the engine,
so changing one without the other fails the suite.
"""

from __future__ import annotations

import re
from pathlib import Path

from markdown_it import MarkdownIt

from rulespy.commands import rules_for
from rulespy.core import allocation, measuring, statuses, target_lock
from rulespy.core.cover import cover_modifier
from rulespy.core.critical_damage import critical_wounds
from rulespy.core.ranged_weapons import Weapon
from rulespy.state import Command, Cover

ROOT = Path(__file__).resolve().parents[1]
RIFLE = Weapon("rifle", range=24, dice=1, lock=4, damage=2)


def section(path: str, anchor: str) -> str:
    """The text of the section whose heading carries ``{#anchor}``, up to the next heading of its level."""
    lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("#") and f"{{#{anchor}}}" in line)
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    end = next(
        (i for i in range(start + 1, len(lines)) if re.match(rf"#{{1,{level}}} ", lines[i])), len(lines)
    )
    return "\n".join(lines[start:end])


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the first markdown table in ``text``, each cell as its inline source."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    rows: list[list[str]] = []
    in_body = False
    for token in tokens:
        if token.type == "tbody_open":
            in_body = True
        elif token.type == "tbody_close":
            break
        elif in_body and token.type == "tr_open":
            rows.append([])
        elif in_body and token.type == "inline":
            rows[-1].append(token.content)
    return rows


def amount(cell: str) -> int:
    return int(cell.replace("−", "-"))


def engine_modifier(owner: str) -> int:
    """The engine's modifier for the situation a row of the modifier table links to."""
    shoot = rules_for(Command.SHOOT)
    situations = {
        "command_advance.md#advance": lambda: rules_for(Command.ADVANCE).lock_modifier,
        "command_snap_fire.md#snap-fire": lambda: rules_for(Command.SNAP_FIRE).lock_modifier,
        "command_covering_fire.md#covering-fire": lambda: rules_for(Command.COVERING_FIRE).lock_modifier,
        "statuses.md#pinned": lambda: sum(
            m.amount for m in target_lock.lock_modifiers(RIFLE, True, Cover.NONE, shoot)
        ),
        "cover.md#light-cover": lambda: sum(
            m.amount for m in target_lock.lock_modifiers(RIFLE, False, Cover.LIGHT, shoot)
        ),
        "cover.md#heavy-cover": lambda: sum(
            m.amount for m in target_lock.lock_modifiers(RIFLE, False, Cover.HEAVY, shoot)
        ),
        "ranged_weapons.md#precise": lambda: sum(
            m.amount
            for m in target_lock.lock_modifiers(
                Weapon("p", 1, 1, 4, 1, precise=True), False, Cover.NONE, shoot
            )
        ),
    }
    key = next(k for k in situations if k in owner)
    return situations[key]()


def test_target_lock_modifiers_table_is_the_engines() -> None:
    rows = table_rows(section("core/target_lock.md", "target-lock-modifiers"))
    assert len(rows) == 7
    for modifier, _when, owner in rows:
        assert amount(modifier) == engine_modifier(owner), owner


def test_modifier_cap_sentence_is_the_engines() -> None:
    text = section("core/target_lock.md", "modifier-cap")
    assert f"never lower than {target_lock.MODIFIER_FLOOR}" in text
    assert f"never higher than +{target_lock.MODIFIER_CEILING}" in text


def test_cover_table_is_the_engines() -> None:
    rows = table_rows(section("core/cover.md", "cover"))
    levels = {"none": Cover.NONE, "Light": Cover.LIGHT, "Heavy": Cover.HEAVY}
    for name, modifier in rows:
        level = next(v for k, v in levels.items() if k in name)
        assert amount(modifier) == cover_modifier(level)


def test_allocation_band_is_the_engines() -> None:
    assert allocation.NEAR_BAND == 12
    assert 'within 12" of the nearest model that fired' in section("core/allocation.md", "allocation-key")


def test_engagement_range_is_the_engines() -> None:
    assert statuses.ENGAGEMENT_RANGE == 1
    assert 'within 1"' in section("core/statuses.md", "engaged")


def test_critical_damage_is_damage_plus_one() -> None:
    assert "`damage + 1`" in section("core/critical_damage.md", "critical-damage")
    assert critical_wounds(RIFLE) == RIFLE.damage + 1


def test_measuring_tolerance_is_the_engines() -> None:
    assert measuring.EPSILON == 1e-9
    assert '1e-9"' in (ROOT / "core/measuring.md").read_text(encoding="utf-8")
