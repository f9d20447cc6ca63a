"""What a worked example is, and the scenarios it plays: the one reader the checker, coverage and the site
share.

**A worked example** is a fenced code block of a rule file that the test suite runs, found exactly as
pytest-markdown-docs finds them (superfences syntax): a CommonMark fence (markdown-it-py) whose info
names the language ``python``, ``py`` or ``python3`` (``{.python}`` or ``python``) and does not carry
the option ``notest``. A fence with the option ``continuation`` runs after the examples before it in the
same file. Fences indented inside a list or an admonition are fences too. ``worked_examples(text)`` lists
them; ``rulespy coverage`` counts them, the site draws their boards.

**The scenarios an example plays** are read from its code with ``ast``, without running it: the YAML it
passes to ``play``, ``refused`` or ``parse_scenario`` (or the scenario file it names for
``load_scenario``). The site draws a board from that YAML and ``rulespy coverage`` / ``rulespy diff``
resolve it, so all of them read it here, the same way.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from markdown_it.token import Token

#: The fence languages pytest-markdown-docs runs.
PYTHON = frozenset({"python", "py", "python3"})


def fence_info(info: str) -> tuple[str | None, frozenset[str]]:
    """The language and options of a fence's info string, read as superfences (and
    pytest-markdown-docs) read it: ``{.python continuation}`` and ``python continuation`` alike.

    >>> fence_info("{.python continuation}")
    ('python', frozenset({'continuation'}))
    >>> fence_info("")
    (None, frozenset())
    """
    info = info.strip()
    parts = info.strip("{}").split() if info.startswith("{") else info.split()
    dotted = next((p for p in parts if p.startswith(".")), None) if info.startswith("{") else None
    if dotted is not None:
        parts.remove(dotted)
        parts.insert(0, dotted[1:])
    return (parts[0] if parts else None), frozenset(parts[1:])


def is_worked_example(info: str) -> bool:
    """Whether a fence with this info string is a worked example (the test suite runs it).

    >>> [is_worked_example(i) for i in ("{.python}", "python", "{.python notest}", "yaml")]
    [True, True, False, False]
    """
    language, options = fence_info(info)
    return language in PYTHON and "notest" not in options


@dataclass(frozen=True)
class WorkedExample:
    """One worked example: ``line`` is the 1-based line of its opening fence, ``end`` the 1-based line of
    the last line of the fence; ``content`` its own code; ``previous`` the example it continues (a
    ``continuation`` fence), whose code runs first. Only the link is kept, never the joined code, so a
    file of thousands of continuation fences costs memory in proportion to its size, not its square."""

    line: int
    end: int
    content: str
    previous: WorkedExample | None = field(default=None, compare=False, repr=False)

    @property
    def code(self) -> str:
        """What the test suite runs for this example: the fences it continues, then its own."""
        chain: list[str] = []
        example: WorkedExample | None = self
        while example is not None:
            chain.append(example.content)
            example = example.previous
        return "".join(reversed(chain))


def markdown_tokens(text: str) -> list[Token]:
    """The tokens of a rule file, by the rule book's one parser (``rulespy.book.markdown``: CommonMark,
    whose fences are the ones pytest-markdown-docs finds, with tables and the parse budget). A text over
    the budget has no tokens here (``rulespy check`` reports it, RS044)."""
    from rulespy.book import markdown
    from rulespy.check.budget import TooComplex

    try:
        return markdown.tokens(text)
    except TooComplex:
        return []


def worked_examples(text: str, tokens: Sequence[Token] | None = None) -> list[WorkedExample]:
    r"""Every worked example of a markdown file, in order (``tokens``: its ``markdown_tokens``, when the
    caller has them already).

    >>> page = "```{.python}\nx = 1\n```\n\n```{.python continuation}\nassert x\n```\n"
    >>> [(e.line, e.end, e.code) for e in worked_examples(page)]
    [(1, 3, 'x = 1\n'), (5, 7, 'x = 1\nassert x\n')]
    """
    found: list[WorkedExample] = []
    previous: WorkedExample | None = None
    for token in markdown_tokens(text) if tokens is None else tokens:
        if token.type != "fence" or token.map is None or not is_worked_example(token.info):
            continue
        if "continuation" not in fence_info(token.info)[1]:
            previous = None
        previous = WorkedExample(token.map[0] + 1, token.map[1], token.content, previous)
        found.append(previous)
    return found


#: Functions whose first argument is a scenario's YAML text (``rulespy.play`` keeps examples short).
SCENARIO_FUNCTIONS = frozenset({"parse_scenario", "play", "refused"})
_FILE_FUNCTION = "load_scenario"
_TEXT_HELPERS = {"dedent": textwrap.dedent, "cleandoc": inspect.cleandoc}
_TEXT_METHODS = {"strip", "lstrip", "rstrip"}


def _bind(statement: ast.stmt, names: dict[str, str], unfollowed: list[tuple[int, str]]) -> None:
    """Update ``names`` (module-level names holding a scenario text) for ``statement``: ``NAME = text``
    binds it; any other binding of a name that held a text (``S = S.replace(...)``, ``S += ...``, a
    ``for``, ``with``, ``def``, ``import``, ``del``, a tuple target...) forgets it, so that the site never
    draws the old text while the example runs another, and ``unfollowed`` gets ``(line, name)``."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        if isinstance(target, ast.Name):
            value = _text(statement.value, names)
            if value is not None:
                names[target.id] = value
                return
    for node in ast.walk(statement):
        bound = None
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound = node.id
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound = node.name
        elif isinstance(node, ast.alias):
            bound = (node.asname or node.name).split(".")[0]
        if bound is not None and bound in names:
            del names[bound]
            unfollowed.append((getattr(node, "lineno", statement.lineno), bound))


def unfollowed_rebindings(code: str) -> list[tuple[int, str]]:
    """``(line in the code, name)`` of each rebinding of a scenario text's name that ``scenario_texts``
    cannot follow (finding RS085): the example would run one scenario and the site show another.

    >>> unfollowed_rebindings('S = "dice: [6]"\\nS = S.replace("6", "1")\\nplay(S)')
    [(2, 'S')]
    """
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return []
    names: dict[str, str] = {}
    unfollowed: list[tuple[int, str]] = []
    for statement in tree.body:
        _bind(statement, names, unfollowed)
    return unfollowed


def _callee(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _text(node: ast.expr, names: dict[str, str]) -> str | None:
    """The string ``node`` evaluates to, for a literal, a module-level name or dedent/strip of those."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Call) and len(node.args) == 1 and _callee(node.func) in _TEXT_HELPERS:
        inner = _text(node.args[0], names)
        return None if inner is None else _TEXT_HELPERS[str(_callee(node.func))](inner)
    if isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute):
        if node.func.attr in _TEXT_METHODS:
            inner = _text(node.func.value, names)
            return None if inner is None else getattr(inner, node.func.attr)()
    return None


def scenario_texts(code: str, read_file: Callable[[str], str | None] | None = None) -> list[str]:
    """The YAML texts ``code`` passes to a ``SCENARIO_FUNCTIONS`` function, in source order. With
    ``read_file``, a ``load_scenario("path")`` call contributes ``read_file("path")`` (``None``: nothing);
    the caller decides where a path may be read from (the site reads inside the repository only)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError):
        return []
    names: dict[str, str] = {}
    found: list[tuple[int, int, str]] = []
    for statement in tree.body:
        _bind(statement, names, [])
        for node in ast.walk(statement):
            if not isinstance(node, ast.Call):
                continue
            callee = _callee(node.func)
            if callee not in SCENARIO_FUNCTIONS and not (callee == _FILE_FUNCTION and read_file is not None):
                continue
            argument = (
                node.args[0]
                if node.args
                else next((k.value for k in node.keywords if k.arg in ("text", "scenario", "path")), None)
            )
            text = None if argument is None else _text(argument, names)
            if text is not None and callee == _FILE_FUNCTION and read_file is not None:
                text = read_file(text)
            if text is not None:
                found.append((node.lineno, node.col_offset, text))
    return [text for _, _, text in sorted(found)]
