"""The page's advice as a person follows it and is declined (``bench/advice_repeats.py``):
told the round's offers from the record, it never repeats their terms; a bot that lost its
memory, not told, does."""

from __future__ import annotations

from .scripts import load

advice_repeats = load("advice_repeats")


def test_the_rounds_offers_keep_the_advice_from_repeating_them() -> None:
    counts = {"hints": [0], **{kind: [0, 0] for kind in advice_repeats.KINDS}}
    for seed in (2, 4):  # (seeds whose hints repeat an offer early in the game)
        advice_repeats.play(seed, counts)
    offered, repeated = counts["nothing (its memory lost)"]
    assert offered >= repeated >= 1
    offered, repeated = counts["the round's offers"]
    assert offered >= 1 and repeated == 0
