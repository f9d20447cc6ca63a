"""The two Hypothesis profiles of the test suite, chosen with ``HYPOTHESIS_PROFILE``:

* ``suite`` (the default, what ``make test`` runs): derandomized, so that every run draws the same
  examples and a pass or a failure does not depend on the run, and few of them: each property test asks
  ``examples(suite=..., thorough=...)`` for its count, and gets the first;
* ``thorough`` (``HYPOTHESIS_PROFILE=thorough``, run from ``bench/``: bench/README.md "The test suite"):
  random examples, a new draw each run, and each test's larger count (the count the suite ran before
  issue 25 made it fast). bench/bench_properties.py and bench/bench_fuzz.py run the engine invariants
  and the fuzzing of ``resolve`` and ``odds`` over 10,000 cases besides.

Neither keeps a database of examples (``database=None``): a failure prints the example that failed
(Hypothesis's ``note`` and its reproduction blob), which is what a contributor reads. Every module with
a property test imports this one, which loads the profile before the module body makes its ``@settings``.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

PROFILES = ("suite", "thorough")
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "suite")
if PROFILE not in PROFILES:
    raise pytest.UsageError(f"HYPOTHESIS_PROFILE={PROFILE!r}: the profiles are {', '.join(PROFILES)}")

settings.register_profile("suite", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("thorough", derandomize=False, database=None, deadline=None, print_blob=True)
settings.load_profile(PROFILE)


def examples(suite: int, thorough: int) -> int:
    """How many examples a property test draws under the profile loaded; also how many seeded trials a
    statistical test plays (``tests/odds/test_simulation.py``), which the same variable makes thorough."""
    return thorough if PROFILE == "thorough" else suite
