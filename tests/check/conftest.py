"""The fixtures are broken repositories to check, not documentation to collect (one is not even UTF-8).
``helpers.agree`` asserts for the tests, so its assertions are rewritten as theirs are (a failure shows
both reports)."""

import pytest

pytest.register_assert_rewrite("tests.check.helpers")

collect_ignore_glob = ["fixtures/*"]
