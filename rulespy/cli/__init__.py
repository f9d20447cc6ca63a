"""The ``rulespy`` command line: one sub-command a module, imported only when it runs.

Each sub-command module defines ``add_arguments(parser)`` and ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = {
    "check": "checks the rules repository: links, anchors, file mentions, ownership, navigation",
    "resolve": "resolves a scenario's attack and prints a rule-cited account",
    "odds": "prints the exact outcome probabilities of a scenario's attack",
    "coverage": "lists, for each rule, the code that implements it and the examples that prove it",
    "diff": "lists the scenarios and examples whose outcome changed since a git revision or release",
    "release": "cuts a release: moves the Unreleased changes of CHANGELOG.md under a new version heading",
    "translations": "stamps translated sections with the English text they translate; lists the stale ones",
    "render": "writes the site's pages (links, tooltips, boards, odds, glossary, navigation) to build/",
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = plain_resolve(argv) or _parse(argv)
    module = _module(args.command)
    if module is None:
        print(f"rulespy {args.command}: not available in this version", file=sys.stderr)
        return 2
    try:
        return int(module.run(args))
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug of ours: say so plainly, never as a traceback
        print(f"rulespy {args.command}: internal error: {type(error).__name__}: {error}", file=sys.stderr)
        return 2


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="rulespy", description="VoidSiege rules: checks and engine.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    parsers = {name: sub.add_parser(name, help=text, description=text) for name, text in COMMANDS.items()}
    chosen = next((a for a in argv if not a.startswith("-")), None)
    if chosen in parsers:
        module = _module(chosen)
        if module is not None:
            module.add_arguments(parsers[chosen])
    return parser.parse_args(argv)


def plain_resolve(argv: list[str]) -> argparse.Namespace | None:
    """``resolve SCENARIO`` with or without ``--json`` (before or after the scenario), as ``_parse`` reads it,
    without building the parsers: making the eight parsers (argparse formats each argument, and imports
    shutil to measure the terminal) took about 5 ms of the command's start-up. None for anything else,
    which ``_parse`` reads (help, any other option or command, a mistake); tests/cli/test_resolve.py checks
    that both read alike."""
    if not argv or argv[0] != "resolve" or len(argv) > 3:
        return None
    rest = argv[1:]
    as_json = "--json" in rest
    if as_json:
        rest.remove("--json")
    if len(rest) != 1 or rest[0].startswith("-"):
        return None
    return argparse.Namespace(command="resolve", scenario=rest[0], json=as_json, lang="en")


def _module(name: str):  # type: ignore[no-untyped-def]
    try:
        return importlib.import_module(f"rulespy.cli.{name}")
    except ModuleNotFoundError as error:
        if error.name == f"rulespy.cli.{name}":
            return None
        raise


def entry() -> None:
    sys.exit(main())
