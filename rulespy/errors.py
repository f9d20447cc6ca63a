"""The one exception family of rulespy.

``IllegalDeclaration`` is a well-formed declaration that the rules forbid (exit 1);
``InvalidInput`` is input that is not a valid scenario at all (exit 2).
"""

from __future__ import annotations


class RulesError(Exception):
    """Base of every error rulespy raises on purpose."""


class IllegalDeclaration(RulesError):
    """A declaration the rules forbid. ``rule`` is the ``PATH#ANCHOR`` of the rule broken.

    ``response`` is set when what is refused is a response (Snap Fire, Covering Fire): the ``PATH#ANCHOR``
    of the responding command, whose file says what happens at the table instead (the response is not
    made, and the attack that triggered it resolves); empty otherwise."""

    def __init__(self, rule: str, message: str, response: str = "") -> None:
        super().__init__(f"{message} (see {rule})")
        self.rule = rule
        self.message = message
        self.response = response


class InvalidInput(RulesError):
    """Malformed input. ``line`` is 1-based; ``path`` is the scenario file when known."""

    def __init__(self, message: str, line: int | None = None, path: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.path = path

    def located(self) -> str:
        """``FILE:LINE: message`` as the command line prints it."""
        where = self.path or "<scenario>"
        return f"{where}:{self.line or 1}: {self.message}"
