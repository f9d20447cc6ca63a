"""The engine's words in the reader's language: one gettext message catalogue per language.

English is the source: every message the engine prints (the account of ``rulespy resolve``, its JSON
``trace[].text``, the outcome lines, the refusals of illegal declarations, the labels of ``rulespy
odds``) is written in the code as its English text inside ``_()`` (or ``n_()`` for a count), with named
placeholders (``_("{model} loses {n} wounds", model=m, n=2)``; a format spec such as ``{inches:g}``
is part of the placeholder). English prints the message itself, so the English output is exactly what
the code says and needs no catalogue. Each other language has one ``.po`` file,
``rulespy/locale/LANG/LC_MESSAGES/rulespy.po``, shipped as package data.

Decision: no compiled ``.mo`` is committed. The command line reads the ``.po`` with Babel's
``read_po`` and compiles it in memory (``write_mo``) into the standard library's ``GNUTranslations``;
the judge runs in Pyodide, which ships no Babel, so the site build (``rulespy.render.judge.bundle``)
compiles the ``.mo`` into the judge's ``rulespy.zip`` the same way, and without Babel the engine reads
that ``.mo``. Both paths end in the same ``GNUTranslations``, so a message reads the same everywhere.

The rule sections the account cites are in the catalogue too, with the context ``section`` and the
rule's ``PATH#ANCHOR`` as message id: their translation is the section's title on that language's
pages (``make messages`` copies them from ``ru/``, read by the rule book in the rule folders of its
``check: rule_dirs`` setting, ``rulespy.book.messages``, which sits above this module; ``tests/test_i18n.py``
keeps them equal).

``make messages`` (``python -m rulespy.book.messages``) extracts every message with Babel
(``babel.cfg``), writes the template ``rulespy/locale/rulespy.pot`` and merges it into each ``.po``;
``python -m rulespy.i18n check`` (and ``rulespy check``'s RS090) fails on a message without a translation
or whose placeholders differ from the English ones.

>>> with language("ru"):
...     _("{model} survives and becomes Pinned", model="r1")
'r1 выживает и получает состояние «Прижат»'
>>> _("{model} survives and becomes Pinned", model="r1")
'r1 survives and becomes Pinned'
"""

from __future__ import annotations

import functools
import gettext
import io
import string
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog

LANGUAGES = ("en", "ru")
"""The languages the engine speaks; English first, the source."""
SOURCE = "en"
DOMAIN = "rulespy"
LOCALE = Path(__file__).resolve().parent / "locale"
SECTION = "section"
"""The context of a rule section's title in the catalogue (its message id is ``PATH#ANCHOR``)."""

_current: ContextVar[str] = ContextVar("rulespy_language", default=SOURCE)


def po_path(code: str, locale: Path | None = None) -> Path:
    """The ``.po`` of language ``code`` in ``locale`` (the package's own by default)."""
    return (locale or LOCALE) / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@contextmanager
def language(code: str) -> Iterator[None]:
    """Speak ``code`` inside the block (``"en"`` or ``"ru"``)."""
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}: one of {', '.join(LANGUAGES)}")
    token = _current.set(code)
    try:
        yield
    finally:
        _current.reset(token)


def current() -> str:
    """The language the engine speaks now."""
    return _current.get()


@functools.cache
def translations(code: str) -> gettext.NullTranslations:
    """The catalogue of ``code``: the ``.po`` read by Babel and compiled in memory, or, where Babel is
    not installed (the judge in Pyodide), the ``.mo`` the site build compiled beside it."""
    if code == SOURCE:
        return gettext.NullTranslations()
    po = po_path(code)
    try:
        import babel.messages.pofile  # noqa: F401  (Babel installed: the .po is read)
    except ImportError:
        compiled = po.with_suffix(".mo")
        if compiled.is_file():  # the judge's bundle unpacked (Pyodide)
            return gettext.GNUTranslations(io.BytesIO(compiled.read_bytes()))
        from importlib.resources import files  # the bundle imported as a zip

        name = compiled.relative_to(LOCALE.parent).as_posix()
        return gettext.GNUTranslations(io.BytesIO(files("rulespy").joinpath(name).read_bytes()))
    return gettext.GNUTranslations(io.BytesIO(compile_po(po, code)))


def compile_po(po: Path, code: str) -> bytes:
    """``po`` compiled to ``.mo`` bytes by Babel (fuzzy entries left out, as ``pybabel compile`` does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as handle:
        catalog = read_po(handle, locale=code)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def _(message: str, /, **values: object) -> str:
    """``message`` in the current language, its named placeholders filled from ``values``."""
    text = translations(_current.get()).gettext(message)
    return text.format(**values) if values else text


def n_(singular: str, plural: str, n: int, /, **values: object) -> str:
    """A message about ``n`` things, in the plural form ``n`` asks for in the current language;
    ``{n}`` is ``n`` itself."""
    return translations(_current.get()).ngettext(singular, plural, n).format(n=n, **values)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue where it is written; it is translated where ``_()`` says it."""
    return message


def section(rule: str) -> str | None:
    """The title of rule section ``rule`` (``PATH#ANCHOR``) in the current language, or None in
    English (the English account cites the bare ``PATH#ANCHOR``) or for a section the catalogue lacks."""
    code = _current.get()
    if code == SOURCE:
        return None
    title = translations(code).pgettext(SECTION, rule)
    return None if title == rule else title


def cite(rule: str) -> str:
    """How a line cites ``rule``: ``PATH#ANCHOR`` in English; ``«Title», PATH#ANCHOR`` in a
    translation whose catalogue has the section's title."""
    title = section(rule)
    return rule if title is None else f"«{title}», {rule}"


def decimal(value: float) -> str:
    """A number as the current language writes it: ``6.5`` in English, ``6,5`` in Russian (the decimal
    comma), in the shortest form (``:g``).

    >>> decimal(6.5), decimal(12.0)
    ('6.5', '12')
    """
    text = f"{value:g}"
    return text.replace(".", ",") if _current.get() == "ru" else text


def fields(message: str) -> set[str]:
    """The named placeholders of ``message`` (``{model}``, ``{inches:g}`` is ``inches``).

    >>> sorted(fields("{model} is {inches:g} away from {firer}"))
    ['firer', 'inches', 'model']
    """
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(message) if name}


def problems(code: str, locale: Path | None = None) -> list[tuple[int, str]]:
    """Every message of the ``code`` catalogue (in ``locale``, the package's by default) with no
    translation (or a fuzzy one), missing from it though the template has it, or whose placeholders differ
    from the English message's: ``(line, what is wrong)``."""
    from babel.messages.pofile import read_po

    po = po_path(code, locale)
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=code)
    template = (locale or LOCALE) / f"{DOMAIN}.pot"
    wanted: set[tuple[object, str | None]] = set()
    if template.exists():
        with template.open("rb") as handle:
            wanted = {(m.id, m.context) for m in read_po(handle) if m.id}
    found: list[tuple[int, str]] = []
    for message in catalog:
        if not message.id:
            continue
        wanted.discard((message.id, message.context))
        line = message.lineno or 1
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        shown = ids[0][:60]
        if message.fuzzy or not all(strings):
            found.append((line, f"no {code} translation of {shown!r}"))
            continue
        if message.context == SECTION:
            continue
        english = set().union(*(fields(str(i)) for i in ids))
        for text in strings:
            if fields(str(text)) != english:
                found.append(
                    (
                        line,
                        f"the {code} translation of {shown!r} has placeholders {sorted(fields(str(text)))}, "
                        f"the English {sorted(english)}",
                    )
                )
                break
    for missing, _context in sorted(wanted, key=str):
        first = missing[0] if isinstance(missing, tuple | list) else missing
        found.append((1, f"no {code} entry for {str(first)[:60]!r} (run `make messages`)"))
    return found


def extract(root: Path, titles: dict[str, dict[str, str]]) -> Catalog:
    """The template: every message of the ``rulespy`` package, as Babel extracts them (``babel.cfg``), and
    every rule section of the translated pages (context ``section``; ``titles``: each language's section
    titles by ``PATH#ANCHOR``, ``rulespy.book.messages.all_titles``)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with (root / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    import datetime

    # A fixed date: the template and the catalogues change only when a message does (no churn to merge).
    fixed = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    template = Catalog(project="voidsiege-rules", fuzzy=False, creation_date=fixed, revision_date=fixed)
    keywords = {"_": None, "N_": None, "n_": (1, 2)}
    for name, line, text, comments, context in extract_from_dir(
        str(root / "rulespy"), method_map, options_map, keywords=keywords, strip_comment_tags=True
    ):
        template.add(text, None, [(f"rulespy/{name}", line)], auto_comments=comments, context=context)
    for code in LANGUAGES[1:]:
        for rule in sorted(titles.get(code, {})):
            template.add(rule, None, context=SECTION)
    return template


def update(root: Path, titles: dict[str, dict[str, str]]) -> None:
    """``make messages``: extract every message with Babel (``extract``), write
    ``rulespy/locale/rulespy.pot`` and merge it into each language's ``.po`` (a new message is added
    untranslated; the section titles, ``titles``, are copied from that language's pages)."""
    from babel.messages.pofile import read_po, write_po

    template = extract(root, titles)
    with (LOCALE / f"{DOMAIN}.pot").open("wb") as handle:
        write_po(handle, template, omit_header=False, no_location=True, width=100)
    for code in LANGUAGES[1:]:
        po = po_path(code)
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=code)
        catalog.update(template, no_fuzzy_matching=True)
        found = titles.get(code, {})
        for message in catalog:
            if message.context == SECTION and message.id in found:
                message.string = found[str(message.id)]
        with po.open("wb") as handle:
            write_po(handle, catalog, no_location=True, width=100, ignore_obsolete=True)


def main(argv: list[str] | None = None) -> int:
    """``python -m rulespy.i18n check`` (``make messages-check``: exit 1 on a problem). The update is
    ``python -m rulespy.book.messages`` (``make messages``), which reads the section titles."""
    argv = sys.argv[1:] if argv is None else argv
    root = Path.cwd()
    if argv[:1] == ["check"]:
        bad = 0
        for code in LANGUAGES[1:]:
            for line, text in problems(code):
                po = po_path(code)
                shown = po.relative_to(root) if po.is_relative_to(root) else po
                print(f"{shown}:{line}: {text}", file=sys.stderr)
                bad += 1
        return 1 if bad else 0
    print("usage: python -m rulespy.i18n check (to update: python -m rulespy.book.messages)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
