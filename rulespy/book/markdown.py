"""The one markdown-it configuration every reader of the rule book parses with.

CommonMark with raw HTML and pipe tables, nesting up to ``MAX_NESTING``, every link address kept as a
link (``javascript:`` included, so that RS081 sees what the generators would publish), and the parse
budget of ``rulespy.check.budget`` (a paragraph too costly to parse raises ``budget.TooComplex``).

``parser(admonitions=True)`` adds Python-Markdown's admonitions (``!!!``, ``???``) as the site reads
them, where CommonMark reads their indented content as code: the checker looks for unsafe markup there,
and the site's linker links concepts inside them. ``parser(inline=False)`` is the block parse alone
(linear on any text; the render's heading count before anything else reads a page). The checker's
positioned inline rules (``rulespy.check.parse``) and the linker's recorded spans
(``rulespy.render.linker``) are rules added to a parser made here, never a configuration of their own.

Every parse made for the book is counted (``parses()``), so a test can assert that one render parses
each text about once.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from rulespy.check import budget

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

#: markdown-it's nesting limit (its CommonMark preset has 20: ten list levels, whose content it then drops
#: silently); deeper than ``MAX_NESTING - 1`` levels is finding RS006, since links there go unseen
MAX_NESTING = 50

#: the count of parses (a list: the suite's state restoration rebinds plain module globals)
_PARSES = [0]


def build(admonitions: bool = False, inline: bool = True) -> MarkdownIt:
    """A new parser of the one configuration (see the module docstring); callers that add rules of
    their own build one, the others share ``parser``."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": True, "maxNesting": MAX_NESTING}).enable("table")
    if admonitions:
        from mdit_py_plugins.admon import admon_plugin

        md.use(admon_plugin)
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    if inline:
        md.core.ruler.before("inline", "budget", budget.check_inline)
    else:
        md.disable("inline")
    return md


@cache
def parser(admonitions: bool = False, inline: bool = True) -> MarkdownIt:
    """The shared parser of the one configuration."""
    return build(admonitions, inline)


def parse(md: MarkdownIt, text: str, env: dict[str, Any] | None = None) -> list[Token]:
    """``md.parse(text, env)``, counted (``parses``)."""
    _PARSES[0] += 1
    return md.parse(text, env)


def tokens(text: str) -> list[Token]:
    """The block and inline tokens of ``text`` with the shared parser (counted)."""
    return parse(parser(), text)


def parses() -> int:
    """How many texts were parsed for the book so far in this process (a test compares two readings)."""
    return _PARSES[0]
