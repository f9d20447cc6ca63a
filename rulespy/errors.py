"""The one exception family of rulespy: every error it raises on purpose is a ``RulesError``.

Each has a ``kind``, one of ``KINDS``, and carries ``path`` and ``line`` where it has them (``None``
where it does not); ``located()`` writes it as ``PATH:LINE: message``, as the command line prints it.

- ``IllegalDeclaration`` (``illegal-declaration``): a well-formed declaration that the rules forbid
  (exit 1); it names the rule broken.
- ``InvalidInput`` (``invalid-input``): input that is not a valid scenario at all (exit 2), at its line:
  the scenario loader's refusals, a YAML document over the budget (``rulespy.yamlbudget.YAMLTooLarge``),
  an attack beyond the exact odds engine's size (``rulespy.odds.TooLarge``).
- ``BookError`` (``book-error``): the rule book, its configuration or the site cannot be read, checked,
  written or published (``rulespy check``, ``render``, the editions, the rulebook: exit 2).

Catch ``RulesError`` for all of them, a kind's class for one kind. The classes of the tools keep their
own names (``CheckError``, ``RenderError``, ...), each a subclass of its kind. This module imports
nothing of rulespy, so every layer, and the checker that stands beside the engine, may use it.

>>> from rulespy.errors import InvalidInput, RulesError
>>> error = InvalidInput("the scenario is empty", 1, "a.yaml")
>>> isinstance(error, RulesError), error.kind, error.located()
(True, 'invalid-input', 'a.yaml:1: the scenario is empty')
"""

from __future__ import annotations

from os import PathLike
from typing import ClassVar

KINDS = ("illegal-declaration", "invalid-input", "book-error")
"""The kinds of ``RulesError``, one class each."""


class RulesError(Exception):
    """Base of every error rulespy raises on purpose. ``kind`` is one of ``KINDS``; ``path`` and ``line``
    (1-based) say where the problem is, when it has a place."""

    kind: ClassVar[str] = ""
    path: str | PathLike[str] | None = None
    line: int | None = None

    def located(self) -> str:
        """``PATH:LINE: message`` (line 1 when unknown), or the message alone when there is no path."""
        message = getattr(self, "message", None) or str(self)
        if self.path is None:
            return str(message)
        return f"{self.path}:{self.line or 1}: {message}"


class IllegalDeclaration(RulesError):
    """A declaration the rules forbid. ``rule`` is the ``PATH#ANCHOR`` of the rule broken.

    ``response`` is set when what is refused is a response (Snap Fire, Covering Fire): the ``PATH#ANCHOR``
    of the responding command, whose file says what happens at the table instead (the response is not
    made, and the attack that triggered it resolves); empty otherwise."""

    kind = "illegal-declaration"

    def __init__(self, rule: str, message: str, response: str = "") -> None:
        super().__init__(f"{message} (see {rule})")
        self.rule = rule
        self.message = message
        self.response = response


class InvalidInput(RulesError):
    """Malformed input. ``line`` is 1-based; ``path`` is the scenario file when known."""

    kind = "invalid-input"
    path: str | None

    def __init__(self, message: str, line: int | None = None, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.path = path

    def located(self) -> str:
        """``FILE:LINE: message`` as the command line prints it."""
        where = self.path or "<scenario>"
        return f"{where}:{self.line or 1}: {self.message}"


class BookError(RulesError):
    """The rule book, its configuration or the site cannot be read, checked, written or published."""

    kind = "book-error"
