"""Load: one server process, T tables of 4 random bots each, all on loopback.

Reports actions per second, the latency from an action sent to the update it
caused (p50, p99, max), errors, and the server's peak memory. Bots think for
``--think-ms`` (uniformly 0.5x-1.5x) before acting, as players do; 0 means they
answer at once, which saturates the server. ``--spectators N`` adds N spectator
connections to every table, each reading every frame the server sends it until
its game ends (a refused spectator counts as an error).

    python bench/load.py --tables 50 --seconds 30
    python bench/load.py --sweep 10,25,50,100 --seconds 20 --json
    python bench/load.py --tables 100 --spectators 4 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).parent))
from _common import (
    ONE_ADDRESS_CROWD,
    ServerProcess,
    cpu_note,
    percentile,
    process_cpu_seconds,
    session_notices,
)
from tyros_client.notices import Accepted, JoinRefused, Refused, Updated
from tyros_client.session import ClientSession, Join, hello_message
from tyros_server.app import tune_gc


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    stale: int = 0
    games: int = 0


async def bot(
    url: str, table: str, name: str, rng: random.Random, stats: Stats, think: float, stop_at: float
) -> bool:
    """Play one seat until the game ends (True) or time is up (False)."""
    pending: dict[int, float] = {}
    session = ClientSession(Join(table=table, name=name, players=4, trade_seconds=5))
    session.on_send = lambda msg_id, version, action: pending.update({msg_id: time.perf_counter()})
    waiting_since: float | None = None
    answered = -1  # the id of the newest prompt acted on: each decision is made once

    async def decide(ws: ClientConnection, prompt_id: int) -> None:
        """Think (while the messages keep being read), then act if still asked."""
        if think:
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        current = session.prompt
        if current is None or current.id != prompt_id:
            return  # decided without us (a trade ended, time ran out)
        session.send_action(rng.choice(current.legal).wire())
        with contextlib.suppress(ConnectionClosed):
            for frame in session.frames_to_send():
                await ws.send(frame)

    async def play(ws: ClientConnection) -> bool:
        nonlocal waiting_since, answered
        thinking: set[asyncio.Task[None]] = set()
        async for notice in session_notices(ws, session):
            if isinstance(notice, Accepted):
                waiting_since = pending.pop(notice.accepted.re or -1, None)
            elif isinstance(notice, Refused | JoinRefused):
                code = notice.code.value
                if code == "stale_version":
                    stats.stale += 1
                else:
                    stats.errors[code] = stats.errors.get(code, 0) + 1
                pending.pop(notice.error.re or -1, None)
            elif isinstance(notice, Updated):
                if waiting_since is not None:
                    stats.latencies.append(time.perf_counter() - waiting_since)
                    stats.actions += 1
                    waiting_since = None
                if notice.view.phase == "over":
                    return True
                prompt = notice.prompt
                if prompt is not None and prompt.id > answered:
                    answered = prompt.id
                    task = asyncio.create_task(decide(ws, answered))
                    thinking.add(task)
                    task.add_done_callback(thinking.discard)
        return False

    async with connect(url, max_size=2**23, compression=None) as ws:
        try:
            return await asyncio.wait_for(play(ws), max(0.1, stop_at - time.monotonic()))
        except TimeoutError:
            return False


async def spectator(url: str, table: str, name: str, stats: Stats, stop_at: float) -> None:
    """Watch ``table`` (once its first player has created it), reading every frame."""
    hello = json.dumps(hello_message(Join(table=table, name=name, spectate=True), 1))

    def count(error: str) -> None:
        stats.errors[f"spectator:{error}"] = stats.errors.get(f"spectator:{error}", 0) + 1

    async def watch() -> None:
        while True:
            async with connect(url, max_size=2**23, compression=None) as ws:
                await ws.send(hello)
                answer = json.loads(await ws.recv())
                if answer["type"] == "error":
                    if answer["code"] != "no_such_table":
                        count(answer["code"])
                        return
                else:
                    async for frame in ws:
                        if '"phase":"over"' in frame:
                            return
            await asyncio.sleep(0.05)  # not created yet: ask again

    try:
        await asyncio.wait_for(watch(), max(0.1, stop_at - time.monotonic()))
    except TimeoutError:
        pass  # time is up: the bots stop too
    except (ConnectionClosed, OSError) as exc:
        count(type(exc).__name__)


async def table_loop(
    url: str, index: int, seconds: float, think: float, stats: Stats, seed: int, spectators: int
) -> None:
    stop_at = time.monotonic() + seconds
    for game in itertools.count():
        name = f"load-{index}-{game}"
        rng = random.Random(seed * 1000 + index * 10 + game)
        try:
            results = await asyncio.gather(
                *(
                    bot(url, name, f"b{seat}", random.Random(rng.random()), stats, think, stop_at)
                    for seat in range(4)
                ),
                *(spectator(url, name, f"s{n}", stats, stop_at) for n in range(spectators)),
            )
        except (ConnectionClosed, OSError) as exc:
            stats.errors[type(exc).__name__] = stats.errors.get(type(exc).__name__, 0) + 1
            return
        if all(results[:4]):
            stats.games += 1
        if time.monotonic() >= stop_at:
            return


def run(
    tables: int, seconds: float, think_ms: float, seed: int, spectators: int = 0
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        # Every bot connects from 127.0.0.1: lift the per-address cap for the bench.
        server = ServerProcess(Path(tmp) / "load.db", None, *ONE_ADDRESS_CROWD)
        server.start()
        stats = Stats()
        started = time.monotonic()

        async def main() -> None:
            await asyncio.gather(
                *(
                    table_loop(server.url, i, seconds, think_ms / 1000, stats, seed, spectators)
                    for i in range(tables)
                )
            )

        try:
            tune_gc()  # the bots' own collector pauses are not the server's latency
            asyncio.run(main())
            elapsed = time.monotonic() - started
            memory = server.peak_memory_kib()
            cpu = process_cpu_seconds(server.proc.pid) if server.proc else None
        finally:
            server.stop()
    ms = [x * 1000 for x in stats.latencies]
    return {
        "tables": tables,
        "connections": tables * (4 + spectators),
        "spectators_per_table": spectators,
        "seconds": round(elapsed, 1),
        "think_ms": think_ms,
        "actions": stats.actions,
        "actions_per_second": round(stats.actions / elapsed, 1),
        "games_finished": stats.games,
        "latency_ms": {
            "p50": round(percentile(ms, 50), 2),
            "p99": round(percentile(ms, 99), 2),
            "max": round(max(ms, default=float("nan")), 2),
        },
        "errors": sum(stats.errors.values()),
        "error_codes": stats.errors,
        "stale_versions": stats.stale,
        "server_peak_memory_mib": round(memory / 1024, 1) if memory else None,
        "server_cpu_share": round(cpu / elapsed, 2) if cpu else None,
        "server_cpu_us_per_action": round(cpu * 1e6 / stats.actions)
        if cpu and stats.actions
        else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--sweep", default=None, help="comma-separated table counts")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think-ms", type=float, default=100.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--spectators", type=int, default=0, metavar="N", help="spectators per table"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    counts = [int(x) for x in args.sweep.split(",")] if args.sweep else [args.tables]
    results = [run(t, args.seconds, args.think_ms, args.seed, args.spectators) for t in counts]
    if args.json:
        print(json.dumps(results if args.sweep else results[0], indent=1))
        return 0
    watching = f", {args.spectators} spectators a table" if args.spectators else ""
    print(
        f"load bench ({cpu_note()}, server and bots on loopback, think {args.think_ms} ms"
        f"{watching})"
    )
    print(
        f"{'tables':>6} {'conns':>5} {'actions/s':>10} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'max ms':>7} {'errors':>6} {'games':>5} {'peak MiB':>8}"
    )
    for r in results:
        lat = r["latency_ms"]
        print(
            f"{r['tables']:>6} {r['connections']:>5} {r['actions_per_second']:>10} "
            f"{lat['p50']:>7} {lat['p99']:>7} {lat['max']:>7} {r['errors']:>6} "
            f"{r['games_finished']:>5} {r['server_peak_memory_mib']:>8}"
        )
    meets = [r["tables"] for r in results if r["errors"] == 0 and r["latency_ms"]["p99"] < 50]
    if args.sweep:
        print(f"largest table count meeting p99 < 50 ms with 0 errors: {max(meets, default=0)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
