"""Repository-wide pytest configuration: no test, and no markdown example, can change rulespy for another.

pytest-markdown-docs already runs each example in a fresh namespace, but the rulespy modules an example
imports are shared by the whole session: an example that sets ``rulespy.core.allocation.NEAR_BAND = 99``
or replaces a rulespy function would change the result of every example after it. The autouse fixture
below snapshots the state of every ``rulespy`` module before each test (markdown examples included:
pytest-markdown-docs fills autouse fixtures too) and puts it back afterwards:

* module globals: rebound or deleted names are restored, names added by the test are removed;
* module-level lists, dicts, sets and bytearrays changed in place get their old contents back (the same
  object, since other modules may hold it through ``from ... import``);
* attributes of the classes a rulespy module defines (a monkeypatched method, a changed class constant).

Every rulespy module is imported once at the start of the session, so a module first imported by a test
is covered as well. Deeper changes (a function's ``__code__`` or defaults, an attribute of an object held
in a global) are not undone; no example should need them. The suite takes some 4,000 snapshots, so one is
kept cheap: a module or class whose namespace binds the very same objects as before (compared by identity)
is skipped at restore, and the containers and classes of a module are looked for again only when its
namespace changed (``_Plan``; ``tests/test_state_snapshot.py``): about 1.5 ms of CPU a test, from 2.7.

Worked examples do not run in this process at all (issue 13): the runner registered below hands each one
to ``rulespy.coverage.sandbox`` (a forked child per example, in its own process group and temporary
folder, with a scrubbed environment and a wall-clock limit enforced with SIGKILL; ini option
``markdown_example_limit``, seconds). An example that exits, skips, is killed or overruns fails at its
``.md`` file; and a run in which fewer examples passed or failed than were collected fails as a whole.
"""

from __future__ import annotations

import functools
import importlib
import operator
import pkgutil
import sys
from collections.abc import Generator, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pytest_markdown_docs._runners import _Runner, register_runner
from pytest_markdown_docs.plugin import MarkdownDocstringCodeModule

PACKAGE = "rulespy"
_MUTABLE = (list, dict, set, bytearray)


def _import_everything() -> None:
    """Import every rulespy module, so that the snapshot covers modules a test would import first."""
    try:
        root = importlib.import_module(PACKAGE)
    except Exception:
        return
    for info in pkgutil.walk_packages(root.__path__, prefix=f"{PACKAGE}."):
        try:
            importlib.import_module(info.name)
        except Exception:  # a module that cannot import is its own tests' problem, not the snapshot's
            continue


def _modules() -> list[ModuleType]:
    return [
        module
        for name, module in list(sys.modules.items())
        if module is not None and (name == PACKAGE or name.startswith(f"{PACKAGE}."))
    ]


class _Plan:
    """What a snapshot needs of one module's namespace: its module-level containers and its own classes.

    Finding them means looking at every value of every rulespy module (some 4,000 names), which cost
    more than the rest of a snapshot; so the names are remembered with the namespace they were found in,
    and found again only in a module whose namespace binds another object since (``_same``), which is
    exactly what looking at every value again would have found."""

    __slots__ = ("namespace", "contents", "classes")

    def __init__(self, module: ModuleType, namespace: dict[str, Any]) -> None:
        self.namespace = namespace
        self.contents: list[str] = []
        self.classes: list[str] = []
        for name, value in vars(module).items():
            if name.startswith("__"):  # __builtins__ and friends belong to Python, not to rulespy
                continue
            if type(value) in _MUTABLE:
                self.contents.append(name)
            elif isinstance(value, type) and value.__module__ == module.__name__:
                self.classes.append(name)


_PLANS: dict[str, _Plan] = {}


def _same(namespace: Any, saved: dict[str, Any]) -> bool:
    """Whether ``namespace`` binds the same name objects, in the same order, to the very same objects as
    ``saved`` (compared by identity, never by ``==``)."""
    return (
        len(namespace) == len(saved)
        and all(map(operator.is_, namespace, saved))
        and all(map(operator.is_, namespace.values(), saved.values()))
    )


class _Snapshot:
    """The restorable state of the loaded rulespy modules."""

    def __init__(self) -> None:
        self.globals: dict[ModuleType, dict[str, Any]] = {}
        self.contents: list[tuple[Any, Any]] = []
        self.classes: list[tuple[type, dict[str, Any]]] = []
        for module in _modules():
            namespace = dict(vars(module))
            self.globals[module] = namespace
            plan = _PLANS.get(module.__name__)
            if plan is None or not _same(namespace, plan.namespace):
                plan = _PLANS[module.__name__] = _Plan(module, namespace)
            for name in plan.contents:
                value = namespace[name]
                self.contents.append((value, value.copy()))
            for name in plan.classes:
                cls = namespace[name]
                self.classes.append((cls, dict(vars(cls))))

    def restore(self) -> list[str]:
        """Put everything back; the names of what had changed, for the curious."""
        changed: list[str] = []
        for module, saved in self.globals.items():
            namespace = vars(module)
            if _same(namespace, saved):  # every name bound to the same object as before: nothing to do
                continue
            for name in [n for n in namespace if n not in saved]:
                del namespace[name]
                changed.append(f"{module.__name__}.{name}")
            for name, value in saved.items():
                if namespace.get(name, _MISSING) is not value:
                    namespace[name] = value
                    changed.append(f"{module.__name__}.{name}")
        for container, copy in self.contents:
            if container != copy:
                _refill(container, copy)
                changed.append(f"a module-level {type(container).__name__}")
        for cls, saved in self.classes:
            if _same(vars(cls), saved):
                continue
            current = dict(vars(cls))
            for name in [n for n in current if n not in saved]:
                _quietly(delattr, cls, name)
                changed.append(f"{cls.__qualname__}.{name}")
            for name, value in saved.items():
                if current.get(name, _MISSING) is not value:
                    _quietly(setattr, cls, name, value)
                    changed.append(f"{cls.__qualname__}.{name}")
        return changed


_MISSING = object()


def _refill(container: Any, copy: Any) -> None:
    if isinstance(container, dict):
        container.clear()
        container.update(copy)
    elif isinstance(container, list | bytearray):
        container[:] = copy
    else:
        container.clear()
        container.update(copy)


def _quietly(action: Any, *args: Any) -> None:
    try:
        action(*args)
    except (AttributeError, TypeError):  # read-only attributes (e.g. of enums) cannot have changed anyway
        pass


@pytest.fixture(scope="session")
def _rulespy_imported() -> None:
    _import_everything()


@pytest.fixture(autouse=True)
def _rulespy_state_restored(_rulespy_imported: None) -> Iterator[None]:
    """Snapshot every rulespy module before the test and restore it afterwards."""
    snapshot = _Snapshot()
    yield
    snapshot.restore()


# ---- worked examples, contained --------------------------------------------------------------------

_LIMIT = "markdown_example_limit"


class ExampleFailed(Exception):
    """An example that did not run to its end in the sandbox: ``report`` says why and where."""

    def __init__(self, report: str, output: str) -> None:
        super().__init__(report)
        self.report, self.output = report, output


class _Examples:
    sandbox: Any = None
    limit: float = 5.0
    collected: set[str] = set()
    ran: set[str] = set()


@register_runner(default=True)
class ContainedRunner(_Runner):
    """pytest-markdown-docs' default runner, replaced: the code runs in the sandbox, not here."""

    def runtest(self, test: Any, args: dict[str, Any], **_: Any) -> None:
        if _Examples.sandbox is None:
            from rulespy.coverage.sandbox import Sandbox

            _Examples.sandbox = Sandbox(Path(__file__).resolve().parent)
        outcome = _Examples.sandbox.run(test.source, str(test.source_path), _Examples.limit)
        if not outcome.ok:
            raise ExampleFailed(outcome.report, outcome.output)

    def repr_failure(self, test: Any, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if not isinstance(excinfo.value, ExampleFailed):
            return str(excinfo.getrepr(style=style))
        lines = test.source.rstrip("\n").split("\n")
        width = len(str(len(lines)))
        code = "\n".join(
            f"{i:>{width}}   {line}" for i, line in enumerate(lines[test.start_line :], test.start_line + 1)
        )
        printed = f"\nOutput:\n{excinfo.value.output}" if excinfo.value.output else ""
        return f"Error in code block:\n{code}\n{excinfo.value.report}{printed}\n"


#: what opens a fence (CommonMark): a Python file without either holds no docstring with a fence
_FENCE_MARKS = ("```", "~~~")


@pytest.hookimpl(wrapper=True)
def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Generator[None, list[Any], list[Any]]:
    """pytest-markdown-docs (``--markdown-docs``) imports every Python file and reads the docstring of each
    of its classes and functions, finding its line with ``inspect`` (a tokenizing of the file per
    docstring), for the fences in them: a second of CPU per collection, of which two rulespy modules
    hold the only two fences. A Python file whose text has no fence mark at all cannot hold one, so its
    docstring collector is dropped; every other file is collected as before."""
    collectors = yield
    if file_path.suffix != ".py" or not any(isinstance(c, MarkdownDocstringCodeModule) for c in collectors):
        return collectors
    try:
        text = file_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return collectors
    if any(mark in text for mark in _FENCE_MARKS):
        return collectors
    return [c for c in collectors if not isinstance(c, MarkdownDocstringCodeModule)]


@functools.cache
def _commonmark() -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt(config="commonmark")


def pytest_markdown_docs_markdown_it() -> Any:
    """The parser pytest-markdown-docs reads fences with, its own default (CommonMark), made once
    instead of once per file and docstring (some 1,500 per collection)."""
    return _commonmark()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A file or folder that resolves outside the repository (a symlink, RS043) is never collected:
    no example is read from outside (``rulespy check`` reports the symlink)."""
    root = config.rootpath.resolve()
    real = collection_path.resolve()
    return None if real == root or root in real.parents else True


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(_LIMIT, "seconds one worked example may run (killed after)", default="5")


def pytest_configure(config: pytest.Config) -> None:
    try:  # the Hypothesis profile (HYPOTHESIS_PROFILE) before any test module makes its settings
        import tests.hypothesis_profiles  # noqa: F401 - loads the profile; a bad name is a usage error
    except ModuleNotFoundError:  # a copy of this file outside the repository (tests/examples)
        pass
    _Examples.limit = float(config.getini(_LIMIT))
    _Examples.collected, _Examples.ran = set(), set()


def _is_example(item: pytest.Item) -> bool:
    return type(item).__name__ == "MarkdownInlinePythonItem"


def pytest_collection_finish(session: pytest.Session) -> None:
    _Examples.collected = {item.nodeid for item in session.items if _is_example(item)}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.outcome in ("passed", "failed"):
        _Examples.ran.add(report.nodeid)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """pytest-xdist (``make test`` runs the suite in workers): the controller, which collects nothing
    itself, learns from each worker the examples it collected; the reports of those run reach the
    controller's ``pytest_runtest_logreport``, so the count below is made there, for the whole run."""
    _Examples.collected |= set(getattr(node, "workeroutput", {}).get("examples", ()))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fewer examples run (passed or failed) than collected fails a run that would otherwise pass."""
    if _Examples.sandbox is not None:
        _Examples.sandbox.close()
        _Examples.sandbox = None
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker runs a share of the examples: the controller counts
        workeroutput["examples"] = sorted(_Examples.collected)
        return
    if session.config.option.collectonly or session.shouldstop or session.shouldfail:
        return
    missing = sorted(_Examples.collected - _Examples.ran)
    if missing and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(
                f"FAILED: {len(missing)} of {len(_Examples.collected)} collected worked examples did not "
                f"run (skipped or stopped): {', '.join(missing[:5])}",
                red=True,
            )
