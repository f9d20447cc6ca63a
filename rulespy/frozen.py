"""Frozen dataclasses whose methods are made when first called, not when the class is defined.

``@frozen`` is ``@dataclass(frozen=True)`` (``@frozen(slots=True)``: with ``slots=True``) for the engine's
value types. Python 3.11's ``dataclass`` compiles six methods from source text for each frozen class as
the class is defined (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``): about sixty classes lie on ``rulespy resolve``'s path, and compiling their methods was
more than half of its start-up. A run calls few of them: resolving a scenario creates instances of about
forty classes, hashes a few and never prints, compares or assigns to one. So here:

- ``__init__`` is made on the first call, once for the class: the function ``dataclass`` writes for a
  frozen class (each field a parameter, with its default, set with ``object.__setattr__``), renamed from
  a template compiled once for each number of fields;
- ``__repr__``, ``__eq__`` and ``__hash__`` start as stubs that, on their first call, take the method
  ``dataclass`` makes for the same definition (a ``dataclass`` of a copy of the class);
- ``__setattr__`` and ``__delattr__`` are written out below, as ``dataclass`` writes them.

What the class gets at definition is what ``dataclass`` gives without compiling anything: its fields
(``dataclasses.fields``, ``replace``, ``asdict``), ``__match_args__``, ``__dataclass_params__`` (those
of a frozen dataclass, so a dataclass may extend it) and, with ``slots=True``, its slots and the pickling
methods of a frozen class with slots. Refused with ``TypeError`` (use ``dataclass``): a class without a
docstring (``dataclass`` would write one from the signature), one that defines ``__init__``,
``__repr__``, ``__eq__``, ``__setattr__``, ``__delattr__`` or ``__post_init__``, a dataclass base, and a
field with ``default_factory``, ``init=False`` or ``kw_only``. A ``__hash__`` the class defines is kept,
as ``dataclass`` keeps it. ``tests/test_frozen.py`` checks that such a class behaves as
``@dataclass(frozen=True)`` does and that each engine class's ``__init__`` takes the same arguments.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
import types
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform, overload

T = TypeVar("T")
_OWN = ("__init__", "__repr__", "__eq__", "__setattr__", "__delattr__")


@overload
def frozen(cls: type[T], /) -> type[T]: ...


@overload
def frozen(*, slots: bool = False) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: type[T] | None = None, /, *, slots: bool = False) -> Any:
    """``@dataclass(frozen=True, slots=slots)``, each generated method made on its first call."""

    def wrap(cls: type[T]) -> type[T]:
        return _frozen(cls, slots)

    return wrap if cls is None else wrap(cls)


def _frozen(cls: type[T], slots: bool) -> type[T]:
    own = cls.__dict__
    name = cls.__qualname__
    if not own.get("__doc__"):
        raise TypeError(f"@frozen class {name} needs a docstring")
    if any(method in own for method in _OWN):
        raise TypeError(f"@frozen class {name} defines its own methods: use @dataclass(frozen=True)")
    if any(dataclasses.is_dataclass(base) for base in cls.__mro__[1:]):
        raise TypeError(f"@frozen class {name} has a dataclass base: use @dataclass(frozen=True)")
    if "__post_init__" in dir(cls):
        raise TypeError(f"@frozen class {name} has __post_init__: use @dataclass(frozen=True)")
    annotations = dict(own.get("__annotations__", {}))
    defaults = {field: own[field] for field in annotations if field in own}
    hashed = "__hash__" not in own  # a __hash__ of the class's own is kept, as dataclass keeps it

    made: Any = dataclasses.dataclass(cls, init=False, repr=False, eq=False, slots=slots)
    made.__dataclass_params__ = _params(slots)  # what dataclass(frozen=True) records (a subclass reads it)
    _check_init_fields(made)

    def copy(**params: bool) -> Any:
        """The same definition made by ``dataclass`` with ``params``: the source of one method."""
        namespace = {
            "__module__": cls.__module__,
            "__qualname__": cls.__qualname__,
            "__doc__": cls.__doc__,
            "__annotations__": annotations,
        }
        namespace.update({field: _fresh(value) for field, value in defaults.items()})
        return dataclasses.dataclass(type(cls.__name__, (), namespace), **params)

    def lazily(method: str, params: dict[str, bool]) -> None:
        def stub(self: Any, *args: Any, **kwargs: Any) -> Any:
            real = getattr(copy(**params), method)
            setattr(made, method, real)
            return real(self, *args, **kwargs)

        stub.__name__ = method
        stub.__qualname__ = f"{made.__qualname__}.{method}"
        setattr(made, method, stub)

    no_methods = {"init": False, "repr": False, "eq": False}
    lazily("__repr__", {**no_methods, "repr": True})
    lazily("__eq__", {**no_methods, "eq": True})
    if hashed:  # the __hash__ of frozen=True, eq=True is the one unsafe_hash=True adds
        lazily("__hash__", {**no_methods, "unsafe_hash": True})
    fields = dataclasses.fields(made)
    names = frozenset(field.name for field in fields)

    def first_init(self: Any, *args: Any, **kwargs: Any) -> None:
        made.__init__ = real = _init(made, fields)
        real(self, *args, **kwargs)

    first_init.__qualname__ = f"{made.__qualname__}.__init__"
    made.__init__ = first_init

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is made or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(made, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is made or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(made, self).__delattr__(name)

    for method in (__setattr__, __delattr__):
        method.__qualname__ = f"{made.__qualname__}.{method.__name__}"
        setattr(made, method.__name__, method)
    if slots:  # what dataclass gives a frozen class with slots, so that copies and pickles work
        made.__getstate__ = _getstate
        made.__setstate__ = _setstate
    return made  # type: ignore[no-any-return]


@functools.cache
def _params(slots: bool) -> Any:
    """The parameters ``dataclass(frozen=True, slots=slots)`` records on a class, taken from one without
    fields, made once."""

    class Empty:
        """No field."""

    empty: Any = dataclasses.dataclass(Empty, frozen=True, slots=slots)
    return empty.__dataclass_params__


def _check_init_fields(cls: Any) -> None:
    """Refuse what ``_init`` does not write, and what ``dataclass`` refuses when it writes ``__init__``."""
    with_default = ""
    for field in dataclasses.fields(cls):
        if not field.init or field.kw_only is True or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"@frozen class {cls.__qualname__}: field {field.name!r} needs @dataclass")
        if field.default is not dataclasses.MISSING:
            with_default = field.name
        elif with_default:
            raise TypeError(f"non-default argument {field.name!r} follows default argument")


def _init(cls: Any, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    """The ``__init__`` that ``dataclass(frozen=True)`` writes for ``fields``: each field a parameter, with
    its default if it has one, set with ``object.__setattr__``, in the class's module. Made from the
    template for that many fields, its placeholder names renamed to the fields' (no compiling)."""
    template = _template(len(fields))
    rename = {f"_field{number}": field.name for number, field in enumerate(fields)}
    code = template.replace(
        co_varnames=tuple(rename.get(name, name) for name in template.co_varnames),
        co_consts=tuple(rename.get(c, c) if isinstance(c, str) else c for c in template.co_consts),
        co_qualname=f"{cls.__qualname__}.__init__",
    )
    module = sys.modules.get(cls.__module__)
    defaults = tuple(f.default for f in fields if f.default is not dataclasses.MISSING)
    init = types.FunctionType(
        code,
        module.__dict__ if module is not None else {},
        "__init__",
        defaults or None,
        tuple(types.CellType(object.__setattr__) for _ in code.co_freevars),  # none without fields
    )
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    return init


@functools.cache
def _template(count: int) -> types.CodeType:
    """The code of an ``__init__`` setting ``count`` fields named ``_field0``, ``_field1``, ..."""
    names = [f"_field{number}" for number in range(count)]
    lines = [
        "def make(__setattr):",
        f" def __init__({', '.join(['self', *names])}):",
        *([f"  __setattr(self, {name!r}, {name})" for name in names] or ["  pass"]),
        " return __init__",
    ]
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), {}, namespace)
    init: Any = namespace["make"](object.__setattr__)
    return init.__code__  # type: ignore[no-any-return]


def _fresh(value: object) -> object:
    """A default as the class body wrote it; a ``field()`` copied, since ``dataclass`` fills one in."""
    if not isinstance(value, dataclasses.Field):
        return value
    return dataclasses.field(
        default=value.default,
        default_factory=value.default_factory,
        init=value.init,
        repr=value.repr,
        hash=value.hash,
        compare=value.compare,
        metadata=value.metadata,
        kw_only=value.kw_only,
    )


def _getstate(self: Any) -> list[object]:
    return [getattr(self, field.name) for field in dataclasses.fields(self)]


def _setstate(self: Any, state: list[object]) -> None:
    for field, value in zip(dataclasses.fields(self), state, strict=False):
        object.__setattr__(self, field.name, value)
