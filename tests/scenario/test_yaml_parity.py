"""Issue 17: a malformed edit in the rules judge shows the ``LINE: message`` the command line gives.

The command line runs in CPython, where PyYAML has libyaml; the page runs ``rulespy.zip`` in Pyodide,
where PyYAML is pure Python. libyaml words its errors differently, and accepts texts the pure parser
refuses (a tab between flow items) and refuses texts it accepts (``at:[0, 2]``), so scenarios are read
by PyYAML's pure-Python parser on the command line too (``rulespy.yamlbudget.compose(portable=True)``).

Here each scenario of a corpus of YAML syntax errors goes through the command line (``rulespy resolve
--json``, in this process, libyaml installed) and through the page's entry (``rulespy.render.web``)
run from the very ``rulespy.zip`` the site ships, in a Python that sees nothing else (no
site-packages, so no libyaml): the exit status, the output and the message must be equal, and the
message names the line a reader would look at.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from rulespy import yamlbudget
from rulespy.cli import main
from rulespy.errors import InvalidInput
from rulespy.render import judge
from rulespy.scenario import yamlnodes

ROOT = Path(__file__).resolve().parents[2]
BASE = (ROOT / "examples" / "scenarios" / "shoot.yaml").read_text(encoding="utf-8")
SCENARIO = "scenario.yaml"


def _edit(old: str, new: str) -> str:
    assert BASE.count(old) == 1, old
    return BASE.replace(old, new)


#: name -> (scenario text, line of the message, words it holds); line None: both accept the text.
CORPUS: dict[str, tuple[str, int | None, str]] = {
    "indented_too_deep": (_edit("    side: blue", "     side: blue"), 10, "mapping values are not allowed"),
    "indented_too_shallow": (_edit("    side: red", "   side: red"), 16, "expected <block end>"),
    "list_item_among_keys": (_edit("  command: shoot", "  - command: shoot"), 23, "but found '-'"),
    "bracket_not_closed": (_edit("at: [0, 2],", "at: [0, 2,"), 13, "expected ',' or ']'"),
    "brace_not_closed": (
        _edit("{unit: drones, mark: d1}", "{unit: drones, mark: d1"),
        25,
        "(the mapping opened on line 25 is not closed)",
    ),
    "bracket_not_closed_at_the_end": (
        _edit("dice: [6, 4, 3, 1, 5, 2]", "dice: [6, 4, 3, 1, 5, 2"),
        27,
        "(the sequence opened on line 27 is not closed)",
    ),
    "double_quote_not_closed": (
        _edit("side: blue", 'side: "blue'),
        10,
        "found unexpected end of stream (the quote opened on line 10 is not closed)",
    ),
    "single_quote_not_closed": (_edit("side: red", "side: 'red"), 16, "(the quote opened on line 16"),
    "stray_closing_bracket": (_edit("dice: [6, 4, 3, 1, 5, 2]", "dice: [6, 4, 3, 1, 5, 2]]"), 27, "']'"),
    "brace_closing_a_bracket": (_edit("at: [0, 4]", "at: [0, 4}"), 14, "but got '}'"),
    "comma_missing": (_edit("{id: d2, at: [10, 2]}", "{id: d2 at: [10, 2]}"), 19, "expected ',' or '}'"),
    "tab_as_indentation": (_edit("    side: blue", "\tside: blue"), 10, "found character '\\t'"),
    "tab_between_flow_items": (_edit("at: [0, 2]", "at: [0,\t2]"), 13, "found character '\\t'"),
    "tab_before_a_comment": (_edit("  unit: rangers", "  unit: rangers\t# who"), 22, "found character '\\t'"),
    "anchor_defined_twice": (
        _edit("side: red", "side: &s red").replace("side: blue", "side: &s blue"),
        16,
        "found duplicate anchor 's'; first occurrence on line 10, second occurrence here",
    ),
    "alias_of_no_anchor": (
        _edit("[carbine]}\n      - {id: r3", "[*gun]}\n      - {id: r3"),
        13,
        "found undefined alias 'gun'",
    ),
    "unknown_escape": (_edit("side: blue", 'side: "bl\\que"'), 10, "unknown escape character 'q'"),
    "bad_unicode_escape": (_edit("side: blue", 'side: "\\uZZZZ"'), 10, "4 hexadecimal numbers"),
    "control_character": (_edit("side: blue", "side: bl\x01ue"), 10, "unacceptable character #x0001"),
    "terminal_colour_code": (_edit("side: red", "side: \x1b[31mred"), 16, "unacceptable character #x001b"),
    "nul_character": (_edit("command: shoot", "command: sho\x00ot"), 23, "unacceptable character #x0000"),
    "delete_character": (_edit("mark: d1", "mark: d1\x7f"), 25, "unacceptable character #x007f"),
    "colon_in_a_value": (_edit("side: blue", "side: blue: team"), 10, "mapping values are not allowed"),
    "no_space_after_a_colon": (_edit("    side: blue", "    side:blue"), 11, "could not find expected ':'"),
    "question_mark_in_a_flow_key": (_edit("{id: d1,", "{id?: d1,"), 18, "but got '?'"),
    "anchor_without_a_name": (_edit("side: blue", "side: & blue"), 10, "alphabetic or numeric"),
    "tag_not_closed": (_edit("side: blue", "side: !<x blue"), 10, "expected '>'"),
    "at_sign_starting_a_value": (_edit("side: blue", "side: @blue"), 10, "found character '@'"),
    "backtick_starting_a_value": (_edit("side: red", "side: `red`"), 16, "found character '`'"),
    "bad_block_scalar_header": (_edit("description: >", "description: >x"), 1, "chomping or indentation"),
    "yaml_2_directive": ("%YAML 2.0\n---\n" + BASE, 1, "incompatible YAML document"),
    "second_document": (_edit("attack:", "---\nattack:"), 21, "but found another document here"),
    "key_of_1100_characters": (_edit("  command: shoot", "  " + "c" * 1100 + ": shoot"), 23, "expected ':'"),
    # libyaml refuses this one ("found unexpected ':'"); PyYAML reads at:[0, 2] as at: [0, 2]
    "no_space_before_a_flow_value": (_edit("{id: r2, at: [0, 2]", "{id: r2, at:[0, 2]"), None, ""),
}

#: What the page runs, as the page runs it: web.resolve on each text, printed as one JSON list.
PAGE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import yaml
from rulespy.render import web
assert not yaml.__with_libyaml__ and yaml.__file__.startswith(sys.argv[1]), yaml.__file__
assert web.__file__.startswith(sys.argv[1]), web.__file__
print(json.dumps([json.loads(web.resolve(text)) for text in json.load(sys.stdin)]))
"""


@pytest.fixture(scope="module")
def page_answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    bundle = tmp_path_factory.mktemp("judge") / judge.BUNDLE
    bundle.write_bytes(judge.bundle())
    texts = [text for text, _, _ in CORPUS.values()]
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", PAGE, str(bundle)],  # -S: no site-packages, so no libyaml
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return dict(zip(CORPUS, json.loads(done.stdout), strict=True))


def _command_line(text: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    (folder / SCENARIO).write_text(text, encoding="utf-8")
    code = main(["resolve", "--json", str(folder / SCENARIO)])
    out, err = capsys.readouterr()
    return code, out, err.replace(str(folder / SCENARIO), SCENARIO)


@pytest.mark.parametrize("name", CORPUS)
def test_page_and_command_line_say_the_same_of_a_yaml_syntax_error(
    name: str,
    page_answers: dict[str, dict[str, object]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    text, line, words = CORPUS[name]
    code, out, err = _command_line(text, tmp_path, capsys)
    page = page_answers[name]
    assert (page["exit"], page["json"], page["stderr"]) == (code, out, err)
    if line is None:
        assert code == 0 and json.loads(out)["legal"] is True
        return
    assert code == 2 and out == ""
    assert err.startswith(f"{SCENARIO}:{line}: YAML syntax error: ") and err.count("\n") == 1, err
    assert words in err, err


@pytest.mark.skipif(not yaml.__with_libyaml__, reason="libyaml is not installed: nothing to tell apart")
def test_libyaml_would_answer_differently_so_the_corpus_can_tell(monkeypatch: pytest.MonkeyPatch) -> None:
    """Were scenarios read with libyaml again, the parity test above would fail: libyaml words most
    of these errors its own way and accepts or refuses some texts the page does not."""

    def answer(text: str) -> str:
        try:
            yamlnodes.parse(text, SCENARIO)
        except InvalidInput as error:
            return f"{error.line}: {error.message}"
        return "accepted"

    ours = {name: answer(text) for name, (text, _, _) in CORPUS.items()}
    compose = yamlbudget.compose
    monkeypatch.setattr(yamlbudget, "compose", lambda text, **_: compose(text))  # libyaml, as before
    theirs = {name: answer(text) for name, (text, _, _) in CORPUS.items()}
    differ = {name for name in CORPUS if ours[name] != theirs[name]}
    accepted_differently = {name for name in differ if "accepted" in (ours[name], theirs[name])}
    assert len(differ) >= 20 and len(accepted_differently) >= 3, sorted(differ)
