"""Hints as a person follows them: one seat plays its hint's best option (``tyros-client``'s
``hint``, :func:`tyros_client.hints.hint`, on the seat's view and the events it was shown)
at every decision with a choice, three bots of a level the other seats; how many of the
offers its hints made ended in a trade, and what it scored.

    python bench/hints.py --against easy --games 20
    python bench/hints.py --against easy --games 20 --answers random   # the hint before

``--answers random``: the asked seats of the hint's determinizations answer its offers
as its rollouts play (at random, declining first), as hints did before they asked the
greedy bot's judgement. The hinted seat is seat ``g % 4`` of game ``g`` (4 players,
setups mixed as the ladder's), each game seeded from ``--seed``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from tyros_client import arena, review
from tyros_client.bots.base import Bot
from tyros_client.bots.levels import LEVELS, player
from tyros_client.bots.search import rollout_action
from tyros_client.hints import hint
from tyros_protocol.board import BOARD
from tyros_rules import Action, parse_action

PLAYERS = 4
ANSWERS = ("greedy", "random")


class Hinted(Bot):
    """A seat that plays its hint's best option, from its view and the events it was shown."""

    name = "hinted"

    def __init__(self, seat: int, rng: random.Random, **options: Any) -> None:
        super().__init__(seat, rng, **options)
        self.events: list[dict[str, Any]] = []

    def observe(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        best = hint(view, self.seat, legal, self.events, seed=view["version"])[0]
        return parse_action(best.action, BOARD)


def play(job: tuple[int, str, int, str]) -> dict[str, Any]:
    """Game ``g`` (the arena's): the hinted seat's offers (``offers``; ``traded``:
    completed, else ``withdrawn``), its score and its margin (its score less the mean of
    the others')."""
    game, against, seed, answers = job
    if answers == "random":
        review._answer = rollout_action  # (the worker's own module: its games only)
    hinted = game % PLAYERS

    def seat_bot(name: str, seat: int, rng: random.Random, **_: Any) -> Bot:
        return Hinted(seat, rng) if seat == hinted else player(against, seat, rng)

    vars(arena)["make_bot"] = seat_bot  # (as bench/tune.py: this worker's games only)
    result = arena.play_game(
        ["hinted" if s == hinted else against for s in range(PLAYERS)],
        setup=arena.game_setup("mixed", game, PLAYERS),
        seed=seed,
        game=game,
    )
    log = result.state.log or []
    kinds = Counter(
        e["action"]["kind"] for e in log if e.get("type") == "action" and e.get("seat") == hinted
    )
    scores = result.scores
    return {
        "game": game,
        "offers": kinds["propose"],
        "traded": kinds["complete"],
        "withdrawn": kinds["withdraw"],
        "score": scores[hinted],
        "margin": scores[hinted] - (sum(scores) - scores[hinted]) / (PLAYERS - 1),
        "won": hinted in result.winners,
    }


def summary(lines: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Totals over the games: offers, trades, the share traded, mean score and margin.

    >>> totals = summary([{"offers": 3, "traded": 1, "score": 60, "margin": 4.0, "won": True},
    ...                   {"offers": 1, "traded": 1, "score": 50, "margin": -2.0, "won": False}])
    >>> totals["offers"], totals["traded_share"], totals["wins"], totals["mean_margin"]
    (4, 0.5, 1, 1.0)
    """
    offers = sum(line["offers"] for line in lines)
    traded = sum(line["traded"] for line in lines)
    return {
        "games": len(lines),
        "offers": offers,
        "traded": traded,
        "traded_share": round(traded / offers, 3) if offers else 0.0,
        "wins": sum(bool(line["won"]) for line in lines),
        "mean_score": round(statistics.fmean(line["score"] for line in lines), 2),
        "mean_margin": round(statistics.fmean(line["margin"] for line in lines), 2),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="easy", choices=sorted(LEVELS))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--answers", default="greedy", choices=ANSWERS)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="one JSON object, not lines")
    args = parser.parse_args(argv)
    jobs = [(g, args.against, args.seed, args.answers) for g in range(args.games)]
    with Pool(args.jobs) as pool:
        lines = pool.map(play, jobs, chunksize=1)
    result = summary(lines)
    if args.json:
        print(json.dumps(result))
    else:
        for line in lines:
            print(json.dumps(line))
        print(" ".join(f"{k} {v}" for k, v in result.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
