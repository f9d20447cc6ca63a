"""The ownership registry, ``concepts.yml`` at the repository root (format fixed in the team plan).

::

    owners:                 # file -> the concepts it owns
      core/damage.md:
        - {concept: Damage, anchor: damage, aliases: [Normal Damage], ru: [Урон, урона, Обычный урон]}
        - {concept: Reaction To Shooting, anchor: reaction-to-shooting, terminology: true}
    requires:               # file -> files it must link to
      commands/command_shoot.md: [core/shooting.md]
    retired:                # old term -> current term, allowed only in the section explaining it
      - {term: reaction to shooting, current: responding command,
         explained_in: core/shooting.md#reaction-to-shooting}
    check:                  # optional: where things are (defaults in rulespy/check/files.py)
      exclude: [site, build, tests, bench, examples]
      rule_dirs: [core, sequences, timing, commands]
      code_dirs: [rulespy]
      max_file_kb: 2048

``ru:`` (one key a translation language, ``LANGUAGES``) lists a concept's names in that edition: the
first is its name there (tooltips, glossary, "Defined on this page"), the rest are the other forms the
text writes (cases, plurals), which the site links like English aliases. No ``ru:``: the English name
is used on Russian pages too. ``asked:`` (and ``asked_ru:`` for the Russian edition) lists how players
ask about the concept at the table ("within 1 inch of an enemy", "overkill"): the site's search finds
the owner's section by those words (``rulespy/render/search.py``).

``ru_forbidden:`` lists the words that must not stand for the concept on a Russian page (RS075): a
synonym or an older translation, ``[законн*, критическ* попадани*]``. Each word of a variant matches that
word, in either case and with ``е`` for ``ё``; a word ending in ``*`` is a stem and matches every word
that begins with it (every case and number), so one entry covers a whole declension.

A malformed registry stops the check (exit 2) with ``concepts.yml:LINE: message``. No registry: the
ownership checks are skipped and everything else is checked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rulespy.check import yamlnodes as Y
from rulespy.check.files import LANGUAGES, MAX_FILE_KB, Layout, read_config
from rulespy.check.findings import CheckError

if TYPE_CHECKING:
    import yaml

REGISTRY = "concepts.yml"
#: ``asked``: players' own phrasings of a question the concept's section answers ("within 1 inch of an
#: enemy", "overkill"), which the site indexes as search words of that section; ``asked_ru`` and so on:
#: the same in a translation's words.
ASKED = "asked"
_CONCEPT_KEYS = {
    "concept",
    "anchor",
    "aliases",
    "terminology",
    ASKED,
    *LANGUAGES,
    *(f"{language}_forbidden" for language in LANGUAGES),
    *(f"{ASKED}_{language}" for language in LANGUAGES),
}
_RETIRED_KEYS = {"term", "current", "explained_in"}
_CHECK_KEYS = {"exclude", "rule_dirs", "code_dirs", "max_file_kb"}


@dataclass(frozen=True)
class Concept:
    """One owned concept: its name, the other spellings players write, and where it is defined. Where it
    stands in concepts.yml (``line``, ``column``) is for messages, not part of what the concept is.
    The checker, ``rulespy render`` and ``rulespy coverage`` all read concepts through ``load_registry``."""

    name: str
    file: str
    anchor: str
    aliases: tuple[str, ...] = ()
    terminology: bool = False
    line: int = field(default=1, compare=False)
    column: int = field(default=1, compare=False)
    #: (language, (name, other forms...)) for each translation that names the concept
    translated: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: (language, (variant, ...)): the words that must not stand for the concept in that edition (RS075)
    forbidden: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: (language or "", (phrasing, ...)): how players ask about it (``asked``, ``asked_ru``), search words
    asked: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return (self.name, *self.aliases)

    def names_in(self, language: str | None) -> tuple[str, ...]:
        """The concept's names in ``language`` (``None``: English): its name there first, then the other
        forms; the English names when the registry gives none for that language."""
        for lang, names in self.translated:
            if lang == language:
                return names
        return self.names

    def asked_in(self, language: str | None) -> tuple[str, ...]:
        """How players ask about the concept in ``language`` (``None``: English), for the site's search."""
        return next((words for lang, words in self.asked if lang == (language or "")), ())

    def name_in(self, language: str | None) -> str:
        return self.names_in(language)[0]

    @property
    def target(self) -> str:
        """``PATH#ANCHOR`` of the concept's section in its owner file."""
        return f"{self.file}#{self.anchor}"


@dataclass(frozen=True)
class Retired:
    term: str
    current: str
    explained_in: str
    line: int
    column: int


@dataclass(frozen=True)
class Requirement:
    file: str
    target: str
    line: int
    column: int


@dataclass(frozen=True)
class Registry:
    present: bool = False
    concepts: tuple[Concept, ...] = ()
    owner_files: tuple[tuple[str, int, int], ...] = ()  # (file, line, column) of each owners key
    requires: tuple[Requirement, ...] = ()
    requiring_files: tuple[tuple[str, int, int], ...] = ()
    retired: tuple[Retired, ...] = ()
    layout: Layout = field(default_factory=Layout)


#: What a concept name may not hold: the characters that start HTML or markdown markup.
_MARKUP_CHARACTERS = re.compile(r"[<>\[\]`&\\|{}]")


class _Reader:
    def __init__(self) -> None:
        self.concepts: list[Concept] = []
        self.owner_files: list[tuple[str, int, int]] = []
        self.requires: list[Requirement] = []
        self.requiring_files: list[tuple[str, int, int]] = []
        self.retired: list[Retired] = []
        self.layout = Layout()

    @staticmethod
    def fail(node: yaml.Node, message: str) -> CheckError:
        return CheckError(message, REGISTRY, Y.line(node))

    def text(self, node: yaml.Node, what: str) -> str:
        value = Y.scalar(node)
        if value is None or not value.strip() or Y.is_null(node):
            raise self.fail(node, f"{what} must be a non-empty text")
        return value.strip()

    def texts(self, node: yaml.Node, what: str) -> list[str]:
        if Y.is_null(node):
            return []
        if not Y.is_sequence(node):
            raise self.fail(node, f"{what} must be a list")
        return [self.name(item, what) for item in Y.items(node)]

    def name(self, node: yaml.Node, what: str) -> str:
        """A concept's name, alias or translated name: text without markup characters, since the site
        writes it into pages, tooltips and the glossary as it is (``<iframe ...>`` in a name would be
        published as raw HTML, ``[x](y)`` as a link)."""
        value = self.text(node, what)
        found = _MARKUP_CHARACTERS.search(value)
        if found is not None:
            raise self.fail(node, f"{what} {value!r} holds {found.group(0)!r}: a name is plain words")
        return value

    def mapping(self, node: yaml.Node, what: str, allowed: set[str]) -> dict[str, yaml.Node]:
        if not Y.is_mapping(node):
            raise self.fail(node, f"{what} must be a mapping")
        found: dict[str, yaml.Node] = {}
        for key, value in Y.pairs(node):
            name = Y.scalar(key) or ""
            if name not in allowed:
                expected = ", ".join(sorted(allowed))
                raise self.fail(key, f"unknown key {name!r} in {what} (expected one of {expected})")
            if name in found:
                raise self.fail(key, f"duplicate key {name!r} in {what}")
            found[name] = value
        return found

    def owners(self, node: yaml.Node) -> None:
        if Y.is_null(node):
            return
        if not Y.is_mapping(node):
            raise self.fail(node, "owners must map each file to the list of concepts it owns")
        for key, value in Y.pairs(node):
            file = self.text(key, "an owners file")
            self.owner_files.append((file, Y.line(key), Y.column(key)))
            if Y.is_null(value):
                continue
            if not Y.is_sequence(value):
                raise self.fail(value, f"owners of {file} must be a list of {{concept, anchor}} entries")
            for entry in Y.items(value):
                fields = self.mapping(entry, f"a concept of {file}", _CONCEPT_KEYS)
                for required in ("concept", "anchor"):
                    if required not in fields:
                        raise self.fail(entry, f"a concept of {file} needs {required!r}")
                terminology = fields.get("terminology")
                flag = Y.scalar(terminology) if terminology is not None else "false"
                if flag not in ("true", "false", "True", "False", "yes", "no"):
                    raise self.fail(entry, "terminology must be true or false")
                aliases = self.texts(fields["aliases"], "aliases") if "aliases" in fields else []
                translated = []
                for language in LANGUAGES:
                    if language in fields:
                        names = self.texts(fields[language], f"{language} (the names in that edition)")
                        if not names:
                            raise self.fail(fields[language], f"{language} must list at least the name")
                        translated.append((language, tuple(names)))
                forbidden = []
                for language in LANGUAGES:
                    avoid = f"{language}_forbidden"
                    if avoid in fields:
                        variants = self.texts(fields[avoid], f"{avoid} (the words that must not name it)")
                        if language not in fields:
                            raise self.fail(fields[avoid], f"{avoid} needs {language}: the term to write")
                        forbidden.append((language, tuple(variants)))
                asked = [
                    (language or "", tuple(self.texts(fields[key], f"{key} (players' phrasings)")))
                    for language, key in ((None, ASKED), *((lang, f"{ASKED}_{lang}") for lang in LANGUAGES))
                    if key in fields
                ]
                self.concepts.append(
                    Concept(
                        self.name(fields["concept"], "concept"),
                        file,
                        self.text(fields["anchor"], "anchor").lstrip("#"),
                        tuple(aliases),
                        flag in ("true", "True", "yes"),
                        Y.line(entry),
                        Y.column(fields["concept"]),
                        tuple(translated),
                        tuple(forbidden),
                        tuple(asked),
                    )
                )

    def requirements(self, node: yaml.Node) -> None:
        if Y.is_null(node):
            return
        if not Y.is_mapping(node):
            raise self.fail(node, "requires must map each file to the files it must link to")
        for key, value in Y.pairs(node):
            file = self.text(key, "a requires file")
            self.requiring_files.append((file, Y.line(key), Y.column(key)))
            targets = Y.items(value) if Y.is_sequence(value) else None
            if targets is None:
                raise self.fail(value, f"requires of {file} must be a list of files")
            for target in targets:
                self.requires.append(
                    Requirement(file, self.text(target, "a required file"), Y.line(target), Y.column(target))
                )

    def retirements(self, node: yaml.Node) -> None:
        if Y.is_null(node):
            return
        if not Y.is_sequence(node):
            raise self.fail(node, "retired must be a list of {term, current, explained_in} entries")
        for entry in Y.items(node):
            fields = self.mapping(entry, "a retired term", _RETIRED_KEYS)
            for required in sorted(_RETIRED_KEYS):
                if required not in fields:
                    raise self.fail(entry, f"a retired term needs {required!r}")
            self.retired.append(
                Retired(
                    self.text(fields["term"], "term"),
                    self.text(fields["current"], "current"),
                    self.text(fields["explained_in"], "explained_in"),
                    Y.line(entry),
                    Y.column(fields["term"]),
                )
            )

    def check_settings(self, node: yaml.Node) -> None:
        fields = self.mapping(node, "check", _CHECK_KEYS)
        changes: dict[str, object] = {}
        for name in ("exclude", "rule_dirs", "code_dirs"):
            if name in fields:
                changes[name] = tuple(self.texts(fields[name], name))
        if "max_file_kb" in fields:
            value = self.text(fields["max_file_kb"], "max_file_kb")
            plain = value.isascii() and value.isdigit() and len(value) <= 9  # not '²', not 5,000 digits
            if not (plain and 1 <= int(value) <= MAX_FILE_KB):
                message = f"max_file_kb must be a whole number from 1 to {MAX_FILE_KB}, not {value[:20]!r}"
                raise self.fail(fields["max_file_kb"], message)
            changes["max_bytes"] = int(value) * 1024
        self.layout = replace(self.layout, **changes)  # type: ignore[arg-type]


def load_registry(root: Path) -> Registry:
    """Read ``concepts.yml`` from ``root``; an absent file gives an empty, not-present registry."""
    data = read_config(root, REGISTRY)
    if data is None:
        return Registry()
    node = Y.compose(data, REGISTRY)
    reader = _Reader()
    if node is None or Y.is_null(node):
        return Registry(present=True)
    sections = reader.mapping(node, REGISTRY, {"owners", "requires", "retired", "check"})
    if "owners" in sections:
        reader.owners(sections["owners"])
    if "requires" in sections:
        reader.requirements(sections["requires"])
    if "retired" in sections:
        reader.retirements(sections["retired"])
    if "check" in sections:
        reader.check_settings(sections["check"])
    return Registry(
        True,
        tuple(reader.concepts),
        tuple(reader.owner_files),
        tuple(reader.requires),
        tuple(reader.requiring_files),
        tuple(reader.retired),
        reader.layout,
    )
