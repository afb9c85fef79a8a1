"""A person's hint while the server's own bots are busy elsewhere: how long the advice takes.

    python bench/advice.py                       # 9 addresses x 2 bot tables, 60 s
    python bench/advice.py --addresses 9 --seconds 60 --json

A ``tyros-server`` on loopback (``--bot-pace 0``: its bots decide as fast as they can).
Attackers, each from an address of its own (127.0.0.2, ...), create two tables of four with
three of the server's bots and play their own seat at once, so that the server's worker
always has bot decisions queued. A person, from 127.0.0.1, plays a table of three with two
of the server's bots and on each of their decisions asks for a hint (``advice``), at most
one each 2.1 s (the server's per-address advice rate), and then acts. Reported: the
advice's round trip (sent to received) and the person's actions' (sent to the update that
shows them), p50, p99 and max, how many of its hints were refused, and how many bot
decisions the attackers' tables saw. ``--attacker-hints``: the attackers ask for a hint on
each of their decisions too (advice crowding, from many addresses with ``--addresses``);
``--tables`` tables an address; ``--server-arg`` passes an option to the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _common import ServerProcess
from websockets.asyncio.client import ClientConnection, connect

HINT_GAP = 2.1
"""Seconds between two hints (the server allows a burst, then one each 2 s an address)."""


async def hello(ws: ClientConnection, **fields: Any) -> None:
    await ws.send(json.dumps({"type": "hello", "protocol": 1, "id": 1, **fields}))


async def attacker(
    port: int, address: str, table: str, seen: list[int], hints: bool = False
) -> None:
    """One seat at a table of three server bots, acting at once whenever asked (``hints``:
    asking for a hint first, without waiting for it, to crowd out others' hints)."""
    uri = f"ws://127.0.0.1:{port}/"
    async with connect(uri, local_addr=(address, 0), max_size=2**22) as ws:
        await hello(ws, name=f"a{address.split('.')[-1]}", table=table, players=4, bots=3)
        ids = 10
        async for frame in ws:
            message = json.loads(frame)
            if message.get("type") != "update":
                continue
            seen[0] += sum(1 for e in message.get("events", []) if e.get("type") == "action")
            prompt = message.get("prompt")
            if prompt and prompt.get("legal"):
                if hints:
                    ids += 1
                    hint = {"type": "hint", "id": ids, "version": prompt["version"], "advice": True}
                    await ws.send(json.dumps(hint))
                ids += 1
                action = prompt["legal"][0]
                await ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "id": ids,
                            "version": prompt["version"],
                            "action": action,
                        }
                    )
                )


async def person(port: int, seconds: float) -> dict[str, list[float]]:
    """A seat that asks for a hint on its decisions, then acts on the first legal action."""
    uri = f"ws://127.0.0.1:{port}/"
    advice: list[float] = []
    actions: list[float] = []
    refused: list[float] = []
    async with connect(uri, local_addr=("127.0.0.1", 0), max_size=2**22) as ws:
        await hello(ws, name="Pat", table="innocent", players=3, bots=2)
        ids, last_hint = 10, 0.0
        end = time.monotonic() + seconds
        sent_at: float | None = None
        acted_at, acted_version = 0.0, -1
        while time.monotonic() < end:
            try:
                frame = await asyncio.wait_for(ws.recv(), end - time.monotonic())
            except TimeoutError:
                break
            message = json.loads(frame)
            if message.get("type") == "advice" and sent_at is not None:
                advice.append(time.monotonic() - sent_at)
                sent_at = None
            if message.get("type") != "update":
                continue
            if acted_version >= 0 and message["view"]["version"] > acted_version:
                actions.append(time.monotonic() - acted_at)
                acted_version = -1
            prompt = message.get("prompt")
            if not prompt or not prompt.get("legal"):
                continue
            wait = last_hint + HINT_GAP - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            ids += 1
            last_hint = sent_at = time.monotonic()
            await ws.send(
                json.dumps(
                    {"type": "hint", "id": ids, "version": prompt["version"], "advice": True}
                )
            )
            while sent_at is not None:  # (the advice, then act)
                reply = json.loads(await ws.recv())
                if reply.get("type") == "advice":
                    advice.append(time.monotonic() - sent_at)
                    sent_at = None
                elif reply.get("type") == "error":
                    refused.append(time.monotonic() - sent_at)
                    sent_at = None
            ids += 1
            acted_at, acted_version = time.monotonic(), prompt["version"]
            await ws.send(
                json.dumps(
                    {
                        "type": "action",
                        "id": ids,
                        "version": prompt["version"],
                        "action": prompt["legal"][0],
                    }
                )
            )
    return {"advice": advice, "actions": actions, "refused": refused}


def figures(samples: list[float]) -> dict[str, Any]:
    if not samples:
        return {"count": 0}
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "count": len(ordered),
        "p50 ms": round(statistics.median(ordered) * 1000, 1),
        "p99 ms": round(p99 * 1000, 1),
        "max ms": round(ordered[-1] * 1000, 1),
    }


async def run(args: argparse.Namespace, port: int) -> dict[str, Any]:
    seen = [0]
    attacks = [
        asyncio.create_task(
            attacker(port, f"127.0.0.{2 + a}", f"busy-{a}-{t}", seen, args.attacker_hints)
        )
        for a in range(args.addresses)
        for t in range(args.tables)
    ]
    await asyncio.sleep(2.0)  # (the attackers' tables under way)
    before = seen[0]
    measured = await person(port, args.seconds)
    bot_actions = seen[0] - before
    for task in attacks:
        task.cancel()
    await asyncio.gather(*attacks, return_exceptions=True)
    return {
        "attacking addresses": args.addresses,
        "attackers' tables": args.tables * args.addresses,
        "attackers ask for hints": args.attacker_hints,
        "actions at their tables while measured": bot_actions,
        "advice": figures(measured["advice"]),
        "advice refused": len(measured["refused"]),
        "person's actions": figures(measured["actions"]),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--addresses", type=int, default=9, help="attacking addresses")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to measure")
    parser.add_argument("--tables", type=int, default=2, help="tables an address")
    parser.add_argument(
        "--attacker-hints",
        action="store_true",
        help="the attackers ask for a hint before each action (advice crowding)",
    )
    parser.add_argument(
        "--server-arg", action="append", default=[], help="an option for tyros-server"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp) / "bench.db", None, "--bot-pace", "0", *args.server_arg)
        server.start()
        try:
            result = asyncio.run(run(args, server.port))
        finally:
            server.stop()
    print(json.dumps(result, indent=1) if args.json else result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
