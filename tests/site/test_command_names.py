"""The Russian name of each command in the site's example summaries (``COMMANDS`` in
``rulespy/render/localize.py``) is the name ``concepts.yml`` gives the command's own page first, for every
command the engine has: the two lists cannot drift apart, and a new command fails here until it has both."""

from __future__ import annotations

from pathlib import Path

import yaml

from rulespy.render.localize import COMMANDS
from rulespy.state import Command

ROOT = Path(__file__).resolve().parents[2]


def test_every_command_has_the_russian_name_its_concept_gives() -> None:
    owners = yaml.safe_load((ROOT / "concepts.yml").read_text(encoding="utf-8"))["owners"]
    named = {
        command.value: owners[f"commands/command_{command.value}.md"][0]["ru"][0] for command in Command
    }
    assert COMMANDS["ru"] == named
