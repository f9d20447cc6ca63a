"""An alias bomb planted in ``examples/scenarios/`` (issue 25): ``rulespy check`` reports it at its line
(RS046) and ``rulespy render`` refuses it at the same line through the scenario loader, publishing
nothing, instead of expanding it (it used to keep the render busy past 60 s, building the Judge page's
library of weapon profiles). The budget is asserted as work counted: the values composed before the
refusal stay within ``rulespy.yamlbudget.MAX_NODES``, however many the aliases would expand to."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulespy import yamlbudget
from rulespy.check.runner import CheckOptions, check_tree
from rulespy.cli import main
from rulespy.render.stage import RenderError, render
from tests.check.helpers import write

pytestmark = pytest.mark.timeout(60)  # only a guard against a hang: the work is counted below

HOME = "# Home\n\nThe scenarios are [armour](examples/scenarios/bomb.yaml).\n"
LEVELS = 10  # 9**10 values, aliases expanded
BOMB = "\n".join(
    [
        "a0: &a0 [x, x, x, x, x, x, x, x, x]",
        *(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, LEVELS)),
        f"weapons: {{bomb: *a{LEVELS - 1}}}",
        "units: []",
        "",
    ]
)
#: The most values a composition counts before it is refused: the budget, plus the alias that passed it
#: (a3 in line 5: 9**4 scalars in 9**3 + 9**2 + 9 + 1 lists), against 9**10 scalars the aliases name.
MOST = yamlbudget.MAX_NODES + sum(9**k for k in range(5))
LINE = 5  # a4, whose aliases take the count past the budget (9 + 81 + 729 + 6,561, then 59,049 more)


@pytest.fixture
def bombed(tmp_path: Path) -> Path:
    return write(tmp_path / "repo", {"index.md": HOME, "examples/scenarios/bomb.yaml": BOMB})


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The values every budgeted composition of the test counted, one entry a composition."""
    added: list[int] = []
    original = yamlbudget._BoundedComposer._add

    def add(self: yamlbudget._BoundedComposer, size: int, line: int) -> None:
        if self._count == 0:
            added.append(0)
        added[-1] += size
        original(self, size, line)

    monkeypatch.setattr(yamlbudget._BoundedComposer, "_add", add)
    return added


def test_check_reports_the_alias_bomb_at_its_line(bombed: Path, counted: list[int]) -> None:
    found = [(f.path, f.line, f.code) for f in check_tree(bombed, CheckOptions(use_cache=False))]
    assert ("examples/scenarios/bomb.yaml", LINE, "RS046") in found
    assert counted and max(counted) <= MOST  # never expanded


def test_render_refuses_the_alias_bomb_with_its_file_and_line(bombed: Path, counted: list[int]) -> None:
    with pytest.raises(RenderError) as refused:
        render(bombed, unreleased=False)
    assert refused.value.problems == [
        f"examples/scenarios/bomb.yaml:{LINE}: the scenario expands to more than 50,000 keys and values, "
        "aliases included"
    ]
    assert not (bombed / "build" / "pages").exists()  # nothing staged for a generator to publish
    assert counted and max(counted) <= MOST  # the values counted, not the billions named


def test_the_render_command_exits_2_naming_the_scenario(
    bombed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", str(bombed)]) == 2
    assert f"examples/scenarios/bomb.yaml:{LINE}: the scenario expands" in capsys.readouterr().err
