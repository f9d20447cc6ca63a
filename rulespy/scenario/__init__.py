"""The scenario loader: a YAML scenario file in, a frozen ``rulespy.state.Scenario`` out.

``parse_scenario(text, path)`` and ``load_scenario(path)`` raise ``rulespy.errors.InvalidInput`` with the
line of the offending key or value for anything malformed (exit 2 on the command line). They check form
only: whether the declared attack is legal is the engine's question. Limits, so that no input can
hang the loader, each named once: a regular file (never a FIFO or a device) of ``MAX_BYTES`` of text
(``yamlnodes``); ``MAX_NODES`` keys and values, aliases expanded, and ``MAX_DEPTH`` levels of nesting
(``rulespy.yamlbudget``, shared with every YAML file rulespy reads); ``MAX_MODELS`` models and
``MAX_TOTAL_DICE`` Target Lock dice carried in all (``build``); dice per weapon, positions and ranges
(``schema``); integers of at most 4,300 digits.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from rulespy.errors import InvalidInput
from rulespy.scenario import build
from rulespy.scenario.yamlnodes import MAX_BYTES, Map, parse, plain
from rulespy.state import Scenario

__all__ = ["load_scenario", "parse_scenario", "read_scenario_text", "weapon_profiles"]


def parse_scenario(text: str, path: str = "<scenario>") -> Scenario:
    """The scenario written in ``text``; ``path`` is only used in messages and kept on the result."""
    return build.build(parse(text, path), path)


def weapon_profiles(text: str, path: str = "<scenario>") -> dict[str, object]:
    """The ``weapons`` of the scenario in ``text`` as written (each name's profile as plain data), once
    the loader has accepted the whole scenario; ``InvalidInput`` as ``parse_scenario`` raises it. What
    the site's Judge page offers as its library of profiles (``rulespy.render.judge.library``).

    >>> weapon_profiles('''
    ... weapons: {rifle: {range: 24, dice: 2, lock: 4, damage: 1}}
    ... units:
    ...   - {id: a, side: blue, models: [{id: a1, at: [0, 0], leader: true, weapons: [rifle]}]}
    ...   - {id: b, side: red, models: [{id: b1, at: [10, 0]}]}
    ... attack: {unit: a, command: shoot, targets: [{unit: b, mark: b1}]}
    ... ''')
    {'rifle': {'range': 24, 'dice': 2, 'lock': 4, 'damage': 1}}
    """
    root = parse(text, path)
    build.build(root, path)
    weapons = root.entries.get("weapons") if isinstance(root, Map) else None
    found = plain(weapons.value) if weapons is not None else {}
    return dict(found) if isinstance(found, dict) else {}


def load_scenario(path: str | Path) -> Scenario:
    """The scenario in the file at ``path`` (UTF-8). A missing or unreadable file is malformed input too."""
    return parse_scenario(read_scenario_text(path), str(path))


def read_scenario_text(path: str | Path) -> str:
    """The text of the scenario file at ``path``: at most 1 MB of UTF-8, else ``InvalidInput``."""
    where = str(path)
    try:  # non-blocking open: a FIFO must not hang us before we can see that it is not a file
        with open(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as handle:
            mode = os.fstat(handle.fileno()).st_mode
            if stat.S_ISDIR(mode):
                raise IsADirectoryError
            if not stat.S_ISREG(mode):
                raise InvalidInput("the scenario path is not a regular file (a FIFO or a device)", 1, where)
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise InvalidInput("no such scenario file", 1, where) from None
    except IsADirectoryError:
        raise InvalidInput("the scenario path is a folder, not a file", 1, where) from None
    except OSError as error:
        raise InvalidInput(f"cannot read the scenario file: {error.strerror or error}", 1, where) from None
    except ValueError:  # os.open refuses a path holding a NUL character before asking the system
        where = where.replace("\0", "\\0")
        message = "the scenario path holds a NUL character, which no file name may"
        raise InvalidInput(message, 1, where) from None
    if len(data) > MAX_BYTES:
        raise InvalidInput(f"the scenario is larger than {MAX_BYTES // 1_000_000} MB", 1, where)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InvalidInput("the scenario file is not UTF-8 text", line, where) from None
    return text
