"""Checker findings are data: a frozen ``Finding`` per problem, printed ``PATH:LINE:COLUMN: CODE message``."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from rulespy.errors import BookError

#: Characters a terminal or a CI log would act on instead of showing: C0 and C1 controls (newline,
#: carriage return, escape, NUL...), DEL, bidirectional marks and overrides, line and paragraph
#: separators, and the lone surrogates that stand for undecodable bytes of a file name.
_UNSAFE_RE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)


def _escape_one(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if 0xDC80 <= code <= 0xDCFF:  # a byte a file name held that is not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` safe to print on one line: every character in ``_UNSAFE_RE`` becomes a visible escape
    (``\\n`` is written ``\\x0a``, a right-to-left override ``\\u202e``), so a path or message cannot
    forge extra lines, hide text or break a strict UTF-8 output."""
    return _UNSAFE_RE.sub(_escape_one, text)


@dataclass(frozen=True)
class FindingCode:
    """One kind of finding: its code, its short name (in ``--format json``) and what triggers it."""

    code: str
    name: str
    when: str
    #: ``warning`` findings are listed but, with ``rulespy check --warnings-ok``, do not fail the check
    severity: str = "error"


#: Every finding code, in order: the one table the docs (``rulespy check --help``, the docstring of
#: ``rulespy.check``) are generated from. Each code has a broken fixture in ``tests/check/fixtures/``.
FINDING_CODES: tuple[FindingCode, ...] = (
    FindingCode(
        "RS001",
        "missing-file",
        "a relative link, image or reference definition names a file that does not exist "
        "(case-exact, percent-decoded; ``/x`` is read from the repository root); also a file "
        "named in concepts.yml",
    ),
    FindingCode(
        "RS002",
        "link-escapes-repo",
        "a link resolves outside the repository (``../../x``, ``/../x``)",
    ),
    FindingCode(
        "RS003",
        "missing-anchor",
        "``#anchor`` is not a heading id of the target page (toc slug or explicit ``{#id}``, "
        "case-sensitive) nor an HTML ``id``/``<a name>``; also for mentions ``core/x.md#a`` and "
        "concepts.yml anchors (an empty or malformed concepts.yml anchor such as ``'#'`` included)",
    ),
    FindingCode(
        "RS004",
        "missing-mention",
        "a rule-file path written in prose or inline code (``core/damage.md``) does not exist "
        "(the rule: ``parse.py``)",
    ),
    FindingCode(
        "RS005",
        "duplicate-id",
        "two headings of one file are given the same explicit ``{#id}`` (reported once per id, at the "
        "second heading)",
    ),
    FindingCode(
        "RS006",
        "too-deeply-nested",
        "a file nests lists or quotes 49 or more levels deep, past what the parser reads: links there "
        "would go unchecked",
    ),
    FindingCode("RS010", "two-owners", "concepts.yml gives one concept name or alias to two owners"),
    FindingCode(
        "RS011",
        "no-owner",
        'a sentence "X is owned by F" names a concept no file owns, or a retired term\'s '
        "``current`` is owned by no file",
    ),
    FindingCode(
        "RS012",
        "wrong-ownership-claim",
        '"X is owned by F" (F a path or a link) disagrees with concepts.yml',
    ),
    FindingCode(
        "RS013",
        "restated-concept",
        "a section of a non-owner file is headed with an owned concept's name or alias and does "
        "not link to the owner file",
    ),
    FindingCode(
        "RS020",
        "orphan-page",
        "a page is neither in the mkdocs.yml ``nav`` nor linked from another page (``index.md`` "
        "at the root is the home page, never an orphan; so is a translation's ``ru/index.md``)",
    ),
    FindingCode("RS021", "nav-entry-to-nothing", "a mkdocs.yml ``nav`` entry names no file"),
    FindingCode(
        "RS022",
        "two-pages-one-url",
        "two pages would publish to the same site URL (``core/damage.md`` and "
        "``core/damage/index.md``): one would replace the other",
    ),
    FindingCode(
        "RS030",
        "missing-required-reference",
        "a file does not link to a file that concepts.yml ``requires``",
    ),
    FindingCode(
        "RS031",
        "retired-term",
        "a retired term is used outside the section that explains it; the message names the current term",
    ),
    FindingCode(
        "RS040",
        "not-utf8",
        "a markdown (or cited Python) file is not UTF-8 text (line and column of the first bad byte; a "
        "NUL byte too, as in BOM-less UTF-16); also a folder that cannot be listed (its files go unchecked)",
    ),
    FindingCode("RS041", "bad-front-matter", "a leading ``---`` block is not a YAML mapping"),
    FindingCode(
        "RS042",
        "file-too-large",
        "a markdown file over the size limit (2 MiB; ``check: max_file_kb``)",
    ),
    FindingCode(
        "RS043",
        "symlink-leaves-repo",
        "a file, folder or configuration file is a symbolic link resolving outside the repository "
        "(the message gives its target): never read, listed or published",
    ),
    FindingCode(
        "RS044",
        "too-complex",
        "a markdown file over a parsing budget, at the line of the costly block: reference "
        "definitions without blank lines between them, or a paragraph with too much markup "
        "(``rulespy/check/budget.py``)",
    ),
    FindingCode(
        "RS045",
        "output-symlink-leaves-repo",
        "``build`` or ``site``, or an entry of either, is a symbolic link resolving outside the "
        "repository: ``rulespy render``, the site build and the editions refuse to write or delete there "
        "(``rulespy/check/outputs.py``)",
    ),
    FindingCode(
        "RS046",
        "unreadable-scenario",
        "a scenario file under ``examples/scenarios/`` is not YAML the scenario loader can read: not UTF-8, "
        "a syntax error, or aliases that expand it past the budget of ``rulespy/yamlbudget.py`` (an alias "
        "bomb), at the loader's line (``rulespy/check/scenarios.py``); ``rulespy render`` refuses it too",
    ),
    FindingCode(
        "RS050",
        "rule-heading-without-id",
        "a heading of level 2+ in a rule file (``core/``, ``sequences/``, ``timing/``, "
        "``commands/``) has no explicit ``{#id}``",
    ),
    FindingCode(
        "RS051",
        "code-cites-missing-rule",
        "a ``Rule: PATH#ANCHOR`` docstring line in ``rulespy/**/*.py``, or a ``PATH.md#anchor`` "
        "literal passed to a call there (``Event(...)``, an error), cites a file or anchor that "
        "does not exist",
    ),
    FindingCode(
        "RS060",
        "step-drift",
        "a numbered step of ``sequences/shooting_sequence.md`` or a step of "
        "``timing/firefight.md`` differs from the step list of the engine in the same tree "
        "(``rulespy/sequences/steps.py``, ``rulespy/timing/firefight.py``, read as source; only "
        "for a tree that carries ``rulespy/``)",
    ),
    FindingCode(
        "RS070",
        "translation-structure",
        "a translation (``ru/``, mirroring the English pages file for file) lacks a page of the English "
        "edition, has a page or a section (explicit ``{#id}``) the English lacks, lacks one of its "
        "sections, or orders them differently (``rulespy/check/translations.py``)",
    ),
    FindingCode(
        "RS071",
        "translation-number-differs",
        "a number in a table of a translated section differs from the same table of the English section "
        "(compared in reading order, ``1,5`` = ``1.5``), the section has another count of tables, or its "
        "prose (paragraphs, list items, headings) holds other numbers than the English prose",
    ),
    FindingCode(
        "RS072",
        "translation-links-english",
        "a link in a translation points to an English page whose translation exists",
    ),
    FindingCode(
        "RS073",
        "translated-example-differs",
        "a python fence of a translation is not byte for byte its English twin (same order, same section), "
        "or one is missing or added",
    ),
    FindingCode(
        "RS074",
        "stale-translation",
        "warning: a translated section's stamp (``<!-- translates: PATH#ID sha256:HEX -->``, written by "
        "``rulespy translations stamp``) is missing, names another section, or holds the hash of an "
        "older English text",
        severity="warning",
    ),
    FindingCode(
        "RS075",
        "forbidden-term",
        "a translated page uses a word that ``concepts.yml`` forbids for a concept in its language "
        "(``ru_forbidden: [законн*]``, a ``*`` ending a stem): write the concept's term (``ru:``) instead",
    ),
    FindingCode(
        "RS076",
        "translation-decimal-point",
        "a number with a decimal point (``11.5``) in the words or a table of a Russian page, where Russian "
        "writes a decimal comma (``11,5``); code, scenario values and link addresses keep the point",
    ),
    FindingCode(
        "RS080",
        "raw-html",
        "raw HTML in a page other than comments and ``<a>``, ``<abbr>``, ``<br>``, ``<kbd>``, ``<sub>``, "
        "``<sup>`` with their few attributes (``rulespy/check/markup.py``): ``<iframe>``, ``<script>``, "
        "``<img>``, an ``on*`` event handler, ``style``, an attribute list setting more than ``#id``, "
        "``.class``, ``title``, ``lang``; also a ``mkdocs.yml`` value the theme would print as raw HTML; "
        "``rulespy render`` refuses the page",
    ),
    FindingCode(
        "RS081",
        "unsafe-address",
        "a link, image or ``href`` with a scheme other than http, https, mailto (``javascript:``, "
        "``data:``, ``file:``), a ``//host`` address, or in raw HTML a ``/path`` or a path climbing out "
        "of the site; ``rulespy render`` refuses the page",
    ),
    FindingCode(
        "RS082",
        "config-runs-code",
        "``mkdocs.yml`` (or a file it INHERITs) has ``hooks`` or a YAML tag other than the plain ones "
        "(``!!python/name:``, ``!!python/object``, ``!ENV``, ``!relative``): code or the build machine's "
        "environment at build time (``rulespy/check/config.py``)",
    ),
    FindingCode(
        "RS083",
        "config-not-allowed",
        "a plugin, markdown extension or theme in ``mkdocs.yml`` that the site does not use (the allowed "
        "lists: ``rulespy/check/config.py``; ``pymdownx.snippets`` is not allowed), or ``extra.analytics`` "
        "and ``extra.consent``, which load scripts from elsewhere",
    ),
    FindingCode(
        "RS084",
        "config-path-outside",
        "a path option of ``mkdocs.yml`` (``docs_dir``, ``site_dir``, ``theme.custom_dir``, ``INHERIT``, "
        "``watch``, a ``base_path``) leads outside the repository, or an ``extra_css``/"
        "``extra_javascript`` entry is not a file of the site (a URL, ``/path``, ``../``)",
    ),
    FindingCode(
        "RS085",
        "example-rebinds-scenario",
        "a worked example rebinds the name of its scenario text in a way the site cannot follow "
        "(``S = S.replace(...)``, ``S += ...``, a loop): the board, summary and Try it would show another "
        "scenario than the one it runs; ``rulespy render`` refuses the page",
    ),
    FindingCode(
        "RS090",
        "message-untranslated",
        "a message of the engine's catalogue (the ``.po`` of a language under ``rulespy/locale/``, "
        "``rulespy.i18n``) has no translation (or a fuzzy one), is missing from it (run ``make messages``), "
        "or its translation's named placeholders differ from the English message's",
    ),
)

#: The short name of each finding code.
CODES: dict[str, str] = {c.code: c.name for c in FINDING_CODES}
#: The codes whose findings are warnings (listed, not failing under ``--warnings-ok``).
WARNINGS: frozenset[str] = frozenset(c.code for c in FINDING_CODES if c.severity == "warning")


def code_table(width: int = 100) -> str:
    """The finding codes as a reStructuredText table, ``width`` characters wide at most.

    >>> print(code_table().splitlines()[3])
    RS001  missing-file                a relative link, image or reference definition names a file that
    """
    name_width = max(len(c.name) for c in FINDING_CODES)
    text_width = width - 7 - name_width - 2
    rule = f"=====  {'=' * name_width}  {'=' * text_width}"
    lines = [rule, f"{'code':<5}  {'name':<{name_width}}  reported when", rule]
    for code in FINDING_CODES:
        wrapped = textwrap.wrap(code.when, text_width, break_long_words=False, break_on_hyphens=False)
        for index, text in enumerate(wrapped):
            first = index == 0
            lines.append(
                f"{code.code if first else '':<5}  {code.name if first else '':<{name_width}}  {text}"
            )
    lines.append(rule)
    return "\n".join(line.rstrip() for line in lines) + "\n"


@dataclass(frozen=True, slots=True, order=True)
class Finding:
    """One problem at ``path`` (repository-relative, ``/``-separated), 1-based ``line`` and ``column``."""

    path: str
    line: int
    column: int
    code: str
    message: str

    def __str__(self) -> str:
        """The text format's line, with control and bidirectional characters escaped (``printable``)."""
        return f"{printable(self.path)}:{self.line}:{self.column}: {self.code} {printable(self.message)}"

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "name": CODES.get(self.code, ""),
            "severity": "warning" if self.code in WARNINGS else "error",
            "message": self.message,
        }


class CheckError(BookError):
    """The check cannot run at all (bad path, bad configuration): exit status 2, never a traceback."""

    path: str | None

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def located(self) -> str:
        if self.path is None:
            return printable(self.message)
        return f"{printable(self.path)}:{self.line or 1}: {printable(self.message)}"
