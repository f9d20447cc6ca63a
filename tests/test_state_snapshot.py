"""The repository's conftest.py puts every rulespy module back after each test (``_Snapshot``), whatever
the test changed: a rebound or added global, a module-level container changed in place, a class
attribute patched or added. The snapshot looks only at modules and classes whose namespace binds another
object than when it last looked (``_same``, by identity): these tests prove that this finds every change
the full look did, including a container bound after the first snapshot."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import rulespy.core.allocation as allocation
import rulespy.core.cover as cover
from rulespy.state import Cover, Unit


def _repository_conftest() -> Any:
    """The repository's conftest.py as pytest loaded it (found by what it defines: another folder's
    conftest.py may hold the bare name "conftest" in sys.modules), else loaded from its file."""
    for module in list(sys.modules.values()):
        if hasattr(module, "_Snapshot") and str(getattr(module, "__file__", "")).endswith("conftest.py"):
            return module
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "conftest.py"
    spec = importlib.util.spec_from_file_location("_repository_conftest", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


conftest: Any = _repository_conftest()


def test_a_snapshot_puts_back_globals_containers_and_classes() -> None:
    snapshot = conftest._Snapshot()
    band, modifiers, swarm = allocation.NEAR_BAND, dict(cover.COVER_MODIFIERS), vars(Unit)["swarm"]
    allocation.NEAR_BAND = 99.0
    allocation.ADDED_BY_A_TEST = True  # type: ignore[attr-defined]
    cover.COVER_MODIFIERS[Cover.LIGHT] = -5
    Unit.swarm = property(lambda self: True)  # type: ignore[method-assign,assignment]
    Unit.added_by_a_test = 1  # type: ignore[attr-defined]
    changed = snapshot.restore()
    assert allocation.NEAR_BAND is band and not hasattr(allocation, "ADDED_BY_A_TEST")
    assert cover.COVER_MODIFIERS == modifiers
    assert vars(Unit)["swarm"] is swarm and not hasattr(Unit, "added_by_a_test")
    assert "rulespy.core.allocation.NEAR_BAND" in changed and "Unit.swarm" in changed
    assert snapshot.restore() == []  # nothing left to put back


def test_a_name_rebound_to_an_equal_object_is_put_back_to_the_same_object() -> None:
    snapshot = conftest._Snapshot()
    original = cover.COVER_MODIFIERS
    cover.COVER_MODIFIERS = dict(original)  # equal, but modules that imported the name hold the old one
    assert snapshot.restore() == ["rulespy.core.cover.COVER_MODIFIERS"]
    assert cover.COVER_MODIFIERS is original


def test_a_container_bound_after_a_snapshot_is_watched_by_the_next() -> None:
    conftest._Snapshot().restore()  # the plan of every module as it is now
    allocation.LATE_CONTAINER = {"a": 1}  # type: ignore[attr-defined]
    try:
        snapshot = conftest._Snapshot()  # allocation's namespace changed: its containers are found again
        allocation.LATE_CONTAINER["a"] = 2  # type: ignore[attr-defined]
        assert snapshot.restore() == ["a module-level dict"]
        assert allocation.LATE_CONTAINER == {"a": 1}  # type: ignore[attr-defined]
    finally:
        del allocation.LATE_CONTAINER  # type: ignore[attr-defined]
