"""The rules judge's Python side, without a browser: the entry the page calls inside Pyodide
(``rulespy.render.web``) answers exactly what the command line answers, for every scenario; the
examples' "Try it" boxes and the permalinks carry each scenario's text intact; the bundle the site
ships is rulespy's and PyYAML's pure-Python sources, the same for the same sources.

The browser side (Pyodide in headless Chromium) is ``test_judge_browser.py``.
"""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from rulespy import api
from rulespy.coverage.diff import jobs
from rulespy.render import judge, web
from tests.cli.resolve_outputs import recorded

ROOT = Path(__file__).resolve().parents[2]
TRY = re.compile(r'<div class="vs-try" data-scenario="([\w-]+)"></div>')


def _scenarios() -> dict[str, str]:
    todo, _ = jobs(ROOT)
    return {job["id"]: job["yaml"] for job in todo}


def _lines(text: str) -> list[str]:
    return text.splitlines()


def test_page_entry_prints_byte_for_byte_the_json_of_rulespy_resolve_for_every_scenario() -> None:
    """Issue 17, permalinks: the page's JSON equals ``rulespy resolve --json`` (as recorded by
    ``tests/cli/resolve_outputs.json``, which ``tests/cli`` keeps equal to the command line)."""
    record = recorded()
    scenarios = _scenarios()
    assert set(scenarios) == set(record) and len(scenarios) > 50
    for name, text in scenarios.items():
        answer = json.loads(web.resolve(text))
        code, out, err = answer["exit"], answer["json"], answer["stderr"]
        expected = record[name]["json"]
        assert code == expected["exit"], name
        assert _lines(out) == expected["stdout"], name
        assert _lines(err.replace(web.SCENARIO, name)) == [
            line.replace(web.SCENARIO, name) for line in expected["stderr"]
        ], name


def test_page_entry_gives_the_command_line_account_and_message_for_every_example() -> None:
    """The account (each line citing its rule) and a malformed scenario's ``scenario.yaml:LINE:
    message`` read as on the command line (examples are recorded under the name ``scenario.yaml``)."""
    record = recorded()
    checked = 0
    for name, text in _scenarios().items():
        if name.endswith((".yaml", ".yml")):
            continue
        answer = json.loads(web.resolve(text))
        expected = record[name]
        assert answer["exit"] == expected["json"]["exit"], name
        assert _lines(answer["json"]) == expected["json"]["stdout"], name
        assert _lines(answer["stderr"]) == expected["json"]["stderr"], name
        if answer["exit"] in (0, 1):
            assert _lines(answer["account"]) == expected["text"]["stdout"], name
        checked += 1
    assert checked > 30


def test_page_entry_names_the_line_of_a_malformed_scenario() -> None:
    text = (ROOT / "examples/scenarios/armour.yaml").read_text(encoding="utf-8")
    broken = text.replace("at: [10, 2]", "at: [10, two]")
    line = broken.splitlines().index(next(r for r in broken.splitlines() if "two]" in r)) + 1
    answer = json.loads(web.resolve(broken))
    assert answer["exit"] == 2 and answer["json"] == "" and answer["account"] == ""
    assert answer["stderr"].startswith(f"scenario.yaml:{line}: ")
    text = api.resolve(broken, web.SCENARIO, ("text",))
    assert text.exit == 2 and text.error == answer["stderr"] and text.text == ""


def test_page_entry_shows_the_rule_an_illegal_declaration_breaks() -> None:
    """Moved out of range, the target cannot be declared (core/shooting.md#which-weapons-fire)."""
    text = (ROOT / "examples/scenarios/armour.yaml").read_text(encoding="utf-8")
    far = text.replace("at: [10, 0]", "at: [100, 0]").replace("at: [10, 2]", "at: [100, 2]")
    answer = json.loads(web.resolve(far))
    assert answer["exit"] == 1
    assert json.loads(answer["json"])["error"]["rule"] == "core/shooting.md#which-weapons-fire"
    assert "core/shooting.md#which-weapons-fire" in answer["account"]


def test_page_odds_are_the_command_line_odds() -> None:
    path = ROOT / "examples/scenarios/armour.yaml"
    answer = json.loads(web.odds(path.read_text(encoding="utf-8")))
    rulespy = Path(sys.executable).parent / "rulespy"
    done = subprocess.run([str(rulespy), "odds", str(path), "--json"], capture_output=True, text=True)
    assert answer["exit"] == done.returncode == 0 and answer["json"] == done.stdout
    assert "Casualties in armoured" in answer["text"]


def test_every_example_box_carries_its_scenario_text_for_try_it(staged: Path) -> None:
    """Each worked example with a board gets a Try it box whose packed text decodes to the scenario the
    example plays, and every example scenario is reachable from some box."""
    found = set()
    for page in sorted((staged / "build" / "pages").rglob("*.md")):
        for code in TRY.findall(page.read_text(encoding="utf-8")):
            text = web.decode(code)
            assert web.encode(text) == code
            found.add(text)
    examples = {text for name, text in _scenarios().items() if not name.endswith((".yaml", ".yml"))}
    assert len(found) > 30
    assert examples & found == examples - {t for t in examples if "units:" not in t}


@pytest.mark.parametrize("text", ["", "dice: [6]\n", "description: café — ☠\n" * 40])
def test_permalink_packing_round_trips(text: str) -> None:
    code = web.encode(text)
    assert re.fullmatch(r"[\w-]*", code)
    assert web.decode(code) == text


def test_bundle_is_pure_python_and_deterministic() -> None:
    """Only pure-Python packages go into Pyodide: the bundle holds .py files only (and the engine's
    compiled message catalogues, rulespy.i18n), rulespy's entry for the page and PyYAML among them, and
    two builds give the same bytes."""
    data = judge.bundle()
    assert data == judge.bundle()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    catalogues = [name for name in names if not name.endswith(".py")]
    assert catalogues == ["rulespy/locale/ru/LC_MESSAGES/rulespy.mo"]
    assert {"rulespy/render/web.py", "rulespy/cli/resolve.py", "yaml/__init__.py"} <= set(names)


def test_pyodide_is_pinned_by_the_lock_file() -> None:
    package = json.loads((judge.PACKAGE / "package.json").read_text(encoding="utf-8"))
    assert package["dependencies"]["pyodide"] == judge.pinned_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+", judge.pinned_version())


def test_judge_page_offers_every_published_scenario() -> None:
    files = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "examples/scenarios").glob("*.yaml"))
    markdown = judge.page(ROOT, files)
    assert all(f'value="{path}"' in markdown for path in files)
    code = re.search(r'data-empty="([\w-]+)"', markdown)
    assert code and json.loads(web.resolve(web.decode(code.group(1))))["exit"] == 0


def test_without_npm_the_runtime_is_refused_with_a_message(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """No npm, no Pyodide: a JudgeError that says what to install (the build then leaves the judge out,
    except under CI=true), never a traceback."""
    monkeypatch.setattr(judge.shutil, "which", lambda name: None)
    with pytest.raises(judge.JudgeError, match="npm is not installed") as refused:
        judge.install_runtime(tmp_path)
    assert refused.value.no_npm


def test_judge_page_form_adds_a_model_and_a_weapon_and_rolls_seeded_dice() -> None:
    """The form's edits give a scenario the engine accepts: a new unit's first model leads, a weapon
    from the library is defined once, and the dice become seeded wherever they were written."""
    text = web.add_model(
        judge.STARTER, "walkers", "red", 12, 4, "lance", '{"range": 36, "dice": 1, "lock": 3, "damage": 3}'
    )
    text = web.add_model(
        text, "shooters", "blue", 1, 0, "lance", '{"range": 1, "dice": 1, "lock": 3, "damage": 3}'
    )
    assert "id: walkers1" in text and "id: shooters1" in text
    assert text.count("lance: {range: 36") == 1 and "range: 1," not in text
    armour = (ROOT / "examples/scenarios/armour.yaml").read_text(encoding="utf-8")
    rolled = web.roll(armour, 9)
    assert "\nseed: 9\n" in rolled and "\ndice:" not in rolled and "expect:" in rolled
    for scenario in (text, rolled, web.roll(text, 3)):
        assert json.loads(web.resolve(scenario))["exit"] == 0
    assert web.add_model("units: [", "a", "red", 0, 0, "", "").startswith("scenario.yaml:")


def test_declaration_form_read_from_every_scenario_and_declared_again_judges_the_same() -> None:
    """The Judge page fills its declaration form from the scenario (``web.form``); declaring that form
    again (``web.declare``) gives every scenario the same ``rulespy resolve --json``, splits
    (core/shooting.md#split-target) and target order (Dice Order) included."""
    checked = 0
    for name, text in _scenarios().items():
        attack = json.loads(web.form(text)).get("attack")
        if not attack or not attack["unit"]:
            continue
        again = web.declare(
            text, attack["unit"], attack["command"], attack["main"], json.dumps(attack["marks"]),
            json.dumps(attack["split"]),
        )  # fmt: skip
        first, second = api.resolve(text, outputs=("json",)), api.resolve(again, outputs=("json",))
        assert (second.exit, second.json) == (first.exit, first.json), name
        checked += 1
    assert checked > 40


def test_declaration_form_offers_the_commands_the_loader_knows() -> None:
    """The form's commands are the loader's list, not a second one; each declared on the starting board
    is either judged or refused by a rule, never malformed."""
    from rulespy.scenario.declaration import ATTACK_COMMANDS

    offered = json.loads(web.form(judge.STARTER))["commands"]
    assert offered == list(ATTACK_COMMANDS)
    for command in offered:
        text = web.declare(judge.STARTER, "shooters", command, "targets", '{"targets": "t1"}', "{}")
        assert json.loads(web.resolve(text))["exit"] in (0, 1), command
        assert f"command: {command}" in text and text.startswith("# A board of your own")


def test_declaration_form_splits_a_weapon_onto_its_own_target_per_core_shooting_split_target() -> None:
    """A weapon sent to a second unit is declared at it (``weapons: [MODEL/WEAPON]``), the rest at the
    main target; a model typed out of range then makes the declaration illegal, with its rule."""
    text = web.add_model(judge.STARTER, "shooters", "blue", 0, 2, "rifle", "")
    text = web.add_model(text, "others", "red", 12, 6, "", "")
    form = json.loads(web.form(text))
    assert [m["id"] for u in form["units"] for m in u["models"]] == ["s1", "shooters1", "t1", "others1"]
    split = web.declare(text, "shooters", "shoot", "targets", '{"targets": "t1", "others": "others1"}',
                        '{"shooters1/rifle": "others"}')  # fmt: skip
    answer = json.loads(web.resolve(split))
    assert answer["exit"] == 0, answer["stderr"]
    fired = json.loads(answer["json"])["attacks"][0]["targets"]
    assert [t["unit"] for t in fired] == ["targets", "others"]
    assert json.loads(web.form(split))["attack"]["split"] == {"shooters1/rifle": "others"}
    far = web.move(split, "others1", 40, 6)
    refused = json.loads(web.resolve(far))
    assert refused["exit"] == 1
    assert json.loads(refused["json"])["error"]["rule"] == "core/shooting.md#which-weapons-fire"


def test_typed_weapon_is_defined_and_a_wrong_value_is_refused_at_its_line() -> None:
    """A weapon typed in the form is written into ``weapons`` (replacing one of the same name); a value
    of the wrong kind reaches the loader, which names its line, as on the command line."""
    typed = {"range": "30", "dice": "3", "lock": "5", "damage": "2", "traits": "heavy,  critical 6"}
    text = web.weapon(judge.STARTER, "rifle", json.dumps(typed))
    assert "  rifle: {range: 30, dice: 3, lock: 5, damage: 2, traits: [heavy, critical 6]}\n" in text
    assert text.count("rifle: {") == 1 and text.startswith("# A board of your own")
    answer = json.loads(web.resolve(text))
    assert answer["exit"] == 0 and len(json.loads(answer["json"])["attacks"][0]["targets"][0]["locks"]) == 3
    wrong = web.weapon(text, "rifle", json.dumps({**typed, "range": "far"}))
    line = wrong.splitlines().index(next(r for r in wrong.splitlines() if "range: far" in r)) + 1
    answer = json.loads(web.resolve(wrong))
    assert answer["exit"] == 2 and answer["stderr"].startswith(f"scenario.yaml:{line}: ")


def test_scripted_roll_writes_the_dice_typed_in_place_of_the_seed() -> None:
    """Scripted dice replace the seed (and seeded dice replace them); a face that is no number is
    refused by the loader at the line of ``dice``."""
    text = web.script(judge.STARTER, "6, 6")
    assert "\ndice: [6, 6]\n" in text and "seed:" not in text
    assert json.loads(json.loads(web.resolve(text))["json"])["attacks"][0]["targets"][0]["successes"] == 2
    assert web.roll(text, 4).count("seed: 4") == 1 and "\ndice:" not in web.roll(text, 4)
    wrong = web.script(text, "6 six")
    line = wrong.splitlines().index("dice: [6, six]") + 1
    assert json.loads(web.resolve(wrong))["stderr"].startswith(f"scenario.yaml:{line}: ")


def test_judge_words_cover_every_word_the_page_says_in_every_language() -> None:
    """``judge.js`` and ``judge-page.js`` take their words from the page (``assets/judge-words.js``, from
    ``languages.WORDS``): every key they say (through ``say``, or the labels of ``button`` and
    ``fieldset``) is there in English and nothing else is, the Russian edition has every one of them,
    and its site loads the English site's runtime."""
    from rulespy.render.languages import WORDS

    script = "".join(
        (ROOT / "rulespy/render/assets" / name).read_text(encoding="utf-8")
        for name in ("judge.js", "judge-page.js")
    )
    said = set(re.findall(r'(?:\bsay\(|\b(?:button|fieldset)\("[\w-]+", )"([\w-]+)"', script))
    said -= {"loading-", "mode-", "col-"}  # prefixes, completed below
    assert {"try", "run", "declare-legend", "roll", "write-weapon"} <= said  # each way of saying a word
    # said through a variable: the roll modes, the weapon keys, a casualty's removal, the loading status
    said |= {"seeded", "scripted", "random", "range", "dice", "lock", "damage", "traits", "resolving"}
    said |= {"loading", "immediate", "end_of_attack", "end_of_firefight"}
    said |= {f"mode-{m}" for m in ("exactly", "atleast")} | {f"chart-{m}" for m in ("exactly", "atleast")}
    stages = ("runtime", "saved", "python", "rulespy", "ready")  # judge-worker.js's progress stages
    said |= {f"loading-{s}" for s in stages} | {"done", "done-sampled"}
    said |= {f"col-{c}" for c in ("model", "unit", "wounds-left", "removed")}
    said |= {"title", "intro", "start", "empty"}  # the Judge page's markdown (judge.page)
    english, russian = judge.words(None), judge.words("ru")
    assert said == set(english)
    ru_keys = {k.removeprefix("judge-") for k in WORDS["ru"] if k.startswith("judge-")}
    assert set(english) - ru_keys <= {"x", "y"}
    assert all(russian[k] != english[k] for k in ru_keys if k not in ("x", "y"))
    loaded = judge.words_script("ru").decode("utf-8")
    site = json.loads(loaded.split("window.vsJudgeSite = ", 1)[1].rstrip().removesuffix(";"))
    wanted = {"runtime": "../judge/", "words": russian, "titles": {}, "download": None, "rules": []}
    assert site == {**wanted, "pyodide": judge.pinned_version()}
    english_site = judge.words_script(None).decode().split(" = ", 1)[1].rstrip()[:-1]
    assert json.loads(english_site)["runtime"] == "judge/"
    page = judge.page(ROOT, ["examples/scenarios/armour.yaml"], "ru")
    assert page.startswith(f"# {russian['title']}\n") and russian["start"] in page


@pytest.mark.parametrize("broken", ["units: [", "- a list\n"])
def test_form_helpers_leave_a_scenario_that_does_not_parse_as_the_reader_wrote_it(broken: str) -> None:
    """A form's change on text the loader refuses keeps the reader's text (Run shows the message)."""
    assert web.weapon(broken, "gun", '{"range": "1"}') == broken
    assert web.declare(broken, "a", "shoot", "b", "{}", "{}") == broken
    assert web.script(broken, "6") == broken and web.roll(broken, 1) == broken
    assert web.move(broken, "m", 1, 1) == broken
    assert "error" in json.loads(web.form(broken))


@pytest.mark.parametrize(
    "shaped",
    ["weapons: [lance]  # mine\nunits: []\n", "units: {a: 1}\n", "units: [{id: a, models: {x: 1}}]\n",
     "units: [{id: a, models: [1]}]\n"],
)  # fmt: skip
def test_form_helpers_keep_a_scenario_of_the_wrong_shape_as_the_reader_wrote_it(shaped: str) -> None:
    """A scenario that parses but whose ``weapons`` is no mapping, or whose ``units`` or ``models`` are
    no lists of mappings, is kept as written by the forms that add to them (Run shows the loader's
    message with its line), never replaced or answered with an exception."""
    assert web.add_model(shaped, "a", "red", 1, 2, "gun", "") == shaped
    if "weapons" in shaped:
        assert web.weapon(shaped, "gun", '{"range": "3"}') == shaped
    assert json.loads(web.resolve(shaped))["stderr"].startswith("scenario.yaml:1: ")


def test_adding_a_model_to_empty_keys_fills_them() -> None:
    """``units:`` or ``weapons:`` written with nothing after them (null in YAML) take the added model
    and its weapon."""
    text = web.add_model("weapons:\nunits:\n", "a", "red", 1, 2, "gun", '{"range": 3}')
    assert yaml.safe_load(text)["units"][0]["models"] == [{"id": "a1", "at": [1, 2], "leader": True,
                                                          "weapons": ["gun"]}]  # fmt: skip
    assert yaml.safe_load(text)["weapons"] == {"gun": {"range": 3}}


def test_adding_a_model_writes_only_the_units_and_weapons_blocks() -> None:
    """Add a model rewrites the ``units`` block (and ``weapons`` when it defines a profile); the reader's
    comments and every other block stay as written, and the result judges as the whole scenario written
    again would. A scenario in flow style is written again whole."""
    first, seed = judge.STARTER.splitlines()[0], "seed: 1   # or scripted dice"
    assert first.startswith("#") and seed in judge.STARTER
    lance = '{"range": 36, "dice": 1, "lock": 3, "damage": 3}'
    text = web.add_model(judge.STARTER, "walkers", "red", 12, 4, "lance", lance)
    assert text.splitlines()[0] == first and seed in text
    data = yaml.safe_load(text)
    assert data["units"][-1]["models"] == [{"id": "walkers1", "at": [12, 4], "leader": True,
                                           "weapons": ["lance"]}]  # fmt: skip
    assert data["weapons"]["lance"] == json.loads(lance) and "rifle" in data["weapons"]
    whole = yaml.safe_dump(data, sort_keys=False)
    assert json.loads(web.resolve(text)) == json.loads(web.resolve(whole))
    flow = "{units: [], attack: {unit: a, command: shoot, targets: [{unit: b}]}}\n"
    assert yaml.safe_load(web.add_model(flow, "a", "blue", 0, 0, "", ""))["units"][0]["id"] == "a"
