"""Hints as a person follows them (``bench/hints.py``): the hinted seat plays its hint's best
option, and each of its offers ends completed or withdrawn."""

from __future__ import annotations

import doctest

import pytest
from tyros_client import arena

from .scripts import load

hints = load("hints")


def test_its_examples_hold() -> None:
    failures, tried = doctest.testmod(hints)
    assert tried >= 2 and failures == 0


def test_every_offer_the_hints_make_ends_in_a_trade_or_is_withdrawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (a worker's game puts its own bot maker in the arena: this process gets the arena's back)
    monkeypatch.setattr(arena, "make_bot", vars(arena)["make_bot"])
    line = hints.play((1, "easy", 5, "greedy"))
    assert line["offers"] >= 1 and line["offers"] == line["traded"] + line["withdrawn"]
    assert line["score"] >= 0 and isinstance(line["won"], bool)
