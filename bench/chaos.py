"""Chaos: games of bots against a server killed with SIGKILL at random moments.

The server runs in a subprocess on loopback and is killed (no shutdown code
runs) every 0.5-2.5 s, then restarted on the same database. Bots reconnect and
resume their seats with their tokens. At the end it reports games completed,
acknowledged actions lost, actions applied twice, the fewest kills any game
lived through, and whether every finished game equals a replay of its record.

    python bench/chaos.py --games 20

``--damage``: no kills; instead, after ``--before`` seconds of play, the live WAL is cut to
100 bytes; ``--after`` seconds later 8 KiB of the database file are overwritten at offset
4096; then the server is stopped (SIGTERM) and started again on the same file (its repair
at start), and the actions the bots had acknowledged are looked for in the database: how
many were acknowledged, how many are recovered, how many were refused once the server
noticed, and when the first refusal came.

    python bench/chaos.py --damage --games 6
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).parent))
from _common import ONE_ADDRESS_CROWD, ServerProcess, session_notices
from tyros_client.notices import Accepted, Joined, Updated
from tyros_client.session import ClientSession, Join


@dataclass
class Seat:
    table: str
    name: str
    token: str | None = None
    seat: int | None = None
    sent: dict[int, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    """message id -> (version it was made for, action)."""
    acked: dict[int, int] = field(default_factory=dict)
    """message id -> the version its action made (a prompt's action may land later than
    the version it was made for, when other seats acted meanwhile)."""
    score: dict[str, Any] | None = None
    finished_at: float | None = None
    refused: list[tuple[float, str]] = field(default_factory=list)
    """(when, message) of each of its actions the server refused as not stored."""


async def play_seat(
    url: str, seat: Seat, rng: random.Random, think: float, give_up_at: float
) -> None:
    session = ClientSession(Join(table=seat.table, name=seat.name, players=4, trade_seconds=30))
    session.on_send = lambda msg_id, version, action: seat.sent.update({msg_id: (version, action)})
    receive = session.receive

    def noting_refusals(frame: str | bytes) -> Any:
        """(The session retries an action refused as not stored without a notice.)"""
        message = json.loads(frame)
        if message.get("type") == "error" and message.get("code") == "internal_error":
            seat.refused.append((time.monotonic(), str(message.get("message"))))
        return receive(frame)

    session.receive = noting_refusals  # type: ignore[method-assign]
    while seat.score is None and time.monotonic() < give_up_at:
        try:
            async with connect(url, max_size=2**23, compression=None, open_timeout=5) as ws:
                async for notice in session_notices(ws, session):
                    if isinstance(notice, Joined):
                        seat.token, seat.seat = session.token, session.seat
                    elif isinstance(notice, Accepted) and notice.accepted.re is not None:
                        seat.acked[notice.accepted.re] = notice.accepted.version
                    elif isinstance(notice, Updated):
                        if notice.view.phase == "over":
                            assert notice.view.score is not None
                            seat.score = notice.view.score.wire()
                            seat.finished_at = time.monotonic()
                            return
                        if notice.prompt is not None:
                            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                            session.send_action(rng.choice(notice.prompt.legal).wire())
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
            pass
        session.connection_lost(None)
        await asyncio.sleep(0.2)


async def killer(
    server: ServerProcess, seats: list[Seat], rng: random.Random, kills: list[float]
) -> None:
    while any(s.score is None for s in seats):
        await asyncio.sleep(rng.uniform(0.5, 2.5))
        if all(s.score is not None for s in seats):
            return
        server.kill()
        kills.append(time.monotonic())
        await asyncio.sleep(rng.uniform(0.05, 0.5))
        await asyncio.to_thread(server.start)


def check(db: Path, seats: list[Seat]) -> dict[str, Any]:
    """Compare what clients were told with what the database holds."""
    conn = sqlite3.connect(db)
    stored: dict[str, dict[int, tuple[int, dict[str, Any]]]] = {}
    for table, seq, seat, text in conn.execute("SELECT table_name, seq, seat, action FROM actions"):
        stored.setdefault(table, {})[seq] = (seat, json.loads(text))
    conn.close()
    lost = acked = unsent = auto_declines = 0
    for s in seats:
        rows = stored.get(s.table, {})
        for msg_id, made in s.acked.items():
            acked += 1
            lost += rows.get(made) != (s.seat, s.sent[msg_id][1])
        # Every stored action of this seat must be one message it sent, for that version or
        # an earlier one, each message used once: anything else was applied twice or made
        # up (the server's own trade timeouts aside). Acknowledged ones match first.
        unused = {msg_id for msg_id in s.sent if msg_id not in s.acked}
        acked_rows = set(s.acked.values())
        for seq, (seat, action) in sorted(rows.items()):
            if seat != s.seat or seq in acked_rows:
                continue
            match = next(
                (
                    msg_id
                    for msg_id in sorted(unused)
                    if s.sent[msg_id][1] == action and s.sent[msg_id][0] < seq
                ),
                None,
            )
            if match is not None:
                unused.discard(match)
            elif action == {"kind": "answer", "accept": False}:
                auto_declines += 1
            else:
                unsent += 1
    return {
        "acknowledged": acked,
        "lost": lost,
        "applied_twice": unsent,
        "trade_timeouts": auto_declines,
    }


def replays_match(db: Path, seats: list[Seat]) -> tuple[int, int]:
    """(finished games whose exported record replays to the score the bots saw, all finished)."""
    from tyros_rules import replay

    ok = total = 0
    for table in sorted({s.table for s in seats}):
        seen = {json.dumps(s.score, sort_keys=True) for s in seats if s.table == table}
        if None in [s.score for s in seats if s.table == table]:
            continue
        total += 1
        out = subprocess.run(
            [sys.executable, "-m", "tyros_server.cli", "export", "--db", str(db), table],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        state = replay(json.loads(out))
        ok += len(seen) == 1 and json.dumps(state.score, sort_keys=True) in seen
    return ok, total


def run(games: int, think_ms: float, seed: int, limit: float) -> dict[str, Any]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "chaos.db"
        server = ServerProcess(db, None, *ONE_ADDRESS_CROWD)
        server.start()
        seats = [Seat(f"chaos-{g}", f"b{i}") for g in range(games) for i in range(4)]
        kills: list[float] = []
        started = time.monotonic()

        async def main() -> None:
            give_up = time.monotonic() + limit
            killing = asyncio.create_task(killer(server, seats, random.Random(rng.random()), kills))
            # Seats join in order, so that each table's seat numbers follow the list.
            players = []
            for s in seats:
                players.append(
                    asyncio.create_task(
                        play_seat(
                            server.url, s, random.Random(rng.random()), think_ms / 1000, give_up
                        )
                    )
                )
                await asyncio.sleep(0.01)
            await asyncio.gather(*players)
            killing.cancel()

        try:
            asyncio.run(main())
        finally:
            server.stop()
        elapsed = time.monotonic() - started
        finished_tables = {s.table for s in seats if s.score is not None}
        complete = [
            t for t in finished_tables if all(s.score is not None for s in seats if s.table == t)
        ]
        result = check(db, seats)
        same, total = replays_match(db, seats)
    return {
        "games": games,
        "games_completed": len(complete),
        "kills": len(kills),
        "kills_per_game_min": min(
            (
                sum(1 for k in kills if k < max(s.finished_at or 0 for s in seats if s.table == t))
                for t in complete
            ),
            default=0,
        ),
        "seconds": round(elapsed, 1),
        **result,
        "replays_identical": same,
        "replays_checked": total,
    }


def overwrite(path: Path, offset: int, size: int, seed: int) -> None:
    with path.open("r+b") as file:
        file.seek(offset)
        file.write(random.Random(seed).randbytes(size))


def server_log(server: ServerProcess) -> str:
    """What the stopped server wrote to its standard error."""
    stream = server.proc.stderr if server.proc is not None else None
    return stream.read().decode(errors="replace") if stream is not None else ""


def run_damage(
    games: int, think_ms: float, seed: int, before: float, after: float
) -> dict[str, Any]:
    """The WAL cut and pages overwritten under a running server (module docs)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "damage.db"
        server = ServerProcess(db, None, *ONE_ADDRESS_CROWD)
        server.start()
        seats = [Seat(f"damage-{g}", f"b{i}") for g in range(games) for i in range(4)]
        cut_at: list[float] = []

        async def main() -> None:
            stop_at = time.monotonic() + before + after
            players = []
            for s in seats:
                players.append(
                    asyncio.create_task(
                        play_seat(
                            server.url, s, random.Random(rng.random()), think_ms / 1000, stop_at
                        )
                    )
                )
                await asyncio.sleep(0.01)
            await asyncio.sleep(before)
            wal = Path(f"{db}-wal")
            sizes = (wal.stat().st_size, db.stat().st_size)
            os.truncate(wal, 100)
            cut_at.append(time.monotonic())
            print(f"cut the WAL ({sizes[0]} bytes, database {sizes[1]}) to 100 bytes")
            await asyncio.sleep(after)
            overwrite(db, 4096, 8192, seed)
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)

        try:
            asyncio.run(main())
            server.stop()
            errors = server_log(server)
            server.start()  # the repair at start, if the file is damaged
            server.stop()
            errors += server_log(server)
        finally:
            server.stop()
        result = check(db, seats)
        refusals = sorted(when for s in seats for when, _ in s.refused)
        words = sorted({text for s in seats for _, text in s.refused})
    said = ("refused from now on", "is damaged", "restored", "table ")
    lines = [line for line in errors.splitlines() if any(word in line for word in said)]
    return {
        "games": games,
        "acknowledged": result["acknowledged"],
        "recovered": result["acknowledged"] - result["lost"],
        "lost": result["lost"],
        "refused_after_cut": len(refusals),
        "first_refusal_after_cut_s": (
            round(refusals[0] - cut_at[0], 2) if refusals and cut_at else None
        ),
        "refusal_words": words[:1],
        "server_said": [line[:240] for line in lines[:8]],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--think-ms", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=float, default=900.0, help="give up after (s)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--damage", action="store_true", help="cut the WAL instead of killing")
    parser.add_argument("--before", type=float, default=8.0, help="--damage: play first (s)")
    parser.add_argument("--after", type=float, default=8.0, help="--damage: play on (s)")
    args = parser.parse_args(argv)
    if args.damage:
        damage = run_damage(args.games, args.think_ms, args.seed, args.before, args.after)
        if args.json:
            print(json.dumps(damage, indent=1))
        else:
            for key, value in damage.items():
                print(f"{key:>26}: {value}")
        return 0 if damage["lost"] == 0 else 1
    result = run(args.games, args.think_ms, args.seed, args.limit)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for key, value in result.items():
            print(f"{key:>22}: {value}")
    ok = (
        result["games_completed"] == args.games
        and result["lost"] == 0
        and result["applied_twice"] == 0
        and result["replays_identical"] == args.games
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
