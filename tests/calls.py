"""What a test counts of the work done: every call of one function, recorded as it runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest


def recorded(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str, noted: Callable[..., Any]
) -> list[Any]:
    """Every call of ``owner.name`` (a module's function, or a class's method: ``self`` comes first) from
    now on, each as ``noted(*args)``; the function itself still runs."""
    seen: list[Any] = []
    real = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        seen.append(noted(*args, **kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return seen
