"""``rulespy resolve --lang ru`` and ``rulespy odds --lang ru``: the account, the JSON ``trace[].text``, the
outcome, the refusals and the odds in Russian, every citation a Russian section title, and everything but
the words the same as in English.

Every scenario ``rulespy diff`` resolves (the scenario files and every worked example's scenario) is
resolved in both languages. English words allowed in the Russian account: the scenario's own values
(unit and model ids, weapon names; its description, in the header), rule paths and file names, and the
scenario keys a refusal names (``response``, ``snap_fire``).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from rulespy.cli import main
from rulespy.coverage.diff import jobs
from rulespy.scenario import parse_scenario
from tests.cli.resolve_outputs import outputs, recorded, remembered_parses

ROOT = Path(__file__).resolve().parents[2]
JOBS = jobs(ROOT)[0]
_PATH = re.compile(r"[\w./-]+\.(?:md|yaml|yml)(?:#[\w-]+)?")
_WORD = re.compile(r"[A-Za-z][A-Za-z']+")
_ALLOWED = {"rulespy", "response", "snap_fire", "odds", "help"}
_CITATION = re.compile(r"\[([^\[\]]+)\]")


def _run(command: str, path: Path, *options: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([command, str(path), *options])
    return code, out.getvalue(), err.getvalue()


def _joined(run: dict[str, Any]) -> tuple[int, str, str]:
    """A run as ``resolve_outputs`` keeps it (lines, the scenario's folder left out) as ``_run`` gives it."""
    return run["exit"], "\n".join(run["stdout"]), "\n".join(run["stderr"])


@pytest.fixture(scope="module")
def answers() -> dict[str, dict[str, Any]]:
    """Each scenario's text and JSON answers in English and Russian, and its own words (ids, names).

    The English answers are the recorded ones (``resolve_outputs.json``), which
    ``test_resolve_outputs.py`` proves are what ``rulespy resolve`` prints now; only the Russian are
    resolved here, each scenario parsed once for both."""
    english = recorded()
    with remembered_parses():
        russian = outputs(ROOT, {"ru": ("--lang", "ru"), "ru json": ("--json", "--lang", "ru")})
        found: dict[str, dict[str, Any]] = {}
        for job in JOBS:
            path = ROOT / job["path"]
            if job["path"].endswith((".yaml", ".yml")) and path.is_file():
                text = path.read_text(encoding="utf-8")
            else:
                text = job["yaml"]
            recorded_en = english[job["id"]]
            runs = {"en": recorded_en["text"], "en json": recorded_en["json"], **russian[job["id"]]}
            found[job["id"]] = {name: _joined(run) for name, run in runs.items()}
            found[job["id"]]["own"] = _own_words(text)
    return found


def _own_words(text: str) -> set[str]:
    """The scenario's own values: unit and model ids and weapon names (its description is in the header,
    which the tests leave out)."""
    try:
        scenario = parse_scenario(text, "scenario.yaml")
    except Exception:  # a malformed scenario: its message stays English (exit 2)
        return set()
    words: set[str] = set()
    for unit in scenario.battlefield.units:
        words |= set(_WORD.findall(unit.id))
        for model in unit.models:
            words |= set(_WORD.findall(model.id)) | {w for name in model.weapons for w in _WORD.findall(name)}
    for weapon in scenario.battlefield.weapons:
        words |= set(_WORD.findall(weapon.name))
    return words


def _english(text: str, own: set[str]) -> list[str]:
    """The English words of ``text`` that are none of the allowed ones."""
    body = _PATH.sub(" ", text)
    words = (w.strip("'") for w in _WORD.findall(body))
    return [w for w in words if w not in own and w not in _ALLOWED]


def test_every_scenario_is_resolved(answers: dict[str, dict[str, Any]]) -> None:
    assert len(answers) >= 100
    assert {a["ru"][0] for a in answers.values()} >= {0, 1}


@pytest.mark.parametrize("name", [job["id"] for job in JOBS])
def test_the_russian_account_is_russian(name: str, answers: dict[str, dict[str, Any]]) -> None:
    answer = answers[name]
    (code, en, en_err), (ru_code, ru, ru_err) = answer["en"], answer["ru"]
    assert ru_code == code
    if code == 2:  # a malformed scenario: the located message stays English (the CLI contract)
        assert ru_err == en_err and ru == ""
        return
    assert ru != en
    body = ru.split("\n\n", 1)[1]  # the header is the scenario's path and its own description
    assert _english(body, answer["own"]) == []
    citations = _CITATION.findall(" ".join(body.split()))
    assert citations, body
    for cited in citations:
        assert re.fullmatch(r"«[^»]+», [\w/]+\.md#[\w-]+", cited), cited


@pytest.mark.parametrize("name", [job["id"] for job in JOBS])
def test_the_russian_json_differs_only_in_its_words(name: str, answers: dict[str, dict[str, Any]]) -> None:
    answer = answers[name]
    (code, en, _), (ru_code, ru, _) = answer["en json"], answer["ru json"]
    assert ru_code == code
    if code == 2:
        return
    english, russian = json.loads(en), json.loads(ru)
    if code == 1:
        assert russian["error"]["rule"] == english["error"]["rule"]
        assert _english(russian["error"]["message"], answer["own"]) == []
        russian["error"]["message"] = english["error"]["message"]
        assert russian == english
        return
    for line in russian["trace"]:
        assert _english(line["text"], answer["own"]) == [], line
    assert [line["rule"] for line in russian["trace"]] == [line["rule"] for line in english["trace"]]
    for data in (english, russian):
        for line in data["trace"]:
            del line["text"]
    assert russian == english


@pytest.mark.parametrize(
    "scenario",
    ["snap_fire_firefight.yaml", "split_fire.yaml", "advance.yaml", "illegal_friendly_target.yaml"],
)
def test_the_russian_odds_are_russian(scenario: str) -> None:
    path = ROOT / "examples" / "scenarios" / scenario
    code, en, _ = _run("odds", path)
    ru_code, ru, _ = _run("odds", path, "--lang", "ru")
    assert ru_code == code and ru != en
    own = _own_words(path.read_text(encoding="utf-8"))
    body = ru if code == 0 else ru.split("\n\n", 1)[1]
    assert _english(body, own) == []
    if code == 0:
        assert "Ожидаемые потери: " in ru and re.search(r"\d,\d%", ru)
    json_en, json_ru = _run("odds", path, "--json")[1], _run("odds", path, "--json", "--lang", "ru")[1]
    if code == 0:
        assert json_ru == json_en  # the odds' JSON holds no words


def test_a_russian_refusal_names_the_rule_by_its_russian_title() -> None:
    path = ROOT / "examples" / "scenarios" / "illegal_friendly_target.yaml"
    code, text, _ = _run("resolve", path, "--lang", "ru")
    assert code == 1
    assert "Недопустимое объявление: ничего не брошено" in text
    assert "«Допустимость цели», core/shooting.md#target-legality" in " ".join(text.split())


def test_lang_is_checked_by_argparse() -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as stopped:
        main(["resolve", "x.yaml", "--lang", "de"])
    assert stopped.value.code == 2 and "invalid choice: 'de'" in err.getvalue()


def test_the_judge_passes_the_language_to_the_command_line() -> None:
    """``rulespy.render.web`` (what the judge's worker calls) answers in the page's language."""
    from rulespy.render import web

    text = (ROOT / "examples" / "scenarios" / "advance.yaml").read_text(encoding="utf-8")
    english, russian = json.loads(web.resolve(text)), json.loads(web.resolve(text, "ru"))
    assert english["exit"] == russian["exit"] == 0 and english["start"] == russian["start"]
    assert "Шаг за шагом" in russian["account"] and "Step by step" in english["account"]
    assert json.loads(russian["json"])["trace"][0]["text"].startswith("отряд troopers объявляет")
    odds_ru = json.loads(web.odds(text, "ru"))
    assert odds_ru["exit"] == 0 and "Ожидаемые потери" in odds_ru["text"]
    assert odds_ru["json"] == json.loads(web.odds(text))["json"]


#: The judge's bundle as Pyodide runs it: no site-packages (so no Babel: the .mo the bundle carries).
BUNDLE_PAGE = """
import json, sys
sys.path.insert(0, sys.argv[1])
try:
    import babel
    raise SystemExit("babel is importable: " + babel.__file__)
except ImportError:
    pass
from rulespy.render import web
assert web.__file__.startswith(sys.argv[1]), web.__file__
texts = json.load(sys.stdin)
print(json.dumps([[json.loads(web.resolve(t, "ru")), json.loads(web.odds(t, "ru"))] for t in texts]))
"""


def test_the_judges_bundle_speaks_russian_without_babel(tmp_path: Path) -> None:
    """In the judge (Pyodide has no Babel) the engine reads the ``.mo`` the bundle carries: the same
    Russian account and odds as the command line's."""
    import subprocess
    import sys

    from rulespy.render import judge, web

    bundle = tmp_path / judge.BUNDLE
    bundle.write_bytes(judge.bundle())
    names = ["advance.yaml", "snap_fire_firefight.yaml", "illegal_friendly_target.yaml"]
    texts = [(ROOT / "examples" / "scenarios" / name).read_text(encoding="utf-8") for name in names]
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", BUNDLE_PAGE, str(bundle)],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for text, (resolved, odds) in zip(texts, json.loads(done.stdout), strict=True):
        assert resolved == json.loads(web.resolve(text, "ru"))
        assert odds == json.loads(web.odds(text, "ru"))
    assert "Шаг за шагом" in json.loads(done.stdout)[0][0]["account"]
