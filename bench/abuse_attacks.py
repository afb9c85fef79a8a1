"""The attacks of bench/abuse.py, each run in the attacker process (``attacker_main``): what
it is told (:class:`AttackPlan`, plain data) and what each attack does and counts."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import itertools
import json
import os
import resource
import select
import socket
import sys
import termios
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _common import (
    Counters,
    percentile,
    raise_open_files_limit,
    summary_ms,
)
from abuse_lan import LAN_ATTACKS
from raw_websocket import (
    HOST,
    OP_BINARY,
    OP_TEXT,
    STEP_TIMEOUT,
    HandshakeRefused,
    RawWebSocket,
    client_frame,
    describe,
    reply_kind,
    text_frame,
    upgrade_request,
)
from tyros_client.session import Join, hello_message, list_tables_message


@dataclass(frozen=True, slots=True)
class AttackPlan:
    """What the attacker process is to do (sent to it, so plain data)."""

    attack: str
    port: int
    seconds: float
    addresses: tuple[str, ...]
    """Source addresses the attacker connects from (round-robin)."""
    create_workers: int = 50
    """create-flood: connections creating tables at once."""
    list_receive_buffer: int = 4096
    """list-flood: SO_RCVBUF of the socket that never reads."""
    list_extra_tables: int = 0
    """list-flood: idle tables created first (each reply lists them all)."""
    spectators: int = 1000
    half_open: int = 1000
    flood_connections: int = 50
    """message-flood: connections, all from the first address."""
    handshakes_at_once: int = 100
    """spectators, half-open: connects in flight at once (the ramp)."""
    nice: int = 10
    """The attacker process's niceness: it floods with the CPU the server and bots leave."""
    record_games: int = 30
    """record-flood: finished games in the database before the server starts."""
    record_connections: int = 100
    """record-flood: connections asking, all from the first address."""


# The attacks (in the attacker process) --------------------------------------------------


async def create_idle_tables(plan: AttackPlan, count: int, prefix: str, tally: Counters) -> None:
    """``count`` tables of one seated player who leaves: they never start."""
    names = iter(range(count))

    async def worker(index: int) -> None:
        address = plan.addresses[index % len(plan.addresses)]
        for n in names:
            try:
                ws = await RawWebSocket.open(plan.port, address)
                await ws.send(
                    text_frame(hello_message(Join(table=f"{prefix}-{n}", name="idle"), 1))
                )
                reply = await ws.first_text(STEP_TIMEOUT)
                tally["created" if reply and reply_kind(reply) == "welcome" else "refused"] += 1
                await ws.close()
            except (OSError, TimeoutError, HandshakeRefused, asyncio.IncompleteReadError):
                tally["failed"] += 1

    await asyncio.gather(*(worker(i) for i in range(min(count, plan.create_workers))))


async def create_flood(plan: AttackPlan, started: Callable[[], None]) -> dict[str, Any]:
    tally: Counters = Counter()
    answer_times: list[float] = []
    start = time.monotonic()
    deadline = start + plan.seconds
    started()

    async def worker(index: int) -> None:
        address = plan.addresses[index % len(plan.addresses)]
        for n in itertools.count():
            if time.monotonic() >= deadline:
                return
            ws: RawWebSocket | None = None
            try:
                ws = await RawWebSocket.open(plan.port, address)
                hello = hello_message(Join(table=f"flood-{index}-{n}", name="flooder"), 1)
                sent = time.monotonic()
                await ws.send(text_frame(hello))
                reply = await ws.first_text(STEP_TIMEOUT)
                answer_times.append(time.monotonic() - sent)
                if reply is None:
                    tally[f"closed before answering ({ws.close_code})"] += 1
                else:
                    tally[reply_kind(reply)] += 1
            except (OSError, TimeoutError, HandshakeRefused, asyncio.IncompleteReadError) as exc:
                tally[f"failed: {describe(exc)}"] += 1
                await asyncio.sleep(0.05)
            finally:
                if ws is not None:
                    await ws.close()

    await asyncio.gather(*(worker(i) for i in range(plan.create_workers)))
    created = tally.pop("welcome", 0)
    return {
        "tables_created": created,
        "created_per_second": round(created / max(0.001, time.monotonic() - start), 1),
        "hello_answer_ms": summary_ms(answer_times),
        "outcomes": dict(tally),
    }


def list_flood_blocking(plan: AttackPlan, started: Callable[[], None]) -> dict[str, Any]:
    """A plain blocking socket: nothing reads it, not even a library's background task."""
    listing = text_frame(list_tables_message(1))
    batch = listing * 64
    frames_sent = cuts = 0
    cut_after: list[float] = []
    unread_at_end: list[int] = []
    failures: Counters = Counter()
    deadline = time.monotonic() + plan.seconds
    started()
    while time.monotonic() < deadline:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, plan.list_receive_buffer)
        try:
            sock.bind((plan.addresses[0], 0))
            sock.settimeout(STEP_TIMEOUT)
            sock.connect((HOST, plan.port))
            sock.sendall(upgrade_request(plan.port))
            head = b""
            while b"\r\n\r\n" not in head:  # the handshake is the last thing ever read
                chunk = sock.recv(1)
                if not chunk:
                    raise HandshakeRefused("closed")
                head += chunk
            if not head.startswith(b"HTTP/1.1 101"):
                raise HandshakeRefused(head.split(b"\r\n", 1)[0].decode(errors="replace"))
        except (OSError, HandshakeRefused) as exc:
            failures[describe(exc)] += 1
            sock.close()
            time.sleep(0.2)
            continue
        sock.setblocking(False)
        poller = select.poll()
        poller.register(sock, select.POLLOUT | select.POLLRDHUP | select.POLLERR)
        opened = time.monotonic()
        pending = memoryview(b"")
        cut = False
        while time.monotonic() < deadline:
            events = 0
            for _, mask in poller.poll(100):
                events |= mask
            if events & (select.POLLRDHUP | select.POLLHUP | select.POLLERR):
                cut = True
                break
            if not events & select.POLLOUT:
                continue
            if not pending:
                pending = memoryview(batch)
            try:
                written = sock.send(pending)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError:
                cut = True
                break
            before = len(batch) - len(pending)
            after = before + written
            frames_sent += after // len(listing) - before // len(listing)
            pending = pending[written:]
        unread = bytearray(4)
        with contextlib.suppress(OSError):
            fcntl.ioctl(sock, termios.FIONREAD, unread)
            unread_at_end.append(int.from_bytes(unread, sys.byteorder))
        if cut:
            cuts += 1
            cut_after.append(time.monotonic() - opened)
        sock.close()
    return {
        "list_tables_sent": frames_sent,
        "connections_cut_by_server": cuts,
        "seconds_until_cut": [round(s, 2) for s in cut_after[:10]],
        "unread_bytes_in_our_buffer": unread_at_end[:10],
        "failures": dict(failures),
    }


async def list_flood(plan: AttackPlan, started: Callable[[], None]) -> dict[str, Any]:
    setup: Counters = Counter()
    if plan.list_extra_tables:
        await create_idle_tables(plan, plan.list_extra_tables, "listed", setup)
    result = await asyncio.to_thread(list_flood_blocking, plan, started)
    return {**result, "extra_tables": dict(setup)} if setup else result


class RunningTables:
    """The started, unfinished tables, from a ``list_tables`` now and then."""

    def __init__(self, plan: AttackPlan) -> None:
        self.plan = plan
        self.names: list[str] = []
        self.fetched_at = 0.0
        self._lock = asyncio.Lock()

    async def pick(self, index: int) -> str | None:
        async with self._lock:
            if time.monotonic() - self.fetched_at > 1.0:
                self.fetched_at = time.monotonic()
                with contextlib.suppress(Exception):
                    self.names = await self._fetch()
        return self.names[index % len(self.names)] if self.names else None

    async def _fetch(self) -> list[str]:
        ws = await RawWebSocket.open(self.plan.port, self.plan.addresses[0])
        try:
            await ws.send(text_frame(list_tables_message(1)))
            reply = await ws.first_text(STEP_TIMEOUT)
        finally:
            await ws.close()
        tables = json.loads(reply or b"{}").get("tables", [])
        return [t["name"] for t in tables if t["started"] and not t["finished"]]


async def spectators(plan: AttackPlan, started: Callable[[], None]) -> dict[str, Any]:
    tally: Counters = Counter()
    running = RunningTables(plan)
    handshakes = asyncio.Semaphore(plan.handshakes_at_once)
    watching = 0
    most_watching = 0
    most_watching_after = 0.0
    all_in_after: float | None = None
    frames = frames_bytes = 0
    start = time.monotonic()
    deadline = start + plan.seconds
    started()

    async def watcher(index: int) -> None:
        nonlocal watching, most_watching, most_watching_after, all_in_after
        nonlocal frames, frames_bytes
        address = plan.addresses[index % len(plan.addresses)]
        while time.monotonic() < deadline:
            table = await running.pick(index)
            if time.monotonic() >= deadline:
                return
            if table is None:
                await asyncio.sleep(0.5)
                continue
            ws: RawWebSocket | None = None
            try:
                async with handshakes:
                    ws = await RawWebSocket.open(plan.port, address)
                    hello = hello_message(Join(table=table, name=f"w{index}", spectate=True), 1)
                    await ws.send(text_frame(hello))
                    reply = await ws.first_text(STEP_TIMEOUT)
                kind = reply_kind(reply) if reply else f"closed ({ws.close_code})"
                if time.monotonic() >= deadline:
                    return  # answered after the end: not counted
                if kind != "welcome":
                    tally[f"refused: {kind}"] += 1
                    await asyncio.sleep(1.0)
                    continue
                tally["accepted"] += 1
                watching += 1
                if watching > most_watching:
                    most_watching, most_watching_after = watching, time.monotonic() - start
                if watching >= plan.spectators and all_in_after is None:
                    all_in_after = time.monotonic() - start
                try:
                    over = False
                    while not over and ws.close_code is None:
                        left = deadline - time.monotonic()
                        if left <= 0:
                            return
                        try:
                            got = await ws.frames(left)
                        except TimeoutError:
                            return
                        for opcode, payload in got:
                            if opcode == OP_TEXT:
                                frames += 1
                                frames_bytes += len(payload)
                                over = over or b'"phase":"over"' in payload
                    if ws.close_code is not None:
                        tally[f"closed by the server ({ws.close_code})"] += 1
                    else:
                        tally["game over: watching another"] += 1
                finally:
                    watching -= 1
            except (OSError, TimeoutError, HandshakeRefused, asyncio.IncompleteReadError) as exc:
                tally[f"failed: {describe(exc)}"] += 1
                await asyncio.sleep(1.0)
            finally:
                if ws is not None:
                    await ws.close()

    await asyncio.gather(*(watcher(i) for i in range(plan.spectators)))
    return {
        "spectators_wanted": plan.spectators,
        "most_watching_at_once": most_watching,
        "most_watching_after_s": round(most_watching_after, 1),
        "all_watching_after_s": None if all_in_after is None else round(all_in_after, 1),
        "frames_read": frames,
        "mib_read": round(frames_bytes / 2**20, 1),
        "outcomes": dict(tally),
    }


async def half_open(plan: AttackPlan, started: Callable[[], None]) -> dict[str, Any]:
    tally: Counters = Counter()
    lifetimes: list[float] = []
    connects = asyncio.Semaphore(plan.handshakes_at_once)
    holding = 0
    most_holding = 0
    start = time.monotonic()
    deadline = start + plan.seconds
    started()

    async def holder(index: int) -> None:
        nonlocal holding, most_holding
        address = plan.addresses[index % len(plan.addresses)]
        while time.monotonic() < deadline:
            writer: asyncio.StreamWriter | None = None
            try:
                async with connects:
                    reader, opened_writer = await asyncio.wait_for(
                        asyncio.open_connection(HOST, plan.port, local_addr=(address, 0)),
                        STEP_TIMEOUT,
                    )
                writer = opened_writer
                if index % 2:
                    writer.write(f"GET / HTTP/1.1\r\nHost: {HOST}:{plan.port}\r\n".encode())
                tally["opened"] += 1
                opened = time.monotonic()
                holding += 1
                most_holding = max(most_holding, holding)
                try:
                    while True:
                        left = deadline - time.monotonic()
                        if left <= 0:
                            tally["held to the end"] += 1
                            return
                        try:
                            data = await asyncio.wait_for(reader.read(4096), left)
                        except TimeoutError:
                            tally["held to the end"] += 1
                            return
                        if not data:
                            lifetimes.append(time.monotonic() - opened)
                            tally["closed by the server"] += 1
                            break
                        tally["bytes the server sent"] += len(data)
                finally:
                    holding -= 1
            except (OSError, TimeoutError) as exc:
                tally[f"failed: {describe(exc)}"] += 1
                await asyncio.sleep(0.5)
            finally:
                if writer is not None:
                    writer.transport.abort()

    await asyncio.gather(*(holder(i) for i in range(plan.half_open)))
    return {
        "sockets_wanted": plan.half_open,
        "most_open_at_once": most_holding,
        "seconds_until_the_server_closed": {
            "p50": round(percentile(lifetimes, 50), 1) if lifetimes else None,
            "max": round(max(lifetimes), 1) if lifetimes else None,
        },
        "outcomes": dict(tally),
    }


FLOOD_FRAMES = [
    text_frame(list_tables_message(1)),
    client_frame(b'{"type": "list_tables", "id": 1'),  # bad JSON
    client_frame(b'{"type":"nonsense","id":2}'),
    client_frame(b"\x00\xff" * 8, OP_BINARY),
]


async def count_replies(ws: RawWebSocket, replies: Counters) -> None:
    while ws.close_code is None:
        for opcode, payload in await ws.frames(None):
            if opcode == OP_TEXT:
                replies[reply_kind(payload)] += 1


async def message_flood(plan: AttackPlan, started: Callable[[], None]) -> dict[str, Any]:
    tally: Counters = Counter()
    replies: Counters = Counter()
    sent = 0
    batch = b"".join(FLOOD_FRAMES) * 16
    deadline = time.monotonic() + plan.seconds
    started()

    async def flooder(index: int) -> None:
        nonlocal sent
        while time.monotonic() < deadline:
            ws: RawWebSocket | None = None
            try:
                ws = await RawWebSocket.open(plan.port, plan.addresses[0])
                tally["connected"] += 1
            except (OSError, TimeoutError, HandshakeRefused, asyncio.IncompleteReadError) as exc:
                tally[f"failed: {describe(exc)}"] += 1
                await asyncio.sleep(0.5)
                continue
            reading = asyncio.create_task(count_replies(ws, replies))
            try:
                while time.monotonic() < deadline and not reading.done():
                    await asyncio.wait_for(ws.send(batch), max(0.01, deadline - time.monotonic()))
                    sent += len(FLOOD_FRAMES) * 16
            except (OSError, TimeoutError):
                pass
            finally:
                reading.cancel()
                with contextlib.suppress(BaseException):
                    await reading
                if ws.close_code is not None:
                    tally[f"closed by the server ({ws.close_code})"] += 1
                await ws.close()

    await asyncio.gather(*(flooder(i) for i in range(plan.flood_connections)))
    return {
        "connections": plan.flood_connections,
        "messages_written": sent,
        "replies": dict(replies.most_common()),
        "outcomes": dict(tally),
    }


AttackFunction = Callable[[AttackPlan, Callable[[], None]], Coroutine[Any, Any, dict[str, Any]]]
ATTACK_FUNCTIONS: dict[str, AttackFunction] = {
    "create-flood": create_flood,
    "list-flood": list_flood,
    "spectators": spectators,
    "half-open": half_open,
    "message-flood": message_flood,
    **LAN_ATTACKS,  # (bench/abuse_lan.py: attacks on a LAN server's places)
}
ATTACKS = tuple(ATTACK_FUNCTIONS)


def attacker_main(plan: AttackPlan, pipe: Pipe) -> None:
    """The attacker process: run one attack, send ("started", t) then ("result", counters)."""
    raise_open_files_limit()
    if plan.nice:
        os.nice(plan.nice)

    def started() -> None:
        pipe.send(("started", time.monotonic()))

    result = asyncio.run(ATTACK_FUNCTIONS[plan.attack](plan, started))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    result["attacker_cpu_seconds"] = round(usage.ru_utime + usage.ru_stime, 1)
    pipe.send(("result", result))
