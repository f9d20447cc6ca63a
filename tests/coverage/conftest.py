"""A tiny rules repository to measure, and a copy of the real engine for the tests that run examples."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

MAIN = Path(__file__).resolve().parents[2]

CONCEPTS = """\
owners:
  core/alpha.md:
    - {concept: Alpha Rule, anchor: alpha-rule}
    - {concept: Beta Rule, anchor: beta-rule}
    - {concept: Gamma Words, anchor: gamma-words, terminology: true}
"""

ALPHA = """\
# Alpha {#alpha}

## Alpha Rule {#alpha-rule}

Text.

### Detail {#alpha-detail}

```{.python}
# exercises: #beta-rule
x = 1
```

## Beta Rule {#beta-rule}

```{.python notest}
raise SystemExit("never run")
```

## Gamma Words {#gamma-words}

Only words.
"""

CODE = '''\
"""The alpha module.

Rule: core/alpha.md#alpha-rule
"""


def beta() -> int:
    """Beta.

    Rule: core/alpha.md#beta-rule
    """
    return 1


class Holder:
    def method(self) -> None:
        """Rule: core/alpha.md#alpha-detail"""
'''

TESTS = '''\
def test_alpha_rule_holds() -> None:
    pass


def test_something_else() -> None:
    """Rule: core/alpha.md#beta-rule"""
'''


def write(root: Path, files: dict[str, str]) -> None:
    for relative, text in files.items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A rules repository with one rule file, a fake engine module citing it, and one test module."""
    write(
        tmp_path,
        {
            "concepts.yml": CONCEPTS,
            "core/alpha.md": ALPHA,
            "rulespy/__init__.py": "",
            "rulespy/core/alpha.py": CODE,
            "tests/core/test_alpha.py": TESTS,
        },
    )
    return tmp_path


def _copy_engine(root: Path) -> None:
    shutil.copytree(
        MAIN / "rulespy", root / "rulespy", ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True
    )


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        [
            "git",
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.invalid",
            "-c",
            "commit.gpgsign=false",
            *args,
        ],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.fixture
def alpha_text() -> str:
    return ALPHA


@pytest.fixture
def copy_engine() -> Callable[[Path], None]:
    """Copies the real engine into a folder, so that a test may change it there."""
    return _copy_engine


@pytest.fixture
def git() -> Callable[..., str]:
    """Runs git in a folder with a throwaway identity: ``git(root, "commit", ...)``."""
    return _git
