"""The engine's message catalogue (rulespy.i18n): complete, its placeholders the English ones, its section
titles the Russian pages' own, and the same whether read through Babel or as the judge's compiled ``.mo``."""

from __future__ import annotations

import doctest
import gettext
import io
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

import rulespy.i18n
from rulespy import i18n
from rulespy.book import messages

ROOT = Path(__file__).resolve().parents[1]


def _catalog(path: Path):  # type: ignore[no-untyped-def]
    with path.open("rb") as handle:
        return read_po(handle, locale="ru")


def _ids(catalog) -> set[tuple[str, str | None]]:  # type: ignore[no-untyped-def]
    return {(str(m.id), m.context) for m in catalog if m.id}


def test_doctests() -> None:
    assert doctest.testmod(rulespy.i18n).failed == 0


def test_the_russian_catalogue_has_no_problem() -> None:
    assert i18n.problems("ru") == []


def test_every_message_of_the_code_is_in_the_catalogue() -> None:
    """Extracting again (as ``make messages`` does) finds no message the catalogue lacks or no longer uses."""
    extracted = _ids(i18n.extract(ROOT, messages.all_titles(ROOT)))
    assert extracted == _ids(_catalog(i18n.po_path("ru")))
    assert extracted == _ids(_catalog(i18n.LOCALE / "rulespy.pot"))


@pytest.fixture
def locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the catalogues the checks read instead of the package's."""
    copy = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE, copy)
    monkeypatch.setattr(i18n, "LOCALE", copy)
    return copy


def _edit(locale: Path, message_id: str, string: object) -> None:
    po = locale / "ru" / "LC_MESSAGES" / "rulespy.po"
    catalog = _catalog(po)
    catalog[message_id].string = string
    with po.open("wb") as handle:
        write_po(handle, catalog, no_location=True, width=100)


def test_a_message_without_a_translation_fails(locale: Path) -> None:
    _edit(locale, "{model} survives and becomes Pinned", "")
    found = i18n.problems("ru")
    assert len(found) == 1 and "no ru translation of '{model} survives and becomes Pinned'" in found[0][1]
    line = found[0][0]
    text = (locale / "ru" / "LC_MESSAGES" / "rulespy.po").read_text(encoding="utf-8").splitlines()
    assert text[line - 1] == 'msgid "{model} survives and becomes Pinned"'


def test_a_plural_form_left_empty_fails(locale: Path) -> None:
    _edit(locale, "{model} loses {n} wound", ("{model} теряет {n} рану", "", "{model} теряет {n} ран"))
    assert [text for _, text in i18n.problems("ru")] == ["no ru translation of '{model} loses {n} wound'"]


def test_placeholders_that_differ_fail(locale: Path) -> None:
    _edit(locale, "{model} survives and becomes Pinned", "{unit} выживает")
    _edit(
        locale,
        "{model} loses {n} wound",
        ("{model} теряет {n} рану", "{model} теряет раны", "{model} теряет {n} ран"),
    )
    found = sorted(text for _, text in i18n.problems("ru"))
    assert found == [
        "the ru translation of '{model} loses {n} wound' has placeholders ['model'], the English "
        "['model', 'n']",
        "the ru translation of '{model} survives and becomes Pinned' has placeholders ['unit'], the English "
        "['model']",
    ]


def test_a_message_missing_from_the_catalogue_fails(locale: Path) -> None:
    po = locale / "ru" / "LC_MESSAGES" / "rulespy.po"
    catalog = _catalog(po)
    del catalog["Outcome"]
    with po.open("wb") as handle:
        write_po(handle, catalog, no_location=True, width=100)
    assert [text for _, text in i18n.problems("ru")] == ["no ru entry for 'Outcome' (run `make messages`)"]


def test_the_check_command_exits_1_with_file_and_line(
    locale: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert i18n.main(["check"]) == 0
    _edit(locale, "Outcome", "")
    assert i18n.main(["check"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(str(locale / "ru" / "LC_MESSAGES" / "rulespy.po") + ":")
    assert "no ru translation of 'Outcome'" in err


def test_section_titles_are_the_russian_pages_headings() -> None:
    titles = messages.section_titles(ROOT, "ru")
    assert titles["core/damage.md#wounds"] == "Раны"
    catalog = {str(m.id): m.string for m in _catalog(i18n.po_path("ru")) if m.context == i18n.SECTION}
    assert catalog == titles


def test_the_compiled_catalogue_reads_as_the_po() -> None:
    """The judge (no Babel in Pyodide) reads the ``.mo`` the site build compiles: every message alike."""
    compiled = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(i18n.po_path("ru"), "ru")))
    direct = i18n.translations("ru")
    for message in _catalog(i18n.po_path("ru")):
        if not message.id:
            continue
        if isinstance(message.id, tuple | list):
            for n in (1, 2, 5, 21):
                assert compiled.ngettext(*message.id, n) == direct.ngettext(*message.id, n)
        elif message.context:
            assert compiled.pgettext(message.context, message.id) == direct.pgettext(
                message.context, message.id
            )
        else:
            assert compiled.gettext(message.id) == direct.gettext(message.id) == message.string


def test_without_babel_the_engine_reads_the_mo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    copy = tmp_path / "locale"
    (copy / "ru" / "LC_MESSAGES").mkdir(parents=True)
    (copy / "ru" / "LC_MESSAGES" / "rulespy.mo").write_bytes(i18n.compile_po(i18n.po_path("ru"), "ru"))
    monkeypatch.setattr(i18n, "LOCALE", copy)
    real = builtins.__import__

    def no_babel(name: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        if name.startswith("babel"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_babel)
    i18n.translations.cache_clear()
    try:
        with i18n.language("ru"):
            assert i18n._("Outcome") == "Итог"
            assert (
                i18n.n_("{model} loses {n} wound", "{model} loses {n} wounds", 3, model="x1")
                == "x1 теряет 3 раны"
            )
    finally:
        i18n.translations.cache_clear()


def test_russian_plural_forms() -> None:
    with i18n.language("ru"):
        forms = [
            i18n.n_("{model} loses {n} wound", "{model} loses {n} wounds", n, model="m")
            for n in (1, 3, 5, 11, 21)
        ]
    assert forms == [
        "m теряет 1 рану",
        "m теряет 3 раны",
        "m теряет 5 ран",
        "m теряет 11 ран",
        "m теряет 21 рану",
    ]


def test_english_is_the_source_and_an_unknown_language_is_refused() -> None:
    assert i18n._("Outcome") == "Outcome"
    assert i18n.n_("{model} loses {n} wound", "{model} loses {n} wounds", 2, model="m") == "m loses 2 wounds"
    assert i18n.cite("core/damage.md#wounds") == "core/damage.md#wounds"
    with i18n.language("ru"):
        assert i18n.cite("core/damage.md#wounds") == "«Раны», core/damage.md#wounds"
        assert i18n.decimal(11.5) == "11,5"
    with pytest.raises(ValueError, match="unknown language 'de'"), i18n.language("de"):
        pass
