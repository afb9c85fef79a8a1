"""The websocket shell: feeds frames to the :class:`~.session.Session`, sends what it has to
send (``data_to_send``).

Everything about the game lives in the session; this module only owns
sockets, per-connection send queues (bounded in bytes), connection caps (kept
under the file-descriptor limit, half-open sockets included), the clock that
drives :meth:`Session.tick`, the database's lock and backups, and a graceful
shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import itertools
import json
import logging
import signal
import socket
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, broadcast, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from .backups import DatabaseLock, open_or_repair
from .deputies import Advice, Decision
from .gate import HandshakeGate, admits, raise_fd_limit
from .guard import DatabaseGuard
from .pool import DecisionPool
from .recorder import Recorder
from .session import Close, ConnId, Limits, Output, Send, Session, TakeoverPolicy
from .session.archive import Built, RecordJob
from .storage import Store
from .tls import tls_context
from .turns import Turns
from .web import (
    SERVER_HEADER,
    OwnNames,
    RefusalLog,
    Reply,
    RequestCheck,
    WebFiles,
    is_upgrade,
)
from .wire import Encoder
from .worker import DecisionWorker

log = logging.getLogger("tyros.server")

MAX_MESSAGE_BYTES = 64 * 1024

RECEIVE_BUFFER = 16 * 1024
"""Bytes the kernel holds for one connection's incoming data (it doubles it): plenty for
players' small messages, and little for a flood to hand over at once."""
READ_BYTES = 4096
"""How much one read of a socket takes (see GatedConnection)."""

FD_RESERVE = 32
"""File descriptors kept for everything but sockets: the database, its WAL and lock, the
log, backups, the listening sockets."""


TICK_FLOOR = 0.05
"""Seconds the clock task sleeps at least between two ticks."""


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    host_names: tuple[str, ...] = ()
    """Names (or addresses) the server answers to besides its own (see web.OwnNames)."""
    certfile: str | None = None
    """A PEM certificate (chain): serve ``wss://`` instead of ``ws://``."""
    keyfile: str | None = None
    """Its PEM private key (None: in ``certfile``)."""
    db: str = "tyros.db"
    max_connections: int = 1024
    max_per_address: int = 32
    address_reserve: int = 64
    """The last places of the connection cap, kept for addresses that hold no connection:
    a few machines that open all they may cannot lock the others out."""
    hello_seconds: float = 30.0
    limits: Limits = field(default_factory=Limits)
    allow_seed: bool = False
    """Let a ``hello`` choose the seed: only for tests, benchmarks and private local games."""
    max_queued_bytes: int = 1 << 20
    """Data waiting for one slow reader before the server drops it (and frees the data)."""
    max_handshakes: int = 1024
    """Sockets still in the opening handshake, at most (the oldest makes way), and fewer
    if the file-descriptor limit needs it; from one address at most ``max_per_address``,
    so half-open sockets from one machine cannot keep the others out."""
    connections_per_second: float | None = 20.0
    """New sockets one address may open a second, after a burst of ``max_per_address``
    (None: no limit)."""
    open_timeout: float = 5.0
    """Seconds a socket has to finish the opening handshake."""
    backup_minutes: float | None = 10.0
    """Copy the database to ``DB.backup-1`` this often, and at start (None: never)."""
    backups: int = 3
    """Rolling backups kept (``DB.backup-1`` the newest)."""
    decision_processes: int = 0
    """Make the server's decisions for seats in this many worker processes, each with a
    policy of ``takeover_strategy`` (0, or no strategy named: in a thread, with the policy
    given to the server)."""
    takeover_strategy: str | None = None
    """The strategy's name (``--takeover-strategy``): what a decision process makes its
    policy from."""


_CLOSING: set[asyncio.Task[None]] = set()


class _Peer:
    """One connection. Frames are written at once, in order, to its transport (no task and
    no queue per message); what the transport still holds for it is bounded in bytes: a
    reader that falls that far behind is dropped and its backlog freed."""

    def __init__(self, ws: ServerConnection, max_queued_bytes: int) -> None:
        self.ws = ws
        self.max_queued_bytes = max_queued_bytes
        self.dropped = False
        self.closing: asyncio.Task[None] | None = None

    @property
    def queued_bytes(self) -> int:
        """Bytes written for this connection and not yet taken by the kernel."""
        transport = self.ws.transport
        return 0 if transport.is_closing() else transport.get_write_buffer_size()

    def send(self, text: str) -> None:
        if self.dropped or self.closing is not None:
            return
        # websockets' broadcast writes without waiting for the reader: the bound is ours.
        broadcast([self.ws], text)
        if self.queued_bytes > self.max_queued_bytes:
            log.warning(
                "dropping a connection that does not read: %d bytes waiting for it",
                self.queued_bytes,
            )
            self.drop(1008, "too slow to read")

    def close(self, code: int, reason: str) -> None:
        """Close after what was sent before (the close frame follows it)."""
        if not self.dropped and self.closing is None:
            self.closing = asyncio.create_task(self.ws.close(code, reason))
            _CLOSING.add(self.closing)  # the loop keeps only a weak reference to a task
            self.closing.add_done_callback(_CLOSING.discard)

    def drop(self, code: int, reason: str) -> None:
        """Close now, discarding the backlog (the client stopped reading)."""
        self.dropped = True
        # A client that reads nothing would hold a polite close for its whole timeout;
        # aborting the transport frees what it held.
        self.ws.transport.abort()

    async def drain(self, timeout: float) -> None:
        """Wait (a little) until what was written is sent."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self.queued_bytes and not self.dropped:
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
        levels: Callable[[str], TakeoverPolicy] | None = None,
    ) -> None:
        """``takeover`` plays absent people's seats and gives hints; ``levels`` makes the
        policy of the server's own bots of a level (None: ``takeover`` plays them too)."""
        self.config = config
        self.lock: DatabaseLock | None = None
        if store is None and config.db != ":memory:":
            self.lock = DatabaseLock(config.db, f"listening on {config.host}:{config.port}")
            self.lock.acquire()
            try:
                store = open_or_repair(config.db)
            except BaseException:
                self.lock.release()
                raise
        self.store = store or Store(config.db)
        self.session = Session(
            self.store,
            limits=config.limits,
            takeover=takeover,
            hello_seconds=config.hello_seconds,
            allow_seed=config.allow_seed,
            levels=levels,
        )
        self._wake = asyncio.Event()
        """Set when the session's next deadline may have moved (something arrived)."""
        self._deputy = DecisionWorker()  # (people's decisions first, tables in turn)
        """Where the server's decisions for seats are made (bots, however slow, never
        hold up the event loop); one thread, so they run in the order they were asked."""
        self._pool: DecisionPool | None = None
        """Or in worker processes instead (both cores, and not the loop's lock)."""
        if config.decision_processes > 0 and config.takeover_strategy is not None:
            self._pool = DecisionPool.of_strategy(
                config.takeover_strategy, config.decision_processes
            )
        self._deputy_stopped = False
        self._recorder = Recorder(self.store)
        """Where finished games' records are made (never on the event loop)."""
        self.peers: dict[ConnId, _Peer] = {}
        self.turns = Turns(self.session, self.store, self.deliver, self._after_batch)
        """Everything that touches the session, in order, in batches committed off the loop."""
        self.per_address: Counter[str] = Counter()
        self._ids = itertools.count(1)
        self._server: Server | None = None
        self._ticker: asyncio.Task[None] | None = None
        self.guard = DatabaseGuard(self.store, backups=config.backups)
        """The watch over the database's files and pages, and its backups."""
        self._watchers: list[asyncio.Task[None]] = []
        self._backups: asyncio.Task[None] | None = None
        self.max_connections = config.max_connections
        """The connection cap in force: the configured one, or less to fit the process's
        file-descriptor limit (set by :meth:`start`)."""
        self.web = WebFiles.packaged()
        """The browser's page and its files, served on the websocket's port."""
        self.requests = RequestCheck(OwnNames.of(config.host, config.host_names))
        self.refusals_logged = RefusalLog()
        self.handshakes = HandshakeGate(
            config.max_handshakes, config.max_per_address, config.connections_per_second
        )

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        """A request for one of the server's own names, from its own page or a program,
        gets the page's files (:mod:`.web`) or goes on to the websocket upgrade; any other
        is refused (:class:`.web.RequestCheck`), in one log line per address a minute."""
        local = connection.local_address
        method, headers = request.method, request.headers
        refusal = self.requests.refusal(method, headers, str(local[0]) if local else None)
        if refusal is not None:
            address = str(connection.remote_address[0]) if connection.remote_address else "?"
            if self.refusals_logged.allows(address):
                log.warning(
                    "refused a request from %s: %s (its next refusals this minute go unlogged)",
                    address,
                    refusal.why,
                )
            return _response(refusal.reply.to(method))
        if method == "GET" and is_upgrade(headers):
            return None
        return _response(self.web.answer(request.path, headers).to(method))

    @property
    def port(self) -> int:
        assert self._server is not None
        sockets = list(self._server.sockets)
        return int(sockets[0].getsockname()[1])

    async def start(self) -> None:
        config = self.config
        soft = raise_fd_limit()
        room = max(8, soft - FD_RESERVE)
        self.max_connections = min(config.max_connections, room * 3 // 4)
        gate = self.handshakes
        gate.total = max(1, min(config.max_handshakes, room - self.max_connections))

        class GatedConnection(ServerConnection):
            """Counted from the moment the socket is accepted, not once it says hello."""

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                super().connection_made(transport)
                sock = transport.get_extra_info("socket")
                if sock is not None:
                    # A small receive buffer: one read then holds a few hundred frames at
                    # most, not the thousands a flooder packs into 256 KiB, which the
                    # websocket layer would parse all at once while everybody waits.
                    with contextlib.suppress(OSError):
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
                # And a small read: asyncio reads 256 KiB at a time, and the websocket layer
                # parses all the frames of one read before anyone else is served (a read of
                # 4 KiB is a few hundred tiny frames, 4 ms at most). The read size has no
                # public setting; asyncio's socket transports take it from ``max_size``.
                if hasattr(transport, "max_size"):
                    transport.max_size = READ_BYTES
                gate.arrive(transport)

            def connection_lost(self, exc: Exception | None) -> None:
                gate.leave(self.transport)
                super().connection_lost(exc)

        self._server = await serve(
            self._handle,
            config.host,
            config.port,
            max_size=MAX_MESSAGE_BYTES,
            compression=None,
            process_request=self._http,
            origins=None,  # (checked in _http: a program, or this server's own page)
            server_header=SERVER_HEADER,
            ping_interval=20,
            ping_timeout=20,
            max_queue=16,
            open_timeout=config.open_timeout,
            create_connection=GatedConnection,
            ssl=tls_context(config.certfile, config.keyfile),  # None: plain ws://
        )
        self._ticker = asyncio.create_task(self._tick_forever())
        self._watchers = [
            asyncio.create_task(self.guard.watch_forever()),
            asyncio.create_task(self.guard.check_pages_forever()),
        ]
        if self.lock is not None:
            self.lock.describe(f"listening on {config.host}:{self.port}")
        if config.backup_minutes is not None and self.lock is not None:
            self._backups = asyncio.create_task(
                self.guard.back_up_forever(config.backup_minutes * 60)
            )
        scheme = "ws" if config.certfile is None else "wss"
        log.info("tyros server listening on %s://%s:%d", scheme, config.host, self.port)
        log.info(
            "connection cap %d (%d configured), %d sockets in their handshake at most: "
            "%d open files allowed",
            self.max_connections,
            config.max_connections,
            gate.total,
            soft,
        )
        for name, reason in self.session.quarantined.items():
            log.warning("table %s is unavailable: %s", name, reason)

    async def stop(self) -> None:
        """Close every connection with 1001 (going away) and the database."""
        if self._ticker is not None:
            self._ticker.cancel()
        for watcher in self._watchers:
            watcher.cancel()
        self._deputy_stopped = True
        self._deputy.shutdown()
        if self._pool is not None:
            self._pool.shutdown()
        self._recorder.cancel()
        if self._backups is not None:
            self._backups.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._backups
        # Let what is already queued (acknowledgements, updates) reach the clients first.
        await asyncio.gather(*(peer.drain(1.0) for peer in list(self.peers.values())))
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
        await self._recorder.stop()
        if self._pool is not None:
            await asyncio.to_thread(self._pool.join)
        await self.turns.idle()  # the last batches committed before the store closes
        # A last look: damage not seen yet is rescued from what the server holds before
        # closing checkpoints the WAL, a hole in it included, into the database.
        self.watch_database()
        self.store.close()
        if self.lock is not None:
            self.lock.release()
        log.info("tyros server stopped")

    def watch_database(self) -> None:
        """Look at the database's files now (see :meth:`Store.watch`) and act on what is
        seen (:meth:`.DatabaseGuard.break_off`)."""
        self.guard.look()

    def check_database_pages(self) -> None:
        """Read every page of the database now (SQLite's quick check) and act on what is
        found, as :meth:`watch_database` does."""
        self.guard.check_pages()

    def deliver(self, output: Output) -> None:
        encoder = Encoder()  # one message sent to many, or one public view, encoded once
        for item in output:
            peer = self.peers.get(item.conn)
            if peer is None:
                continue
            if isinstance(item, Send):
                peer.send(encoder.encode(item.message))
            elif isinstance(item, Close) and item.abort:
                peer.drop(item.code, item.reason)
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
            # In the session's turn (see .turns); done once its batch is committed and sent.
            await self.turns.call(self._tick, wake=False)

    def _tick(self) -> None:
        try:
            self.session.tick()
        except Exception:  # keep the clock running whatever one table does
            log.exception("tick failed")

    def _after_batch(self, wake: bool) -> None:
        """After each batch of the session's turns: the decisions and records it asked for
        handed out, and the clock told if its deadlines may have moved."""
        try:
            self._run_jobs()
        except Exception:
            log.exception("handing out the session's jobs failed")
        if wake:
            self._wake.set()

    def _run_jobs(self) -> None:
        """Hand the session's new decisions (and farewells) to the worker thread, and the
        records to make to the record process."""
        jobs = self.session.drain_jobs()
        records = self.session.drain_record_jobs()
        if self._deputy_stopped:
            return  # the server is stopping: what the bots would do now is not needed
        loop = asyncio.get_running_loop()
        for record in records:
            self._recorder.make(record, self._recorded)
        for job in jobs:
            made = (
                self._deputy.submit(job.run, job.table, job.lane)
                if self._pool is None
                else self._pool.submit(job)
            )
            done = asyncio.wrap_future(made, loop=loop)
            if isinstance(job, Decision):
                done.add_done_callback(functools.partial(self._decided, job))
            elif isinstance(job, Advice):
                done.add_done_callback(functools.partial(self._advised, job))

    def _recorded(self, job: RecordJob, result: Built) -> None:
        """A record made (or why not): sent to whoever asked for it, in the session's turn."""
        self.turns.call(lambda: self.session.recorded(job, result), wake=False)

    def _advised(self, advice: Advice, done: asyncio.Future[Any]) -> None:
        """Advice came back from the worker: the session sends it to whoever asked."""
        if done.cancelled():
            return
        action = None if done.exception() is not None else done.result()
        self.turns.call(lambda: self.session.advised(advice, action), wake=False)

    def _decided(self, decision: Decision, done: asyncio.Future[Any]) -> None:
        """A decision came back from the worker: the session applies it (or not, if the
        game moved on) in its turn, its action committed with the batch's (off the loop),
        and the clock looks again at what is due."""
        if done.cancelled():
            return  # the server is stopping
        action = None if done.exception() is not None else done.result()
        self.turns.call(lambda: self.session.decided(decision, action))

    async def _handle(self, ws: ServerConnection) -> None:
        self.handshakes.leave(ws.transport)
        address = str(ws.remote_address[0]) if ws.remote_address else "?"
        config = self.config
        if not admits(
            len(self.peers),
            self.per_address[address],
            cap=self.max_connections,
            per_address=config.max_per_address,
            reserve=min(config.address_reserve, self.max_connections // 4),
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
        peer = _Peer(ws, self.config.max_queued_bytes)
        self.peers[conn] = peer
        self.per_address[address] += 1
        try:
            self.session.connect(conn, address)
            self._wake.set()  # its hello deadline may come first
            async for frame in ws:
                if peer.dropped:
                    break  # it stopped reading: what it still sends is not served
                self.turns.frame(conn, frame)
                # One read can hold thousands of frames, all handed over without a pause:
                # let the other connections run between two.
                await asyncio.sleep(0)
        except ConnectionClosed:
            pass
        finally:
            self.peers.pop(conn, None)
            self.per_address[address] -= 1
            if not self.per_address[address]:
                del self.per_address[address]
            # After what it sent before it went; a takeover deadline may start then.
            self.turns.call(functools.partial(self.session.disconnect, conn))


def _response(reply: Reply) -> Response:
    return Response(reply.status, reply.reason, Headers(reply.headers), reply.body)


GC_THRESHOLDS = (50_000, 20, 100)
"""The cyclic collector's thresholds for a server: it holds every game's state and log
(long-lived objects a full collection walks each time) and makes few cycles, so
collecting rarely saves pauses of tens of milliseconds under load (bench/load.py: p99
about 80 -> 50 ms at 100 tables) for a little memory."""


def tune_gc() -> None:
    """Collect rarely, and never walk what exists at start (modules, resumed tables)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


async def run_server(
    config: ServerConfig,
    takeover: TakeoverPolicy | None = None,
    ready: Callable[[TyrosServer], Any] | None = None,
    levels: Callable[[str], TakeoverPolicy] | None = None,
) -> None:
    """Serve until SIGINT or SIGTERM, then shut down gracefully."""
    server = TyrosServer(config, takeover, levels=levels)
    await server.start()
    tune_gc()
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
