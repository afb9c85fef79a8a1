"""The server's search decisions (ISMCTS, as ``--takeover-strategy ismcts`` makes them for
takeovers and hints): made in one worker thread beside an event loop, as the server makes
them (``worker.py``), against a pool of worker processes. Reported: decisions a second
with a full queue, and how late a 5 ms timer of the event loop fires meanwhile (what
every table's round trip waits for: the worker thread shares the loop's interpreter lock).

    python bench/decisions.py --decisions 40
    python bench/decisions.py --decisions 40 --modes thread,processes-1,processes-2 --json

The decisions are taken from seeded random 4-player games (every ``--every``th decision
of the player to act), each made by a fresh bot of ``--strategy`` seeded with its number.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _common import cpu_note, percentile
from tyros_rules import Action, Options, legal_actions, new_game, push_unchecked, view
from tyros_rules.legal import seats_to_act
from tyros_server.cli import load_strategy

Point = tuple[int, dict[str, Any], list[Action]]

_POINTS: list[Point] = []
_STRATEGY = "ismcts"


def decision_points(count: int, every: int, seed: int) -> list[Point]:
    """``count`` decisions (seat, view, legal) from seeded random games."""
    points: list[Point] = []
    game = 0
    while len(points) < count:
        rng = random.Random(seed + game)
        state = new_game(Options(players=4, seed=seed + game))
        step = 0
        while state.phase.name != "OVER" and len(points) < count:
            seat = seats_to_act(state)[0]
            legal = legal_actions(state, seat)
            if step % every == every - 1 and len(legal) > 1:
                points.append((seat, view(state, seat), legal))
            push_unchecked(state, seat, rng.choice(legal))
            step += 1
        game += 1
    return points


def _setup(points: list[Point], strategy: str) -> None:
    """(In each worker process: the decisions and the strategy, sent once.)"""
    global _STRATEGY
    _POINTS[:] = points
    _STRATEGY = strategy


def decide(number: int) -> Action:
    seat, seen, legal = _POINTS[number]
    player = load_strategy(_STRATEGY)(seat, random.Random(number))
    return player.choose(seen, legal)


async def measure(executor: Executor, decisions: int) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    done = asyncio.Event()

    async def probe() -> None:
        while not done.is_set():
            asked = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append((time.perf_counter() - asked - 0.005) * 1000)

    probing = asyncio.create_task(probe())
    await asyncio.sleep(0.2)  # the probe's own quiet figure first
    quiet = list(lags)
    started = time.perf_counter()
    latencies: list[float] = []

    async def one(number: int) -> None:
        asked = time.perf_counter()
        await loop.run_in_executor(executor, decide, number)
        latencies.append(time.perf_counter() - asked)

    await asyncio.gather(*(one(n) for n in range(decisions)))
    elapsed = time.perf_counter() - started
    done.set()
    await probing
    busy = lags[len(quiet) :]
    return {
        "seconds": round(elapsed, 2),
        "decisions_per_second": round(decisions / elapsed, 2),
        "loop_lag_ms": {
            "p50": round(statistics.median(busy), 2),
            "p99": round(percentile(busy, 99), 2),
            "max": round(max(busy), 2),
        },
    }


def executor_of(mode: str, points: list[Point], strategy: str) -> Executor:
    if mode == "thread":
        _setup(points, strategy)
        return ThreadPoolExecutor(max_workers=1)
    workers = int(mode.rpartition("-")[2])
    return ProcessPoolExecutor(workers, initializer=_setup, initargs=(points, strategy))


def warm(executor: Executor, workers: int) -> None:
    """Each worker imports the strategy and makes one decision before the clock starts."""
    list(executor.map(decide, range(workers)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--every", type=int, default=7)
    parser.add_argument("--strategy", default="ismcts")
    parser.add_argument("--modes", default="thread,processes-1,processes-2")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    points = decision_points(args.decisions, args.every, args.seed)
    results: dict[str, Any] = {}
    for mode in args.modes.split(","):
        executor = executor_of(mode, points, args.strategy)
        warm(executor, 1 if mode == "thread" else int(mode.rpartition("-")[2]))
        run: Callable[[], dict[str, Any]] = lambda e=executor: asyncio.run(  # noqa: E731
            measure(e, args.decisions)
        )
        results[mode] = run()
        executor.shutdown()
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(f"decisions bench ({cpu_note()}, {args.decisions} {args.strategy} decisions)")
    print(f"{'mode':>12} {'decisions/s':>11} {'lag p50':>8} {'lag p99':>8} {'lag max':>8}")
    for mode, r in results.items():
        lag = r["loop_lag_ms"]
        print(
            f"{mode:>12} {r['decisions_per_second']:>11} {lag['p50']:>8} {lag['p99']:>8} "
            f"{lag['max']:>8}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
