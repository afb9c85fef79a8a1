"""The search's decisions, pinned: a change meant only to make ISMCTS faster leaves every
seeded search as it was (``bench/bots.py searches``; the file says how it was made)."""

from __future__ import annotations

import json
from pathlib import Path

from .scripts import load

bots = load("bots")
PINNED = json.loads((Path(__file__).with_name("searches.json")).read_text())


def test_seeded_searches_choose_and_count_as_the_pinned_ones() -> None:
    found = bots.pinned_searches(PINNED["iterations"], PINNED["positions"], PINNED["seed"])
    assert len(found) == len(PINNED["searches"]) == PINNED["positions"]
    for number, (now, then) in enumerate(zip(found, PINNED["searches"], strict=True)):
        assert now == then, f"search {number} changed"
