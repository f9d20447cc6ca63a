"""The one markdown-it configuration every reader of the rule book parses with.

CommonMark with raw HTML and pipe tables, nesting up to ``MAX_NESTING``, every link address kept as a
link (``javascript:`` included, so that RS081 sees what the generators would publish), and the parse
budget of ``rulespy.check.budget`` (a paragraph too costly to parse raises ``budget.TooComplex``).

``parser(admonitions=True)`` adds Python-Markdown's admonitions (``!!!``, ``???``) as the site reads
them, where CommonMark reads their indented content as code: the checker looks for unsafe markup there,
and the site's linker links concepts inside them (``site_tokens``: a page as the site reads it).
``parser(inline=False)`` is the block parse alone (linear on any text; the render's heading count before
anything else reads a page). The checker's positioned inline rules (``rulespy.check.parse``) are rules
added to a parser made here, never a configuration of their own.

Every parser of the configuration notes, on each inline token, the stretches of its content that a code
span, link, image, autolink, raw HTML, entity or escape consumed (``opaque(token)``): the site's linker
(``rulespy.render.linker``) links only text outside them, so it links a page from the tokens the book
already holds instead of parsing the page again.

Every parse made for the book is counted (``parses()``), so a test can assert that one render parses
each text about once.
"""

from __future__ import annotations

from collections.abc import Callable
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

#: the inline rules whose markup is never linked into (``opaque``)
OPAQUE_RULES = ("backticks", "link", "image", "autolink", "html_inline", "entity", "escape")
#: the ``env`` key of the inline content being parsed and the list its opaque stretches go into
_OPEN = "rulespy_opaque"

#: a stretch an opaque rule consumed: the rule's name, its start and end offsets in the inline content
Span = tuple[str, int, int]


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
        md.core.ruler.at("inline", _inline_core)
        rules = {rule.name: rule.fn for rule in md.inline.ruler.__rules__}
        for name in OPAQUE_RULES:
            md.inline.ruler.at(name, _recording(name, rules[name]))
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


def site_tokens(text: str) -> list[Token]:
    """The tokens of ``text`` as the site's generators read it, admonitions included (counted)."""
    return parse(parser(admonitions=True), text)


def parse_inline(md: MarkdownIt, token: Token, env: dict[str, Any]) -> None:
    """markdown-it's inline parse of inline ``token`` into its children, the stretches its opaque rules
    consume kept on the token (``opaque``). Every core ``inline`` rule of the configuration calls this."""
    if token.children is None:
        token.children = []
    spans: list[Span] = []
    env[_OPEN] = (token.content, spans)
    try:
        md.inline.parse(token.content, md, env, token.children)
    finally:
        del env[_OPEN]
    if spans:
        token.meta["opaque"] = tuple(spans)


def opaque(token: Token) -> tuple[Span, ...]:
    """The stretches of inline ``token``'s content a code span, link, image, autolink, raw HTML, entity
    or escape consumed (link labels' own markup included), in the order they were read."""
    spans: tuple[Span, ...] = token.meta.get("opaque", ())
    return spans


def _inline_core(state: Any) -> None:
    """markdown-it's core ``inline`` rule, through ``parse_inline``."""
    for token in state.tokens:
        if token.type == "inline":
            parse_inline(state.md, token, state.env)


def _recording(name: str, rule: Callable[[Any, bool], bool]) -> Callable[[Any, bool], bool]:
    """Inline rule ``rule`` noting what it consumes of the content ``parse_inline`` parses (an image's
    alt text, parsed as a content of its own, is not that content: it is inside the image's stretch)."""

    def wrapped(state: Any, silent: bool) -> bool:
        start = state.pos
        done = rule(state, silent)
        if done and not silent:
            open_ = state.env.get(_OPEN)
            if open_ is not None and open_[0] is state.src:
                open_[1].append((name, start, state.pos))
        return done

    return wrapped


def parses() -> int:
    """How many texts were parsed for the book so far in this process (a test compares two readings)."""
    return _PARSES[0]
