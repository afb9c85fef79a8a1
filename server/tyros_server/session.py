"""The sans-I/O heart of the server: tables, seats and connections.

:class:`Session` takes what connections say (text or bytes, already framed)
and returns what to send to whom; it never touches a socket or the event
loop, so tests drive it directly. Time comes from an injected clock and
:meth:`Session.tick` handles what time alone triggers (unanswered trade
offers, takeover bots). Every accepted action is committed to the store
before anything about it is returned.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.board import BOARD
from tyros_protocol.errors import ErrorCode
from tyros_protocol.messages import CLIENT_ADAPTER, Act, Hello, ListTables, Resume

from .engine import (
    Action,
    GameState,
    IllegalActionError,
    Kind,
    Options,
    Phase,
    action_to_json,
    check_action,
    event_view,
    legal_actions,
    new_game,
    parse_action,
    push,
    push_unchecked,
    seats_to_act,
    view,
)
from .storage import StorageError, Store, fairness, token_digest

log = logging.getLogger("tyros.session")

ConnId = int
TakeoverPolicy = Callable[[str, int, dict[str, Any], list[Action]], Action]
"""(table, seat, view, legal) -> action: plays an absent seat from that seat's view only."""

RESYNC_EVENTS = 200
"""Events replayed to a (re)joining connection; its view holds the rest."""


@dataclass(slots=True)
class Send:
    conn: ConnId
    message: dict[str, Any]


@dataclass(slots=True)
class Close:
    conn: ConnId
    code: int
    reason: str


Output = list[Send | Close]


@dataclass(slots=True)
class SeatSlot:
    name: str
    digest: str
    conn: ConnId | None = None
    absent_since: float | None = None
    bot: bool = False
    """A takeover bot is playing this seat until its owner returns."""


@dataclass(slots=True)
class Table:
    name: str
    options: Options
    trade_seconds: int
    seats: list[SeatSlot] = field(default_factory=list)
    spectators: set[ConnId] = field(default_factory=set)
    state: GameState | None = None
    sent: int = 0
    """How much of the game's log has been broadcast."""
    trade_deadline: float | None = None
    salt: str = ""
    """Secret until the game ends; with the seed it makes the table's commitment."""

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.phase == Phase.OVER


@dataclass(slots=True)
class Connection:
    address: str
    table: str | None = None
    seat: int | None = None
    spectator: bool = False
    tokens: float = 0.0
    refilled: float = 0.0
    opened: float = 0.0
    closing: bool = False
    """A close was asked for (it is not asked twice)."""


@dataclass(frozen=True, slots=True)
class Limits:
    burst: int = 100
    """Messages a connection may send at once..."""
    per_second: float = 50.0
    """...and on average."""
    takeover_seconds: float | None = None
    """A bot plays a disconnected seat after this long (None: the table waits)."""


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
        self.tables: dict[str, Table] = {}
        self.conns: dict[ConnId, Connection] = {}
        self._by_digest: dict[str, tuple[str, int]] = {}
        for name in store.table_names(unfinished_only=True):
            self._resume_table(name)

    # Loading ------------------------------------------------------------------

    def _resume_table(self, name: str) -> None:
        stored = self.store.load_table(name)
        assert stored is not None
        now = self.clock()
        table = Table(name, Options(**stored.options), stored.trade_seconds, salt=stored.salt)
        for slot in stored.seats:
            table.seats.append(SeatSlot(slot.name, slot.token_digest, absent_since=now))
            self._by_digest[slot.token_digest] = (name, slot.seat)
        if len(table.seats) == table.options.players:
            state = new_game(table.options)
            for seat, action in stored.actions:
                push(state, seat, parse_action(action, BOARD))
            assert state.log is not None
            table.state = state
            table.sent = len(state.log)
            if state.phase == Phase.TRADE:
                table.trade_deadline = now + table.trade_seconds
        self.tables[name] = table
        log.info("resumed table %s with %d actions", name, len(stored.actions))

    # Connections ----------------------------------------------------------------

    def connect(self, conn: ConnId, address: str = "") -> Output:
        now = self.clock()
        self.conns[conn] = Connection(address, tokens=self.limits.burst, refilled=now, opened=now)
        return []

    def disconnect(self, conn: ConnId) -> Output:
        info = self.conns.pop(conn, None)
        if info is None or info.table is None:
            return []
        table = self.tables[info.table]
        if info.spectator:
            table.spectators.discard(conn)
            return self._table_update(table)
        assert info.seat is not None
        slot = table.seats[info.seat]
        if slot.conn == conn:
            slot.conn = None
            slot.absent_since = self.clock()
            log.info("seat %d of table %s disconnected", info.seat, table.name)
            return self._table_update(table)
        return []

    def receive(self, conn: ConnId, data: str | bytes) -> Output:
        """Handle one frame from a connection; bad input yields a typed error only."""
        info = self.conns.get(conn)
        if info is None:
            return []
        if not self._allow(info):
            return [self._error(conn, None, ErrorCode.RATE_LIMITED, "slow down")]
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
            return [
                Send(
                    conn,
                    {
                        "type": "tables",
                        "re": message.id,
                        "tables": [self._table_info(t) for t in self.tables.values()],
                    },
                )
            ]
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
        return self._act(conn, info, message)

    def _allow(self, info: Connection) -> bool:
        now = self.clock()
        limits = self.limits
        info.tokens = min(limits.burst, info.tokens + (now - info.refilled) * limits.per_second)
        info.refilled = now
        if info.tokens < 1:
            return False
        info.tokens -= 1
        return True

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
        if table is None and self.store.load_table(hello.table) is not None:
            self._resume_table(hello.table)  # a finished game: only kept on disk until asked
            table = self.tables[hello.table]
        if table is None:
            if hello.spectate:
                return [
                    self._error(
                        conn, hello.id, ErrorCode.NO_SUCH_TABLE, f"no table named {hello.table}"
                    )
                ]
            table = self._create_table(hello)
            if table is None:
                return [self._error(conn, hello.id, ErrorCode.INTERNAL, "could not create")]
        if hello.spectate:
            table.spectators.add(conn)
            info.table, info.spectator = table.name, True
            welcome = self._welcome(hello.id, table, None, None, None)
            return [Send(conn, welcome), *self._table_update(table), *self._sync(conn, table, None)]
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
            self.store.add_seat(table.name, seat, hello.name, digest)
        except StorageError:
            log.exception("storing a seat failed")
            return [self._error(conn, hello.id, ErrorCode.INTERNAL, "could not store the seat")]
        table.seats.append(SeatSlot(hello.name, digest, conn))
        self._by_digest[digest] = (table.name, seat)
        info.table, info.seat = table.name, seat
        log.info("%s took seat %d of table %s", hello.name, seat, table.name)
        out: Output = [Send(conn, self._welcome(hello.id, table, seat, hello.name, token))]
        if len(table.seats) == table.options.players:
            table.state = new_game(table.options)
            log.info("table %s starts", table.name)
        out += self._table_update(table)
        if table.state is not None:
            out += self._broadcast(table, resync=True)
        return out

    def _create_table(self, hello: Hello) -> Table | None:
        seed = hello.seed if hello.seed is not None else secrets.randbits(63)
        options = Options(players=hello.players, setup=hello.setup, seed=seed)
        salt = secrets.token_hex(16)
        try:
            self.store.create_table(
                hello.table, options.to_json(), hello.trade_seconds, self.wall_clock(), salt
            )
        except StorageError:
            log.exception("creating table %s failed", hello.table)
            return None
        table = Table(hello.table, options, hello.trade_seconds, salt=salt)
        self.tables[hello.table] = table
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
        info.table, info.seat = table.name, seat
        log.info("seat %d of table %s is back", seat, table.name)
        out.append(Send(conn, self._welcome(resume.id, table, seat, slot.name, None)))
        out += self._table_update(table)
        out += self._sync(conn, table, seat)
        return out

    def _find_seat(self, token: str) -> tuple[Table, int] | None:
        digest = token_digest(token)
        for known, (table_name, seat) in self._by_digest.items():
            # Compare every digest in constant time, whatever matches.
            if secrets.compare_digest(known, digest) and table_name in self.tables:
                return self.tables[table_name], seat
        return None

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
        if act.version != state.version:
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
        out = self._commit(table, info.seat, action)
        if out is None:
            return [self._error(conn, act.id, ErrorCode.INTERNAL, "the action was not stored")]
        return [Send(conn, {"type": "accepted", "re": act.id, "version": state.version}), *out]

    def _commit(self, table: Table, seat: int, action: Action) -> Output | None:
        """Store, then apply, then tell: None if the store refused (state unchanged)."""
        state = table.state
        assert state is not None
        try:
            self.store.append_action(
                table.name, state.version + 1, seat, action_to_json(action, BOARD)
            )
        except StorageError:
            log.exception("storing an action of table %s failed", table.name)
            return None
        push_unchecked(state, seat, action)
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
            log.info("table %s finished", table.name)
        return self._broadcast(table)

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
        takeover = self.limits.takeover_seconds
        if takeover is not None and self.takeover is not None:
            for table in self.tables.values():
                if table.state is None or table.finished:
                    continue
                for seat in seats_to_act(table.state):
                    since = table.seats[seat].absent_since
                    if since is not None:
                        times.append(since + takeover)
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
        for table in self.tables.values():
            state = table.state
            if state is None or table.finished:
                continue
            if table.trade_deadline is not None and now >= table.trade_deadline:
                for seat in seats_to_act(state):
                    if state.phase == Phase.TRADE and seat != state.current:
                        out += self._commit(table, seat, (Kind.ANSWER, 0)) or []
            out += self._takeovers(table, now)
        return out

    def _takeovers(self, table: Table, now: float) -> Output:
        wait = self.limits.takeover_seconds
        if wait is None or self.takeover is None or table.state is None:
            return []
        out: Output = []
        state = table.state
        for _ in range(10_000):  # a bound, in case a policy never ends its turn
            due = [
                seat
                for seat in seats_to_act(state)
                if (since := table.seats[seat].absent_since) is not None and now >= since + wait
            ]
            if not due or state.phase == Phase.OVER:
                break
            seat = due[0]
            if not table.seats[seat].bot:
                table.seats[seat].bot = True
                out += self._table_update(table)
            legal = legal_actions(state, seat)
            action = self.takeover(table.name, seat, view(state, seat), legal)
            try:
                check_action(state, seat, action)  # a policy's mistake must not corrupt the game
            except IllegalActionError:
                log.exception("the takeover policy chose an illegal action; passing on")
                action = legal[0]
            committed = self._commit(table, seat, action)
            if committed is None:
                break
            out += committed
        return out

    # Building messages ----------------------------------------------------------------

    def _error(self, conn: ConnId, re: int | None, code: ErrorCode, message: str) -> Send:
        log.debug("error %s to connection %d", code.value, conn)
        return Send(conn, {"type": "error", "re": re, "code": code.value, "message": message})

    def _welcome(
        self, re: int, table: Table, seat: int | None, name: str | None, token: str | None
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
        for seat in range(table.options.players):
            if seat < len(table.seats):
                slot = table.seats[seat]
                seats.append(
                    {
                        "seat": seat,
                        "name": slot.name,
                        "connected": slot.conn is not None,
                        "bot": slot.bot,
                    }
                )
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
        self, table: Table, viewer: int | None, events: list[dict[str, Any]]
    ) -> dict[str, Any]:
        state = table.state
        assert state is not None
        shown = [seen for event in events if (seen := event_view(event, viewer)) is not None]
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
                "version": state.version,
                "deadline": deadline,
                "legal": [action_to_json(a, BOARD) for a in legal_actions(state, viewer)],
            }
        return {
            "type": "update",
            "version": state.version,
            "events": shown,
            "view": view(state, viewer),
            "prompt": prompt,
        }

    def _broadcast(self, table: Table, *, resync: bool = False) -> Output:
        state = table.state
        assert state is not None and state.log is not None
        start = max(0, len(state.log) - RESYNC_EVENTS) if resync else table.sent
        events = state.log[start:]
        table.sent = len(state.log)
        return [
            Send(conn, self._update(table, viewer, events))
            for conn, viewer in self._audience(table)
        ]

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
