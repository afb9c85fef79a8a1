"""Hints as a person follows them (``bench/hints.py``): the hinted seat plays its hint's best
option, and each of its offers ends completed or withdrawn."""

from __future__ import annotations

import doctest

from .scripts import load

hints = load("hints")


def test_its_examples_hold() -> None:
    failures, tried = doctest.testmod(hints)
    assert tried >= 2 and failures == 0


def test_every_offer_the_hints_make_ends_in_a_trade_or_is_withdrawn() -> None:
    line = hints.play((1, "easy", 5, "greedy"))
    assert line["offers"] >= 1 and line["offers"] == line["traded"] + line["withdrawn"]
    assert line["score"] >= 0 and isinstance(line["won"], bool)
