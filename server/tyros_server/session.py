"""The sans-I/O heart of the server: tables, seats and connections.

:class:`Session` takes what connections say (text or bytes, already framed)
and returns what to send to whom; it never touches a socket or the event
loop, so tests drive it directly. Time comes from an injected clock and
:meth:`Session.tick` handles what time alone triggers (unanswered trade
offers, takeover bots). Every accepted action is committed to the store
before anything about it is returned.
"""

from __future__ import annotations

import bisect
import json
import logging
import secrets
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.board import BOARD
from tyros_protocol.errors import ErrorCode
from tyros_protocol.messages import (
    CLIENT_ADAPTER,
    Act,
    Chat,
    GetRecord,
    Hello,
    Hint,
    ListTables,
    Resume,
)

from .chat import CHAT_BURST, CHAT_PER_SECOND, KEPT_LINES, ChatBucket, TableTalk
from .clocks import Clocks
from .deputies import DecidedBy, Decision, Deputies, Job, TakeoverPolicy, negotiates
from .engine import (
    PUBLIC_FORMAT,
    RECORD_FORMAT,
    RULES_VERSION,
    Action,
    IllegalActionError,
    Kind,
    Options,
    Phase,
    action_to_json,
    check_action,
    event_versions,
    event_view,
    legal_actions,
    new_game,
    parse_action,
    public_record,
    push,
    push_unchecked,
    seats_to_act,
    view,
)
from .engine.state import PENDING
from .storage import StorageError, Store, fairness, token_digest
from .tables import Batch, ConnId, SeatSlot, Table, Undo
from .tools import RecordUnavailable, stored_record

RECORD_INTERVAL = 1.0
"""Seconds between two ``get_record`` of one connection (a record costs milliseconds)."""
log = logging.getLogger("tyros.session")

RESYNC_EVENTS = 200
"""Events replayed to a (re)joining connection; its view holds the rest."""


__all__ = [
    "Close",
    "ConnId",
    "Connection",
    "Decision",
    "Limits",
    "Output",
    "SeatSlot",
    "Send",
    "Session",
    "TakeoverPolicy",
]


@dataclass(slots=True)
class Send:
    conn: ConnId
    message: dict[str, Any]


@dataclass(slots=True)
class Close:
    conn: ConnId
    code: int
    reason: str
    abort: bool = False
    """Cut it now, without the closing handshake (a flood: it would not read the close)."""


Output = list[Send | Close]


@dataclass(slots=True)
class Connection:
    address: str
    table: str | None = None
    seat: int | None = None
    spectator: bool = False
    tokens: float = 0.0
    refilled: float = 0.0
    opened: float = 0.0
    last_active: float = 0.0
    """When it last sent a message (a spectator doing nothing is closed in the end)."""
    refused: int = 0
    """Messages refused in a row for coming too fast."""
    closing: bool = False
    """A close was asked for (it is not asked twice)."""
    name: str | None = None
    """A spectator's name, from its hello (a seat's is its slot's)."""
    chat: ChatBucket = field(default_factory=ChatBucket)
    record_at: float = float("-inf")
    """When it last asked for a record (one a second: a record is costly to make)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one server allows; every bound is an option of ``tyros-server``."""

    burst: int = 100
    """Messages a connection may send at once..."""
    per_second: float = 50.0
    """...and on average."""
    address_burst: int = 1000
    """Messages all connections from one address may send at once..."""
    address_per_second: float | None = 250.0
    """...and on average (None: no limit per address)."""
    flood_close: int = 50
    """A connection refused this many messages in a row for sending too fast is closed."""
    takeover_seconds: float | None = None
    """A bot plays a disconnected seat after this long (None: the table waits)."""
    bot_pace_seconds: float = 1.0
    """Seconds between two of a table's takeover decisions at least: a table of absent
    players goes on at a person's pace, not in one burst."""
    default_clock: tuple[int, int] | None = None
    """(decision, reserve) seconds for tables created without a clock (None: no clock)."""
    max_open_tables: int = 100
    """Unfinished tables the server hosts at once."""
    tables_per_minute: int = 20
    """Tables one address may create in a minute..."""
    waiting_tables_per_address: int = 10
    """...and have waiting for players at once (so one machine cannot fill the server)."""
    unstarted_table_seconds: float | None = 3600.0
    """A table that never started and has nobody seated and connected is removed after
    this long (nothing was played at it), so abandoned tables do not fill the server."""
    finished_memory_seconds: float = 600.0
    """A finished table nobody is at leaves memory after this long (it stays on disk)."""
    list_page: int = 50
    """Tables in one ``tables`` answer at most."""
    spectators_per_table: int = 32
    spectators_per_address: int = 16
    spectator_idle_seconds: float | None = 1800.0
    """A spectator is closed when neither it nor its table did anything for this long."""
    notice_seconds: float = 2.0
    """Spectators' arrivals and departures are announced together, at most this late."""


class Session:
    """Every table of one server, and the connections attached to them."""

    def __init__(
        self,
        store: Store,
        *,
        limits: Limits | None = None,
        clock: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        takeover: TakeoverPolicy | None = None,
        hello_seconds: float | None = None,
        allow_seed: bool = False,
    ) -> None:
        self.store = store
        self.limits = limits or Limits()
        self.clock = clock
        self.wall_clock = wall_clock
        """The date stored with a new table (``clock`` need not be a date)."""
        self.allow_seed = allow_seed
        """Whether a ``hello`` may choose the seed (tests, benchmarks, a private local game):
        whoever knows the seed knows every hand, so a shared server deals its own."""
        self.hello_seconds = hello_seconds
        """A connection that has not joined a table after this long is closed (None: never)."""
        self.takeover = takeover
        self.deputies = Deputies(takeover, self.limits.bot_pace_seconds)
        """The decisions the server makes for seats (see :mod:`.deputies`)."""
        self.tables: dict[str, Table] = {}
        self.conns: dict[ConnId, Connection] = {}
        self.quarantined: dict[str, str] = {}
        """Tables that could not be loaded, and why: shown as unavailable, never played."""
        self._by_digest: dict[str, tuple[str, int]] = {}
        self._created: dict[str, deque[float]] = {}
        """When each address created its tables of the last minute."""
        self._address_buckets: dict[str, list[float]] = {}
        """[tokens, refilled] of each connected address's message allowance."""
        self._address_conns: Counter[str] = Counter()
        self._spectating: Counter[str] = Counter()
        """Spectator connections per address."""
        self._batch: Batch | None = None
        for name in store.table_names(unfinished_only=True):
            self._resume_table(name)

    # Loading ------------------------------------------------------------------

    def _resume_table(self, name: str) -> Table | None:
        """Load a stored table and replay its game; a table that cannot be loaded is
        quarantined (named in the log, shown as unavailable) and the others go on."""
        try:
            table = self._load_table(name)
        except Exception as exc:  # whatever is wrong with one table must not stop the rest
            reason = _clip(f"{type(exc).__name__}: {exc}", 200)
            self.quarantined[name] = reason
            log.error("table %s cannot be loaded and is quarantined: %s", name, reason)
            return None
        self.tables[name] = table
        for seat, slot in enumerate(table.seats):
            self._by_digest[slot.digest] = (name, seat)
        return table

    def _load_table(self, name: str) -> Table:
        stored = self.store.load_table(name)
        if stored is None:
            raise LookupError("the table vanished from the database")
        if stored.rules_version not in (0, RULES_VERSION):
            raise ValueError(
                f"it was played under rules version {stored.rules_version} and this server's "
                f"engine has rules version {RULES_VERSION}: resume it with the version it was "
                "played under"
            )
        now = self.clock()
        table = Table(
            name,
            Options(**stored.options),
            stored.trade_seconds,
            salt=stored.salt,
            changed=now,
            clock=stored.clock,
            hints=stored.hints,
        )
        for slot in stored.seats:
            table.seats.append(
                SeatSlot(slot.name, slot.token_digest, absent_since=now, program=slot.program)
            )
        table.talk = TableTalk.from_stored(self.store.load_chat(name, KEPT_LINES))
        if len(table.seats) == table.options.players:
            state = new_game(table.options)
            digests = stored.digests or [None] * len(stored.actions)
            for (seat, action), digest in zip(stored.actions, digests, strict=True):
                push(state, seat, parse_action(action, BOARD))
                if digest is not None and digest != state.digest():
                    raise ValueError(
                        f"after its action {state.version} the game is not in the state it was "
                        "stored in: the engine changed since it was played"
                    )
            assert state.log is not None
            table.state = state
            table.renew_prompts()
            table.sent = len(state.log)
            by = stored.decided_by or []
            table.decided_by = {at + 1: who for at, who in enumerate(by) if who is not None}
            clocks = self._start_clocks(table)
            if clocks is not None:
                for (seat, _), left in zip(stored.actions, stored.reserves or [], strict=False):
                    if left is not None:  # each seat's reserve as its last action left it
                        clocks.reserve[seat] = left
            if state.phase == Phase.TRADE:
                table.trade_deadline = now + table.trade_seconds
        log.info("resumed table %s with %d actions", name, len(stored.actions))
        return table

    # Connections ----------------------------------------------------------------

    def connect(self, conn: ConnId, address: str = "") -> Output:
        now = self.clock()
        self.conns[conn] = Connection(
            address, tokens=self.limits.burst, refilled=now, opened=now, last_active=now
        )
        if not self._address_conns[address]:
            self._address_buckets[address] = [float(self.limits.address_burst), now]
        self._address_conns[address] += 1
        return []

    def disconnect(self, conn: ConnId) -> Output:
        info = self.conns.pop(conn, None)
        if info is None:
            return []
        self._address_conns[info.address] -= 1
        if not self._address_conns[info.address]:
            del self._address_conns[info.address]
            self._address_buckets.pop(info.address, None)
        if info.table is None:
            return []
        table = self.tables[info.table]
        if info.spectator:
            self._leave_as_spectator(conn, info, table)
            return []
        assert info.seat is not None
        slot = table.seats[info.seat]
        if slot.conn == conn:
            slot.conn = None
            slot.absent_since = table.changed = self.clock()
            log.info("seat %d of table %s disconnected", info.seat, table.name)
            return self._table_update(table)
        return []

    def _leave_as_spectator(self, conn: ConnId, info: Connection, table: Table) -> None:
        table.spectators.discard(conn)
        self._spectating[info.address] -= 1
        if not self._spectating[info.address]:
            del self._spectating[info.address]
        self._notice_later(table)

    def _forgettable(self, table: Table) -> bool:
        """A finished table with nobody at it: it may go from memory (it stays on disk, and
        comes back when asked for), so a long-running server does not grow without end."""
        return (
            table.finished
            and not table.spectators
            and all(slot.conn is None for slot in table.seats)
        )

    def _drop_from_memory(self, table: Table) -> None:
        del self.tables[table.name]
        for slot in table.seats:
            self._by_digest.pop(slot.digest, None)

    def receive(self, conn: ConnId, data: str | bytes) -> Output:
        """Handle one frame from a connection; bad input yields a typed error only. In a
        batch (:meth:`begin_batch`) the output is held for :meth:`end_batch`."""
        batch = self._batch
        if batch is None:
            return self._receive(conn, data)
        first = len(batch.undos)
        out = self._receive(conn, data)
        batch.chunks.append((out, batch.undos[first:]))
        return []

    def _receive(self, conn: ConnId, data: str | bytes) -> Output:
        info = self.conns.get(conn)
        if info is None or info.closing:
            return []
        if not self._allow(info):
            info.refused += 1
            if info.refused >= self.limits.flood_close:
                info.closing = True
                return [Close(conn, 1008, "too many messages too fast", abort=True)]
            return [self._error(conn, None, ErrorCode.RATE_LIMITED, "slow down")]
        info.refused = 0
        info.last_active = self.clock()
        if isinstance(data, bytes):
            return [self._error(conn, None, ErrorCode.BINARY_FRAME, "send JSON text frames")]
        try:
            raw = json.loads(data)
        except (ValueError, RecursionError):
            return [self._error(conn, None, ErrorCode.BAD_JSON, "not valid JSON")]
        re = raw.get("id") if isinstance(raw, dict) else None
        re = re if type(re) is int and 0 <= re <= 2**53 else None
        try:
            message = CLIENT_ADAPTER.validate_python(raw, by_alias=True, by_name=False)
        except ValidationError as exc:
            return [self._error(conn, re, ErrorCode.BAD_MESSAGE, _summary(exc))]
        except RecursionError:
            return [self._error(conn, re, ErrorCode.BAD_MESSAGE, "nested too deeply")]
        if isinstance(message, ListTables):
            return [Send(conn, self._tables_page(message))]
        if isinstance(message, GetRecord):
            now = self.clock()
            if now - info.record_at < RECORD_INTERVAL:
                return [
                    self._error(
                        conn, message.id, ErrorCode.RATE_LIMITED, "one record a second: ask again"
                    )
                ]
            info.record_at = now
            return [self._record(conn, message)]
        if isinstance(message, Hello | Resume):
            if info.table is not None:
                return [
                    self._error(
                        conn,
                        message.id,
                        ErrorCode.ALREADY_JOINED,
                        "this connection has joined a table already",
                    )
                ]
            if message.protocol != PROTOCOL_VERSION:
                return [
                    self._error(
                        conn,
                        message.id,
                        ErrorCode.UNSUPPORTED_PROTOCOL,
                        f"this server speaks protocol {PROTOCOL_VERSION}",
                    )
                ]
            if isinstance(message, Hello):
                return self._hello(conn, info, message)
            return self._resume(conn, info, message)
        if isinstance(message, Chat):
            return self._chat(conn, info, message)
        if isinstance(message, Hint):
            return self._hint(conn, info, message)
        return self._act(conn, info, message)

    def _allow(self, info: Connection) -> bool:
        """Two token buckets: the connection's own, and its address's (so many connections
        from one machine cannot multiply what one may send)."""
        now = self.clock()
        limits = self.limits
        info.tokens = min(limits.burst, info.tokens + (now - info.refilled) * limits.per_second)
        info.refilled = now
        if info.tokens < 1:
            return False
        rate = limits.address_per_second
        bucket = self._address_buckets.get(info.address)
        if rate is not None and bucket is not None:
            bucket[0] = min(limits.address_burst, bucket[0] + (now - bucket[1]) * rate)
            bucket[1] = now
            if bucket[0] < 1:
                return False
            bucket[0] -= 1
        info.tokens -= 1
        return True

    def _tables_page(self, request: ListTables) -> dict[str, Any]:
        """One bounded page of the tables in name order (unavailable ones included), and
        where the next page starts."""
        names = sorted({*self.tables, *self.quarantined})
        start = bisect.bisect_right(names, request.after) if request.after is not None else 0
        size = max(1, min(request.limit, self.limits.list_page))
        page = names[start : start + size]
        more = start + size < len(names)
        return {
            "type": "tables",
            "re": request.id,
            "tables": [self._info_by_name(name) for name in page],
            "next": page[-1] if more and page else None,
        }

    def _record(self, conn: ConnId, request: GetRecord) -> Send:
        """A finished game's record, for a replay; a game not over as a spectator saw it."""
        self._settle_open_batch()  # what a batch holds back must not reach a record
        if request.table in self.quarantined:
            return self._error(
                conn, request.id, ErrorCode.TABLE_UNAVAILABLE, "that table cannot be loaded"
            )
        table = self.tables.get(request.table)
        if table is not None and table.state is None:
            return self._error(
                conn, request.id, ErrorCode.NOT_FINISHED, "that game has not started yet"
            )
        if table is not None and table.state is not None and table.state.score is None:
            # Not over: only what a spectator saw (every hand in it would be a leak).
            return self._public_record_reply(conn, request, table)
        version = table.state.version if table is not None and table.state is not None else 0
        cached = table.record_cache if table is not None else None
        if cached is not None and cached[:2] == (RECORD_FORMAT, version):
            record = cached[2]
        else:
            try:
                record = stored_record(self.store, request.table)
            except RecordUnavailable as exc:
                code = ErrorCode.NO_SUCH_TABLE if table is None else ErrorCode.TABLE_UNAVAILABLE
                return self._error(conn, request.id, code, str(exc))
            if not record["finished"]:  # (a stored game not loaded: cannot be, but never leak)
                return self._error(
                    conn, request.id, ErrorCode.NOT_FINISHED, "that game is not over yet"
                )
            if table is not None:
                table.record_cache = (RECORD_FORMAT, version, record)
        return Send(
            conn, {"type": "record", "re": request.id, "table": request.table, "record": record}
        )

    def _public_record_reply(self, conn: ConnId, request: GetRecord, table: Table) -> Send:
        """The record of ``table``'s game in progress as a spectator saw it, made once per
        version."""
        state = table.state
        assert state is not None
        cached = table.record_cache
        if cached is None or cached[:2] != (PUBLIC_FORMAT, state.version):
            record = public_record(state, [slot.name for slot in table.seats])
            cached = table.record_cache = (PUBLIC_FORMAT, state.version, record)
        return Send(
            conn, {"type": "record", "re": request.id, "table": request.table, "record": cached[2]}
        )

    def _info_by_name(self, name: str) -> dict[str, Any]:
        table = self.tables.get(name)
        if table is not None:
            return self._table_info(table)
        players, setup = self.store.table_size(name)
        return {
            "name": name,
            "players": players,
            "setup": setup,
            "seats": [],
            "started": False,
            "finished": False,
            "unavailable": self.quarantined[name],
        }

    # Joining ------------------------------------------------------------------------

    def _hello(self, conn: ConnId, info: Connection, hello: Hello) -> Output:
        if hello.seed is not None and not self.allow_seed:
            return [
                self._error(
                    conn,
                    hello.id,
                    ErrorCode.SEED_NOT_ALLOWED,
                    "this server deals its own games (a seed would show every hand); "
                    "leave the seed out",
                )
            ]
        table = self.tables.get(hello.table)
        known = hello.table in self.quarantined or table is not None
        if not known and self.store.has_table(hello.table):
            # A finished game: kept on disk only, until somebody asks for it.
            table = self._resume_table(hello.table)
        if hello.table in self.quarantined:
            return [
                self._error(
                    conn,
                    hello.id,
                    ErrorCode.TABLE_UNAVAILABLE,
                    f"table {hello.table} cannot be loaded ({self.quarantined[hello.table]}); "
                    "the server's log says more",
                )
            ]
        if table is None:
            if hello.spectate:
                return [
                    self._error(
                        conn, hello.id, ErrorCode.NO_SUCH_TABLE, f"no table named {hello.table}"
                    )
                ]
            refusal = self._may_create(info.address)
            if refusal is not None:
                return self._refuse_and_close(
                    conn, info, self._error(conn, hello.id, ErrorCode.TOO_MANY_TABLES, refusal)
                )
            table = self._create_table(hello, info.address)
            if table is None:
                return [self._error(conn, hello.id, ErrorCode.INTERNAL, "could not create")]
        if hello.spectate:
            info.name = hello.name
            watching = self._spectate(conn, info, table, hello.id)
            if info.table is None:  # refused: a full table is no place to wait at
                return self._refuse_and_close(conn, info, *watching)
            return watching
        if table.finished:
            return [
                self._error(
                    conn,
                    hello.id,
                    ErrorCode.TABLE_FINISHED,
                    f"the game at table {table.name} is over; choose another name",
                )
            ]
        if len(table.seats) >= table.options.players:
            return [
                self._error(
                    conn,
                    hello.id,
                    ErrorCode.TABLE_FULL,
                    f"table {table.name} is full; watch it with spectate",
                )
            ]
        if any(slot.name.casefold() == hello.name.casefold() for slot in table.seats):
            return [
                self._error(
                    conn,
                    hello.id,
                    ErrorCode.NAME_TAKEN,
                    f"a player at table {table.name} is called {hello.name} already: choose "
                    "another name (or resume your seat with its token)",
                )
            ]
        seat = len(table.seats)
        token = secrets.token_urlsafe(32)
        digest = token_digest(token)
        try:
            self._settle_open_batch()  # a seat or a table is stored at once
            self.store.add_seat(table.name, seat, hello.name, digest, hello.program)
        except StorageError:
            log.exception("storing a seat failed")
            return [self._error(conn, hello.id, ErrorCode.INTERNAL, "could not store the seat")]
        table.seats.append(SeatSlot(hello.name, digest, conn, program=hello.program))
        table.changed = self.clock()
        self._by_digest[digest] = (table.name, seat)
        info.table, info.seat = table.name, seat
        log.info("%s took seat %d of table %s", hello.name, seat, table.name)
        out: Output = [Send(conn, self._welcome(hello.id, table, seat, hello.name, token))]
        if len(table.seats) == table.options.players:
            table.state = new_game(table.options)
            table.renew_prompts()
            self._start_clocks(table)
            log.info("table %s starts", table.name)
        out += self._table_update(table)
        if table.state is not None:
            out += self._broadcast(table, resync=True)
        out += self._talk_sync(conn, table, seat)  # what was said while the table filled
        return out

    def _spectate(self, conn: ConnId, info: Connection, table: Table, msg_id: int | None) -> Output:
        limits = self.limits
        if len(table.spectators) >= limits.spectators_per_table:
            return [
                self._error(
                    conn,
                    msg_id,
                    ErrorCode.TOO_MANY_SPECTATORS,
                    f"table {table.name} has {len(table.spectators)} spectators, as many as "
                    "this server allows",
                )
            ]
        if self._spectating[info.address] >= limits.spectators_per_address:
            return [
                self._error(
                    conn,
                    msg_id,
                    ErrorCode.TOO_MANY_SPECTATORS,
                    f"{limits.spectators_per_address} spectator connections from your address "
                    "already",
                )
            ]
        table.spectators.add(conn)
        self._spectating[info.address] += 1
        info.table, info.spectator = table.name, True
        # The newcomer hears of the table now; the others in the next notice, with every
        # spectator who came or went meanwhile (not one message to all for each).
        self._notice_later(table)
        return [
            Send(conn, self._welcome(msg_id, table, None, None, None)),
            Send(conn, {"type": "table", "table": self._table_info(table)}),
            *self._spectator_sync(conn, table),
            *self._talk_sync(conn, table, None),
        ]

    def _refuse_and_close(self, conn: ConnId, info: Connection, *refusal: Send | Close) -> Output:
        """A refusal for a limit, then the close: the connection would only hold a place
        (the connection cap, a file descriptor) that others are waiting for."""
        info.closing = True
        return [*refusal, Close(conn, 1013, "a limit was reached: try again later")]

    def _notice_later(self, table: Table) -> None:
        if table.notice_due is None:
            table.notice_due = self.clock() + self.limits.notice_seconds

    def _may_create(self, address: str) -> str | None:
        """Why ``address`` may not create a table now (None: it may)."""
        limits = self.limits
        open_tables = sum(1 for table in self.tables.values() if not table.finished)
        if open_tables >= limits.max_open_tables:
            return (
                f"this server hosts {open_tables} unfinished tables, as many as it may: "
                "join one of them, or try again later"
            )
        waiting = sum(
            1 for t in self.tables.values() if t.created_by == address and t.state is None
        )
        if waiting >= limits.waiting_tables_per_address:
            return (
                f"{waiting} tables created from your address are waiting for players, as many "
                "as this server allows: fill one of them first"
            )
        recent = self._created.get(address, deque())
        while recent and recent[0] <= self.clock() - 60.0:
            recent.popleft()
        if len(recent) >= limits.tables_per_minute:
            return (
                f"this server allows {limits.tables_per_minute} new tables a minute from one "
                f"address, and yours made {len(recent)} in the last minute: try again later"
            )
        return None

    def _create_table(self, hello: Hello, address: str) -> Table | None:
        seed = hello.seed if hello.seed is not None else secrets.randbits(63)
        options = Options(players=hello.players, setup=hello.setup, seed=seed)
        salt = secrets.token_hex(16)
        clock = hello.clock.model_dump() if hello.clock is not None else None
        if clock is None and self.limits.default_clock is not None:
            decision, reserve = self.limits.default_clock
            clock = {"decision": decision, "reserve": reserve}
        try:
            self._settle_open_batch()  # a seat or a table is stored at once
            self.store.create_table(
                hello.table,
                options.to_json(),
                hello.trade_seconds,
                self.wall_clock(),
                salt,
                RULES_VERSION,
                clock,
                hello.hints,
            )
        except StorageError:
            log.exception("creating table %s failed", hello.table)
            return None
        now = self.clock()
        table = Table(
            hello.table,
            options,
            hello.trade_seconds,
            salt=salt,
            created_by=address,
            changed=now,
            clock=clock,
            hints=hello.hints,
        )
        self.tables[hello.table] = table
        self._created.setdefault(address, deque()).append(now)
        log.info(
            "table %s created for %d players (%s setup)", hello.table, hello.players, hello.setup
        )
        return table

    def _resume(self, conn: ConnId, info: Connection, resume: Resume) -> Output:
        found = self._find_seat(resume.token)
        if found is None:
            return [self._error(conn, resume.id, ErrorCode.BAD_TOKEN, "unknown seat token")]
        table, seat = found
        slot = table.seats[seat]
        out: Output = []
        if slot.conn is not None and slot.conn != conn:
            old = self.conns.get(slot.conn)
            if old is not None:
                old.table = old.seat = None
            out.append(Close(slot.conn, 4000, "this seat was taken back by a new connection"))
        slot.conn, slot.absent_since, slot.bot = conn, None, False
        table.changed = self.clock()
        info.table, info.seat = table.name, seat
        log.info("seat %d of table %s is back", seat, table.name)
        out.append(Send(conn, self._welcome(resume.id, table, seat, slot.name, None)))
        out += self._table_update(table)
        out += self._sync(conn, table, seat)
        out += self._talk_sync(conn, table, seat)
        return out

    def _find_seat(self, token: str) -> tuple[Table, int] | None:
        digest = token_digest(token)
        for known, (table_name, seat) in self._by_digest.items():
            # Compare every digest in constant time, whatever matches.
            if secrets.compare_digest(known, digest) and table_name in self.tables:
                return self.tables[table_name], seat
        return None

    # Talking --------------------------------------------------------------------------

    def _hint(self, conn: ConnId, info: Connection, hint: Hint) -> Output:
        """A seat asks its client for a hint: refused at a table with hints off, else its
        decision at that version is marked as made after a hint (nothing is sent back)."""
        table = self.tables.get(info.table) if info.table is not None else None
        if table is None:
            return [self._error(conn, hint.id, ErrorCode.HELLO_FIRST, "join a table first")]
        if not table.hints:
            return [
                self._error(
                    conn, hint.id, ErrorCode.HINTS_OFF, "this table was created without hints"
                )
            ]
        if info.spectator or info.seat is None or table.state is None:
            return []  # a spectator's or an early hint marks no decision
        since = table.prompts.get(info.seat)
        if since is not None and since <= hint.version <= table.state.version:
            table.hint_asked[info.seat] = hint.version  # about the decision it has now
        return []

    def _chat(self, conn: ConnId, info: Connection, chat: Chat) -> Output:
        """A line of table talk: stored, then heard by the table (a seat's) or by its
        spectators only (a spectator's); the speaker gets ``accepted`` and hears it too."""
        table = self.tables.get(info.table) if info.table is not None else None
        if table is None:
            return [self._error(conn, chat.id, ErrorCode.HELLO_FIRST, "join a table first")]
        if not info.chat.allow(self.clock()):
            return [
                self._error(
                    conn,
                    chat.id,
                    ErrorCode.RATE_LIMITED,
                    f"at most {CHAT_BURST} lines at once and one every "
                    f"{1 / CHAT_PER_SECOND:.0f} s: say it again in a moment",
                )
            ]
        seat = None if info.spectator else info.seat
        name = table.seats[seat].name if seat is not None else (info.name or "spectator")
        version = table.state.version if table.state is not None else 0
        line = table.talk.line(version=version, seat=seat, name=name, text=chat.text)
        try:
            self._settle_open_batch()  # talk is stored at once, as a seat is
            self.store.append_chat(table.name, line, time.time())
        except StorageError:
            log.exception("storing a line of chat failed")
            return [self._error(conn, chat.id, ErrorCode.INTERNAL, "could not store that")]
        table.talk.keep(line)
        table.changed = self.clock()
        out: Output = [Send(conn, {"type": "accepted", "re": chat.id, "version": version})]
        for listener, viewer in self._audience(table):
            if TableTalk.heard_by(line, seat=viewer):
                out.append(Send(listener, line))
        return out

    def _talk_sync(self, conn: ConnId, table: Table, seat: int | None) -> Output:
        """The recent talk a connection that joins or comes back may hear."""
        return [Send(conn, line) for line in table.talk.recent(seat=seat)]

    # Acting ---------------------------------------------------------------------------

    def _act(self, conn: ConnId, info: Connection, act: Act) -> Output:
        if info.table is None:
            return [self._error(conn, act.id, ErrorCode.HELLO_FIRST, "say hello first")]
        if info.spectator or info.seat is None:
            return [self._error(conn, act.id, ErrorCode.SPECTATOR, "spectators cannot act")]
        table = self.tables[info.table]
        state = table.state
        if state is None:
            return [
                self._error(
                    conn, act.id, ErrorCode.NOT_STARTED, "the game starts when every seat is taken"
                )
            ]
        since = table.prompts.get(info.seat)
        # Made for an older version: taken if this seat's decision is the same since (the
        # engine checks it is legal now); if the seat has nothing to decide any more, the
        # engine says why. Only a seat that acted since, or was asked anew, is stale.
        deciding = since is not None and since <= act.version <= state.version
        began, ended = table.overtaken.get(info.seat, (0, 0))
        if not deciding and began <= act.version < ended:
            return [
                self._error(
                    conn,
                    act.id,
                    ErrorCode.TOO_LATE,
                    "another seat ended that decision before your action arrived (the trade "
                    "was completed or withdrawn, or the time to answer ran out): nothing to do",
                )
            ]
        acted = table.last_acted.get(info.seat, -1)
        if (
            act.version != state.version
            and not deciding
            and (since is not None or act.version < acted)
        ):
            return [
                self._error(
                    conn, act.id, ErrorCode.STALE_VERSION, f"the game is at version {state.version}"
                )
            ]
        try:
            action = parse_action(act.action.model_dump(by_alias=True), BOARD)
            check_action(state, info.seat, action)
        except IllegalActionError as exc:
            return [self._error(conn, act.id, ErrorCode(exc.reason.value), exc.message)]
        if action[0] == Kind.COMPLETE and act.version < table.last_acted.get(action[1], -1):
            # Made before that seat answered: its answer (maybe a counter-offer, on other
            # terms) was not seen, so the trade would be on terms the proposer never saw.
            return [
                self._error(
                    conn,
                    act.id,
                    ErrorCode.STALE_VERSION,
                    f"seat {action[1]} answered at version {table.last_acted[action[1]]}, after "
                    "the version you acted on: look at its answer first",
                )
            ]
        out = self._commit(table, info.seat, action, (conn, act.id))
        if out is None:
            return [self._error(conn, act.id, ErrorCode.INTERNAL, "the action was not stored")]
        return [Send(conn, {"type": "accepted", "re": act.id, "version": state.version}), *out]

    def _commit(
        self,
        table: Table,
        seat: int,
        action: Action,
        reply: tuple[ConnId, int | None] | None = None,
        by: str | None = None,
    ) -> Output | None:
        """Apply, store (with the digest of the state it led to), then tell: None if the
        store refused, and the state is as it was. In a batch the action waits for the
        batch's commit, and what it causes is told only then (see :meth:`begin_batch`)."""
        state = table.state
        assert state is not None
        undo = Undo.capture(table)
        undo.reply = reply
        clocks = table.clocks
        if clocks is not None:
            clocks.spend(seat, now=self.clock())
        # Made after a hint if the seat asked for one since this decision was put to it.
        asked, since = table.hint_asked.pop(seat, None), table.prompts.get(seat)
        hinted = by is None and asked is not None and since is not None and asked >= since
        push_unchecked(state, seat, action)
        table.renew_prompts(seat)
        if clocks is not None:
            self._follow_clocks(table)
        if by is not None:
            table.decided_by[state.version] = by
        batch = self._batch
        try:
            self.store.append_action(
                table.name,
                state.version,
                seat,
                action_to_json(action, BOARD),
                state.digest(),
                decided_by=by,
                reserve=None if clocks is None else round(clocks.reserve[seat], 3),
                hinted=hinted,
            )
        except StorageError:
            log.exception("storing an action of table %s failed", table.name)
            undo.restore()
            if batch is not None:  # the store gave up the whole transaction
                batch.fail(batch.pending())
            return None
        if batch is not None:
            batch.undos.append(undo)
        table.changed = self.clock()
        if state.phase == Phase.TRADE:
            if table.trade_deadline is None:
                table.trade_deadline = self.clock() + table.trade_seconds
        else:
            table.trade_deadline = None
        if state.phase == Phase.OVER:
            try:
                self.store.mark_finished(table.name)
            except StorageError:
                log.exception("marking table %s finished failed", table.name)
                if batch is not None:  # the transaction, this action's too, is gone
                    batch.fail(batch.pending())
                    return None
            log.info("table %s finished", table.name)
            self.deputies.forget(table.name)
        out = self._broadcast(table)
        if state.phase == Phase.OVER:  # the table info now reveals the seed and salt
            out += self._table_update(table)
        return out

    # Batches ----------------------------------------------------------------------------

    def begin_batch(self) -> None:
        """Frames received until :meth:`end_batch` store their actions in one transaction
        (one disk sync for all of them); what they cause is held until it commits."""
        assert self._batch is None, "a batch is open already"
        self._batch = Batch()
        self.store.deferring = True

    def end_batch(self) -> Output:
        """Commit the batch's actions and return everything its frames caused; if the
        commit fails, each action's sender gets ``internal_error`` instead of its answer
        and every connection at those tables a fresh update of the state as stored."""
        batch = self._batch
        assert batch is not None, "no batch is open"
        try:
            self._settle(batch)
        finally:
            self._batch = None
            self.store.deferring = False
        return self._batch_output(batch)

    def _settle_open_batch(self) -> None:
        if self._batch is not None:
            self._settle(self._batch)

    def _settle(self, batch: Batch) -> None:
        """Commit what the batch stored so far (before a write that cannot wait)."""
        try:
            self.store.commit()
        except StorageError:
            log.exception("committing %d actions failed", len(batch.pending()))
            batch.fail(batch.pending())
        batch.settled = len(batch.undos)

    def _batch_output(self, batch: Batch) -> Output:
        affected = {undo.table.name for undo in batch.undos if batch.failed_undo(undo)}
        out: Output = []
        for chunk, undos in batch.chunks:
            failed = [undo for undo in undos if batch.failed_undo(undo)]
            if failed:
                out += [
                    self._error(conn, re, ErrorCode.INTERNAL, "the action was not stored")
                    for conn, re in (undo.reply for undo in failed if undo.reply is not None)
                ]
                continue
            out += [item for item in chunk if not self._shows(item, affected)]
        for name in sorted(affected):
            table = self.tables.get(name)
            if table is None:
                continue
            for seat, slot in enumerate(table.seats):
                if slot.conn is not None:
                    out += self._sync(slot.conn, table, seat)
            for conn in sorted(table.spectators):
                out += self._spectator_sync(conn, table)
        return out

    def _shows(self, item: Send | Close, tables: set[str]) -> bool:
        """Whether ``item`` is an update from one of ``tables`` (taken back: resent)."""
        if not tables or not isinstance(item, Send) or item.message.get("type") != "update":
            return False
        info = self.conns.get(item.conn)
        return info is not None and info.table in tables

    # Time -------------------------------------------------------------------------------

    def next_deadline(self) -> float | None:
        """When :meth:`tick` next has something to do (None: nothing pending)."""
        times = [
            t.trade_deadline
            for t in self.tables.values()
            if t.trade_deadline is not None
            and t.state is not None
            and any(seat != t.state.current for seat in seats_to_act(t.state))
        ]
        if self.hello_seconds is not None:
            waiting = [
                info.opened
                for info in self.conns.values()
                if info.table is None and not info.closing
            ]
            if waiting:
                times.append(min(waiting) + self.hello_seconds)
        limits = self.limits
        times += [t.notice_due for t in self.tables.values() if t.notice_due is not None]
        if limits.spectator_idle_seconds is not None:
            times += [
                self._spectator_idle_at(info, limits.spectator_idle_seconds)
                for info in self.conns.values()
                if info.spectator and not info.closing
            ]
        if limits.unstarted_table_seconds is not None:
            times += [
                table.changed + limits.unstarted_table_seconds
                for table in self.tables.values()
                if self._abandoned(table)
            ]
        times += [
            table.changed + limits.finished_memory_seconds
            for table in self.tables.values()
            if self._forgettable(table)
        ]
        deputies = self.deputies
        times += [
            end
            for table in self.tables.values()
            if table.clocks is not None and not table.finished
            for seat in table.clocks.since
            if (end := table.clocks.deadline(seat)) is not None
            and not deputies.busy(table.name, seat)
        ]
        takeover = limits.takeover_seconds
        if takeover is not None and self.takeover is not None:
            for table in self.tables.values():
                if (
                    table.state is None
                    or table.finished
                    or deputies.table_busy(table.name, "takeover")
                ):
                    continue
                paced = deputies.ready_at.get(table.name, float("-inf"))
                for seat in seats_to_act(table.state):
                    since = table.seats[seat].absent_since
                    if since is not None and not deputies.busy(table.name, seat):
                        times.append(max(since + takeover, paced))
        return min(times, default=None)

    def tick(self) -> Output:
        """Decline unanswered trade offers whose time is up; let takeover bots act; close
        connections that did not join a table in time."""
        now = self.clock()
        out: Output = []
        if self.hello_seconds is not None:
            late = now - self.hello_seconds
            out += [
                Close(conn, 1008, "say hello sooner")
                for conn, info in self.conns.items()
                if info.table is None and info.opened <= late and not info.closing
            ]
            for item in out:
                self.conns[item.conn].closing = True
        out += self._housekeeping(now)
        for table in self.tables.values():
            state = table.state
            if state is None or table.finished:
                continue
            if table.trade_deadline is not None and now >= table.trade_deadline:
                for seat in seats_to_act(state):
                    if state.phase == Phase.TRADE and seat != state.current:
                        # Marked as time running out: the seat did not choose to decline.
                        out += self._commit(table, seat, (Kind.ANSWER, 0), by="clock") or []
            out += self._takeovers(table, now)
            out += self._time_up(table, now)
        return out

    # Deputies: the server's decisions for a seat, made off the event loop -------------

    def drain_jobs(self) -> list[Job]:
        """The decisions asked for since the last drain (and tables whose bots may go), in
        order: the shell runs each off the event loop and hands decisions back to
        :meth:`decided`."""
        return self.deputies.drain()

    def _deputize(self, table: Table, seat: int, by: DecidedBy) -> Output:
        """Have the seat's decision made for it: asked of the takeover policy (from the
        seat's view, off the loop), or with no policy the first legal action, now.

        It decides for a person (slow, or away), so it never negotiates in their name: no
        trade offer, no counter-offer, no acceptance of another's offer (that gives their
        cards away), whatever the policy would like; it passes or declines instead. It may
        complete or withdraw the person's own offer."""
        state = table.state
        assert state is not None
        legal = [a for a in legal_actions(state, seat) if not negotiates(a)]
        if self.takeover is None:
            return self._commit(table, seat, legal[0], by=by) or []
        self.deputies.ask(table.name, seat, state.version, by, view(state, seat), legal)
        return []

    def decided(self, decision: Decision, action: Action | None) -> Output:
        """Apply the choice made for ``decision`` (None: the policy failed) like a player's
        action: only if the seat still faces the question it was asked (else the next
        tick asks again, if it must), checked against the game as it is now, committed
        before anyone hears of it. A choice that is not legal, or would negotiate, becomes
        the cautious one (pass, or decline)."""
        if not self.deputies.answered(decision):
            return []
        table = self.tables.get(decision.table)
        seat = decision.seat
        if table is None or table.state is None or table.finished:
            return []
        since = table.prompts.get(seat)
        if since is None or since > decision.version:
            return []  # the seat acted, or was asked something else, meanwhile
        if decision.by == "takeover" and table.seats[seat].absent_since is None:
            return []  # its owner came back
        state = table.state
        choice = decision.legal[0] if action is None or negotiates(action) else action
        try:
            check_action(state, seat, choice)
        except IllegalActionError as exc:
            log.warning(
                "the takeover policy chose an illegal action at table %s (%s): the first "
                "legal instead",
                table.name,
                exc.message,
            )
            choice = next(a for a in legal_actions(state, seat) if not negotiates(a))
        out = self._commit(table, seat, choice, by=decision.by)
        if decision.by == "takeover":
            self.deputies.played(table.name, self.clock())
        return out or []

    def _start_clocks(self, table: Table) -> Clocks | None:
        """A clocked table's clocks as its game starts (or resumes: the caller restores
        the reserves); the first decisions' clocks run from now."""
        if table.clock is None:
            return None
        table.clocks = Clocks.start(
            table.clock["decision"], table.clock["reserve"], table.options.players
        )
        self._follow_clocks(table)
        return table.clocks

    def _follow_clocks(self, table: Table) -> None:
        """After the prompts changed: start the clocks of new decisions (a proposer's waits
        while asked seats are still answering)."""
        state, clocks = table.state, table.clocks
        assert state is not None and clocks is not None
        waiting = (
            {state.current} if state.phase == Phase.TRADE and PENDING in state.answers else set()
        )
        clocks.follow(table.prompts, waiting=waiting, now=self.clock())

    def _time_up(self, table: Table, now: float) -> Output:
        """Decide for each seat whose time ran out (see :meth:`_deputize`), marked as the
        clock's decision."""
        clocks, state = table.clocks, table.state
        if clocks is None or state is None:
            return []
        out: Output = []
        for _ in range(1000):  # a bound: each decision moves the game on
            due = [seat for seat in clocks.due(now) if not self.deputies.busy(table.name, seat)]
            if not due or state.phase == Phase.OVER:
                break
            version = state.version
            out += self._deputize(table, due[0], "clock")
            if state.version == version and not self.deputies.busy(table.name, due[0]):
                break  # not stored: the next tick tries again
        return out

    def _spectator_idle_at(self, info: Connection, idle: float) -> float:
        table = self.tables.get(info.table or "")
        changed = table.changed if table is not None else 0.0
        return max(info.last_active, changed) + idle

    def _abandoned(self, table: Table) -> bool:
        """A table nobody plays at: never started, nobody seated and connected."""
        return table.state is None and all(slot.conn is None for slot in table.seats)

    def _housekeeping(self, now: float) -> Output:
        """What keeps a long-running server bounded: notices of spectators' comings and
        goings, idle spectators closed, abandoned tables removed."""
        limits = self.limits
        out: Output = []
        for table in self.tables.values():
            if table.notice_due is not None and now >= table.notice_due:
                table.notice_due = None
                out += self._table_update(table)
        idle = limits.spectator_idle_seconds
        if idle is not None:
            for conn, info in self.conns.items():
                if (
                    info.spectator
                    and not info.closing
                    and now >= self._spectator_idle_at(info, idle)
                ):
                    info.closing = True
                    out.append(Close(conn, 1000, "nothing happened for a long while"))
        expiry = limits.unstarted_table_seconds
        for table in list(self.tables.values()):
            if expiry is not None and self._abandoned(table) and now >= table.changed + expiry:
                out += self._remove_abandoned(table)
            elif self._forgettable(table) and now >= table.changed + limits.finished_memory_seconds:
                self._drop_from_memory(table)
        for address, created in list(self._created.items()):
            while created and created[0] <= now - 60.0:
                created.popleft()
            if not created:
                del self._created[address]
        return out

    def _remove_abandoned(self, table: Table) -> Output:
        try:
            self.store.delete_unstarted_table(table.name)
        except StorageError:
            log.exception("removing abandoned table %s failed", table.name)
            table.changed = self.clock()  # try again later, not on every tick
            return []
        log.info("table %s removed: it never started and nobody came back", table.name)
        out: Output = [
            Close(conn, 1000, "the table was removed: it never started")
            for conn in table.spectators
        ]
        for conn in table.spectators:
            info = self.conns.get(conn)
            if info is not None:
                info.closing = True
        self._drop_from_memory(table)
        return out

    def _takeover_due(self, table: Table, now: float) -> int | None:
        """The absent seat whose takeover decision is asked for next (None: none yet),
        one at a time per table, at the table's pace."""
        wait = self.limits.takeover_seconds
        state = table.state
        if wait is None or self.takeover is None or state is None or table.finished:
            return None
        deputies = self.deputies
        if deputies.table_busy(table.name, "takeover"):
            return None
        if now < deputies.ready_at.get(table.name, now):
            return None
        for seat in seats_to_act(state):
            since = table.seats[seat].absent_since
            if since is not None and now >= since + wait and not deputies.busy(table.name, seat):
                return seat
        return None

    def _takeovers(self, table: Table, now: float) -> Output:
        seat = self._takeover_due(table, now)
        if seat is None:
            return []
        out: Output = []
        if not table.seats[seat].bot:
            table.seats[seat].bot = True
            out += self._table_update(table)
        return out + self._deputize(table, seat, "takeover")

    # Building messages ----------------------------------------------------------------

    def _error(self, conn: ConnId, re: int | None, code: ErrorCode, message: str) -> Send:
        log.debug("error %s to connection %d", code.value, conn)
        return Send(conn, {"type": "error", "re": re, "code": code.value, "message": message})

    def _welcome(
        self, re: int | None, table: Table, seat: int | None, name: str | None, token: str | None
    ) -> dict[str, Any]:
        return {
            "type": "welcome",
            "re": re,
            "protocol": PROTOCOL_VERSION,
            "table": table.name,
            "seat": seat,
            "name": name,
            "token": token,
        }

    def _table_info(self, table: Table) -> dict[str, Any]:
        seats = []
        wait = self.limits.takeover_seconds if self.takeover is not None else None
        playing = table.state is not None and not table.finished
        for seat in range(table.options.players):
            if seat < len(table.seats):
                slot = table.seats[seat]
                status: dict[str, Any] = {
                    "seat": seat,
                    "name": slot.name,
                    "connected": slot.conn is not None,
                    "bot": slot.bot,
                }
                if slot.program:
                    status["program"] = True
                if wait is not None and playing and slot.absent_since is not None and not slot.bot:
                    status["takeover_in"] = round(
                        max(0.0, slot.absent_since + wait - self.clock()), 1
                    )
                seats.append(status)
            else:
                seats.append({"seat": seat, "name": None, "connected": False, "bot": False})
        return {
            "name": table.name,
            "players": table.options.players,
            "setup": table.options.setup,
            "seats": seats,
            "started": table.state is not None,
            "finished": table.finished,
            "spectators": len(table.spectators),
            **fairness(table.options.seed, table.salt, table.finished),
            **({"clock": table.clock} if table.clock is not None else {}),
            **({} if table.hints else {"hints": False}),
        }

    def _audience(self, table: Table) -> list[tuple[ConnId, int | None]]:
        seated = [
            (slot.conn, seat) for seat, slot in enumerate(table.seats) if slot.conn is not None
        ]
        return [*seated, *((conn, None) for conn in sorted(table.spectators))]

    def _table_update(self, table: Table) -> Output:
        message = {"type": "table", "table": self._table_info(table)}
        return [Send(conn, message) for conn, _ in self._audience(table)]

    def _update(
        self,
        table: Table,
        viewer: int | None,
        events: list[dict[str, Any]],
        public: dict[str, Any] | None = None,
        versions: list[int] | None = None,
    ) -> dict[str, Any]:
        """``viewer``'s update of ``events`` (the last of the log); ``public``, the state's
        spectator view, and ``versions``, the events' versions, if already built."""
        state = table.state
        assert state is not None
        if versions is None:
            versions = event_versions(events, state.version)
        shown = [
            seen
            for event, version in zip(events, versions, strict=True)
            if (seen := event_view(event, viewer, version)) is not None
        ]
        if table.decided_by:
            for seen in shown:
                if seen["type"] == "action" and (by := table.decided_by.get(seen["version"])):
                    seen["by"] = by
        prompt = None
        if viewer is not None and viewer in seats_to_act(state):
            deadline = None
            if (
                state.phase == Phase.TRADE
                and viewer != state.current
                and table.trade_deadline is not None
            ):
                deadline = max(0.0, table.trade_deadline - self.clock())
            prompt = {
                "id": table.prompts[viewer],
                "version": state.version,
                "deadline": deadline,
                "legal": [action_to_json(a, BOARD) for a in legal_actions(state, viewer)],
            }
        update = {
            "type": "update",
            "version": state.version,
            "events": shown,
            "view": view(state, viewer, public),
            "prompt": prompt,
        }
        if table.clocks is not None and not table.finished:
            update["clocks"] = table.clocks.shown(self.clock())
        return update

    def _broadcast(self, table: Table, *, resync: bool = False) -> Output:
        state = table.state
        assert state is not None and state.log is not None
        start = max(0, len(state.log) - RESYNC_EVENTS) if resync else table.sent
        events = state.log[start:]
        table.sent = len(state.log)
        public = view(state, None)  # the part of every view that all may see, built once
        versions = event_versions(events, state.version)
        out: Output = [
            Send(slot.conn, self._update(table, seat, events, public, versions))
            for seat, slot in enumerate(table.seats)
            if slot.conn is not None
        ]
        if table.spectators:
            update = self._update(table, None, events, public, versions)  # one for all of them
            out += [Send(conn, update) for conn in sorted(table.spectators)]
        return out

    def _spectator_sync(self, conn: ConnId, table: Table) -> Output:
        """A spectator's first update: the same message for all who arrive at one version."""
        state = table.state
        if state is None:
            return []
        if table.public_resync is None or table.public_resync[0] != state.version:
            assert state.log is not None
            recent = state.log[max(0, len(state.log) - RESYNC_EVENTS) :]
            table.public_resync = (state.version, self._update(table, None, recent))
        update = table.public_resync[1]
        if table.clocks is not None and not table.finished:  # the times as they stand now
            update = {**update, "clocks": table.clocks.shown(self.clock())}
        return [Send(conn, update)]

    def _sync(self, conn: ConnId, table: Table, viewer: int | None) -> Output:
        """A full resync for one connection: its view and the recent events."""
        state = table.state
        if state is None:
            return []
        assert state.log is not None
        recent = state.log[max(0, len(state.log) - RESYNC_EVENTS) :]
        return [Send(conn, self._update(table, viewer, recent))]


def _summary(exc: ValidationError) -> str:
    """A short, safe description of what was wrong with a message."""
    first = exc.errors(include_url=False, include_input=False)[:3]
    parts = [
        f"{_clip('.'.join(str(p) for p in e['loc']) or 'message')}: {_clip(e['msg'])}"
        for e in first
    ]
    more = exc.error_count() - len(first)
    return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")


def _clip(text: str, limit: int = 80) -> str:
    """Never echo a long piece of the client's input back."""
    return text if len(text) <= limit else text[:limit] + "..."
