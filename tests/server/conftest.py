"""Fixtures for the end-to-end server tests: a real server on a free loopback port.

Everything here talks to :class:`tyros_server.app.TyrosServer` over real
websockets: no transport is mocked. Databases live in a RAM-backed directory
when there is one (``/dev/shm``): these tests are about the protocol, and one
fsync per action would otherwise dominate their running time. Durability
against a killed process does not need fsync (the page cache survives it).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import socket
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from tyros_client import botclient
from tyros_client.botclient import BotRun, play_bot
from tyros_client.connection import Connection
from tyros_client.notices import JoinRefused, Notice, Refused, Updated
from tyros_client.session import ClientSession, Join, hello_message, resume_message
from tyros_server.app import ServerConfig, TyrosServer
from tyros_server.deputies import TakeoverPolicy
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from .harness import Harness

HOST = "127.0.0.1"
STEP_TIMEOUT = 10.0
"""Seconds any single expected message may take to arrive."""
GAME_TIMEOUT = 90.0
"""Seconds a whole game between bots may take (a bound, never expected to be reached)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def db_dir(tmp_path: Path) -> Iterator[Path]:
    """A directory for databases: in RAM when possible, else ``tmp_path``."""
    try:
        ram = tempfile.TemporaryDirectory(dir="/dev/shm", prefix="tyros-test-")
    except OSError:
        yield tmp_path
        return
    with ram as name:
        yield Path(name)


@pytest.fixture
def db_path(db_dir: Path) -> Path:
    return db_dir / "t.db"


ServerFactory = Callable[..., Awaitable[TyrosServer]]


@pytest.fixture
async def make_server(db_path: Path) -> AsyncIterator[ServerFactory]:
    """Start servers (``await make_server(port=..., db=...)``); every one is stopped at the end."""
    started: list[TyrosServer] = []

    async def start(
        *,
        port: int = 0,
        db: Path | None = None,
        takeover: TakeoverPolicy | None = None,
        **config: Any,
    ) -> TyrosServer:
        config.setdefault("allow_seed", True)  # the tests deal seeded games
        server = TyrosServer(
            ServerConfig(host=HOST, port=port, db=str(db or db_path), **config), takeover
        )
        await server.start()
        started.append(server)
        return server

    yield start
    for server in started:  # stopping twice is harmless: a test may have stopped it
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.stop(), STEP_TIMEOUT)


@pytest.fixture
async def server(make_server: ServerFactory) -> TyrosServer:
    """A running server on a free port with a fresh database."""
    return await make_server()


def url_of(server: TyrosServer) -> str:
    return f"ws://{HOST}:{server.port}"


# Bots ------------------------------------------------------------------------------


def bot_runs(
    url: str,
    table: str,
    players: int,
    count: int | None = None,
    *,
    seed: int | None = None,
    setup: str = "first",
    prefix: str = "bot",
) -> list[BotRun]:
    """``count`` (default: every seat) random bots for one table."""
    return [
        BotRun(
            url, table, f"{prefix}-{table}-{i}", "random", players=players, setup=setup, seed=seed
        )
        for i in range(players if count is None else count)
    ]


async def play_bots(
    runs: list[BotRun], seed: int, timeout: float = GAME_TIMEOUT
) -> list[dict[str, Any]]:
    """Play every run to the end concurrently; their score sheets in the runs' order."""
    return await finish(start_bots(runs, seed), timeout)


def start_bots(runs: list[BotRun], seed: int) -> list[asyncio.Task[dict[str, Any]]]:
    """Start :func:`play_bot` for each run, each with its own seeded generator."""
    rng = random.Random(seed)
    return [asyncio.create_task(play_bot(run, random.Random(rng.random()))) for run in runs]


async def cancel_all(tasks: list[asyncio.Task[dict[str, Any]]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def finish(
    tasks: list[asyncio.Task[dict[str, Any]]], timeout: float = GAME_TIMEOUT
) -> list[dict[str, Any]]:
    """Wait for bot tasks: their results, or the first failure (cancelling the others)."""
    try:
        done, pending = await asyncio.wait(
            tasks, timeout=timeout, return_when=asyncio.FIRST_EXCEPTION
        )
        for task in done:
            error = None if task.cancelled() else task.exception()
            if error is not None:
                raise error
        if pending:
            raise AssertionError(
                f"{len(pending)} of {len(tasks)} bots had not finished after {timeout} s"
            )
        return [task.result() for task in tasks]
    finally:
        await cancel_all(tasks)


async def wait_for(
    predicate: Callable[[], bool], timeout: float = GAME_TIMEOUT, what: str = "a condition"
) -> None:
    """Poll ``predicate`` every few milliseconds, failing after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def light_bot(
    url: str,
    table: str,
    name: str,
    players: int,
    rng: random.Random,
    *,
    setup: str = "first",
    seed: int | None = None,
) -> dict[str, Any]:
    """A random player that sends a random entry of each prompt's legal list as it is.

    It plays like a ``random`` :func:`play_bot` but skips decoding the legal lists into
    engine actions, which makes it several times cheaper: for tests that need many
    games and care about what the server sends, not about the client. Its protocol is
    the client session's; a lost connection fails it.
    """
    session = ClientSession(Join(table=table, name=name, players=players, setup=setup, seed=seed))
    score: dict[str, Any] = {}

    def handle(notice: Notice) -> None:
        if isinstance(notice, Refused | JoinRefused):  # a rate limit: the session sends again
            assert notice.code.value in ("stale_version", "too_late"), notice.error
        elif isinstance(notice, Updated):
            if notice.view.phase == "over":
                assert notice.view.score is not None
                score.update(notice.view.score.wire())
                connection.stop()
            elif notice.prompt is not None:
                session.send_action(rng.choice(notice.prompt.legal).wire())

    def status(status: str, detail: str) -> None:
        if status == "lost":
            connection.stop()

    connection = Connection(session, url, handle, on_status=status)
    await connection.run()
    assert session.fatal is None, session.fatal
    assert score, f"{name}: the server closed the connection before the end"
    return score


# Watching the bots' traffic ----------------------------------------------------------


@dataclass
class Traffic:
    """Everything one client connection sent and received, and how it ended."""

    sent: list[dict[str, Any]] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)
    close_code: int | None = None

    @property
    def seat(self) -> int | None:
        for message in self.received:
            if message.get("type") == "welcome":
                seat = message["seat"]
                return seat if isinstance(seat, int) else None
        return None

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.received if m.get("type") == kind]


class _TappedConnection:
    """Passes everything through to a real client connection, writing it down."""

    def __init__(self, ws: ClientConnection, traffic: Traffic) -> None:
        self._ws = ws
        self._traffic = traffic

    async def send(self, message: str) -> None:
        self._traffic.sent.append(json.loads(message))
        await self._ws.send(message)

    async def __aiter__(self) -> AsyncIterator[str | bytes]:
        async for frame in self._ws:
            self._traffic.received.append(json.loads(frame))
            yield frame

    def __getattr__(self, name: str) -> Any:  # close(), close_code, ...: the real ones
        return getattr(self._ws, name)


class Tap:
    """A stand-in for ``websockets`` ``connect`` in :mod:`tyros_client.botclient`."""

    def __init__(self) -> None:
        self.connections: list[Traffic] = []

    @contextlib.asynccontextmanager
    async def __call__(self, uri: str, **kwargs: Any) -> AsyncIterator[_TappedConnection]:
        traffic = Traffic()
        ws: ClientConnection | None = None
        try:
            async with connect(uri, **kwargs) as ws:
                self.connections.append(traffic)
                yield _TappedConnection(ws, traffic)
        finally:
            if ws is not None:
                traffic.close_code = ws.close_code


@pytest.fixture
def tap(monkeypatch: pytest.MonkeyPatch) -> Tap:
    """Record every frame the bots of :mod:`tyros_client.botclient` send and receive."""
    tapped = Tap()
    monkeypatch.setattr(botclient, "connect", tapped)
    return tapped


# A raw client -------------------------------------------------------------------------


class RawClient:
    """A plain protocol client: JSON in, JSON out, every wait bounded."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self.token: str | None = None
        self.seat: int | None = None

    @classmethod
    async def open(cls, url: str, **kwargs: Any) -> RawClient:
        ws = await connect(
            url, compression=None, open_timeout=STEP_TIMEOUT, max_size=2**23, **kwargs
        )
        return cls(ws)

    def next_id(self) -> int:
        return next(self._ids)

    async def send(self, message: dict[str, Any]) -> int:
        """Send ``message`` (given an ``id`` if it has none); returns the id."""
        if "id" not in message:
            message = {**message, "id": self.next_id()}
        await self.ws.send(json.dumps(message))
        return int(message["id"])

    async def recv(self, timeout: float = STEP_TIMEOUT) -> dict[str, Any]:
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        message: dict[str, Any] = json.loads(frame)
        self.received.append(message)
        if message.get("type") == "welcome":
            self.token = message["token"] or self.token
            self.seat = message["seat"]
        return message

    async def recv_until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = STEP_TIMEOUT
    ) -> dict[str, Any]:
        """Read until a message satisfies ``predicate``; returns it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            message = await self.recv(max(0.01, deadline - loop.time()))
            if predicate(message):
                return message

    async def request(
        self, message: dict[str, Any], timeout: float = STEP_TIMEOUT
    ) -> dict[str, Any]:
        """Send, then return the reply that answers it (``re`` equal to its id)."""
        msg_id = await self.send(message)
        return await self.recv_until(
            lambda m: m.get("re") == msg_id and m.get("type") != "update", timeout
        )

    async def hello(self, table: str, name: str, **options: Any) -> dict[str, Any]:
        return await self.request(hello_message(Join(table, name, **options), self.next_id()))

    async def resume(self, token: str) -> dict[str, Any]:
        return await self.request(resume_message(token, self.next_id()))

    async def list_tables(self) -> list[dict[str, Any]]:
        reply = await self.request({"type": "list_tables"})
        assert reply["type"] == "tables", reply
        tables: list[dict[str, Any]] = reply["tables"]
        return tables

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(), STEP_TIMEOUT)

    async def closed_with(self, timeout: float = STEP_TIMEOUT) -> int | None:
        """Read until the server closes the connection; its close code."""
        with contextlib.suppress(ConnectionClosed):
            while True:
                await self.recv(timeout)
        return self.ws.close_code


@pytest.fixture
async def open_client() -> AsyncIterator[Callable[..., Awaitable[RawClient]]]:
    """Open raw clients (``await raw_clients(url)``); all are closed at the end."""
    opened: list[RawClient] = []

    async def open_client(url: str, **kwargs: Any) -> RawClient:
        client = await RawClient.open(url, **kwargs)
        opened.append(client)
        return client

    yield open_client
    for client in opened:
        await client.close()


def find_table(tables: list[dict[str, Any]], name: str) -> dict[str, Any] | None:
    return next((t for t in tables if t["name"] == name), None)


PRIVATE_EVENT_FIELDS: dict[str, str] = {
    "cards_dealt": "cards",
    "cards_drawn": "cards",
    "tiles_dealt": "tiles",
    "tile_drawn": "tile",
}
"""Event type -> the field only the seat it concerns may see."""


def private_fields_for_others(event: dict[str, Any], viewer: int | None) -> list[str]:
    """The seat-private fields of ``event`` that ``viewer`` should not have been shown."""
    found = []
    kind = event.get("type")
    hidden = PRIVATE_EVENT_FIELDS.get(str(kind))
    if hidden is not None and event.get("seat") != viewer and hidden in event:
        found.append(f"{kind}.{hidden}")
    if kind == "action":
        action = event.get("action", {})
        concerned = viewer is not None and viewer in (event.get("seat"), event.get("to"))
        if action.get("kind") == "keep" and "cards" in action and not concerned:
            found.append("keep.cards")
        if action.get("kind") == "give_card" and "card" in action and not concerned:
            found.append("give_card.card")
    return found


# The sans-I/O session ---------------------------------------------------------------


@pytest.fixture
def harness(tmp_path: Path) -> Iterator[Harness]:
    made = Harness(tmp_path / "tyros.sqlite")
    try:
        yield made
    finally:
        made.close()


@pytest.fixture
def make_harness(tmp_path: Path) -> Iterator[Callable[..., Harness]]:
    made: list[Harness] = []

    def build(**kwargs: Any) -> Harness:
        built = Harness(tmp_path / "tyros.sqlite", **kwargs)
        made.append(built)
        return built

    try:
        yield build
    finally:
        for built in made:
            built.close()
