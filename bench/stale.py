"""Refusals in normal play: bot games through a real server, every strategy, 3 and 4 players.

    python bench/stale.py                      # 4 games for each strategy and player count
    python bench/stale.py --games 10 --json

Each game seats bots of one strategy (``random``, ``greedy``, ``ismcts`` with an iteration
budget) in a ``tyros-server`` subprocess on loopback and counts the error codes the bots
receive. Issue 15's goal: no ``stale_version`` at all (simultaneous trade answers and keeps
do not spoil each other's prompts); ``too_late`` is the one timing refusal normal play may
see (an answer to a trade the proposer completed with someone else meanwhile).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from tyros_client.botclient import BotRun, play_bot

sys.path.insert(0, str(Path(__file__).parent))
from _common import ONE_ADDRESS_CROWD, ServerProcess

STRATEGIES = {"random": {}, "greedy": {}, "ismcts": {"iterations": 30}}


async def one_game(url: str, table: str, strategy: str, players: int, seed: int) -> BotRun:
    runs = [
        BotRun(
            url,
            table,
            f"{strategy}{i}",
            strategy,
            players=players,
            seed=seed,
            options=dict(STRATEGIES[strategy]),
        )
        for i in range(players)
    ]
    await asyncio.gather(
        *(play_bot(run, random.Random(seed * 10 + i)) for i, run in enumerate(runs))
    )
    total = BotRun(url, table, "all", strategy, players=players)
    for run in runs:
        total.errors.update(run.errors)
        total.actions_sent += run.actions_sent
    return total


async def main_async(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        # Every bot comes from this machine: the bounds per address would stop the games.
        server = ServerProcess(Path(tmp) / "stale.db", None, *ONE_ADDRESS_CROWD)
        server.start()
        url = f"ws://127.0.0.1:{server.port}"
        try:
            for strategy in STRATEGIES:
                for players in (3, 4):
                    errors: Counter[str] = Counter()
                    actions = 0
                    started = time.monotonic()
                    for game in range(args.games):
                        seed = args.seed + game
                        total = await one_game(
                            url, f"{strategy}-{players}-{game}", strategy, players, seed
                        )
                        errors.update(total.errors)
                        actions += total.actions_sent
                    rows.append(
                        {
                            "strategy": strategy,
                            "players": players,
                            "games": args.games,
                            "actions": actions,
                            "errors": dict(errors),
                            "stale_version": errors.get("stale_version", 0),
                            "seconds": round(time.monotonic() - started, 1),
                        }
                    )
        finally:
            server.stop()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = asyncio.run(main_async(args))
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{'strategy':9} {'players':>7} {'games':>5} {'actions':>8} {'stale':>5}  errors")
        for row in rows:
            print(
                f"{row['strategy']:9} {row['players']:>7} {row['games']:>5} {row['actions']:>8} "
                f"{row['stale_version']:>5}  {row['errors'] or '-'}"
            )
    return 1 if any(row["stale_version"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
