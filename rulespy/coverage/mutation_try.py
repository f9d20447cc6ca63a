"""Which surviving mutants would a page's worked examples kill? An answer in minutes, before the next pass.

``python -m rulespy.coverage.mutation_try PAGE.md [--only PATTERN]...`` reads the verdicts ``make
mutants`` cached in ``mutants/`` and runs every worked example of ``PAGE.md`` (as written now, new ones
included) against each mutant not yet killed there, unreached ones too, whose key matches a ``PATTERN``
(fnmatch, as ``mutmut run`` takes them: ``rulespy.core.line_of_sight.*``; all when none is given). It
switches the mutants in the way mutmut does, through the ``MUTANT_UNDER_TEST`` variable that the
trampolines of mutmut's mutated copy read, all in one child process started in ``mutants/``; each
example runs at most ``LIMIT`` seconds a mutant. It prints every mutant the examples kill and those they
leave, and changes nothing: the cache's verdicts are ``make mutants``'s to record, and the next pass
(which tests again the survivors of the functions new examples reach) is what counts.

Exit status 0 when it ran, 2 when there is no cache or a page has no worked example, or its examples
fail on the unmutated engine.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import subprocess
import sys
from pathlib import Path

from rulespy.check.examples import worked_examples
from rulespy.coverage.mutants import FOLDER
from rulespy.coverage.mutmut_cache import is_killed, metas

#: Seconds an example may run against one mutant before the mutant counts as killed (a hang is noticed).
LIMIT = 30

#: The child: reads ``{"examples": [...], "keys": [...]}`` on standard input, answers one JSON line a key.
_CHILD = r"""
import json, os, signal, sys
sys.path.insert(0, os.getcwd())
job = json.load(sys.stdin)
codes = [compile(code, "<worked example>", "exec") for code in job["examples"]]
limit = job["limit"]

def alarm(*_):
    raise TimeoutError

def passes(key, limit):
    os.environ["MUTANT_UNDER_TEST"] = key
    for code in codes:
        signal.alarm(limit)
        try:
            exec(code, {"__name__": "__worked_example__"})
        except BaseException:
            return False
        finally:
            signal.alarm(0)
    return True

signal.signal(signal.SIGALRM, alarm)
if not passes("", 0):  # the first run imports the mutated engine: no limit
    print(json.dumps({"clean": False}), flush=True)
    sys.exit(0)
print(json.dumps({"clean": True}), flush=True)
for key in job["keys"]:
    print(json.dumps({"key": key, "killed": not passes(key, limit)}), flush=True)
"""


def candidates(root: Path, patterns: list[str]) -> list[str]:
    """The cached mutants not killed yet (survived, unreached or untested) whose key matches a pattern."""
    keys: list[str] = []
    for meta in metas(root):
        for key, code in json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"].items():
            if not is_killed(code) and (not patterns or any(fnmatch.fnmatch(key, p) for p in patterns)):
                keys.append(key)
    return sorted(keys)


def try_examples(root: Path, examples: list[str], keys: list[str]) -> dict[str, bool] | None:
    """For each key, whether one of ``examples`` fails with that mutant switched in; None when an example
    already fails on the unmutated engine."""
    job = json.dumps({"examples": examples, "keys": keys, "limit": LIMIT})
    done = subprocess.run(
        [sys.executable, "-c", _CHILD],
        cwd=root / FOLDER,
        input=job,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines or not lines[0].get("clean"):
        return None
    return {line["key"]: line["killed"] for line in lines[1:]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rulespy.coverage.mutation_try", description=__doc__)
    parser.add_argument("pages", nargs="+", type=Path, metavar="PAGE", help="a rule page (.md)")
    parser.add_argument("--root", type=Path, default=Path("."), help="the rules repository (default: .)")
    parser.add_argument("--only", action="append", default=[], metavar="PATTERN")
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    if not metas(root):
        print(f"mutation_try: no results in {FOLDER}/: run 'make mutants' first", file=sys.stderr)
        return 2
    examples: list[str] = []
    for page in args.pages:
        try:
            found = [e.code for e in worked_examples(page.read_text(encoding="utf-8"))]
        except OSError as error:
            print(f"mutation_try: {page}: {error.strerror}", file=sys.stderr)
            return 2
        if not found:
            print(f"mutation_try: {page}:1: no worked example", file=sys.stderr)
            return 2
        examples += found
    keys = candidates(root, args.only)
    verdicts = try_examples(root, examples, keys)
    if verdicts is None:
        print("mutation_try: the examples fail on the unmutated engine: fix them first", file=sys.stderr)
        return 2
    killed = sorted(k for k, v in verdicts.items() if v)
    for key in killed:
        print(f"killed   {key}")
    for key in sorted(k for k, v in verdicts.items() if not v):
        print(f"survives {key}")
    print(f"{len(killed)} of {len(verdicts)} mutants not killed before are killed by these examples")
    return 0


if __name__ == "__main__":
    sys.exit(main())
