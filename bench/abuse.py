"""Abuse: hostile clients against a server that hosts 10 games of bots.

Each attack gets a fresh ``tyros-server`` subprocess (a fresh database, so every peak is
that attack's). The server hosts ``--tables`` tables of 4 random bots that play all the
time (in this process, each through a ``ClientSession``, each table from its own address
127.0.1.N, as at a club): when a game ends its table loop opens a new table. Once every
table has started, the bots' round trip is measured for ``--baseline-seconds``; then an
attacker process runs one attack for ``--seconds`` (each attack also has its own
``--<attack>-seconds``):

  create-flood   ``--create-workers`` connections in a loop: connect, ``hello`` with a new
                 table name, wait for the answer, close (as fast as the server answers)
  list-flood     one websocket with a 4 KiB receive buffer that sends ``list_tables`` as
                 fast as it can and never reads a byte after the handshake; when the server
                 cuts it, it connects again (``--list-extra-tables N`` first creates N idle
                 tables, so that each reply is larger)
  spectators     ``--spectators`` connections watching the running tables, reading every
                 frame; one that sees its game end (or is refused) watches another
  half-open      ``--half-open`` TCP sockets that connect and send nothing (half of them)
                 or half an HTTP request, and hold; one the server closes is opened again
  message-flood  ``--flood-connections`` websockets from one address, each sending
                 ``list_tables``, bad JSON, unknown messages and binary frames as fast as the
                 server takes them, while reading every reply

The attackers connect from ``--addresses`` (127.0.0.2-5 by default: loopback takes all of
127/8), spread round-robin (list-flood and message-flood use the first one only). While an
attack runs, a probe (a normal client, from 127.0.2.N) connects and joins a new table every
``--probe-interval`` s. After it, a health check asks for the table list and joins a table;
then no new games start and the bench waits up to ``--drain-seconds`` for every started
game to end.

Reported per attack: the server's peak resident memory (``VmRSS`` sampled every 50 ms;
``VmHWM`` at the end as a cross-check), the bots' action round trip (an ``action`` sent to
its ``accepted``: p50, p99, max, only for actions sent during the attack; the baseline's
p50/p99 beside it), games started / finished / stalled, whether the server process died,
its CPU use during the attack, the probe's joins and connect times, the health check, and
the attack's own counters. Goals (issue 12): peak under 200 MiB, p99 under 100 ms, every
started game finished, no crash. The exit status is 1 if an attack missed one.

    python bench/abuse.py                                  # every attack, 20 s each
    python bench/abuse.py --attack spectators --attack half-open --json
    python bench/abuse.py --attack list-flood --list-extra-tables 2000
    python bench/abuse.py --server-arg=--max-connections=2048     # options for the server

CPU: the server, the bots and the attacker share the machine (2 cores on the project's).
The bots think 25-75 ms (``--think-ms``), so 10 tables cost this process a fraction of a
core; the attacker runs in its own process at ``--attacker-nice`` (10), speaks raw
websocket frames (no client library, never a JSON parse of what it only counts) and so
floods with what CPU the server and the bots leave. A flood's rate is therefore bounded by
this machine, not only by the server: compare attacks on one machine. Each attack reports
the CPU the server, the bots, the attacker and everything else used meanwhile (a machine
busy with other work slows every figure), and the bench's own event-loop lag (a round trip
is only as good as it). Only the attacker raises its open-files limit (to the hard
limit); the server keeps the limit it inherits.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import dataclasses
import fcntl
import itertools
import json
import multiprocessing
import os
import random
import re
import resource
import select
import socket
import struct
import sys
import tempfile
import termios
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from multiprocessing.connection import Connection as Pipe
from pathlib import Path
from typing import IO, Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).parent))
from _common import (
    RssSampler,
    ServerProcess,
    cpu_note,
    machine_busy_seconds,
    percentile,
    process_cpu_seconds,
    process_status_kib,
    raise_open_files_limit,
    session_notices,
)
from abuse_lan import LAN_ATTACKS, finished_games
from tyros_client.notices import Accepted, JoinRefused, Refused, Updated
from tyros_client.session import ClientSession, Join, hello_message, list_tables_message
from tyros_protocol.messages import Prompt

GOAL_PEAK_MIB = 200.0
GOAL_P99_MS = 100.0
HOST = "127.0.0.1"
STEP_TIMEOUT = 5.0
"""Seconds any one connect, handshake or answer may take before it counts as failed."""


# Settings ---------------------------------------------------------------------------------


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


# Raw websocket frames (the attacker's side: cheap, and it reads only when it means to) ---


OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0x1, 0x2, 0x8, 0x9, 0xA


def client_frame(payload: bytes, opcode: int = OP_TEXT) -> bytes:
    """One final client frame, masked (with a zero key: the payload goes as it is)."""
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
    return header + b"\0\0\0\0" + payload


def text_frame(message: dict[str, Any]) -> bytes:
    return client_frame(json.dumps(message, separators=(",", ":")).encode())


CLOSE_FRAME = client_frame(struct.pack("!H", 1000), OP_CLOSE)


def upgrade_request(port: int) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET / HTTP/1.1\r\nHost: {HOST}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


class HandshakeRefused(Exception):
    """The server answered the upgrade request with something else than 101."""


class FrameParser:
    """Splits what a server sends (unmasked frames) into (opcode, payload)."""

    def __init__(self) -> None:
        self.buffer = bytearray()

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        self.buffer += data
        frames = []
        at, buffer = 0, self.buffer
        while len(buffer) - at >= 2:
            opcode, size = buffer[at] & 0x0F, buffer[at + 1] & 0x7F
            head = 2
            if size == 126:
                if len(buffer) - at < 4:
                    break
                size, head = struct.unpack_from("!H", buffer, at + 2)[0], 4
            elif size == 127:
                if len(buffer) - at < 10:
                    break
                size, head = struct.unpack_from("!Q", buffer, at + 2)[0], 10
            if len(buffer) - at < head + size:
                break
            frames.append((opcode, bytes(buffer[at + head : at + head + size])))
            at += head + size
        del buffer[:at]
        return frames


def close_code(payload: bytes) -> int:
    return int(struct.unpack("!H", payload[:2])[0]) if len(payload) >= 2 else 1005


class RawWebSocket:
    """A websocket client in a few lines: asyncio streams, the frames above, pongs."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.parser = FrameParser()
        self.close_code: int | None = None

    @classmethod
    async def open(cls, port: int, local_address: str) -> RawWebSocket:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(HOST, port, local_addr=(local_address, 0)), STEP_TIMEOUT
        )
        ws = cls(reader, writer)
        try:
            writer.write(upgrade_request(port))
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), STEP_TIMEOUT)
        except BaseException:
            ws.abort()
            raise
        if not head.startswith(b"HTTP/1.1 101"):
            ws.abort()
            raise HandshakeRefused(head.split(b"\r\n", 1)[0].decode(errors="replace"))
        return ws

    async def send(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    async def frames(self, timeout: float | None) -> list[tuple[int, bytes]]:
        """The frames that one read brings (answering pings); [] with close_code set once
        the server has closed (a close frame, or the end of the stream)."""
        data = await asyncio.wait_for(self.reader.read(1 << 18), timeout)
        if not data:
            self.close_code = self.close_code or 1006
            return []
        frames = self.parser.feed(data)
        for opcode, payload in frames:
            if opcode == OP_PING:
                self.writer.write(client_frame(payload, OP_PONG))
            elif opcode == OP_CLOSE:
                self.close_code = close_code(payload)
        return frames

    async def first_text(self, timeout: float) -> bytes | None:
        """The next text frame (None if the server closed first)."""
        deadline = time.monotonic() + timeout
        while self.close_code is None:
            for opcode, payload in await self.frames(max(0.0, deadline - time.monotonic())):
                if opcode == OP_TEXT:
                    return payload
        return None

    def abort(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.transport.abort()

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.write(CLOSE_FRAME)
        self.abort()


CODE_PATTERN = re.compile(rb'"code":\s*"([a-z_]+)"')
TYPE_PATTERN = re.compile(rb'"type":\s*"([a-z_]+)"')


def reply_kind(payload: bytes) -> str:
    """``welcome``, ``tables``, ``error:CODE``...: what a server message is, without parsing it."""
    kind = TYPE_PATTERN.search(payload)
    name = kind.group(1).decode() if kind else "?"
    if name == "error":
        code = CODE_PATTERN.search(payload)
        return f"error:{code.group(1).decode() if code else '?'}"
    return name


def describe(exc: BaseException) -> str:
    if isinstance(exc, HandshakeRefused):
        return f"handshake refused ({exc})"
    if isinstance(exc, asyncio.IncompleteReadError):
        return "closed during handshake"
    return type(exc).__name__


def summary_ms(values: list[float]) -> dict[str, float | None]:
    ms = [v * 1000 for v in values]
    if not ms:
        return {"p50": None, "p99": None, "max": None}
    return {
        "p50": round(percentile(ms, 50), 1),
        "p99": round(percentile(ms, 99), 1),
        "max": round(max(ms), 1),
    }


# The attacks (in the attacker process) --------------------------------------------------


Counters = Counter[str]


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


# One attack, start to end -----------------------------------------------------------------


class StderrTail:
    """Drains the server's stderr (a full pipe would stall it), keeping the last lines."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.lines: deque[str] = deque(maxlen=12)
        self.count = 0
        self.tracebacks = 0
        self._thread = threading.Thread(target=self._run, args=(stream,), daemon=True)
        self._thread.start()

    def _run(self, stream: IO[bytes]) -> None:
        for raw in stream:
            line = raw.decode(errors="replace").rstrip()
            self.count += 1
            self.tracebacks += line.startswith("Traceback")
            self.lines.append(line[:300])

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)


class Attacker:
    """The attacker process, seen from here."""

    def __init__(self, plan: AttackPlan) -> None:
        context = multiprocessing.get_context("spawn")
        self.pipe, child_end = context.Pipe(duplex=False)
        self.process = context.Process(target=attacker_main, args=(plan, child_end), daemon=True)
        self.process.start()
        child_end.close()

    async def message(self, timeout: float) -> tuple[str, Any] | None:
        ready = await asyncio.to_thread(self.pipe.poll, max(0.0, timeout))
        if not ready:
            return None
        try:
            kind, value = self.pipe.recv()
        except (EOFError, OSError):
            return None
        return str(kind), value

    def end(self) -> bool:
        """Make sure it is gone; True if it had to be killed."""
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)
            return True
        return False


Reading = tuple[float | None, float | None]


def cpu_shares(
    seconds: float, *, server: Reading, bots: Reading, machine: Reading, attacker: float
) -> dict[str, int | None]:
    """Percent of one core each used over ``seconds``: the server, this process (the bots),
    the attacker, and the rest of the machine's busy time (other processes, and kernel
    work no process is charged for, such as some loopback traffic; approximate, as the
    attacker's figure includes its start-up). A busy machine slows every figure here."""

    def share(reading: Reading) -> float | None:
        before, after = reading
        return None if before is None or after is None else (after - before) / seconds

    shares = {"server": share(server), "bots": share(bots), "attacker": attacker / seconds}
    total = share(machine)
    known = [v for v in shares.values() if v is not None]
    shares["others"] = None if total is None else max(0.0, total - sum(known))
    return {who: None if v is None else round(100 * v) for who, v in shares.items()}


async def exercise(
    plan: AttackPlan, options: BenchOptions, server: ServerProcess, pid: int
) -> dict[str, Any]:
    """Bots, baseline, the attack with its probe, the health check, the drain."""
    prefix = plan.attack.replace("-", "")
    load = BackgroundLoad(server.url, options, f"bg{prefix}")
    lag: list[tuple[float, float]] = []
    lag_stop = asyncio.Event()
    lagging = asyncio.create_task(loop_lag(lag, lag_stop))
    load.start()
    all_started = await load.wait_all_started(options.warmup_limit)
    baseline_start = time.monotonic()
    await asyncio.sleep(options.baseline_seconds)
    baseline_end = time.monotonic()

    attacker = Attacker(plan)
    first = await attacker.message(60.0)
    attack_start = float(first[1]) if first and first[0] == "started" else time.monotonic()
    cpu_before = process_cpu_seconds(pid)
    own_before = process_cpu_seconds(os.getpid())
    machine_before = machine_busy_seconds()
    probe_stop = asyncio.Event()
    probing = asyncio.create_task(
        probe_joins(server.url, prefix, options.probe_interval, probe_stop)
    )
    attack: dict[str, Any] = {}
    if first is None or first[0] != "started":
        attack = {"attacker failed": "it never started"}
    else:
        # A bound on the attacker itself: its attack, the slowest last step, a margin.
        reply = await attacker.message(plan.seconds + 2 * STEP_TIMEOUT + 20)
        attack = reply[1] if reply and reply[0] == "result" else {"attacker failed": "no result"}
    attack_end = time.monotonic()
    cpu_after = process_cpu_seconds(pid)
    own_after = process_cpu_seconds(os.getpid())
    machine_after = machine_busy_seconds()
    probe_stop.set()
    probe = await probing
    if await asyncio.to_thread(attacker.end):
        attack["attacker killed"] = True

    crashed_during_attack = server.proc is not None and server.proc.poll() is not None
    health = (
        await health_check(server.url, prefix)
        if not crashed_during_attack
        else {"skipped": "the server is gone"}
    )
    load.stop_new_games()
    await load.drain(options.drain_seconds)
    lag_stop.set()
    await lagging

    runs = load.stats.runs
    started = [r for r in runs if r.started_at is not None]
    finished = [r for r in started if r.finished_at is not None]
    attack_lag = [value for at, value in lag if attack_start <= at < attack_end]
    answered = load.stats.round_trips_between(attack_start, attack_end)
    unanswered = load.stats.unanswered_between(attack_start, attack_end)
    cpu = cpu_shares(
        attack_end - attack_start,
        server=(cpu_before, cpu_after),
        bots=(own_before, own_after),
        machine=(machine_before, machine_after),
        attacker=float(attack.get("attacker_cpu_seconds", 0.0)),
    )
    return {
        "all_tables_started_before_the_attack": all_started,
        "attack_seconds": round(attack_end - attack_start, 1),
        # An action never answered counts with the time it waited: a lower bound.
        "round_trip_ms": summary_ms(answered + unanswered),
        "round_trips": len(answered),
        # When the slowest came (seconds into the attack): a burst, or spread out?
        "slowest_round_trips": [
            {"at_s": round(sent - attack_start, 2), "ms": round(rtt * 1000, 1)}
            for sent, rtt in sorted(
                load.stats.timed_round_trips_between(attack_start, attack_end),
                key=lambda pair: -pair[1],
            )[:10]
        ],
        "actions_never_answered": len(unanswered),
        "baseline_round_trip_ms": summary_ms(
            load.stats.round_trips_between(baseline_start, baseline_end)
        ),
        "games_started": len(started),
        "games_finished": len(finished),
        "games_stalled": len(started) - len(finished),
        "tables_never_started": len(runs) - len(started),
        "bot_errors": dict(load.stats.errors),
        "bot_connection_trouble": dict(load.stats.connection_trouble),
        "bench_loop_lag_ms": summary_ms(attack_lag),
        "cpu_percent_during_attack": cpu,
        "probe_during_attack": probe.report(),
        "after_attack": health,
        "attack_counters": attack,
        "crashed_during_attack": crashed_during_attack,
    }


def run_attack(plan: AttackPlan, options: BenchOptions) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "abuse.db"
        if plan.attack == "record-flood":
            finished_games(db, plan.record_games, options.seed)
        server = ServerProcess(db, None, *options.server_args)
        server.start()
        plan = dataclasses.replace(plan, port=server.port)
        assert server.proc is not None and server.proc.stderr is not None
        pid = server.proc.pid
        open_files = process_open_files_limit(pid)
        stderr = StderrTail(server.proc.stderr)
        sampler = RssSampler(pid).start()
        started = time.monotonic()
        try:
            outcome = asyncio.run(exercise(plan, options, server, pid))
            exit_code = server.proc.poll()
            high_water = process_status_kib(pid, "VmHWM")
        finally:
            sampler.stop()
            server.stop()
            stderr.join(2)
    return {
        "attack": plan.attack,
        "peak_rss_mib": round(sampler.peak_kib / 1024, 1),
        "vm_hwm_mib": round(high_water / 1024, 1) if high_water else None,
        "rss_at_end_mib": round(sampler.last_kib / 1024, 1),
        "server_crashed": exit_code is not None,
        "server_exit_code": exit_code,
        "server_open_files_limit": open_files,
        "server_stderr_lines": stderr.count,
        "server_tracebacks": stderr.tracebacks,
        "server_stderr_tail": list(stderr.lines),
        **outcome,
        "seconds_in_all": round(time.monotonic() - started, 1),
    }


def process_open_files_limit(pid: int) -> str | None:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return "/".join(line.split()[3:5])
    return None


# Output -------------------------------------------------------------------------------


def goals_missed(result: dict[str, Any]) -> list[str]:
    missed = []
    if result["peak_rss_mib"] >= GOAL_PEAK_MIB:
        missed.append(f"peak {result['peak_rss_mib']} MiB >= {GOAL_PEAK_MIB:g}")
    p99 = result["round_trip_ms"]["p99"]
    if p99 is None or p99 >= GOAL_P99_MS:
        missed.append(f"p99 {p99} ms >= {GOAL_P99_MS:g}" if p99 is not None else "no round trips")
    if result["games_stalled"] or result["tables_never_started"]:
        missed.append(
            f"{result['games_stalled']} games stalled, "
            f"{result['tables_never_started']} tables never started"
        )
    if result["server_crashed"]:
        missed.append(f"the server died (exit {result['server_exit_code']})")
    return missed


def print_table(results: list[dict[str, Any]], options: BenchOptions) -> None:
    print(
        f"abuse bench ({cpu_note()}; {options.tables} tables of 4 random bots, think "
        f"{options.think_ms:g} ms; server and attacker on loopback)"
    )
    print(
        f"{'attack':<14} {'peak MiB':>8} {'HWM MiB':>7} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'max ms':>7} {'unanswered':>10} {'base p99':>8} {'games':>7} {'crashed':>7} "
        f"{'after':>6} {'probe joins':>11} {'server/other CPU%':>17}"
    )
    for r in results:
        rtt, probe, after = r["round_trip_ms"], r["probe_during_attack"], r["after_attack"]
        healthy = "tables_listed" in after and after.get("join_after") == "ok"
        print(
            f"{r['attack']:<14} {r['peak_rss_mib']:>8} {r['vm_hwm_mib']!s:>7} "
            f"{rtt['p50']!s:>7} {rtt['p99']!s:>7} {rtt['max']!s:>7} "
            f"{r['actions_never_answered']:>10} {r['baseline_round_trip_ms']['p99']!s:>8} "
            f"{r['games_finished']:>3}/{r['games_started']:<3} "
            f"{'yes' if r['server_crashed'] else 'no':>7} {'ok' if healthy else 'FAILED':>6} "
            f"{probe['joined']:>5}/{probe['attempts']:<5} "
            f"{r['cpu_percent_during_attack']['server']!s:>11}/"
            f"{r['cpu_percent_during_attack']['others']!s:<5}"
        )
    print(
        "(round trip: action sent -> accepted, for actions sent during the attack; one never "
        "answered counts with the time it waited. games: finished/started. after: the table "
        "list and a join once the attack is over. other CPU: the rest of the machine's.)"
    )
    for r in results:
        print(f"\n{r['attack']}: ")
        missed = goals_missed(r)
        print(f"  goals: {'met' if not missed else 'MISSED: ' + '; '.join(missed)}")
        for key in (
            "attack_counters",
            "after_attack",
            "probe_during_attack",
            "cpu_percent_during_attack",
            "bench_loop_lag_ms",
            "round_trips",
            "slowest_round_trips",
            "actions_never_answered",
            "games_stalled",
            "tables_never_started",
            "bot_errors",
            "bot_connection_trouble",
            "server_stderr_lines",
            "server_tracebacks",
            "server_open_files_limit",
            "seconds_in_all",
        ):
            print(f"  {key}: {json.dumps(r[key])}")
        if r["server_stderr_tail"]:
            print("  server stderr (last lines):")
            for line in r["server_stderr_tail"]:
                print(f"    {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--attack", action="append", choices=ATTACKS, help="run only this attack (repeatable)"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="each attack's length")
    for name in ATTACKS:
        parser.add_argument(f"--{name}-seconds", type=float, default=None, metavar="S")
    parser.add_argument("--tables", type=int, default=10, help="tables of bots playing")
    parser.add_argument("--think-ms", type=float, default=50.0)
    parser.add_argument("--baseline-seconds", type=float, default=5.0)
    parser.add_argument(
        "--drain-seconds", type=float, default=60.0, help="wait this long for started games"
    )
    parser.add_argument("--probe-interval", type=float, default=2.0)
    parser.add_argument("--create-workers", type=int, default=50)
    parser.add_argument("--list-receive-buffer", type=int, default=4096, metavar="BYTES")
    parser.add_argument("--list-extra-tables", type=int, default=0, metavar="N")
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--half-open", type=int, default=1000)
    parser.add_argument("--flood-connections", type=int, default=50)
    parser.add_argument("--record-games", type=int, default=30)
    parser.add_argument("--record-connections", type=int, default=100)
    parser.add_argument(
        "--handshakes-at-once", type=int, default=100, help="attacker connects in flight"
    )
    parser.add_argument("--addresses", default="127.0.0.2,127.0.0.3,127.0.0.4,127.0.0.5")
    parser.add_argument("--attacker-nice", type=int, default=10)
    parser.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="passed to tyros-server (repeatable; write --server-arg=--max-connections=64)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    parser.add_argument("--json-out", metavar="FILE", help="also write the JSON to FILE")
    args = parser.parse_args(argv)
    options = BenchOptions(
        tables=args.tables,
        think_ms=args.think_ms,
        baseline_seconds=args.baseline_seconds,
        warmup_limit=20.0,
        drain_seconds=args.drain_seconds,
        probe_interval=args.probe_interval,
        server_args=tuple(args.server_arg),
        seed=args.seed,
    )
    results = []
    for attack in args.attack or ATTACKS:
        seconds = getattr(args, f"{attack.replace('-', '_')}_seconds") or args.seconds
        plan = AttackPlan(
            attack=attack,
            port=0,
            seconds=seconds,
            addresses=tuple(a.strip() for a in args.addresses.split(",") if a.strip()),
            create_workers=args.create_workers,
            list_receive_buffer=args.list_receive_buffer,
            list_extra_tables=args.list_extra_tables,
            spectators=args.spectators,
            half_open=args.half_open,
            flood_connections=args.flood_connections,
            handshakes_at_once=args.handshakes_at_once,
            nice=args.attacker_nice,
            record_games=args.record_games,
            record_connections=args.record_connections,
        )
        if not args.json:
            print(f"running {attack} for {seconds:g} s ...", file=sys.stderr, flush=True)
        results.append(run_attack(plan, options))
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(results, indent=1) + "\n")
    if args.json:
        print(json.dumps(results, indent=1))
    else:
        print_table(results, options)
    return 1 if any(goals_missed(r) for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
