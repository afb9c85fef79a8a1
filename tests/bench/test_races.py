"""Who is left out of trades (``bench/races.py``): the offers an old bot completed, and
which asked seats had not answered yet, read from a match's database."""

from __future__ import annotations

import doctest
import json
import sqlite3
from pathlib import Path

from .scripts import load

races = load("races")


def test_its_examples_hold() -> None:
    failures, tried = doctest.testmod(races)
    assert tried >= 1 and failures == 0


def test_only_the_old_bots_completed_offers_count(tmp_path: Path) -> None:
    """Game 1's new bot sits in seat 1: its own offer and a withdrawn one say nothing of
    how fast anyone answers."""
    offer = {"kind": "propose", "to": [0, 1, 2], "give": ["orange"], "get": ["green"]}
    accept, decline = {"kind": "answer", "accept": True}, {"kind": "answer", "accept": False}
    played = [
        (3, offer), (1, decline), (0, accept), (3, {"kind": "complete", "with": 0}),
        (1, {**offer, "to": [0, 2, 3]}), (0, accept), (1, {"kind": "complete", "with": 0}),
        (2, {**offer, "to": [0, 1]}), (0, decline), (2, {"kind": "withdraw"}),
    ]  # fmt: skip
    path = tmp_path / "versus.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE tables (name TEXT)")
        db.execute("CREATE TABLE actions (table_name TEXT, seq INTEGER, seat INTEGER, action TEXT)")
        db.executemany("INSERT INTO tables VALUES (?)", [("game-1",), ("lobby",)])
        db.executemany(
            "INSERT INTO actions VALUES ('game-1', ?, ?, ?)",
            [(seq, seat, json.dumps(action)) for seq, (seat, action) in enumerate(played)],
        )
    db.close()
    games = races.stored_games(path)
    assert [number for number, _ in games] == [1]
    assert races.races(games) == {
        "new": {"asked": 1, "pending": 0},
        "old": {"asked": 2, "pending": 1},
    }
