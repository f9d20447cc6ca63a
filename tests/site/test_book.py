"""A page of the printed rulebook (rulespy/render/book.py), without Chromium: ids unique in the book and
per drawing, links into the book or to the published site, "see p. N" once per page and section, no
test code, and a worked example's "What happens" from the engine."""

from __future__ import annotations

import re
import zlib
from base64 import urlsafe_b64encode
from collections import Counter
from pathlib import Path

from rulespy.render.book import Book, BookPage
from rulespy.render.languages import words
from rulespy.render.pdf import book_html
from rulespy.render.web import encode

SITE = "https://rules.example.org/"
BOARD = (
    '<figure class="vs-board"><svg viewBox="0 0 80 40" aria-labelledby="vs-board-0-0-title">'
    '<title id="vs-board-0-0-title">Board</title><defs><clipPath id="vs-board-0-0-clip">'
    '<rect x="0" y="0" width="{width}" height="40" /></clipPath>'
    '<pattern id="vs-board-0-0-hatch" width="8" height="8"><line x1="0" y2="8" /></pattern></defs>'
    '<g clip-path="url(#vs-board-0-0-clip)"><circle cx="10" cy="10" r="5" fill="url(#vs-board-0-0-hatch)" />'
    '<use href="#vs-board-0-0-clip" /></g></svg></figure>'
)
SCENARIO = """\
weapons:
  cannon: {range: 36, dice: 1, lock: 4, damage: 3}
units:
  - id: gun
    side: blue
    models: [{id: g1, at: [0, 0], leader: true, weapons: [cannon]}]
  - id: walker
    side: red
    models: [{id: w1, at: [12, 0], wounds: 5}]
attack: {unit: gun, command: shoot, targets: [{unit: walker, mark: w1}]}
dice: [4]
"""


def _book(tmp_path: Path, site: str | None = SITE) -> Book:
    (tmp_path / "examples").mkdir(exist_ok=True)
    (tmp_path / "examples" / "shoot.yaml").write_text("dice: [4]\n", encoding="utf-8")
    book = Book(frozenset({"core/damage.md", "core/cover.md"}), tmp_path, site, words(None))
    book.titles.update({"core/damage.md#damage": "Damage", "core/damage.md": "Damage and Casualties"})
    return book


def _ids(html: str) -> list[str]:
    return re.findall(r'\sid="([^"]+)"', html)


def test_every_id_is_unique_in_the_book_and_every_drawing_keeps_its_own_parts(tmp_path: Path) -> None:
    book = _book(tmp_path)
    # the same board ids twice on one page and once on another: the site's ids repeat
    damage = BookPage(book, "core/damage.md").rewrite(BOARD.format(width=80) + BOARD.format(width=800))
    cover = BookPage(book, "core/cover.md").rewrite(BOARD.format(width=80) + '<h2 id="cover">Cover</h2>')
    ids = _ids(damage + cover)
    assert len(ids) == len(set(ids)) == 10
    assert "core-cover--cover" in ids
    drawings = re.findall(r"<svg.*?</svg>", damage + cover)
    assert len(drawings) == 3
    for drawing in drawings:
        named = re.findall(r'url\(#([^)]+)\)|href="#([^"]+)"|aria-labelledby="([^"]+)"', drawing)
        assert {"".join(groups) for groups in named} == set(_ids(drawing))  # each its own, all used
    assert 'width="800"' in damage  # the second drawing is kept whole


def test_links_lead_into_the_book_or_to_the_published_site(tmp_path: Path) -> None:
    page = BookPage(_book(tmp_path), "core/cover.md")
    html = page.rewrite(
        '<p><a href="damage.md#damage">Damage</a> <a href="#cover">here</a>'
        ' <a href="../judge.md">the judge</a> <a href="../examples/shoot.yaml">a scenario</a>'
        ' <a href="../../ru/glossary/">Russian</a> <a href="https://other.example/x">out</a>'
        ' <a href="file:///etc/os-release">file</a> <a href="javascript:alert(1)">script</a>'
        ' <a href="../../outside.md">outside</a></p>'
    )
    hrefs = re.findall(r'href="([^"]*)"', html)
    assert hrefs == [
        "#core-damage--damage",
        "#core-cover--cover",
        f"{SITE}judge/",
        f"{SITE}examples/shoot.yaml",
        f"{SITE}ru/glossary/",
        "https://other.example/x",
    ]
    assert "<a>file</a>" in html and "<a>script</a>" in html and "<a>outside</a>" in html


def test_without_a_site_url_a_link_out_of_the_book_is_plain_text(tmp_path: Path) -> None:
    html = BookPage(_book(tmp_path, site=None), "core/cover.md").rewrite('<a href="../judge.md">judge</a>')
    assert html == "<a>judge</a>"


def test_see_page_once_per_page_and_section_with_the_printed_number(tmp_path: Path) -> None:
    book = _book(tmp_path)
    links = (
        '<a href="damage.md#damage">Damage</a>, <a href="damage.md#damage">again</a>, <a href="#cover">x</a>'
    )
    links += ' <a href="#nowhere">y</a>'
    before = BookPage(book, "core/cover.md").rewrite(links)  # not printed yet: placeholders
    assert Counter(re.findall(r"\(see p\. (\d+)\)", before)) == Counter({"00": 3})
    book.numbers = {"core-damage--damage": 12, "core-cover--cover": 3}  # printed: #nowhere is on no page
    html = BookPage(book, "core/cover.md").rewrite(links)
    assert Counter(re.findall(r"\(see p\. (\d+)\)", html)) == Counter({"12": 1, "3": 1})
    assert html.index("(see p. 12)") < html.index("again")


def test_a_worked_example_prints_what_happens_instead_of_its_code(tmp_path: Path) -> None:
    block = (
        '<div class="admonition example vs-example"><p class="admonition-title">Worked example</p>'
        f'<p>The gun shoots.</p><div class="vs-try" data-scenario="{encode(SCENARIO)}"></div>'
        '<details class="example"><summary>The executable check</summary>'
        "<details><pre><code>assert result.removed == {}</code></pre></details></details>"
        "<p>After the block.</p></div>"
    )
    html = BookPage(_book(tmp_path), "core/damage.md").rewrite(block)
    assert "assert" not in html and "executable" not in html and "vs-try" not in html
    assert "What happens" in html and "After the block." in html
    assert "w1 loses 3 wounds" in html  # the engine's account
    assert '<a class="vs-rule" href="#core-damage--damage">Damage</a>' in html
    assert ".md#" not in re.sub(r"<[^>]+>", "", html)  # a rule named in a line is its title, not a path


def test_an_illegal_declaration_prints_the_rule_that_forbids_it(tmp_path: Path) -> None:
    friendly = SCENARIO.replace("side: red", "side: blue")
    html = BookPage(_book(tmp_path), "core/damage.md").rewrite(
        f'<div class="vs-try" data-scenario="{encode(friendly)}"></div>'
    )
    assert "An illegal declaration: nothing is rolled" in html
    assert "What happens" in html


def test_a_scenario_that_inflates_past_the_loaders_limit_prints_nothing(tmp_path: Path) -> None:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    bomb = packer.compress(b"#" * (64 << 20)) + packer.flush()  # 64 MB of text in some 64 KB
    code = urlsafe_b64encode(bomb).decode().rstrip("=")
    page = BookPage(_book(tmp_path), "core/damage.md")
    assert (
        page.rewrite(f'<p>x</p><div class="vs-try" data-scenario="{code}"></div><p>y</p>')
        == "<p>x</p><p>y</p>"
    )
    garbled = BookPage(_book(tmp_path), "core/damage.md")
    assert garbled.rewrite('<div class="vs-try" data-scenario="not base64 at all!"></div>') == ""


def test_the_repositorys_book_has_no_test_code_and_unique_ids() -> None:
    html = book_html(Path(__file__).resolve().parents[2])
    ids = _ids(html)
    assert len(ids) > 300
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    drawings = re.findall(r"<svg.*?</svg>", html, flags=re.S)
    assert len(drawings) > 40
    for drawing in drawings:  # a board's clip path and title are its own (another's clipped it once)
        named = re.findall(r'url\(#([^)]+)\)|href="#([^"]+)"|aria-labelledby="([^"]+)"', drawing)
        assert {"".join(groups) for groups in named} <= set(_ids(drawing))
    assert (
        'class="vs-rulebook"' not in html and 'class="vs-language"' not in html
    )  # links to itself, to the site
    text = re.sub(r"<[^>]+>", "", html)
    assert "assert " not in text and "import " not in text and "executable check" not in text
