"""Checker findings are data: a frozen ``Finding`` per problem, printed ``PATH:LINE:COLUMN: CODE message``."""

from __future__ import annotations

import re
from dataclasses import dataclass

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


#: Every finding code with its short name. The table in ``rulespy/check/__init__.py`` explains each one.
CODES: dict[str, str] = {
    "RS001": "missing-file",
    "RS002": "link-escapes-repo",
    "RS003": "missing-anchor",
    "RS004": "missing-mention",
    "RS005": "duplicate-id",
    "RS006": "too-deeply-nested",
    "RS010": "two-owners",
    "RS011": "no-owner",
    "RS012": "wrong-ownership-claim",
    "RS013": "restated-concept",
    "RS020": "orphan-page",
    "RS021": "nav-entry-to-nothing",
    "RS022": "two-pages-one-url",
    "RS030": "missing-required-reference",
    "RS031": "retired-term",
    "RS040": "not-utf8",
    "RS041": "bad-front-matter",
    "RS042": "file-too-large",
    "RS043": "symlink-leaves-repo",
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
        """The text format's line, with control and bidirectional characters escaped (``printable``)."""
        return f"{printable(self.path)}:{self.line}:{self.column}: {self.code} {printable(self.message)}"

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
            return printable(self.message)
        return f"{printable(self.path)}:{self.line or 1}: {printable(self.message)}"
