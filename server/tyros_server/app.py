"""The websocket shell: feeds frames to the :class:`~.session.Session`, sends what it returns.

Everything about the game lives in the session; this module only owns
sockets, per-connection send queues, connection caps, the hello timer, the
clock that drives :meth:`Session.tick`, and a graceful shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import signal
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from .session import Close, ConnId, Limits, Output, Send, Session, TakeoverPolicy
from .storage import Store
from .tls import tls_context

log = logging.getLogger("tyros.server")

MAX_MESSAGE_BYTES = 64 * 1024
SEND_QUEUE_LIMIT = 1000
"""Frames waiting for a slow client before it is dropped."""


TICK_FLOOR = 0.05
"""Seconds the clock task sleeps at least between two ticks."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    certfile: str | None = None
    """A PEM certificate (chain): serve ``wss://`` instead of ``ws://``."""
    keyfile: str | None = None
    """Its PEM private key (None: in ``certfile``)."""
    db: str = "tyros.db"
    max_connections: int = 1024
    max_per_address: int = 256
    hello_seconds: float = 30.0
    limits: Limits = field(default_factory=Limits)
    allow_seed: bool = False
    """Let a ``hello`` choose the seed: only for tests, benchmarks and private local games."""


class _Peer:
    """One connection: its socket and an ordered outbound queue drained by a writer task."""

    def __init__(self, ws: ServerConnection) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write())
        self.dropped = False
        self._closing: asyncio.Task[None] | None = None

    async def _write(self) -> None:
        try:
            while True:
                item = await self.queue.get()
                if isinstance(item, tuple):
                    await self.ws.close(*item)
                    return
                await self.ws.send(item)
        except ConnectionClosed:
            pass

    def send(self, text: str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= SEND_QUEUE_LIMIT:
            self.drop(1008, "too slow to read")
            return
        self.queue.put_nowait(text)

    def close(self, code: int, reason: str) -> None:
        """Close after what is queued has been sent."""
        if not self.dropped:
            self.queue.put_nowait((code, reason))

    def drop(self, code: int, reason: str) -> None:
        """Close now, discarding the backlog (the client stopped reading)."""
        self.dropped = True
        self.writer.cancel()
        self._closing = asyncio.create_task(self.ws.close(code, reason))

    async def drain(self, timeout: float) -> None:
        """Wait (a little) until the queued frames are sent."""
        deadline = asyncio.get_running_loop().time() + timeout
        while not self.queue.empty() and not self.writer.done():
            if asyncio.get_running_loop().time() >= deadline:
                return
            await asyncio.sleep(0.01)


class TyrosServer:
    """A running server: the session plus the sockets attached to it."""

    def __init__(
        self,
        config: ServerConfig,
        takeover: TakeoverPolicy | None = None,
        store: Store | None = None,
    ) -> None:
        self.config = config
        self.store = store or Store(config.db)
        self.session = Session(
            self.store,
            limits=config.limits,
            takeover=takeover,
            hello_seconds=config.hello_seconds,
            allow_seed=config.allow_seed,
        )
        self._wake = asyncio.Event()
        """Set when the session's next deadline may have moved (something arrived)."""
        self.peers: dict[ConnId, _Peer] = {}
        self.per_address: Counter[str] = Counter()
        self._ids = itertools.count(1)
        self._server: Server | None = None
        self._ticker: asyncio.Task[None] | None = None

    @property
    def port(self) -> int:
        assert self._server is not None
        sockets = list(self._server.sockets)
        return int(sockets[0].getsockname()[1])

    async def start(self) -> None:
        self._server = await serve(
            self._handle,
            self.config.host,
            self.config.port,
            max_size=MAX_MESSAGE_BYTES,
            compression=None,
            origins=[None],
            ping_interval=20,
            ping_timeout=20,
            max_queue=32,
            ssl=tls_context(self.config.certfile, self.config.keyfile),  # None: plain ws://
        )
        self._ticker = asyncio.create_task(self._tick_forever())
        scheme = "ws" if self.config.certfile is None else "wss"
        log.info("tyros server listening on %s://%s:%d", scheme, self.config.host, self.port)

    async def stop(self) -> None:
        """Close every connection with 1001 (going away) and the database."""
        if self._ticker is not None:
            self._ticker.cancel()
        # Let what is already queued (acknowledgements, updates) reach the clients first.
        await asyncio.gather(*(peer.drain(1.0) for peer in list(self.peers.values())))
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        self.store.close()
        log.info("tyros server stopped")

    def deliver(self, output: Output) -> None:
        for item in output:
            peer = self.peers.get(item.conn)
            if peer is None:
                continue
            if isinstance(item, Send):
                peer.send(json.dumps(item.message, separators=(",", ":")))
            elif isinstance(item, Close):
                peer.close(item.code, item.reason)

    async def _tick_forever(self) -> None:
        """Sleep until the session's next deadline (or until something arrives that may
        bring it forward), then let the session act on the time."""
        session = self.session
        while True:
            deadline = session.next_deadline()
            # A floor: a deadline that a tick cannot clear (a storage failure, a takeover
            # player that raises) must not make this loop spin.
            wait = None if deadline is None else max(TICK_FLOOR, deadline - session.clock())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
            self._wake.clear()
            try:
                self.deliver(session.tick())
            except Exception:  # keep the clock running whatever one table does
                log.exception("tick failed")
                await asyncio.sleep(TICK_FLOOR * 4)

    async def _handle(self, ws: ServerConnection) -> None:
        address = str(ws.remote_address[0]) if ws.remote_address else "?"
        if (
            len(self.peers) >= self.config.max_connections
            or self.per_address[address] >= self.config.max_per_address
        ):
            await ws.send(
                json.dumps(
                    {
                        "type": "error",
                        "re": None,
                        "code": "too_many_connections",
                        "message": "too many connections, try again later",
                    }
                )
            )
            await ws.close(1013, "too many connections, try again later")
            return
        conn = next(self._ids)
        peer = _Peer(ws)
        self.peers[conn] = peer
        self.per_address[address] += 1
        try:
            self.deliver(self.session.connect(conn, address))
            self._wake.set()  # its hello deadline may come first
            async for frame in ws:
                try:
                    self.deliver(self.session.receive(conn, frame))
                    self._wake.set()
                except Exception:  # a bug must cost one message, not the server
                    log.exception("handling a message failed")
                    self.deliver(
                        [
                            Send(
                                conn,
                                {
                                    "type": "error",
                                    "re": None,
                                    "code": "internal_error",
                                    "message": "the server failed on that message",
                                },
                            )
                        ]
                    )
        except ConnectionClosed:
            pass
        finally:
            self.peers.pop(conn, None)
            self.per_address[address] -= 1
            if not self.per_address[address]:
                del self.per_address[address]
            self.deliver(self.session.disconnect(conn))
            self._wake.set()  # a takeover deadline may start now
            peer.writer.cancel()


async def run_server(
    config: ServerConfig,
    takeover: TakeoverPolicy | None = None,
    ready: Callable[[TyrosServer], Any] | None = None,
) -> None:
    """Serve until SIGINT or SIGTERM, then shut down gracefully."""
    server = TyrosServer(config, takeover)
    await server.start()
    if ready is not None:
        ready(server)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        await server.stop()
