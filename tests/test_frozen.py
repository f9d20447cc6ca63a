"""``rulespy.frozen``: a class made with ``@frozen`` behaves as the same class made with
``@dataclass(frozen=True)`` (methods, copies, matching), although its methods are made on
their first call; and the engine's value types defined with it never compiled a method at import."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import pytest

import rulespy
from rulespy.frozen import frozen


def _both(slots: bool) -> tuple[Any, Any]:
    """The same definition made by ``@frozen`` and by ``@dataclass(frozen=True)``."""

    def define(decorate: Any) -> Any:
        @decorate
        class Shot:
            """A shot at a model."""

            model: str
            dice: int = 1
            tags: tuple[str, ...] = ()
            notes: str = field(default="", compare=False)
            hidden: int = field(default=0, repr=False)
            rule: ClassVar[str] = "core/shooting.md#shooting-attack"

            @property
            def twice(self) -> int:
                return self.dice * 2

        return Shot

    return define(frozen(slots=slots)), define(dataclass(frozen=True, slots=slots))


@pytest.mark.parametrize("slots", [False, True])
def test_frozen_class_behaves_as_a_frozen_dataclass(slots: bool) -> None:
    lazy, eager = _both(slots)
    for cls in (lazy, eager):
        a, b, c = cls("m1", 3), cls("m1", 3, notes="x"), cls(model="m2")
        assert (a == b, a == c, a != c, a == ("m1", 3)) == (True, False, True, False)
        assert hash(a) == hash(b) == hash(eager("m1", 3))
        assert a.twice == 6 and cls.rule == eager.rule
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'dice'"):
            a.dice = 4  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'dice'"):
            del a.dice  # type: ignore[misc]
        with pytest.raises(TypeError):
            cls()
        assert dataclasses.replace(a, dice=5) == cls("m1", 5)
        assert dataclasses.asdict(a) == dataclasses.asdict(eager("m1", 3))
        assert copy.copy(a) == a and copy.deepcopy(a) == a  # copies go through __getstate__ with slots
        match a:
            case cls(model, dice):  # type: ignore[misc]
                assert (model, dice) == ("m1", 3)
    assert repr(lazy("m1", 3)) == repr(eager("m1", 3))
    assert repr(lazy("m1", 3)).endswith(".Shot(model='m1', dice=3, tags=(), notes='')")
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'other'"):
        lazy("m1").other = 1  # Python 3.11's own frozen class with slots raises TypeError here
    assert [f.name for f in dataclasses.fields(lazy)] == [f.name for f in dataclasses.fields(eager)]
    assert lazy.__match_args__ == eager.__match_args__
    assert repr(lazy.__dataclass_params__) == repr(eager.__dataclass_params__)

    @dataclass(frozen=True, kw_only=True)
    class Aimed(lazy):  # type: ignore[valid-type,misc]
        """A dataclass may extend a @frozen class, as it may extend a frozen dataclass."""

        aim: int = 0

    assert Aimed(model="m", aim=2) == Aimed(model="m", aim=2) != Aimed(model="m")
    assert lazy.__doc__ == eager.__doc__
    assert hasattr(lazy("m"), "__dict__") == hasattr(eager("m"), "__dict__") == (not slots)


def test_engine_value_types_take_the_arguments_dataclass_gives_them() -> None:
    """Each ``@frozen`` class of the engine's value types (every module of ``rulespy`` that uses
    ``@frozen``): its ``__init__`` has the signature ``@dataclass(frozen=True)`` gives the same fields."""
    from rulespy.frozen import _init

    package = Path(rulespy.__file__).parent
    names = sorted(
        ".".join(("rulespy", *path.relative_to(package).with_suffix("").parts))
        for path in package.rglob("*.py")
        if "\n@frozen" in path.read_text(encoding="utf-8")
    )
    modules = [importlib.import_module(name) for name in names]
    assert "rulespy.core.leadership" in names and len(names) >= 12
    checked = 0
    for module in modules:
        for cls in vars(module).values():
            if not (
                isinstance(cls, type) and cls.__module__ == module.__name__ and "__setattr__" in vars(cls)
            ):
                continue
            fields = dataclasses.fields(cls)
            namespace: dict[str, Any] = {"__annotations__": {f.name: f.type for f in fields}}
            namespace.update({f.name: f.default for f in fields if f.default is not dataclasses.MISSING})
            eager = dataclass(frozen=True)(type(cls.__name__, (), namespace))
            assert str(inspect.signature(_init(cls, fields))) == str(inspect.signature(eager.__init__))
            checked += 1
    assert checked >= 40


def test_frozen_keeps_a_hash_of_the_class_own() -> None:
    @frozen
    class Cached:
        """Hashed by its own method."""

        value: int

        def __hash__(self) -> int:
            return 7

    assert hash(Cached(1)) == 7 and Cached(1) == Cached(1)


def test_frozen_refuses_what_it_does_not_support() -> None:
    with pytest.raises(TypeError, match="needs a docstring"):

        @frozen
        class Bare:
            value: int

    with pytest.raises(TypeError, match="field 'seen' needs @dataclass"):

        @frozen
        class Factory:
            """Makes a list for each instance."""

            seen: list[str] = field(default_factory=list)

    with pytest.raises(TypeError, match="non-default argument 'later' follows default argument"):

        @frozen
        class Order:
            """A field without a default after one with."""

            first: int = 0
            later: int

    with pytest.raises(TypeError, match="defines its own methods"):

        @frozen
        class Own:
            """Compares itself."""

            value: int

            def __eq__(self, other: object) -> bool:
                return True


PROBE = """
import sys, rulespy.frozen
import rulespy.cli.resolve, rulespy.scenario, rulespy.sequences.resolution, rulespy.account
def code(f):
    return getattr(f, "__code__", None)
def stub(f):
    return code(f) is not None and code(f).co_name in ("stub", "first_init")
def ours(c):  # a class made by @frozen: its __setattr__ is written in rulespy/frozen.py
    setattr_code = code(vars(c).get("__setattr__"))
    return setattr_code is not None and setattr_code.co_filename == rulespy.frozen.__file__
found = {c for m in list(sys.modules.values()) if m.__name__.startswith("rulespy")
         for c in vars(m).values() if isinstance(c, type) and ours(c)}
%s
names = ("__repr__", "__eq__")
made = sorted(c.__qualname__ + "." + name for c in found for name in names if not stub(vars(c)[name]))
print(len(found), sum(stub(vars(c)["__init__"]) for c in found), made)
"""


def made_at_import(then: str = "") -> tuple[int, int, str]:
    """How many ``@frozen`` classes importing the resolve path defines, how many of their ``__init__``
    are still stubs, and which ``__repr__`` and ``__eq__`` were made (after running ``then``)."""
    done = subprocess.run([sys.executable, "-c", PROBE % then], capture_output=True, text=True, check=True)
    classes, unmade, made = done.stdout.split(" ", 2)
    return int(classes), int(unmade), made.strip()


def test_resolve_path_makes_no_method_at_import() -> None:
    """Importing what ``rulespy resolve`` runs leaves every ``@frozen`` class's ``__repr__`` and ``__eq__``
    unmade, and its ``__init__`` too unless the import creates an instance; a first call makes one."""
    classes, unmade, made = made_at_import()
    assert classes >= 50 and made == "[]"
    assert unmade >= classes - 10  # the few created at import: Why, CommandRules, Trait, ...
    printed = made_at_import("import rulespy.core.allocation as a; repr(a.Why(a.Choice.LOST))")
    assert printed[2] == "['Why.__repr__']"
