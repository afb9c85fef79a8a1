"""Trading per game, by strategy: offers made, counter-offers, trades completed.

    python bench/trades.py                       # 20 games of each strategy, 4 players
    python bench/trades.py --games 40 --ismcts-iterations 100 --json
    python bench/trades.py --strategies greedy --set greedy.LIKELY_ACCEPT=0.4

Each strategy plays every seat of seeded 4-player arena games (``tyros-arena``'s own
``play_game``: the same games for the same seeds); the figures come from the game records:
proposals, the asked seats' answers (accept, decline, counter), trades completed (on the
offer's terms or on a counter's) and withdrawals, each per game. ISMCTS plays with an
iteration budget, so its figures reproduce exactly. ``--set module.NAME=VALUE`` changes a
constant of ``tyros_client.bots`` for every seat (as ``bench/tune.py`` does for one).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from typing import Any

from tune import bots_constant, parse_setting
from tyros_client.arena import play_game


def count(events: list[dict[str, Any]]) -> Counter[str]:
    """What the record says about trades."""
    out: Counter[str] = Counter()
    countered: set[int] = set()
    for event in events:
        if event.get("type") != "action":
            continue
        action = event["action"]
        kind = action["kind"]
        if kind == "propose":
            out["offers"] += 1
            out["seats asked"] += len(action["to"])
            if len(action["give"]) + len(action["get"]) > 2:
                out["multi-card offers"] += 1
            countered = set()
        elif kind == "answer":
            out["accepts" if action["accept"] else "declines"] += 1
        elif kind == "counter":
            out["counters"] += 1
            if len(action["give"]) + len(action["get"]) > 2:
                out["multi-card counters"] += 1
            countered.add(event["seat"])
        elif kind == "complete":
            out["completed"] += 1
            if action["with"] in countered:
                out["completed on a counter"] += 1
        elif kind == "withdraw":
            out["withdrawn"] += 1
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--ismcts-games", type=int, default=4)
    parser.add_argument("--ismcts-iterations", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--strategies", default="random,greedy,greedy-plain,ismcts")
    parser.add_argument(
        "--set", type=parse_setting, action="append", default=[], metavar="module.NAME=VALUE"
    )
    args = parser.parse_args()
    for key, value in args.set:
        setattr(*bots_constant(key), value)
    plans = [
        plan
        for plan in [
            ("random", args.games, {}),
            ("greedy", args.games, {}),
            ("greedy-plain", args.games, {}),
            ("ismcts", args.ismcts_games, {"iterations": args.ismcts_iterations}),
        ]
        if plan[0] in args.strategies.split(",")
    ]
    rows = []
    for strategy, games, options in plans:
        totals: Counter[str] = Counter()
        started = time.monotonic()
        for game in range(games):
            result = play_game([strategy] * 4, seed=args.seed, game=game, bot_options=options)
            totals.update(count(result.state.log or []))
        rows.append(
            {
                "strategy": strategy,
                "games": games,
                **{key: round(value / games, 1) for key, value in sorted(totals.items())},
                "seconds": round(time.monotonic() - started, 1),
            }
        )
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    keys = [
        "offers",
        "multi-card offers",
        "seats asked",
        "accepts",
        "declines",
        "counters",
        "multi-card counters",
        "completed",
        "completed on a counter",
        "withdrawn",
    ]
    print("per game, 4 players: " + ", ".join(keys))
    for row in rows:
        figures = " ".join(f"{row.get(key, 0):>6}" for key in keys)
        print(f"{row['strategy']:12} ({row['games']} games) {figures}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
