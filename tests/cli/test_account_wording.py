"""The account of ``rulespy resolve`` reads as English: counts agree with their nouns, a unit named in
the plural takes a plural verb, and no "(s)" is left for the reader to resolve."""

from __future__ import annotations

import doctest
import re

import pytest

import rulespy.wording
from rulespy.wording import count, its, verb
from tests.cli.resolve_outputs import recorded

ACCOUNTS = {name: "\n".join(answer["text"]["stdout"]) for name, answer in recorded().items()}
_HEDGED = re.compile(r"\w\((s|es)\)")
_ONE_PLURAL = re.compile(
    r"(?<![\d.+-])\b1 (wounds|dice|successes|other successes|Critical Locks|Target Lock dice)\b"
)
_PLURAL_UNIT_SINGULAR_VERB = re.compile(r"\b[Tt]he (\w+[^s]s) (declares|rolls|takes|splits|resolves|has)\b")


def test_wording_doctests() -> None:
    assert doctest.testmod(rulespy.wording).failed == 0


def test_count_and_agreement() -> None:
    assert [count(n, "wound") for n in (0, 1, 2)] == ["0 wounds", "1 wound", "2 wounds"]
    assert count(1, "other success", "other successes") == "1 other success"
    assert verb("rangers", "declares", "declare") == "the rangers declare"
    assert verb("walker", "takes", "take") == "the walker takes"
    assert (its("drones"), its("squad")) == ("their", "its")


@pytest.mark.parametrize("name", sorted(ACCOUNTS))
def test_the_account_reads_as_english(name: str) -> None:
    text = ACCOUNTS[name]
    assert not _HEDGED.search(text), _HEDGED.search(text)
    assert not _ONE_PLURAL.search(text), _ONE_PLURAL.search(text)
    assert not _PLURAL_UNIT_SINGULAR_VERB.search(text), _PLURAL_UNIT_SINGULAR_VERB.search(text)


def test_the_checks_catch_the_old_wording() -> None:
    assert _HEDGED.search("x1 suffers 2 wound(s)") and _HEDGED.search("3 other success(es) at drones")
    assert _ONE_PLURAL.search("a1: 1 wounds left") and _ONE_PLURAL.search("s1 fires 1 dice of rifle")
    assert _PLURAL_UNIT_SINGULAR_VERB.search("the rangers declares shoot at drones")
    assert not _PLURAL_UNIT_SINGULAR_VERB.search("the class declares Shoot")


def test_the_record_holds_accounts_with_both_numbers() -> None:
    everything = "\n".join(ACCOUNTS.values())
    assert "The rangers declare Shoot at the drones" in everything
    assert re.search(r"\b1 wound\b", everything) and re.search(r"\b2 wounds\b", everything)
    assert "1 Critical Lock at" in everything and "1 other success at" in everything
    assert "2 other successes at the scouts are allocated" in everything
