"""A worked example marked ``# show the odds`` gets its attack's exact odds, computed at build time."""

from __future__ import annotations

import multiprocessing
import signal
import time
from pathlib import Path

import pytest

from rulespy.render import examples

PAGE = '''# Page {#page}

```{.python}
from rulespy.play import play

result = play("""
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - id: gun
    side: blue
    models: [{id: g1, at: [0, 0], leader: true, weapons: [rifle]}]
  - id: foes
    side: red
    models: [{id: f1, at: [10, 0]}, {id: f2, at: [10, 2]}]
attack: {unit: gun, command: shoot, targets: [{unit: foes, mark: f1}]}
dice: [4]
""")
# show the odds
assert result.removed == {"f1": "end_of_attack"}
```
'''


def test_marked_example_shows_exact_odds_from_the_engine() -> None:
    [example] = examples.find_examples(PAGE)
    assert example.odds_source is not None
    fence = PAGE.splitlines()[example.start : example.end]
    block = "\n".join(examples.example_block(example, fence, "k"))
    # one lock-4 die: a success (4, 5 or 6) kills f1 half the time; f2 can never be hit
    assert "| 0 | 50.0% | 1/2 |" in block and "| 1 | 50.0% | 1/2 |" in block
    assert "| 2 | 0% | 0 |" in block


def test_unmarked_example_shows_no_odds() -> None:
    [example] = examples.find_examples(PAGE.replace("# show the odds\n", ""))
    assert example.odds_source is None


def test_odds_too_large_for_a_page_say_so_instead_of_holding_the_build(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    [example] = examples.find_examples(PAGE)
    assert example.odds_source is not None
    monkeypatch.setattr(examples, "ODDS_SECONDS", 0.0)  # no child answers in no time: as if it were huge
    assert examples.odds_block(example.odds_source) == [examples.TOO_LARGE]


HUGE = PAGE.replace("rifle: {range: 24, dice: 1,", "rifle: {range: 24, dice: 300,").replace(
    "models: [{id: f1, at: [10, 0]}, {id: f2, at: [10, 2]}]",
    "models: [" + ", ".join(f"{{id: f{i}, at: [10, {i * 0.01:.2f}], base: 0.01}}" for i in range(300)) + "]",
)


def test_a_real_odds_request_too_large_for_a_page_is_refused_before_the_engine_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """300 dice at 300 models: the odds child judges the request from the scenario alone
    (``rulespy.odds.limits``) and answers "too large" without enumerating a state (work counted: the
    forked child inherits the patched engine, which would leave a mark had it been started)."""
    [example] = examples.find_examples(HUGE)
    assert example.odds_source is not None and len(example.scenarios[0].battlefield.units[1].models) == 300
    mark = tmp_path / "engine-started"

    def started(*_: object, **__: object) -> None:
        mark.write_text("started", encoding="utf-8")
        raise AssertionError("the exact engine was started")

    import rulespy.odds

    monkeypatch.setattr(rulespy.odds, "final_states", started)
    monkeypatch.setattr(examples, "ODDS_SECONDS", 30.0)  # the child's own answer, even on a busy machine
    assert examples.odds_block(example.odds_source) == [examples.TOO_LARGE]
    assert not mark.exists()


def test_an_odds_child_that_never_answers_is_killed_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """A child stuck in work that ignores SIGTERM (what an attack the limits let through but that runs
    long would look like) is given ``ODDS_SECONDS``, then killed and reaped: the page says "too large"
    and no process is left behind. The hang guard is pytest-timeout, not a measured duration."""
    real = multiprocessing.get_context("fork")
    children: list[multiprocessing.process.BaseProcess] = []

    class Recording:
        """The fork context, keeping each child it starts."""

        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

        def Process(self, *args: object, **kwargs: object) -> multiprocessing.process.BaseProcess:  # noqa: N802 - multiprocessing's name
            child = real.Process(*args, **kwargs)  # type: ignore[arg-type]
            children.append(child)
            return child

    def stuck(source: str, answer: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            time.sleep(60)

    monkeypatch.setattr(examples.multiprocessing, "get_context", lambda method: Recording())
    monkeypatch.setattr(examples, "_odds_child", stuck)
    monkeypatch.setattr(examples, "ODDS_SECONDS", 0.5)
    [example] = examples.find_examples(PAGE)
    assert example.odds_source is not None
    assert examples.odds_block(example.odds_source) == [examples.TOO_LARGE]
    [child] = children
    assert child.exitcode == -signal.SIGKILL and not child.is_alive(), "the odds child outlived its limit"
