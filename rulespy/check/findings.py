"""Checker findings are data: a frozen ``Finding`` per problem, printed ``PATH:LINE:COLUMN: CODE message``."""

from __future__ import annotations

from dataclasses import dataclass

#: Every finding code with its short name. The table in ``rulespy/check/__init__.py`` explains each one.
CODES: dict[str, str] = {
    "RS001": "missing-file",
    "RS002": "link-escapes-repo",
    "RS003": "missing-anchor",
    "RS004": "missing-mention",
    "RS010": "two-owners",
    "RS011": "no-owner",
    "RS012": "wrong-ownership-claim",
    "RS013": "restated-concept",
    "RS020": "orphan-page",
    "RS021": "nav-entry-to-nothing",
    "RS030": "missing-required-reference",
    "RS031": "retired-term",
    "RS040": "not-utf8",
    "RS041": "bad-front-matter",
    "RS042": "file-too-large",
    "RS043": "too-complex",
    "RS050": "rule-heading-without-id",
    "RS051": "code-cites-missing-rule",
    "RS060": "step-drift",
}


@dataclass(frozen=True, slots=True, order=True)
class Finding:
    """One problem at ``path`` (repository-relative, ``/``-separated), 1-based ``line`` and ``column``."""

    path: str
    line: int
    column: int
    code: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.code} {self.message}"

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "name": CODES.get(self.code, ""),
            "message": self.message,
        }


class CheckError(Exception):
    """The check cannot run at all (bad path, bad configuration): exit status 2, never a traceback."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line

    def located(self) -> str:
        if self.path is None:
            return self.message
        return f"{self.path}:{self.line or 1}: {self.message}"
