"""Finished games in memory: one server process, G games of 4 random bots played to the end,
P tables at a time, the server's resident memory read after every ``--every`` games.

A finished table stays in memory for a while (its players may look at the end, ask for
the record) but at most ``--finished-in-memory`` of them (the oldest leave first): the
memory must level off at that bound instead of growing with every game.

    python bench/finished.py --games 100 --parallel 4
    python bench/finished.py --games 100 --parallel 4 --finished-in-memory 1000 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _common import ONE_ADDRESS_CROWD, ServerProcess, cpu_note, process_status_kib
from load import Stats, bot


async def play_games(
    url: str, games: int, parallel: int, every: int, pid: int, seed: int
) -> list[tuple[int, float]]:
    """Play ``games`` to the end, ``parallel`` at a time; (games finished, RSS in MiB)
    after every ``every`` of them."""
    stats = Stats()
    samples: list[tuple[int, float]] = []
    numbers = iter(range(games))
    stop_at = time.monotonic() + 3600

    async def one_table() -> None:
        for game in numbers:
            rng = random.Random(seed * 100_000 + game)
            seats = [
                bot(url, f"end-{game}", f"b{seat}", random.Random(rng.random()), stats, 0, stop_at)
                for seat in range(4)
            ]
            if not all(await asyncio.gather(*seats)):
                raise RuntimeError(f"game {game} did not finish")
            stats.games += 1
            if stats.games % every == 0:
                rss = process_status_kib(pid, "VmRSS")
                samples.append((stats.games, round((rss or 0) / 1024, 1)))

    await asyncio.gather(*(one_table() for _ in range(parallel)))
    return samples


def run(games: int, parallel: int, every: int, kept: int, seed: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(
            Path(tmp) / "finished.db",
            None,
            *ONE_ADDRESS_CROWD,
            "--finished-in-memory",
            str(kept),
            "--tables-per-minute",
            "100000",
        )
        server.start()
        assert server.proc is not None
        started = time.monotonic()
        try:
            samples = asyncio.run(
                play_games(server.url, games, parallel, every, server.proc.pid, seed)
            )
        finally:
            server.stop()
    return {
        "games": games,
        "parallel": parallel,
        "finished_in_memory": kept,
        "seconds": round(time.monotonic() - started, 1),
        "rss_mib_after_games": samples,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--every", type=int, default=10, help="read the memory every N games")
    parser.add_argument("--finished-in-memory", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.games, args.parallel, args.every, args.finished_in_memory, args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{cpu_note()}")
    print(
        f"{result['games']} games, {result['parallel']} at a time, at most "
        f"{result['finished_in_memory']} finished tables in memory, {result['seconds']} s"
    )
    for finished, mib in result["rss_mib_after_games"]:
        print(f"  after {finished:4d} games: {mib:6.1f} MiB resident")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
