"""The load around each attack of bench/abuse.py, in the bench's own process: tables of bots
that play all the time (their round trips measured), the event loop's lag, and normal
clients joining during and after the attack."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).parent))
from _common import (
    Counters,
    session_notices,
    summary_ms,
)
from raw_websocket import HOST, STEP_TIMEOUT
from tyros_client.notices import Accepted, JoinRefused, Refused, Updated
from tyros_client.session import ClientSession, Join, hello_message, list_tables_message
from tyros_protocol.messages import Prompt


@dataclass(frozen=True, slots=True)
class BenchOptions:
    """The background load and the measurement around each attack."""

    tables: int
    think_ms: float
    baseline_seconds: float
    warmup_limit: float
    drain_seconds: float
    probe_interval: float
    server_args: tuple[str, ...]
    seed: int


# The background load (in this process) --------------------------------------------------


@dataclass
class TableRun:
    name: str
    started_at: float | None = None
    finished_at: float | None = None


@dataclass
class LoadStats:
    round_trips: list[tuple[float, float]] = field(default_factory=list)
    """(when sent, seconds to its ``accepted``), on the monotonic clock."""
    unanswered: list[tuple[float, float]] = field(default_factory=list)
    """(when sent, seconds waited in vain): actions never answered on their connection."""
    errors: Counters = field(default_factory=Counter)
    connection_trouble: Counters = field(default_factory=Counter)
    runs: list[TableRun] = field(default_factory=list)

    def round_trips_between(self, start: float, end: float) -> list[float]:
        return [rtt for sent, rtt in self.round_trips if start <= sent < end]

    def timed_round_trips_between(self, start: float, end: float) -> list[tuple[float, float]]:
        return [(sent, rtt) for sent, rtt in self.round_trips if start <= sent < end]

    def unanswered_between(self, start: float, end: float) -> list[float]:
        return [waited for sent, waited in self.unanswered if start <= sent < end]

    def give_up_on(self, sent_at: dict[int, float]) -> None:
        """The connection these actions went out on is gone (or the bench is over)."""
        now = time.monotonic()
        self.unanswered += [(sent, now - sent) for sent in sent_at.values()]
        sent_at.clear()


class BackgroundLoad:
    """``tables`` table loops of 4 random bots; a loop opens a new table when its game ends,
    until :meth:`stop_new_games`."""

    def __init__(self, url: str, options: BenchOptions, prefix: str) -> None:
        self.url = url
        self.options = options
        self.prefix = prefix
        self.stats = LoadStats()
        self.no_new_games = False
        self.tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._table_loop(i)) for i in range(self.options.tables)]

    def stop_new_games(self) -> None:
        self.no_new_games = True

    async def wait_all_started(self, limit: float) -> bool:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            started = sum(run.started_at is not None for run in self.stats.runs)
            if started >= self.options.tables:
                return True
            await asyncio.sleep(0.1)
        return False

    async def drain(self, limit: float) -> None:
        """Wait up to ``limit`` seconds for the games being played, then stop every bot."""
        _, pending = await asyncio.wait(self.tasks, timeout=limit) if self.tasks else ((), ())
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    async def _table_loop(self, index: int) -> None:
        rng = random.Random(self.options.seed * 1000 + index)
        for game in itertools.count():
            if self.no_new_games:
                return
            run = TableRun(f"{self.prefix}-{index}-{game}")
            self.stats.runs.append(run)
            await asyncio.gather(
                *(
                    self._play_seat(run, f"b{seat}", random.Random(rng.random()), index)
                    for seat in range(4)
                )
            )
            if run.finished_at is None:
                return  # every seat gave up: do not pile new tables on a broken server

    async def _play_seat(
        self, run: TableRun, name: str, rng: random.Random, table_index: int
    ) -> None:
        session = ClientSession(Join(table=run.name, name=name, players=4, trade_seconds=5))
        sent_at: dict[int, float] = {}
        session.on_send = lambda msg_id, version, action: sent_at.update({msg_id: time.monotonic()})
        try:
            # Each table's players at their own machine (127.0.1.N), as at a club: the
            # server's bounds per address are the attackers' to meet, not theirs.
            address = f"127.0.1.{table_index % 250 + 1}"
            await self._play_seat_until_over(run, session, sent_at, rng, address)
        finally:  # over, or stopped by the drain
            self.stats.give_up_on(sent_at)

    async def _play_seat_until_over(
        self,
        run: TableRun,
        session: ClientSession,
        sent_at: dict[int, float],
        rng: random.Random,
        address: str,
    ) -> None:
        stats, think = self.stats, self.options.think_ms / 1000
        answered = -1  # the id of the newest prompt acted on: each decision is made once

        async def decide(ws: ClientConnection, prompt: Prompt) -> None:
            """Think (while the messages keep being read), then act if still asked."""
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            current = session.prompt
            if current is None or current.id != prompt.id:
                return  # decided without us (a trade ended, time ran out)
            session.send_action(rng.choice(current.legal).wire())
            with contextlib.suppress(ConnectionClosed):
                for frame in session.frames_to_send():
                    await ws.send(frame)

        while session.fatal is None and run.finished_at is None:
            code: int | None = None
            thinking: asyncio.Task[None] | None = None
            try:
                async with connect(
                    self.url,
                    max_size=2**23,
                    compression=None,
                    open_timeout=10,
                    local_addr=(address, 0),
                ) as ws:
                    answered = -1  # a reconnected seat decides afresh
                    async for notice in session_notices(ws, session):
                        if isinstance(notice, Accepted):
                            sent = sent_at.pop(notice.accepted.re or -1, None)
                            if sent is not None:
                                stats.round_trips.append((sent, time.monotonic() - sent))
                        elif isinstance(notice, Refused | JoinRefused):
                            code = notice.code.value
                            stats.errors[code] += 1
                            re = notice.error.re
                            if re is None and code == "rate_limited" and sent_at:
                                re = max(sent_at)  # refused unread: the newest (sent again)
                            sent_at.pop(-1 if re is None else re, None)
                        elif isinstance(notice, Updated):
                            if run.started_at is None:
                                run.started_at = time.monotonic()
                            if notice.view.phase == "over":
                                run.finished_at = run.finished_at or time.monotonic()
                                sent_at.clear()  # overtaken by the last move: no answer due
                                return
                            prompt = notice.prompt
                            if prompt is not None and prompt.id > answered:
                                answered = prompt.id
                                thinking = asyncio.create_task(decide(ws, prompt))
                        if session.close_requested:
                            break
                    code = ws.close_code
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
                stats.connection_trouble[type(exc).__name__] += 1
            finally:
                if thinking is not None:
                    thinking.cancel()
            stats.give_up_on(sent_at)
            session.connection_lost(code)
            delay = session.reconnect_delay()
            if delay is None:
                stats.connection_trouble[f"gave up: {session.fatal}"] += 1
                return
            await asyncio.sleep(delay)


async def loop_lag(samples: list[tuple[float, float]], stop: asyncio.Event) -> None:
    """How late this process's event loop wakes a 50 ms sleep: the bench's own delay."""
    while not stop.is_set():
        before = time.monotonic()
        await asyncio.sleep(0.05)
        after = time.monotonic()
        samples.append((before, after - before - 0.05))


# Normal clients during and after the attack ----------------------------------------------


@dataclass
class ProbeStats:
    attempts: int = 0
    joined: int = 0
    connect_times: list[float] = field(default_factory=list)
    welcome_times: list[float] = field(default_factory=list)
    failures: Counters = field(default_factory=Counter)

    def report(self) -> dict[str, Any]:
        return {
            "attempts": self.attempts,
            "joined": self.joined,
            "connect_ms": summary_ms(self.connect_times),
            "welcome_ms": summary_ms(self.welcome_times),
            "failures": dict(self.failures),
        }


async def join_once(url: str, table: str, stats: ProbeStats, address: str = HOST) -> None:
    """Connect from ``address`` and join a new table, as a person would; time both steps."""
    stats.attempts += 1
    began = time.monotonic()
    try:
        async with connect(
            url, compression=None, open_timeout=STEP_TIMEOUT, local_addr=(address, 0)
        ) as ws:
            connected = time.monotonic()
            stats.connect_times.append(connected - began)
            await ws.send(json.dumps(hello_message(Join(table=table, name="probe"), 1)))
            while True:
                reply = json.loads(await asyncio.wait_for(ws.recv(), STEP_TIMEOUT))
                if reply.get("type") == "welcome":
                    stats.joined += 1
                    stats.welcome_times.append(time.monotonic() - connected)
                    return
                if reply.get("type") == "error":
                    stats.failures[f"error:{reply.get('code')}"] += 1
                    return
    except ConnectionClosed as exc:  # refused before our hello went out, say
        stats.failures[f"closed ({exc.rcvd.code if exc.rcvd else None})"] += 1
    except (OSError, InvalidHandshake, TimeoutError) as exc:
        stats.failures[type(exc).__name__] += 1


async def probe_joins(url: str, prefix: str, interval: float, stop: asyncio.Event) -> ProbeStats:
    stats = ProbeStats()
    for n in itertools.count():
        # Each newcomer from a machine of their own (127.0.2.N): people, not one host.
        await join_once(url, f"{prefix}-probe-{n}", stats, f"127.0.2.{n % 250 + 1}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), interval)
        if stop.is_set():
            return stats
    return stats


async def health_check(url: str, prefix: str) -> dict[str, Any]:
    """After the attack: the table list (its size: a client's default frame limit is 1 MiB)
    and one join."""
    result: dict[str, Any] = {}
    began = time.monotonic()
    try:
        async with connect(url, compression=None, open_timeout=10, max_size=None) as ws:
            await ws.send(json.dumps(list_tables_message(1)))
            while True:
                frame = await asyncio.wait_for(ws.recv(), 10)
                reply = json.loads(frame)
                if reply.get("type") == "tables":
                    result["list_tables_ms"] = round((time.monotonic() - began) * 1000, 1)
                    result["tables_listed"] = len(reply["tables"])
                    result["list_reply_kib"] = round(len(frame) / 1024, 1)
                    break
    except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
        result["list_tables_failed"] = type(exc).__name__
    join = ProbeStats()
    await join_once(url, f"{prefix}-after", join)
    result["join_after"] = "ok" if join.joined else (next(iter(join.failures), "?"))
    return result
