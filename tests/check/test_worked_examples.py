""""Worked example" has one definition (``rulespy.check.examples``), and it is the test suite's own."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from pytest_markdown_docs.plugin import FenceSyntax, extract_fence_tests

from rulespy.check.examples import worked_examples
from rulespy.coverage.rules import parse_rule_file, rule_paths

MAIN = Path(__file__).resolve().parents[2]

EDGE_CASES = """# Page

```{.python}
x = 1
```

```{.python notest}
shown only
```

```python
y = 2
```

- in a list:

    ```{.python continuation}
    assert y == 2
    ```

```yaml
units: []
```

```{ .py }
z = 3
```
"""


def _pytest_runs(text: str) -> list[tuple[int, str]]:
    """What pytest-markdown-docs runs: the first line of each fence's code, and its code without the
    blank lines it pads continuations with."""
    tests = extract_fence_tests(
        MarkdownIt("commonmark"), text, 0, Path("page.md"), fence_syntax=FenceSyntax.superfences
    )
    return [(t.start_line, _code_lines(t.source)) for t in tests]


def _ours(text: str) -> list[tuple[int, str]]:
    return [(e.line, _code_lines(e.code)) for e in worked_examples(text)]


def _code_lines(code: str) -> str:
    return "".join(line for line in code.splitlines(True) if line.strip())


def test_worked_examples_are_the_fences_pytest_markdown_docs_runs_on_edge_cases() -> None:
    assert _ours(EDGE_CASES) == _pytest_runs(EDGE_CASES)
    assert [e.line for e in worked_examples(EDGE_CASES)] == [3, 11, 17, 25]


@pytest.mark.parametrize("path", rule_paths(MAIN))
def test_worked_examples_are_the_fences_pytest_markdown_docs_runs_in_each_rule_file(path: str) -> None:
    text = (MAIN / path).read_text(encoding="utf-8")
    assert _ours(text) == _pytest_runs(text)


def test_coverage_counts_exactly_the_worked_examples() -> None:
    path = "core/damage.md"
    text = (MAIN / path).read_text(encoding="utf-8")
    assert [e.line for e in parse_rule_file(path, text).examples] == [e.line for e in worked_examples(text)]
