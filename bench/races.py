"""Who is left out of trades at a table of programs: of the offers a seat completed, how
many of the asked seats had not answered yet, the new bot's seat beside the old ones, in
the database of a match across versions (``bench/versus.py --keep FOLDER``).

    python bench/versus.py --old VENV --games 4 --results r.jsonl --keep /tmp/match
    python bench/races.py /tmp/match/versus.db

Among programs a proposer does not wait (``bots/manners.py``): it completes with the first
seats to accept, so a seat that answers after the others is left out of the trade. Game
``g``'s new bot sits in seat ``g % 4`` (``versus.seating``); the tables are named
``game-G``. Only the old bots' offers are counted: a bot's own offers say nothing of how
fast it answers.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

Played = tuple[int, dict[str, Any]]
"""(seat, action as JSON) of one stored action."""


def races(games: Iterable[tuple[int, Sequence[Played]]]) -> dict[str, dict[str, int]]:
    """For the new seat and the old ones: the asked seats of the old bots' completed offers
    (``asked``), and how many of them had not answered yet (``pending``). ``games``: each
    game's number and its actions in order.

    >>> offer = {"kind": "propose", "to": [0, 2, 3], "give": ["orange"], "get": ["green"]}
    >>> game = [(1, offer), (2, {"kind": "answer", "accept": True}),
    ...         (1, {"kind": "complete", "with": 2})]
    >>> races([(0, game)])  # game 0: the new bot in seat 0, still thinking
    {'new': {'asked': 1, 'pending': 1}, 'old': {'asked': 2, 'pending': 1}}
    """
    counts = {who: Counter({"asked": 0, "pending": 0}) for who in ("new", "old")}
    for number, actions in games:
        new = number % 4
        offer: tuple[int, list[int], set[int]] | None = None  # proposer, asked, answered
        for seat, action in actions:
            kind = action["kind"]
            if kind == "propose":
                offer = (seat, list(action["to"]), set())
            elif kind in ("answer", "counter") and offer is not None:
                offer[2].add(seat)
            elif kind in ("complete", "withdraw"):
                if kind == "complete" and offer is not None and offer[0] != new:
                    for asked in offer[1]:
                        who = counts["new" if asked == new else "old"]
                        who["asked"] += 1
                        who["pending"] += asked not in offer[2]
                offer = None
    return {who: dict(count) for who, count in counts.items()}


def stored_games(path: Path) -> list[tuple[int, list[Played]]]:
    """Each ``game-G`` table's number and actions, from a server's database."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        games = []
        for (name,) in db.execute("SELECT name FROM tables WHERE name LIKE 'game-%'"):
            rows = db.execute(
                "SELECT seat, action FROM actions WHERE table_name = ? ORDER BY seq", (name,)
            )
            games.append((int(name.split("-")[1]), [(s, json.loads(a)) for s, a in rows]))
        return sorted(games)
    finally:
        db.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("database", type=Path, help="a match's versus.db (versus.py --keep)")
    args = parser.parse_args(argv)
    games = stored_games(args.database)
    found = races(games)
    for who, count in found.items():
        share = count["pending"] / count["asked"] if count["asked"] else 0.0
        print(
            f"{who} bot: asked {count['asked']} times in offers an old bot completed, "
            f"not yet answered in {count['pending']} ({share:.0%})"
        )
    print(json.dumps({"games": len(games), **found}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
