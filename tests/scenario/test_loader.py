"""The scenario loader: form only, every refusal with its line, no input can hang or crash it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from rulespy.errors import InvalidInput
from rulespy.scenario import load_scenario, parse_scenario, read_scenario_text
from rulespy.scenario.build import MAX_MODELS
from rulespy.sequences.resolution import check_dice_source
from rulespy.state import Battlefield, Command, Cover, ModelStatus

SMALL = """\
weapons:
  carbine: {range: 18, dice: 2, lock: 4, damage: 1, traits: [assault, critical 5, minimum range 2.5]}
units:
  - id: rangers
    side: blue
    models:
      - {id: r1, at: [0, 0], leader: true, ld: 8, weapons: [carbine], arc: 90, facing: 45.5}
  - id: drönes
    side: red
    models:
      - {id: 無人機, at: [12.5, 0], wounds: 2, armour: 1, status: [pinned], cover: light}
attack:
  unit: rangers
  command: shoot
  targets:
    - {unit: drönes, mark: 無人機}
dice: [6, 2]
expect: {casualties: {無人機: immediate}, note: [1, 2.5, true, null]}
"""

LEADER = "      - {id: r1, at: [0, 0], leader: true, ld: 8, weapons: [carbine], arc: 90, facing: 45.5}"
DRONE = "      - {id: 無人機, at: [12.5, 0], wounds: 2, armour: 1, status: [pinned], cover: light}"
"""SMALL's two model lines, which the limit tests replace with many models."""


def _error(text: str) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        parse_scenario(text, "s.yaml")
    return caught.value


def test_parse_scenario_builds_the_frozen_scenario() -> None:
    scenario = parse_scenario(SMALL, "s.yaml")
    weapon = scenario.battlefield.weapon("carbine")
    assert (weapon.range, weapon.dice, weapon.lock, weapon.damage) == (18.0, 2, 4, 1)
    assert weapon.assault and weapon.critical == 5 and weapon.minimum_range == 2.5
    drone = scenario.battlefield.model("無人機")
    assert drone.at == (12.5, 0.0) and drone.wounds == 2 and drone.armour == 1
    assert drone.status == frozenset({ModelStatus.PINNED}) and drone.cover is Cover.LIGHT
    leader = scenario.battlefield.model("r1")
    assert leader.arc == 90.0 and leader.facing == 45.5 and leader.ld == 8
    assert scenario.attack.command is Command.SHOOT and scenario.attack.targets[0].models is None
    assert scenario.dice == (6, 2) and scenario.dice_line == 17 and scenario.path == "s.yaml"
    assert scenario.expect == {"casualties": {"無人機": "immediate"}, "note": [1, 2.5, True, None]}


def test_model_defaults_follow_the_contract() -> None:
    model = parse_scenario(SMALL).battlefield.model("r1")
    text = SMALL.replace(
        "{id: r1, at: [0, 0], leader: true, ld: 8, weapons: [carbine], arc: 90, facing: 45.5}",
        "{id: r1, at: [0, 0]}",
    )
    model = parse_scenario(text).battlefield.model("r1")
    assert (model.base, model.ld, model.wounds, model.armour, model.leader) == (1.0, 7, 1, 0, False)
    assert (model.weapons, model.status, model.facing, model.arc, model.cover, model.holds_fire) == (
        (),
        frozenset(),
        0.0,
        None,
        None,
        False,
    )


def test_resolve_needs_exactly_one_of_dice_and_seed_but_the_loader_does_not() -> None:
    both = parse_scenario(SMALL + "seed: 3\n", "s.yaml")
    with pytest.raises(InvalidInput, match="both 'dice' and 'seed'") as caught:
        check_dice_source(both)
    assert caught.value.line == 17
    seeded = parse_scenario(SMALL.replace("dice: [6, 2]\n", "seed: 3\n"))
    check_dice_source(seeded)
    assert seeded.seed == 3 and seeded.dice is None


def test_dice_values_are_checked_after_legality_not_by_the_loader() -> None:
    assert parse_scenario(SMALL.replace("[6, 2]", "[6, 9, 0]")).dice == (6, 9, 0)


@pytest.mark.parametrize(
    ("old", "new", "line", "phrase"),
    [
        ("ld: 8", "ld: 13", 7, "'ld' of model 'r1' must be from 2 to 12, not 13"),
        ("armour: 1", "armour: 4", 11, "'armour' of model '無人機' must be from 0 to 3, not 4"),
        ("arc: 90", "arc: 0", 7, "'arc' of model 'r1' must be more than 0, not 0"),
        ("damage: 1", "damage: 0", 2, "'damage' of weapon 'carbine' must be at least 1, not 0"),
        ("range: 18", "range: -1", 2, "'range' of weapon 'carbine' must be more than 0, not -1"),
        (
            "dice: 2,",
            "dice: 2.0,",
            2,
            "'dice' of weapon 'carbine' must be a whole number, not the number 2.0",
        ),
        (
            "leader: true",
            "leader: yes please",
            7,
            "'leader' of model 'r1' must be true or false, not the text 'yes please'",
        ),
        (
            "minimum range 2.5",
            "minimum range -1",
            2,
            "N of 'minimum range N' on weapon 'carbine' must be at least 0, not -1.0",
        ),
        (
            "minimum range 2.5",
            "minimum range far",
            2,
            "N of 'minimum range N' on weapon 'carbine' must be a number, not 'far'",
        ),
        (
            "critical 5,",
            "critical 5, critical 4,",
            2,
            "weapon 'carbine' has the trait 'critical 4' more than once",
        ),
        ("  - id: rangers", "  - id: 7", 4, "the id of a unit must be text, not the number 7"),
        (
            "dice: [6, 2]",
            "dice: [6, true]",
            17,
            "a scripted die must be a whole number, not the boolean true",
        ),
        (
            "command: shoot",
            "command: shot",
            14,
            "'command' of the attack must be one of: shoot, advance, assault, covering_fire; not 'shot'",
        ),
        ("command: shoot", "command: [shoot]", 14, "'command' of the attack must be text, not a list"),
        ("side: red", "sid: red", 9, "unknown key 'sid' in a unit (did you mean 'side'?)"),
        ("side: red", "side: ''", 9, "'side' of unit 'drönes' must not be empty"),
        ("attack:", "atack:", 12, "unknown key 'atack' in the scenario (did you mean 'attack'?)"),
        (
            "weapons: [carbine]",
            "weapons: carbine",
            7,
            "'weapons' of model 'r1' must be a list, not the text 'carbine'",
        ),
        (
            "{unit: drönes, mark: 無人機}",
            "{unit: rangers, mark: 無人機}",
            16,
            "'無人機' (the mark of target 1) is not a model of unit 'rangers'"
            " ('無人機' is a model of unit 'drönes')",
        ),
        (
            "at: [12.5, 0]",
            "at: [12.5, 1.0e+300]",
            11,
            "'at' of model '無人機' must be at most 100000, not 1e+300",
        ),
        ("dice: [6, 2]", "dice: [6, 2]\nseed: 1.5", 18, "'seed' must be a whole number, not the number 1.5"),
        ("dice: [6, 2]", "dice: [6, 2]\nwhen: 2001-12-14", 18, "the YAML tag !!timestamp is not allowed"),
        ("dice: [6, 2]", "dice: [6, 2]\nx: &a [1]\ny: *a", 18, "unknown key 'x' in the scenario;"),
        (
            "dice: [6, 2]",
            "dice: [6, 2]\n<<: {seed: 1}",
            18,
            "merge keys (<<) are not supported in a scenario",
        ),
        ("dice: [6, 2]", "dice: [6, 2]\n? [a]\n: 1", 18, "the key 'a collection' is not text"),
        ("dice: [6, 2]", "dice: [6, 2]\n1: x", 18, "the key '1' is not text"),
        ("dice: [6, 2]", "dice: [6, 2]\ndice: [1]", 18, "duplicate key 'dice' (first given on line 17)"),
        (
            "dice: [6, 2]",
            "dice: [6, 2]\nseed: 1" + "0" * 4400,
            18,
            "the number 10000000000000000000... has too",
        ),
        ("range: 18", "range: .nan", 2, "the number '.nan' is not finite"),
        ("dice: [6, 2]", 'dice: [6, 2]\n"a\\uD800": 1', 18, "the text 'a\\ud800' holds \\uD800"),
        ("dice: [6, 2]", "dice: [6, 2]\ndescription: !point x", 18, "the YAML tag !point is not allowed"),
        ("dice: [6, 2]", "dice: [6, 2]\ndescription: !!set {a}", 18, "the YAML tag !!set is not allowed"),
        (
            "dice: [6, 2]",
            "dice: [6, 2]\ndescription: !!omap [a: 1]",
            18,
            "the YAML tag !!omap is not allowed",
        ),
        ("side: red", 'side: "' + "r" * 70 + '\\uD800"', 9, "the text '" + "r" * 60 + "' holds \\uD800"),
    ],
)
def test_each_wrong_value_is_refused_at_its_line(old: str, new: str, line: int, phrase: str) -> None:
    assert old in SMALL
    error = _error(SMALL.replace(old, new, 1))
    assert (error.line, error.path) == (line, "s.yaml")
    assert phrase in error.message


def test_required_keys_are_reported_at_their_mapping() -> None:
    error = _error(SMALL.replace("      - {id: r1, at: [0, 0],", "      - {id: r1,"))
    assert (error.line, error.message) == (
        7,
        "model 'r1' has no 'at': it is required".replace("model 'r1'", "a model of unit 'rangers'"),
    )


def test_a_top_level_list_is_not_a_scenario() -> None:
    error = _error("- 1\n- 2\n")
    assert error.line == 1 and "must be a mapping" in error.message


def test_missing_and_non_utf8_files_are_malformed_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no such scenario file"):
        load_scenario(tmp_path / "missing.yaml")
    with pytest.raises(InvalidInput, match="a folder"):
        load_scenario(tmp_path)
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(b"description: ok\nunits: caf\xe9\n")
    with pytest.raises(InvalidInput, match="not UTF-8") as caught:
        load_scenario(latin)
    assert caught.value.line == 2 and caught.value.path == str(latin)


def test_size_nesting_and_alias_bombs_are_refused_quickly(tmp_path: Path) -> None:
    huge = tmp_path / "huge.yaml"
    huge.write_text("description: '" + "x" * 1_100_000 + "'\n")
    with pytest.raises(InvalidInput, match="larger than 1 MB"):
        load_scenario(huge)
    with pytest.raises(InvalidInput, match="nested more than"):
        parse_scenario("a: " + "[" * 100 + "]" * 100)
    with pytest.raises(InvalidInput, match="nest"):
        parse_scenario("[" * 20_000)
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
    for level in "bcdefgh":
        previous = chr(ord(level) - 1)
        bomb += f"{level}: &{level} [{', '.join(['*' + previous] * 10)}]\n"
    with pytest.raises(InvalidInput, match="expands to more than"):
        parse_scenario(bomb)


def test_too_many_models_and_dice_are_refused() -> None:
    models = "\n".join(f"      - {{id: m{i}, at: [0, {i}]}}" for i in range(MAX_MODELS + 1))
    text = SMALL.replace(DRONE, models)
    assert f"more than {MAX_MODELS:,} models" in _error(text).message
    many = SMALL.replace("dice: 2, lock", "dice: 1000, lock").replace(
        LEADER,
        "\n".join(f"      - {{id: r{i}, at: [0, {i}], weapons: [carbine]}}" for i in range(11)),
    )
    assert "Target Lock dice in all" in _error(many).message


SPLIT = """\
weapons:
  rifle: {range: 24, dice: 1, lock: 4, damage: 1}
units:
  - id: squad
    side: blue
    models:
      - {id: s1, at: [0, 0], leader: true, weapons: [rifle]}
      - {id: s2, at: [0, 2], weapons: [rifle]}
  - id: raiders
    side: red
    models: [{id: x1, at: [10, 0]}, {id: x2, at: [10, 2]}]
  - id: walker
    side: red
    models: [{id: w1, at: [10, 8]}]
attack:
  unit: squad
  command: shoot
  targets:
    - {unit: raiders, mark: x1, models: [s1]}
    - {unit: walker, mark: w1, weapons: [s2/rifle]}
    - {unit: raiders, mark: x2, models: [s2]}
dice: [4, 4, 4]
"""


def test_r5_split_target_unit_declared_twice_is_refused_at_the_second_declaration() -> None:
    error = _error(SPLIT.replace("weapons: [s2/rifle]", "models: []"))
    assert error.line == 21  # the third target, the second declaration of "raiders"
    assert "unit 'raiders' is declared as target 3 and already as target 1 (line 19)" in error.message
    assert "Split Target, core/shooting.md#split-target" in error.message


def test_r5_split_target_weapon_declared_twice_is_refused_at_the_second_declaration() -> None:
    error = _error(
        SPLIT.replace("{unit: raiders, mark: x2, models: [s2]}", "{unit: raiders, mark: x2}").replace(
            "models: [s1]}", "weapons: [s1/rifle, s2/rifle]}"
        )
    )
    assert error.line == 20  # s2/rifle again, at the walker (target 2)
    assert "s2/rifle is declared at target 1 (line 19) and again at target 2" in error.message
    assert "Split Target, core/shooting.md#split-target" in error.message


def test_what_is_not_a_readable_file_is_refused_at_line_1(tmp_path: Path) -> None:
    import errno
    import os

    below_a_file = str(tmp_path / "file.yaml" / "below.yaml")
    cases = [
        ("/dev/null", "the scenario path is not a regular file (a FIFO or a device)"),
        (below_a_file, "cannot read the scenario file: " + os.strerror(errno.ENOTDIR)),
        (str(tmp_path), "the scenario path is a folder, not a file"),
        (str(tmp_path / "gone.yaml"), "no such scenario file"),
    ]
    (tmp_path / "file.yaml").write_text("units: []\n")
    for path, message in cases:
        with pytest.raises(InvalidInput) as caught:
            read_scenario_text(path)
        assert (caught.value.line, caught.value.path, caught.value.message) == (1, path, message)


def test_a_path_holding_a_nul_character_is_malformed_input_not_a_crash() -> None:
    with pytest.raises(InvalidInput) as caught:
        load_scenario("a\0b.yaml")
    assert (caught.value.line, caught.value.path) == (1, "a\\0b.yaml")
    assert "NUL character" in caught.value.message


def test_the_size_limit_counts_bytes_and_accepts_the_limit_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import rulespy.scenario as loader
    from rulespy.scenario import yamlnodes

    monkeypatch.setattr(loader, "MAX_BYTES", 12)
    monkeypatch.setattr(yamlnodes, "MAX_BYTES", 12)
    at_limit = tmp_path / "twelve.yaml"
    at_limit.write_bytes(b"seed: 12345\n")
    assert read_scenario_text(at_limit) == "seed: 12345\n"
    over = tmp_path / "thirteen.yaml"
    over.write_bytes(b"seed: 123456\n")
    with pytest.raises(InvalidInput, match="larger than") as caught:
        read_scenario_text(over)
    assert (caught.value.line, caught.value.path) == (1, str(over))
    # The text itself: 12 bytes pass on to the YAML (which finds no units), 13 do not, and a character of
    # two bytes in UTF-8 counts as two.
    assert "has no 'units'" in _error("seed: 12345\n").message
    for text in ("seed: 123456\n", "seed: 'ééé'\n"):
        error = _error(text)
        assert (error.line, error.path) == (1, "s.yaml") and "larger than" in error.message


def test_the_models_and_dice_limits_accept_the_limit_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulespy.scenario import build

    # SMALL holds two models in two units; r1 carries a carbine of 2 dice.
    monkeypatch.setattr(build, "MAX_MODELS", 2)
    assert len(parse_scenario(SMALL).battlefield.units) == 2
    monkeypatch.setattr(build, "MAX_MODELS", 1)
    error = _error(SMALL)
    assert (error.line, error.message) == (10, "the scenario has more than 1 models")
    monkeypatch.setattr(build, "MAX_MODELS", MAX_MODELS)
    monkeypatch.setattr(build, "MAX_TOTAL_DICE", 2)
    assert parse_scenario(SMALL).battlefield.model("r1").weapons == ("carbine",)
    monkeypatch.setattr(build, "MAX_TOTAL_DICE", 1)
    error = _error(SMALL)
    assert error.line == 3
    assert error.message == "the models carry 2 Target Lock dice in all; at most 1 are supported"


@pytest.mark.parametrize(
    ("text", "line", "phrase"),
    [
        # PyYAML counts CR LF, CR, NEL and the Unicode line and paragraph separators as line breaks.
        ("a: 1\r\nb: 2\rc: 3\x85d: 4\u2028e: 5\u2029f: \x07\n", 6, "unacceptable character #x0007"),
        # A flow sequence broken on the line it opened: that line, and no "opened on line" hint.
        ("units: 1\nattack: [1, : ]\n", 2, "YAML syntax error: expected the node content, but found ':'"),
        # A flow sequence never closed: the line where it opened, not where the file ended.
        ("units: 1\nattack: [1, 2\n\n\n", 2, "(the sequence opened on line 2 is not closed)"),
        ("units: 1\nattack: {a: 1\n\n\n", 2, "(the mapping opened on line 2 is not closed)"),
        ("units: 1\nattack: *nowhere\n", 2, "found undefined alias 'nowhere'"),
        # The pure-Python parser's answer, which libyaml (that accepts a tab between flow items) would not
        # give: the command line words what the site's rules judge, in Pyodide, words.
        ("units: 1\nattack: [1,\t2]\n", 2, "found character '\\t' that cannot start any token"),
    ],
)
def test_each_yaml_error_is_reported_at_the_line_to_look_at(text: str, line: int, phrase: str) -> None:
    error = _error(text)
    assert (error.line, error.path) == (line, "s.yaml")
    assert error.message.startswith("YAML syntax error: ") and phrase in error.message
    assert error.message.count("opened on line") == phrase.count("opened on line")


def test_the_pure_python_parser_reads_what_libyaml_would_refuse() -> None:
    text = SMALL.replace("{id: r1, at: [0, 0],", "{id: r1, at:[0, 0],")
    assert parse_scenario(text).battlefield.model("r1").at == (0.0, 0.0)


def test_the_real_size_limit_is_1_mb_of_text_and_of_file(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"#" * 1_000_001)
    with pytest.raises(InvalidInput) as caught:
        read_scenario_text(big)
    assert (caught.value.line, caught.value.path, caught.value.message) == (
        1,
        str(big),
        "the scenario is larger than 1 MB",
    )
    error = _error("#" * 1_000_001)
    assert (error.line, error.path, error.message) == (1, "s.yaml", "the scenario is larger than 1 MB")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", 1, "the scenario is empty"),
        ("# a comment\n\n# and another\n", 1, "the scenario is empty"),
        (
            "units: 1\nattack: " + "[" * 70 + "]" * 70 + "\n",
            2,
            "the scenario is nested more than 64 levels deep",
        ),
        ("units: 1\n\nattack: &a [1, *a]\n", 3, "the alias *a is inside the value it names"),
    ],
)
def test_an_empty_or_over_budget_text_is_refused_at_its_line(text: str, line: int, message: str) -> None:
    error = _error(text)
    assert (error.line, error.path, error.message) == (line, "s.yaml", message)


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path: Path) -> None:
    import os
    import signal

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)

    def waited(signum: int, frame: object) -> None:
        raise TimeoutError("the loader waited for a writer on the FIFO")

    # A blocking open would wait for a writer for ever: an alarm turns that into a failure, and the alarm
    # of whatever runs this test (the mutation driver's limit) is set again after it.
    previous = signal.signal(signal.SIGALRM, waited)
    left = signal.alarm(5)
    try:
        with pytest.raises(InvalidInput) as caught:
            read_scenario_text(fifo)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        if left:
            signal.alarm(left)
    assert (caught.value.line, caught.value.path, caught.value.message) == (
        1,
        str(fifo),
        "the scenario path is not a regular file (a FIFO or a device)",
    )


def test_weapon_profiles_are_the_weapons_as_written_once_the_scenario_is_accepted() -> None:
    from rulespy.scenario import weapon_profiles

    assert weapon_profiles(SMALL, "s.yaml") == {
        "carbine": {
            "range": 18,
            "dice": 2,
            "lock": 4,
            "damage": 1,
            "traits": ["assault", "critical 5", "minimum range 2.5"],
        }
    }
    bare = SMALL.replace(SMALL[: SMALL.index("units:")], "").replace(", weapons: [carbine]", "")
    assert weapon_profiles(bare, "s.yaml") == {}
    for text, line in ((SMALL.replace("lock: 4", "lock: 7"), 2), (SMALL.replace("[0, 0]", "[0, 0"), 7)):
        with pytest.raises(InvalidInput) as caught:
            weapon_profiles(text, "s.yaml")
        assert (caught.value.line, caught.value.path) == (line, "s.yaml")


# Every bound of the format at both of its edges: the value just past it is refused with the whole
# message (which key, which bound, which value), and the value on it is accepted. A bound moved by one, a
# `<` for a `<=` or a message that names the wrong edge fails a row.
REFUSED_PAST_A_BOUND = [
    ("ld: 8", "ld: 1", 7, "'ld' of model 'r1' must be from 2 to 12, not 1"),
    ("armour: 1", "armour: -1", 11, "'armour' of model '無人機' must be from 0 to 3, not -1"),
    ("arc: 90", "arc: 360.5", 7, "'arc' of model 'r1' must be from 0 to 360, not 360.5"),
    ("arc: 90", "arc: -5", 7, "'arc' of model 'r1' must be more than 0, not -5"),
    ("lock: 4", "lock: 1", 2, "'lock' of weapon 'carbine' must be from 2 to 6, not 1"),
    ("lock: 4", "lock: 7", 2, "'lock' of weapon 'carbine' must be from 2 to 6, not 7"),
    ("dice: 2,", "dice: 0,", 2, "'dice' of weapon 'carbine' must be at least 1, not 0"),
    ("dice: 2,", "dice: 1001,", 2, "'dice' of weapon 'carbine' must be at most 1000, not 1001"),
    ("damage: 1", "damage: 1000001", 2, "'damage' of weapon 'carbine' must be at most 1000000, not 1000001"),
    ("range: 18", "range: 0", 2, "'range' of weapon 'carbine' must be more than 0, not 0"),
    ("range: 18", "range: 100000.5", 2, "'range' of weapon 'carbine' must be at most 100000, not 100000.5"),
    ("wounds: 2", "wounds: 0", 11, "'wounds' of model '無人機' must be at least 1, not 0"),
    ("wounds: 2", "wounds: 1000001", 11, "'wounds' of model '無人機' must be at most 1000000, not 1000001"),
    ("facing: 45.5", "facing: 100001", 7, "'facing' of model 'r1' must be at most 100000, not 100001"),
    ("facing: 45.5", "facing: -100001", 7, "'facing' of model 'r1' must be at least -100000, not -100001"),
    ("at: [0, 0]", "at: [-100000.5, 0]", 7, "'at' of model 'r1' must be at least -100000, not -100000.5"),
    ("at: [0, 0]", "at: [0, 0], base: 0", 7, "'base' of model 'r1' must be more than 0, not 0"),
    ("at: [0, 0]", "at: [0, 0], base: 100001", 7, "'base' of model 'r1' must be at most 100000, not 100001"),
    ("critical 5,", "critical 1,", 2, "N of 'critical N' on weapon 'carbine' must be from 2 to 6, not 1"),
    ("critical 5,", "critical 7,", 2, "N of 'critical N' on weapon 'carbine' must be from 2 to 6, not 7"),
    (
        "minimum range 2.5",
        "minimum range 100001",
        2,
        "N of 'minimum range N' on weapon 'carbine' must be at most 100000, not 100001.0",
    ),
    (
        "dice: [6, 2]",
        "seed: 9223372036854775809",
        17,
        "'seed' must be at most 9223372036854775808, not 9223372036854775809",
    ),
    (
        "dice: [6, 2]",
        "seed: -9223372036854775809",
        17,
        "'seed' must be at least -9223372036854775808, not -9223372036854775809",
    ),
]

# Each refusal of a name, a list or a declaration, with its whole message: the hint that tells a unit
# status from a model status, the line an id was first given on, the target a weapon was declared at.
REFUSED_BY_NAME = [
    (
        "weapons:\n  carbine",
        "weapons: [1]\nunits2:\n  carbine",
        2,
        "unknown key 'units2' in the scenario (did you mean 'units'?); allowed keys: weapons, units, "
        "terrain, attack, response, dice, seed, description, expect",
    ),
    (
        "side: red",
        "side: red\n    traits: [swam]",
        10,
        "unknown unit trait 'swam' in 'traits' of unit 'drönes' (did you mean 'swarm'?); allowed: swarm",
    ),
    (
        "side: red",
        "side: red\n    traits: [swarm, swarm]",
        10,
        "unit trait 'swarm' is listed twice in 'traits' of unit 'drönes' (first on line 10)",
    ),
    (
        "side: red",
        "side: red\n    status: [pinned]",
        10,
        "unknown status 'pinned' in 'status' of unit 'drönes' (pinned is a model status: give it in the "
        "model's 'status'); allowed: shaken, fleeing",
    ),
    (
        "side: red",
        "side: red\n    status: [engaged]",
        10,
        "unknown status 'engaged' in 'status' of unit 'drönes' (Engaged is found from positions, never "
        "declared); allowed: shaken, fleeing",
    ),
    (
        "side: red",
        "side: red\n    status: [sleepy]",
        10,
        "unknown status 'sleepy' in 'status' of unit 'drönes'; allowed: shaken, fleeing",
    ),
    (
        "status: [pinned]",
        "status: [shaken]",
        11,
        "unknown status 'shaken' in 'status' of model '無人機' (shaken is a unit status: give it in the "
        "unit's 'status'); allowed: pinned, immobilised, abandoned",
    ),
    (
        "status: [pinned]",
        "status: [pinned, pinned]",
        11,
        "status 'pinned' is listed twice in 'status' of model '無人機' (first on line 11)",
    ),
    (
        "weapons: [carbine]",
        "weapons: [carbine, carbine]",
        7,
        "weapon 'carbine' is listed twice in 'weapons' of model 'r1' (first on line 7)",
    ),
    (
        "weapons: [carbine]",
        "weapons: [carbin]",
        7,
        "unknown weapon 'carbin' carried by model 'r1' (did you mean 'carbine'?)",
    ),
    (
        "weapons: [carbine]",
        "weapons: [carbine, 5]",
        7,
        "an entry of 'weapons' of model 'r1' must be text, not the number 5",
    ),
    ("id: 無人機", "id: r1", 11, "duplicate id 'r1': ids of units and models are unique (first on line 7)"),
    (
        "id: 無人機",
        "id: rangers",
        11,
        "duplicate id 'rangers': ids of units and models are unique (first on line 4)",
    ),
    ("id: 無人機", "id: a/b", 11, "model id 'a/b' must not contain '/'"),
    ("id: 無人機", "id: ' '", 11, "the id of a model must not be empty"),
    (
        "      - {id: 無人機",
        "      - {id: x1, at: [1, 1], leader: true}\n      - {id: x2, at: [2, 2]}\n"
        "      - {id: 無人機, leader: true",
        13,
        "unit 'drönes' has two leaders, 'x1' and '無人機': at most one is allowed",
    ),
    (
        "units:\n",
        "terrain:\n  - {kind: light, polygon: [[0, 0], [1, 0]]}\nunits:\n",
        4,
        "the polygon of a terrain piece needs at least 3 points, not 2",
    ),
    (
        "units:\n",
        "terrain:\n  - {kind: ruin, polygon: [[0, 0], [1, 0], [1, 1]]}\nunits:\n",
        4,
        "'kind' of a terrain piece must be one of: blocking, light, heavy; not 'ruin'",
    ),
    (
        "units:\n",
        "terrain:\n  - {kind: heavy, polygon: [[0, 0], [1, 0], [1]]}\nunits:\n",
        4,
        "a corner of a terrain polygon must be two numbers [x, y], not 1 values",
    ),
    (
        "units:\n",
        "terrain: {kind: ruins}\nunits:\n",
        3,
        "'terrain' of the scenario must be a list, not a mapping",
    ),
    ("at: [0, 0]", "at: [0, 0, 0]", 7, "'at' of model 'r1' must be two numbers [x, y], not 3 values"),
    ("at: [0, 0]", "at: 5", 7, "'at' of model 'r1' (written [x, y]) must be a list, not the number 5"),
    (
        "cover: light",
        "cover: medium",
        11,
        "'cover' of model '無人機' must be one of: none, light, heavy; not 'medium'",
    ),
    (
        "cover: light",
        "cover: lite",
        11,
        "'cover' of model '無人機' must be one of: none, light, heavy; not 'lite' (did you mean 'light'?)",
    ),
    (
        "status: [pinned]",
        "status: [pinned], holds_fire: 1",
        11,
        "'holds_fire' of model '無人機' must be true or false, not the number 1",
    ),
    (
        "assault,",
        "asault,",
        2,
        "unknown trait 'asault' of weapon 'carbine' (did you mean 'assault'?); known traits: assault, "
        "heavy, pinning, precise, critical N, minimum range N",
    ),
    (
        "assault,",
        "assault 2,",
        2,
        "unknown trait 'assault 2' of weapon 'carbine' (did you mean 'assault'?); known traits: "
        "assault, heavy, pinning, precise, critical N, minimum range N",
    ),
    (
        "critical 5,",
        "critical,",
        2,
        "unknown trait 'critical' of weapon 'carbine' (did you mean 'critical N'?); known traits: "
        "assault, heavy, pinning, precise, critical N, minimum range N",
    ),
    (
        "critical 5,",
        "critical five,",
        2,
        "N of 'critical N' on weapon 'carbine' must be a whole number, not 'five'",
    ),
    (
        "critical 5,",
        "critical 5.5,",
        2,
        "N of 'critical N' on weapon 'carbine' must be a whole number, not '5.5'",
    ),
    ("dice: [6, 2]", "dice: 6", 17, "'dice' of the scenario must be a list, not the number 6"),
    ("dice: [6, 2]", "dice: [6, 2.0]", 17, "a scripted die must be a whole number, not the number 2.0"),
    ("dice: [6, 2]", "dice: [6, 2]\ndescription: ''", 18, "'description' of the scenario must not be empty"),
    (
        "dice: [6, 2]",
        "dice: [6, 2]\ndescription: 5",
        18,
        "'description' of the scenario must be text, not the number 5",
    ),
    (
        "unit: rangers",
        "unit: ranger",
        13,
        "unknown unit 'ranger' in the attacking unit (did you mean 'rangers'?)",
    ),
    (
        "unit: rangers",
        "unit: r1",
        13,
        "unknown unit 'r1' in the attacking unit ('r1' is a model of unit 'rangers')",
    ),
    (
        "command: shoot",
        "command: snap_fire",
        14,
        "snap_fire is a responding command: declare it under 'response', not as the attack",
    ),
    ("targets:\n    - {unit: drönes, mark: 無人機}", "targets: []", 15, "the attack declares no targets"),
    (
        "{unit: drönes, mark: 無人機}",
        "{unit: drönes, mark: 無人機}\n    - {unit: drönes, mark: 無人機}",
        17,
        "targets 1 and 2 both leave out 'models' and 'weapons': at most one target may take every "
        "weapon not declared elsewhere",
    ),
    (
        "{unit: drönes, mark: 無人機}",
        "{unit: 無人機, mark: 無人機}",
        16,
        "unknown unit '無人機' in the unit of target 1 ('無人機' is a model of unit 'drönes')",
    ),
    (
        "{unit: drönes, mark: 無人機}",
        "{unit: drönes, mark: 無人機, models: [r1, r1]}",
        16,
        "model 'r1' is declared at target 1 (line 16) and again at target 1: each weapon fires at one "
        "target only (Split Target, core/shooting.md#split-target)",
    ),
    (
        "{unit: drönes, mark: 無人機}",
        "{unit: drönes, mark: 無人機, models: [無人機]}",
        16,
        "'無人機' (a model firing at target 1) is not a model of unit 'rangers' ('無人機' is a model of unit "
        "'drönes')",
    ),
    (
        "{unit: drönes, mark: 無人機}",
        "{unit: drönes, mark: 無人機, weapons: [r1/carbine, r1/carbine]}",
        16,
        "r1/carbine is declared at target 1 (line 16) and again at target 1: each weapon fires at one "
        "target only (Split Target, core/shooting.md#split-target)",
    ),
    (
        "{unit: drönes, mark: 無人機}",
        "{unit: drönes, mark: 無人機, weapons: [r1/lance]}",
        16,
        "model 'r1' carries no weapon 'lance'; it carries: carbine",
    ),
    (
        "{unit: drönes, mark: 無人機}",
        "{unit: drönes, mark: 無人機, weapons: [r1]}",
        16,
        "a weapon firing at target 1 is written MODEL/WEAPON, such as r2/lance, not 'r1'",
    ),
    (
        "{unit: drönes, mark: 無人機}",
        "{unit: drönes, mark: 無人機, weapons: [r2/carbine]}",
        16,
        "'r2' (the model of 'r2/carbine') is not a model of unit 'rangers'",
    ),
    (
        "{unit: drönes, mark: 無人機}",
        "{unit: drönes, mark: 無人機, models: [r1], weapons: [r1/carbine]}",
        16,
        "r1/carbine is declared at target 1 (line 16) and again at target 1: each weapon fires at one "
        "target only (Split Target, core/shooting.md#split-target)",
    ),
    (
        "{unit: drönes, mark: 無人機}",
        "{unit: drönes, mark: 無人機, weapons: [r1/carbine], models: [r1]}",
        16,
        "r1/carbine is declared at target 1 (line 16) and again at target 1: each weapon fires at one "
        "target only (Split Target, core/shooting.md#split-target)",
    ),
    (
        "{unit: drönes, mark: 無人機}",
        "{unit: drönes, mark: r1}",
        16,
        "'r1' (the mark of target 1) is not a model of unit 'drönes' ('r1' is a model of unit 'rangers')",
    ),
    (
        "dice: [6, 2]",
        "dice: [6, 2]\nresponse: {command: snap_fire, mark: 無人機}",
        18,
        "'無人機' (the mark of the response) is not a model of unit 'rangers' ('無人機' is a model of unit "
        "'drönes')",
    ),
    (
        "dice: [6, 2]",
        "dice: [6, 2]\nresponse: {command: shoot, mark: r1}",
        18,
        "'command' of the response must be one of: snap_fire; not 'shoot'",
    ),
    (
        "dice: [6, 2]",
        "dice: [6, 2]\nresponse: {command: snap_fire}",
        18,
        "the response has no 'mark': it is required",
    ),
]


@pytest.mark.parametrize(("old", "new", "line", "message"), REFUSED_PAST_A_BOUND + REFUSED_BY_NAME)
def test_a_refusal_gives_its_line_and_its_whole_message(old: str, new: str, line: int, message: str) -> None:
    assert old in SMALL
    error = _error(SMALL.replace(old, new, 1))
    assert (error.line, error.path, error.message) == (line, "s.yaml", message)


CARBINE = "traits: [heavy, pinning, precise, assault,"
ACCEPTED_ON_A_BOUND = [
    ("ld: 8", "ld: 2", lambda b: b.model("r1").ld == 2),
    ("ld: 8", "ld: 12", lambda b: b.model("r1").ld == 12),
    ("armour: 1", "armour: 0", lambda b: b.model("無人機").armour == 0),
    ("armour: 1", "armour: 3", lambda b: b.model("無人機").armour == 3),
    ("arc: 90", "arc: 360", lambda b: b.model("r1").arc == 360.0),
    ("arc: 90", "arc: 0.5", lambda b: b.model("r1").arc == 0.5),
    ("lock: 4", "lock: 2", lambda b: b.weapon("carbine").lock == 2),
    ("lock: 4", "lock: 6", lambda b: b.weapon("carbine").lock == 6),
    ("dice: 2,", "dice: 1,", lambda b: b.weapon("carbine").dice == 1),
    ("dice: 2,", "dice: 1000,", lambda b: b.weapon("carbine").dice == 1000),
    ("damage: 1", "damage: 1000000", lambda b: b.weapon("carbine").damage == 1_000_000),
    ("range: 18", "range: 0.01", lambda b: b.weapon("carbine").range == 0.01),
    ("range: 18", "range: 100000", lambda b: b.weapon("carbine").range == 100_000.0),
    ("wounds: 2", "wounds: 1", lambda b: b.model("無人機").wounds == 1),
    ("wounds: 2", "wounds: 1000000", lambda b: b.model("無人機").wounds == 1_000_000),
    ("facing: 45.5", "facing: -100000", lambda b: b.model("r1").facing == -100_000.0),
    ("facing: 45.5", "facing: 100000", lambda b: b.model("r1").facing == 100_000.0),
    ("at: [0, 0]", "at: [-100000, 100000]", lambda b: b.model("r1").at == (-100_000.0, 100_000.0)),
    ("at: [0, 0]", "at: [0, 0], base: 0.01", lambda b: b.model("r1").base == 0.01),
    ("at: [0, 0]", "at: [0, 0], base: 100000", lambda b: b.model("r1").base == 100_000.0),
    ("critical 5,", "critical 2,", lambda b: b.weapon("carbine").critical == 2),
    ("critical 5,", "critical 6,", lambda b: b.weapon("carbine").critical == 6),
    ("minimum range 2.5", "minimum range 0", lambda b: b.weapon("carbine").minimum_range == 0.0),
    ("minimum range 2.5", "minimum range 100000", lambda b: b.weapon("carbine").minimum_range == 1e5),
    ("traits: [assault,", CARBINE, lambda b: b.weapon("carbine").heavy),
    ("traits: [assault,", CARBINE, lambda b: b.weapon("carbine").pinning),
    ("traits: [assault,", CARBINE, lambda b: b.weapon("carbine").precise),
    ("status: [pinned]", "status: [pinned], holds_fire: true", lambda b: b.model("無人機").holds_fire),
    ("cover: light", "cover: heavy", lambda b: b.model("無人機").cover is Cover.HEAVY),
    ("cover: light", "cover: none", lambda b: b.model("無人機").cover is Cover.NONE),
    ("side: red", "side: red\n    traits: [swarm]", lambda b: b.unit("drönes").traits == {"swarm"}),
]


@pytest.mark.parametrize(("old", "new", "read"), ACCEPTED_ON_A_BOUND)
def test_a_value_on_a_bound_is_accepted(old: str, new: str, read: Callable[[Battlefield], bool]) -> None:
    assert old in SMALL
    assert read(parse_scenario(SMALL.replace(old, new, 1), "s.yaml").battlefield)


# A split's refusals name both declarations: the target and line of the first, the target of the second.
SPLIT_REFUSED = [
    (
        "{unit: raiders, mark: x2, models: [s2]}",
        "{unit: raiders, mark: x2, models: [s1]}",
        21,
        "model 's1' is declared at target 1 (line 19) and again at target 3: each weapon fires at one "
        "target only (Split Target, core/shooting.md#split-target)",
    ),
    (
        "{unit: walker, mark: w1, weapons: [s2/rifle]}",
        "{unit: walker, mark: w1, weapons: [s1/rifle]}",
        20,
        "s1/rifle is declared at target 1 (line 19) and again at target 2: each weapon fires at one "
        "target only (Split Target, core/shooting.md#split-target)",
    ),
    (
        "{unit: raiders, mark: x2, models: [s2]}",
        "{unit: raiders, mark: x2}",
        21,
        "unit 'raiders' is declared as target 3 and already as target 1 (line 19): each target of a "
        "split is a different unit (Split Target, core/shooting.md#split-target)",
    ),
    (
        "{unit: raiders, mark: x1, models: [s1]}",
        "{unit: raiders, mark: x1}",
        21,
        "model 's2' is declared at target 2 (line 20) and again at target 3: each weapon fires at one "
        "target only (Split Target, core/shooting.md#split-target)",
    ),
]


@pytest.mark.parametrize(("old", "new", "line", "message"), SPLIT_REFUSED)
def test_a_split_refusal_names_both_declarations(old: str, new: str, line: int, message: str) -> None:
    assert old in SPLIT
    error = _error(SPLIT.replace(old, new, 1))
    assert (error.line, error.path, error.message) == (line, "s.yaml", message)


def test_a_split_with_one_open_target_is_read_target_by_target() -> None:
    text = SPLIT.replace("    - {unit: raiders, mark: x2, models: [s2]}\n", "").replace("models: [s1]}", "}")
    targets = parse_scenario(text, "s.yaml").attack.targets
    assert [(t.unit, t.mark, t.models, t.weapons) for t in targets] == [
        ("raiders", "x1", None, None),
        ("walker", "w1", None, (("s2", "rifle"),)),
    ]


def test_the_model_and_dice_limits_count_the_whole_scenario_and_accept_the_limit_itself() -> None:
    def models(unit: str, count: int) -> str:
        return "\n".join(f"      - {{id: {unit}{i}, at: [0, {i}]}}" for i in range(count))

    at_limit = SMALL.replace(DRONE, DRONE + "\n" + models("d", MAX_MODELS - 2))
    assert len(parse_scenario(at_limit).battlefield.unit("drönes").models) == MAX_MODELS - 1
    past = SMALL.replace(DRONE, DRONE + "\n" + models("d", MAX_MODELS // 2)).replace(
        LEADER, LEADER + "\n" + models("a", MAX_MODELS // 2)
    )
    error = _error(past)
    assert (error.line, error.message) == (
        10 + MAX_MODELS // 2,  # the drones' 'models': the count runs on across the units
        f"the scenario has more than {MAX_MODELS:,} models",
    )
    ten = "\n".join(f"      - {{id: r{i}, at: [0, {i}], weapons: [carbine]}}" for i in range(10))
    carried = SMALL.replace("dice: 2, lock", "dice: 1000, lock").replace(LEADER, ten)
    assert parse_scenario(carried).battlefield.weapon("carbine").dice == 1000  # 10,000 dice: the limit
    error = _error(
        carried.replace(
            "weapons: [carbine]}", "weapons: [carbine]}\n      - {id: r10, at: [1, 1], weapons: [carbine]}", 1
        )
    )
    assert (error.line, error.message) == (
        3,
        "the models carry 11,000 Target Lock dice in all; at most 10,000 are supported",
    )
