"""``rulespy resolve``: the contract's exit codes, check order, JSON and a rule-cited account."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulespy.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "examples" / "scenarios").glob("*.yaml"))
_CITATION = re.compile(r"\[([\w./-]+\.md#[\w-]+)\]")

CONTRACT_EXAMPLE = (ROOT / "examples" / "scenarios" / "contract_example.yaml").read_text(encoding="utf-8")

ILLEGAL_WITH_A_DIE_OF_7 = CONTRACT_EXAMPLE.replace("side: red", "side: blue").replace(
    "[6, 2, 5]", "[6, 7, 5]"
)


def _write(tmp_path: Path, text: str, name: str = "scenario.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_contract_example_resolves_to_the_contract_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["resolve", str(_write(tmp_path, CONTRACT_EXAMPLE)), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["legal"] is True
    (attack,) = result["attacks"]
    assert (attack["unit"], attack["command"], attack["initiative"]) == ("rangers", "shoot", True)
    (target,) = attack["targets"]
    assert target["locks"] == [
        {"model": "r1", "weapon": "carbine", "natural": 6, "modified": 4, "success": True, "critical": True},
        {
            "model": "r1",
            "weapon": "carbine",
            "natural": 2,
            "modified": 0,
            "success": False,
            "critical": False,
        },
        {"model": "r2", "weapon": "lance", "natural": 5, "modified": 3, "success": True, "critical": True},
    ]
    assert (target["fired"], target["leadership"], target["successes"], target["criticals"]) == (
        True,
        None,
        2,
        2,
    )
    assert target["allocation"] == [
        {"model": "d1", "weapon": "carbine", "critical": True, "wounds": 2},
        {"model": "d2", "weapon": "lance", "critical": True, "wounds": 1},
    ]
    assert result["casualties"] == [
        {"model": "d1", "removed": "immediate"},
        {"model": "d2", "removed": "immediate"},
    ]
    assert result["models"] == {
        "r1": {"wounds": 1, "status": []},
        "r2": {"wounds": 1, "status": ["pinned"]},
        "d1": {"wounds": 0, "status": []},
        "d2": {"wounds": 0, "status": []},
    }
    assert all(set(event) == {"rule", "text"} for event in result["trace"])


def test_legality_is_checked_before_the_scripted_dice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, ILLEGAL_WITH_A_DIE_OF_7)
    assert main(["resolve", str(path), "--json"]) == 1
    out, err = capsys.readouterr()
    assert err == ""
    result = json.loads(out)
    assert result["legal"] is False and set(result["error"]) == {"rule", "message"}
    assert re.fullmatch(r"[\w/]+\.md#[\w-]+", result["error"]["rule"])


def test_an_illegal_declaration_says_what_was_declared_the_rule_and_its_owner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["resolve", str(_write(tmp_path, ILLEGAL_WITH_A_DIE_OF_7))]) == 1
    out = capsys.readouterr().out
    assert "nothing was rolled" in out
    assert "the rangers declare Shoot at the drones, marking d1" in out
    assert "core/shooting.md#target-legality" in out and "owned by core/shooting.md" in out


def test_the_form_is_checked_before_legality(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = ILLEGAL_WITH_A_DIE_OF_7.replace("lock: 4", "lock: 1")
    path = _write(tmp_path, text)
    assert main(["resolve", str(path)]) == 2
    out, err = capsys.readouterr()
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "carbine:" in row and "lock: 1" in row)
    assert out == "" and err.startswith(f"{path}:{line}: ")


def test_the_dice_source_is_checked_before_legality(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, ILLEGAL_WITH_A_DIE_OF_7 + "seed: 4\n")
    assert main(["resolve", str(path)]) == 2
    assert "both 'dice' and 'seed'" in capsys.readouterr().err


def test_a_seed_gives_the_same_answer_every_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, CONTRACT_EXAMPLE.replace("dice: [6, 2, 5]", "seed: 12345"))
    answers = []
    for _ in range(2):
        assert main(["resolve", str(path), "--json"]) == 0
        answers.append(capsys.readouterr().out)
    assert answers[0] == answers[1]


def test_a_missing_file_is_malformed_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere.yaml"
    assert main(["resolve", str(missing)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"{missing}:1: no such scenario file\n"


def test_an_engine_crash_is_reported_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulespy.sequences.resolution as sequence

    def broken(scenario: object, dice: object = None) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(sequence, "resolve", broken)
    path = _write(tmp_path, CONTRACT_EXAMPLE)
    assert main(["resolve", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"{path}:1: internal error") and "ZeroDivisionError" in err
    assert "Traceback" not in err


def test_every_cited_rule_is_an_anchor_that_exists(capsys: pytest.CaptureFixture[str]) -> None:
    """Each rule the account or the trace cites resolves, with the same anchor rules the site uses."""
    from rulespy.check.graph import build_graph

    graph = build_graph(ROOT, use_cache=False)
    cited: set[str] = set()
    for path in SCENARIOS:
        code = main(["resolve", str(path), "--json"])
        result = json.loads(capsys.readouterr().out)
        cited |= {event["rule"] for event in result.get("trace", [])}
        if code == 1:
            cited.add(result["error"]["rule"])
        main(["resolve", str(path)])
        cited |= set(_CITATION.findall(capsys.readouterr().out.replace("\n", " ")))
    missing = sorted(
        rule for rule in cited if rule.partition("#")[2] not in graph.anchors(rule.partition("#")[0])
    )
    assert missing == []


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_account_line_names_its_rule(
    path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulespy.account

    monkeypatch.setattr(rulespy.account, "_WIDTH", 100_000)  # one line an entry, so each can be checked
    main(["resolve", str(path)])
    lines = capsys.readouterr().out.splitlines()
    sections = {
        "Step by step",
        "Outcome",
        "Casualties",
        "Final state",
        "Illegal declaration: nothing was rolled",
    }
    body = [
        line for line in lines[2:] if line.strip() and line not in sections
    ]  # after the path and description
    uncited = [
        line for line in body if not _CITATION.search(line) and not line.strip().startswith("The rule is")
    ]
    assert uncited == []


def test_r3_assault_without_shooting_resolves_legal_with_the_target_not_fired(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The contract: exit 0, ``legal: true``, the target with ``fired: false`` and no dice; the account says
    that the Assault goes ahead without shooting and that melee follows."""
    path = str(ROOT / "examples" / "scenarios" / "assault_without_shooting.yaml")
    assert main(["resolve", path, "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["legal"] is True
    (target,) = result["attacks"][0]["targets"]
    assert (target["unit"], target["fired"], target["locks"]) == ("rangers", False, [])
    assert result["casualties"] == []
    assert main(["resolve", path]) == 0
    account = capsys.readouterr().out
    assert "goes ahead without shooting" in account and "melee follows" in account
    assert main(["odds", path, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["casualties"] == {"0": 1.0, "1": 0.0, "2": 0.0}


@pytest.mark.parametrize(
    "argv",
    [
        ["resolve", "scenario.yaml"],
        ["resolve", "scenario.yaml", "--json"],
        ["resolve", "--json", "a b/scenario.yaml"],
        ["resolve", "resolve"],
        ["resolve", ""],
    ],
)
def test_resolve_arguments_read_without_the_parsers_as_argparse_reads_them(argv: list[str]) -> None:
    """The start-up shortcut for ``resolve SCENARIO [--json]`` gives what the parsers give."""
    from rulespy.cli import _parse, plain_resolve

    assert plain_resolve(list(argv)) == _parse(list(argv))


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["resolve"],
        ["resolve", "--help"],
        ["resolve", "-h", "scenario.yaml"],
        ["resolve", "--js", "scenario.yaml"],
        ["resolve", "--json", "--json"],
        ["resolve", "a.yaml", "b.yaml"],
        ["resolve", "-", "--json"],
        ["resolve", "--", "scenario.yaml"],
        ["odds", "scenario.yaml"],
        ["--json", "resolve", "scenario.yaml"],
    ],
)
def test_resolve_arguments_the_shortcut_leaves_to_the_parsers(argv: list[str]) -> None:
    from rulespy.cli import plain_resolve

    assert plain_resolve(list(argv)) is None
