"""``rulespy odds`` keeps its promise on attacks inside the limits it judges from the scenario (issue 29):
the engine's own caps refuse the hard shapes, within the memory ``odds --help`` states. Time is the
bench's to measure (``bench/bench_hostile.py --only odds``); memory does not depend on the machine's
load, so it is asserted here, as the peak resident size of the ``rulespy odds`` process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rulespy.odds.limits import HELP

from . import cases

pytestmark = pytest.mark.timeout(120)
RULESPY = str(Path(sys.executable).parent / "rulespy")
#: Runs one command and prints its exit status, peak resident memory (KiB) and standard error.
WRAPPER = """
import json, resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
print(json.dumps({"status": done.returncode, "err": done.stderr,
                  "peak_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""
PROMISED_MB = 150


def _odds(path: Path) -> dict[str, object]:
    # --exact: the exact engine's refusal is what is measured (without it, the attack is sampled instead)
    command = [sys.executable, "-c", WRAPPER, RULESPY, "odds", "--exact", str(path)]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return dict(json.loads(out.stdout))


def test_the_help_states_the_memory_promise_asserted_here() -> None:
    assert f"{PROMISED_MB} MB" in HELP


@pytest.mark.parametrize(("models", "profiles", "targets"), [(3, 10, 3), (6, 4, 8)])
def test_many_weapon_profiles_are_refused_within_the_promised_memory(
    models: int, profiles: int, targets: int, tmp_path: Path
) -> None:
    path = tmp_path / "attack.yaml"
    path.write_text(cases.many_profiles(models, profiles, targets), encoding="utf-8")
    result = _odds(path)
    assert result["status"] == 2, result
    assert str(result["err"]).startswith(f"{path}:1: the attack is too large for exact odds: its allocation")
    assert int(str(result["peak_kib"])) < PROMISED_MB * 1024, result
