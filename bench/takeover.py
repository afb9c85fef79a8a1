"""Absent players: T tables whose four players all left, played by the server's takeover
bot, while one more connection asks for the table list again and again.

Reports that connection's round trips (p50, p99, max), how many decisions the bots made
meanwhile, and the server's CPU time: the bots must never hold up anyone else.

    python bench/takeover.py --strategy greedy --tables 10 --seconds 30
    python bench/takeover.py --strategy ismcts --tables 10 --seconds 30 --json
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).parent))
from _common import ServerProcess, cpu_note, percentile, process_cpu_seconds
from tyros_client.session import Join, hello_message


async def seat_and_leave(url: str, table: str, seat: int) -> None:
    """Take a seat of ``table`` and go once the game has started (the welcome came)."""
    join = Join(table=table, name=f"gone-{seat}", players=4, seed=seat + 1)
    async with connect(url, compression=None) as ws:
        await ws.send(json.dumps(hello_message(join, 1)))
        while json.loads(await ws.recv()).get("type") != "welcome":
            pass


async def probe(url: str, seconds: float, every: float) -> list[float]:
    """Round trips of ``list_tables`` for ``seconds``, one every ``every`` seconds."""
    trips: list[float] = []
    async with connect(url, compression=None, max_size=2**24) as ws:
        stop = time.monotonic() + seconds
        ids = 0
        while time.monotonic() < stop:
            ids += 1
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "list_tables", "id": ids}))
            while json.loads(await ws.recv()).get("re") != ids:
                pass
            trips.append(time.perf_counter() - sent)
            await asyncio.sleep(every)
    return trips


def decisions(db: Path) -> int:
    """Every action stored so far at every table (read beside the running server)."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])


async def run(args: argparse.Namespace, url: str, server: ServerProcess) -> dict[str, Any]:
    for t in range(args.tables):
        # Every seat joins before any leaves (a table starts once full).
        async with asyncio.TaskGroup() as group:
            for seat in range(4):
                group.create_task(seat_and_leave(url, f"gone{t}", seat))
    await asyncio.sleep(args.takeover + 0.5)  # the bots step in
    assert server.proc is not None
    cpu_before = process_cpu_seconds(server.proc.pid) or 0.0
    before = decisions(server.db)
    trips = await probe(url, args.seconds, args.every)
    after = decisions(server.db)
    cpu = (process_cpu_seconds(server.proc.pid) or 0.0) - cpu_before
    return {
        "strategy": args.strategy,
        "tables": args.tables,
        "pace": args.pace,
        "seconds": args.seconds,
        "requests": len(trips),
        "p50_ms": round(percentile(trips, 50) * 1000, 2),
        "p99_ms": round(percentile(trips, 99) * 1000, 2),
        "max_ms": round(max(trips) * 1000, 2),
        "bot_decisions": after - before,
        "server_cpu_s": round(cpu, 1),
        "cpu": cpu_note(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strategy", default="greedy")
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--every", type=float, default=0.05, help="seconds between requests")
    parser.add_argument(
        "--pace", type=float, default=None, help="tyros-server --bot-pace (its default: 1)"
    )
    parser.add_argument("--takeover", type=float, default=1.0, help="tyros-server --takeover")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(
            Path(tmp) / "bench.db",
            None,
            "--takeover",
            str(args.takeover),
            "--takeover-strategy",
            args.strategy,
            *([] if args.pace is None else ["--bot-pace", str(args.pace)]),
            "--max-tables",
            str(max(100, args.tables)),
        )
        server.start()
        try:
            result = asyncio.run(run(args, f"ws://127.0.0.1:{server.port}", server))
        finally:
            server.stop()
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>14}: {value}")


if __name__ == "__main__":
    main()
