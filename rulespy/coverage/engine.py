"""The error of an example server that cannot import the engine of the tree it measures.

Apart from ``rulespy/coverage/sandbox.py``, whose whole source is what the example server runs, before
the tree it serves is on its path: that file imports nothing of rulespy at its top.
"""

from __future__ import annotations

from rulespy.errors import BookError


class EngineError(BookError):
    """The tree's own engine cannot be imported (``own_engine``): no example can run."""
