"""How much parsing one markdown file may cost, judged before the expensive work (finding RS044).

The checker's own passes are linear in the file, but markdown-it-py is not on every text:

* **reference definitions**: each ``[label]: dest`` line scans every following line of its paragraph
  before it is parsed, so a block of consecutive definitions costs the square of its length;
* **inline markup**: the inline tokenizer builds the text between tokens by repeated string
  concatenation and rescans a link label from every ``[``, so one paragraph costs about its number of
  markup characters times its length.

A file over either budget is refused with one RS044 finding at the line where the costly block
starts, and nothing else in it is checked; a rule writer splits the block. The budgets are far above
anything a rule file holds (200 definitions without a blank line between them, a paragraph with 2,000
markup characters) and keep each block's parsing well under a second. Python-Markdown's toc
(identical headings) is linear once given its ``counters`` cache (``rulespy.check.slugs``), and
emphasis fragments are joined in linear time here (``fragments_join``).
"""

from __future__ import annotations

import re
from typing import Any

from rulespy.errors import BookError

MAX_DEFINITION_SCAN = 30_000
"""Lines markdown-it-py may scan for reference definitions in one file (a run of k definitions: k*k/2)."""
MAX_INLINE_MARKERS = 2_000
"""Markup characters one paragraph, heading or table cell may hold."""
MAX_INLINE_WORK = 40_000_000
"""Markup characters times characters of one paragraph (what its inline parsing costs, roughly)."""

#: markdown-it-py's text rule stops at these (``rules_inline/text.py``): every one may start a token.
_MARKERS = re.compile(r"[\n!#$%&*+\-:<=>@\[\\\]^_`{}~]")
_DEFINITION_START = re.compile(r"[ >]*\[[^\]]*(?:\]:|$)")


class TooComplex(BookError):
    """The file is over a parsing budget: ``line`` (1-based) is where the costly block starts."""

    line: int

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


def check_definitions(lines: list[str]) -> None:
    """Refuse a run of reference definitions whose scanning would cost more than the budget.

    Upper estimate, linear in the file: in each run of non-blank lines, every line that may open a
    definition (``[`` first, after spaces and ``>``, with ``]:`` or no ``]`` after) scans the rest of
    the run.
    """
    cost = 0
    run_end = len(lines)
    for number in range(len(lines) - 1, -1, -1):
        line = lines[number]
        if not line.strip():
            run_end = number
            continue
        if "[" in line and _DEFINITION_START.match(line):
            cost += run_end - number
            if cost > MAX_DEFINITION_SCAN:
                start = number
                while start > 0 and lines[start - 1].strip():
                    start -= 1
                raise TooComplex(
                    start + 1,
                    f"too many reference definitions without a blank line between them (more than "
                    f"{MAX_DEFINITION_SCAN:,} lines to scan); put blank lines between them; file not checked",
                )


def check_inline(state: Any) -> None:
    """A markdown-it core rule (run after block parsing): refuse an inline block over the budget."""
    for token in state.tokens:
        if token.type != "inline":
            continue
        content = token.content
        if len(content) < 2_000:  # too short to matter: counting would cost more than it saves
            continue
        markers = len(_MARKERS.findall(content))
        if markers > MAX_INLINE_MARKERS or markers * len(content) > MAX_INLINE_WORK:
            line = token.map[0] + 1 if token.map else 1
            raise TooComplex(
                line,
                f"a paragraph of {len(content):,} characters with {markers:,} markup characters is too "
                f"complex to check (at most {MAX_INLINE_MARKERS:,}, and {MAX_INLINE_WORK:,} markup "
                "characters times characters); split it; file not checked",
            )


def fragments_join(state: Any) -> None:
    """markdown-it-py's ``fragments_join``, in linear time: adjacent text tokens are joined once.

    The library's version concatenates each text onto the one before, which costs the square of a
    long run of unmatched emphasis markers (``*a _b *a _b ...``). Same tokens, same levels.
    """
    out: list[Any] = []
    run: list[Any] = []
    level = 0

    def flush() -> None:
        if run:
            if len(run) > 1:  # the last text of a run is kept, holding the whole run, as the library does
                run[-1].content = "".join(token.content for token in run)
            out.append(run[-1])
            run.clear()

    for token in state.tokens:
        if token.nesting < 0:
            level -= 1
        token.level = level
        if token.nesting > 0:
            level += 1
        if token.type == "text":
            run.append(token)
        else:
            flush()
            out.append(token)
    flush()
    state.tokens[:] = out
