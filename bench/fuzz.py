"""Fuzz: malformed and hostile input against a live server, with a game in progress.

A server subprocess hosts a 4-seat table whose game has started. Fuzzing
connections (fresh ones, and the seated players' own) send random bytes,
random text, random JSON and mutations of valid messages (hello, resume,
list_tables and actions: fields dropped, added or retyped, huge numbers, deep
nesting, long strings, odd unicode, wrong versions). Every input must get a
typed error (or, for frames over 64 KiB, a close with 1009). At the end the
server must still be up and the game exactly as before (the same version, the
same public view, the same stored actions).

    python bench/fuzz.py --inputs 20000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).parent))
from _common import ONE_ADDRESS_CROWD, ServerProcess
from tyros_client.session import (
    Join,
    action_message,
    hello_message,
    list_tables_message,
    resume_message,
)
from tyros_protocol.errors import ErrorCode

ERROR_CODES = {code.value for code in ErrorCode}
PER_CONNECTION_RATE = 40.0  # stay under the server's 50/s so every input reaches the parser

VALID: list[dict[str, Any]] = [
    list_tables_message(1),
    hello_message(Join(table="fuzzed", name="fuzz", players=4), 2),
    resume_message("x" * 43, 3),
    action_message(0, {"kind": "pass"}, 4),
    action_message(0, {"kind": "move", "from": "TY", "to": "23", "pay": ["green"] * 4}, 5),
    action_message(0, {"kind": "propose", "to": [1, 2], "give": ["wild"], "get": ["orange"]}, 6),
    action_message(0, {"kind": "city", "space": "16", "ship": "16E", "pay": ["violet"] * 5}, 7),
    action_message(0, {"kind": "keep", "cards": ["wild"] * 3}, 8),
]
ODD_VALUES: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    2**63,
    -(2**70),
    1e308,
    float("inf"),
    "",
    "x" * 5000,
    "\u0000",
    "\ud7ff\ue000",
    "💥",
    [],
    {},
    [[[[[]]]]],
    {"a": {"b": {"c": None}}},
    "TY",
    "16W",
    "99",
    ["wild"] * 100,
    ["purple"],
    3.5,
    "NaN",
]


def mutate(message: Any, rng: random.Random, depth: int = 0) -> Any:
    if isinstance(message, dict) and message and depth < 4:
        out = dict(message)
        key = rng.choice(list(out))
        choice = rng.random()
        if choice < 0.25:
            del out[key]
        elif choice < 0.5:
            out[key] = rng.choice(ODD_VALUES)
        elif choice < 0.65:
            out[rng.choice(["extra", "type", "kind", "__proto__", "id"])] = rng.choice(ODD_VALUES)
        else:
            out[key] = mutate(out[key], rng, depth + 1)
        return out
    if isinstance(message, list) and message and depth < 4:
        out_list = list(message)
        out_list[rng.randrange(len(out_list))] = mutate(out_list[0], rng, depth + 1)
        return out_list
    return rng.choice(ODD_VALUES)


def hostile_frame(rng: random.Random) -> str | bytes:
    roll = rng.random()
    if roll < 0.1:
        return rng.randbytes(rng.randrange(1, 300))
    if roll < 0.2:
        return "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 80)))
    if roll < 0.3:
        return json.dumps(rng.choice(ODD_VALUES))
    if roll < 0.35:
        depth = rng.randrange(50, 5000)
        return "[" * depth + "]" * depth
    if roll < 0.38:
        return '{"type": "list_tables", "id": 1, "pad": "' + "x" * 70_000 + '"}'
    message = mutate(rng.choice(VALID), rng)
    for _ in range(rng.randrange(3)):
        message = mutate(message, rng)
    return json.dumps(message, allow_nan=True)


async def fuzz_on(
    ws: ClientConnection, count: int, rng: random.Random, stats: dict[str, int]
) -> int:
    """Send up to ``count`` hostile frames on one connection; returns how many were sent."""
    sent = 0
    try:
        while sent < count:
            frame = hostile_frame(rng)
            start = time.monotonic()
            await ws.send(frame)
            sent += 1
            stats["inputs"] += 1
            await expect_answer(ws, stats)
            await asyncio.sleep(max(0.0, 1 / PER_CONNECTION_RATE - (time.monotonic() - start)))
    except ConnectionClosed as exc:
        if exc.rcvd is not None and exc.rcvd.code == 1009:
            stats["closed_for_size"] += 1
        else:
            stats["unexpected_closes"] += 1
    return sent


async def fuzz_connection(url: str, count: int, rng: random.Random, stats: dict[str, int]) -> None:
    """Fresh connections, reconnecting after a close for size."""
    sent = 0
    while sent < count:
        async with connect(url, max_size=2**23, compression=None) as ws:
            sent += await fuzz_on(ws, count - sent, rng, stats)


async def seated_fuzz(
    url: str, count: int, rng: random.Random, stats: dict[str, int], token: str
) -> None:
    """A seated player who is not to act sends hostile frames as itself."""
    sent = 0
    while sent < count:
        async with connect(url, max_size=2**23, compression=None) as ws:
            await ws.send(json.dumps(resume_message(token, 1)))
            while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "update":
                pass
            sent += await fuzz_on(ws, count - sent, rng, stats)


async def expect_answer(ws: ClientConnection, stats: dict[str, int]) -> None:
    """Read what the server says back: typed errors, or other legitimate messages."""
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
        if reply["type"] == "error":
            if reply["code"] in ERROR_CODES:
                stats["typed_errors"] += 1
            else:
                stats["untyped_errors"] += 1
            return
        # A mutated message can still be valid (a hello for a new table, a list): fine.
        stats["valid_answers"] += 1
        if reply["type"] in ("tables", "welcome", "accepted"):
            # drain what follows a welcome without blocking forever
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), timeout=0.05)
            except TimeoutError:
                return
            return


async def snapshot(url: str) -> dict[str, Any]:
    async with connect(url, max_size=2**23) as ws:
        await ws.send(json.dumps(hello_message(Join(table="game", name="watch", spectate=True), 1)))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout=10))
            if message["type"] == "update":
                view: dict[str, Any] = message["view"]
                return view


def run(inputs: int, connections: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    stats = dict.fromkeys(
        (
            "inputs",
            "typed_errors",
            "untyped_errors",
            "valid_answers",
            "closed_for_size",
            "unexpected_closes",
        ),
        0,
    )
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "fuzz.db"
        server = ServerProcess(db, None, *ONE_ADDRESS_CROWD)
        server.start()

        async def main() -> tuple[dict[str, Any], dict[str, Any]]:
            players, tokens = [], []
            for i in range(4):  # seat four quiet players: the game starts and waits
                ws = await connect(server.url, max_size=2**23)
                await ws.send(
                    json.dumps(
                        hello_message(Join(table="game", name=f"p{i}", players=4, seed=7), 1)
                    )
                )
                welcome = json.loads(await asyncio.wait_for(ws.recv(), 10))
                tokens.append(welcome["token"])
                players.append(ws)
            await asyncio.sleep(0.5)
            before = await snapshot(server.url)
            idle = [seat for seat in range(4) if seat not in before["to_act"]]
            per = inputs // (connections + len(idle))
            tasks = [
                fuzz_connection(server.url, per, random.Random(rng.random()), stats)
                for _ in range(connections)
            ]
            tasks += [
                seated_fuzz(server.url, per, random.Random(rng.random()), stats, tokens[seat])
                for seat in idle
            ]
            await asyncio.gather(*tasks)
            after = await snapshot(server.url)
            for ws in players:
                await ws.close()
            return before, after

        try:
            before, after = asyncio.run(main())
            alive = server.proc is not None and server.proc.poll() is None
        finally:
            server.stop()
        with sqlite3.connect(db) as conn:
            stored = conn.execute(
                "SELECT COUNT(*) FROM actions WHERE table_name='game'"
            ).fetchone()[0]
    return {
        **stats,
        "server_crashes": 0 if alive else 1,
        "state_changes": int(before != after) + int(stored != 0),
        "game_version": after["version"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--inputs", type=int, default=20_000)
    parser.add_argument("--connections", type=int, default=25)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = run(args.inputs, args.connections, args.seed)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for key, value in result.items():
            print(f"{key:>18}: {value}")
    ok = (
        result["server_crashes"] == 0
        and result["state_changes"] == 0
        and result["untyped_errors"] == 0
        and result["unexpected_closes"] == 0
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
