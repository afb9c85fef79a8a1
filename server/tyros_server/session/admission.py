"""What one server allows, and who is let in: each connection's and each address's
message rates, tables created per address, spectators per address.

Every rate is one :class:`~tyros_server.buckets.TokenBucket`; every bound is in
:class:`Limits`, and every bound is an option of ``tyros-server``.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tyros_protocol.messages import DEFAULT_BOT_LEVEL, BotLevel

from ..buckets import PerAddress, TokenBucket
from ..chat import CHAT_BURST, CHAT_PER_SECOND
from ..tables import Table

RECORD_INTERVAL = 1.0
"""Seconds between two ``get_record`` of one connection (a record costs milliseconds)."""


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
    proposer_grace_seconds: float = 60.0
    """At a table without a clock: seconds a proposer has, once the answers' time is up,
    to complete or withdraw an offer before it is withdrawn for them."""
    bot_pace_seconds: float = 1.0
    """Seconds between two of a table's takeover decisions at least: a table of absent
    players goes on at a person's pace, not in one burst."""
    default_clock: tuple[int, int] | None = None
    """(decision, reserve) seconds for tables created without a clock (None: no clock)."""
    default_bot_level: BotLevel = DEFAULT_BOT_LEVEL
    """The level of the server's own bots at a table created without one."""
    max_open_tables: int = 100
    """Unfinished tables the server hosts at once."""
    tables_per_minute: int = 20
    """Tables one address may create in a minute..."""
    waiting_tables_per_address: int = 10
    """...and have waiting for players at once (so one machine cannot fill the server)..."""
    tables_per_address: int = 10
    """...and have unfinished, started or not (a table created with the server's bots
    starts at once)..."""
    house_tables_per_address: int = 2
    """...of which with the server's bots (their decisions cost the server's CPU)..."""
    max_house_tables: int = 20
    """...and the server hosts with its bots at once, from every address."""
    unattended_table_seconds: float | None = 1800.0
    """A table of the server's bots without a clock whose people did nothing for this long
    (away, or connected and idle) is paused: it leaves memory, and every count, until one of
    them resumes their seat (None: never)."""
    unstarted_table_seconds: float | None = 3600.0
    """A table that never started and has nobody seated and connected is removed after
    this long (nothing was played at it), so abandoned tables do not fill the server."""
    finished_memory_seconds: float = 600.0
    """A finished table nobody is at leaves memory after this long (it stays on disk)..."""
    finished_in_memory: int = 20
    """...and the oldest go sooner when more are kept (each holds its game, about 1 MiB)."""
    finished_listed: int = 200
    """The lobby still lists this many of the finished tables that left memory (the latest
    to leave), each by the row it had, so that its game can be found and replayed."""
    record_rate: float = 1.0
    """Records one address may ask for a second, all its connections together (each of
    them one a second at most)..."""
    record_burst: int = 5
    """...after a burst of this many."""
    advice_rate: float = 0.5
    """Advice one address may ask for a second (a bot weighs each), after a burst of
    ``advice_burst``; one under way at a time per address (see ``deputies``)."""
    advice_burst: int = 4
    list_page: int = 50
    """Tables in one ``tables`` answer at most."""
    spectators_per_table: int = 32
    spectators_per_address: int = 16
    spectator_idle_seconds: float | None = 1800.0
    """A spectator is closed when neither it nor its table did anything for this long."""
    notice_seconds: float = 2.0
    """Spectators' arrivals and departures are announced together, at most this late."""


def _message_bucket() -> TokenBucket:
    defaults = Limits()
    return TokenBucket.full(defaults.per_second, defaults.burst, 0.0)


def _chat_bucket() -> TokenBucket:
    return TokenBucket.full(CHAT_PER_SECOND, CHAT_BURST, 0.0)


@dataclass(slots=True)
class Connection:
    address: str
    table: str | None = None
    seat: int | None = None
    spectator: bool = False
    messages: TokenBucket = field(default_factory=_message_bucket)
    """What it may still send (beside its address's allowance)."""
    opened: float = 0.0
    last_active: float = 0.0
    """When it last sent a message (a spectator doing nothing is closed in the end)."""
    refused: int = 0
    """Messages refused in a row for coming too fast."""
    closing: bool = False
    """A close was asked for (it is not asked twice)."""
    name: str | None = None
    """A spectator's name, from its hello (a seat's is its slot's)."""
    chat: TokenBucket = field(default_factory=_chat_bucket)
    """The lines of table talk it may still say (beside the limit on all its messages)."""
    record_at: float = float("-inf")
    """When it last asked for a record (one a second: a record is costly to make)."""


class Admission:
    """The allowances of connections and addresses (``clock`` is the session's)."""

    def __init__(self, limits: Limits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        self.address_buckets: dict[str, TokenBucket] = {}
        """Each connected address's message allowance, shared by its connections."""
        self.address_conns: Counter[str] = Counter()
        self.spectating: Counter[str] = Counter()
        """Spectator connections per address."""
        self.created: dict[str, deque[float]] = {}
        """When each address created its tables of the last minute."""
        self.records = PerAddress(limits.record_rate, limits.record_burst)
        """The records each address may still ask for (a record costs milliseconds)."""
        self.advice = PerAddress(limits.advice_rate, limits.advice_burst)
        """The advice each address may still ask for (a bot's decision costs more)."""

    def arrive(self, address: str) -> Connection:
        """A new connection from ``address``."""
        now, limits = self.clock(), self.limits
        if not self.address_conns[address] and limits.address_per_second is not None:
            self.address_buckets[address] = TokenBucket.full(
                limits.address_per_second, limits.address_burst, now
            )
        self.address_conns[address] += 1
        return Connection(
            address,
            messages=TokenBucket.full(limits.per_second, limits.burst, now),
            chat=TokenBucket.full(CHAT_PER_SECOND, CHAT_BURST, now),
            opened=now,
            last_active=now,
        )

    def leave(self, info: Connection) -> None:
        address = info.address
        self.address_conns[address] -= 1
        if not self.address_conns[address]:
            del self.address_conns[address]
            self.address_buckets.pop(address, None)

    def allow(self, info: Connection) -> bool:
        """Whether a message from ``info`` is served: two token buckets, the connection's
        own and its address's (so many connections from one machine cannot multiply what
        one may send)."""
        now = self.clock()
        if not info.messages.ready(now):
            return False
        shared = self.address_buckets.get(info.address)
        if shared is not None:
            if not shared.ready(now):
                return False
            shared.spend()
        info.messages.spend()
        return True

    def may_fetch_record(self, info: Connection) -> bool:
        """One record a second per connection, and ``record_rate`` per address (so that
        many connections from one machine cannot multiply it)."""
        now = self.clock()
        if now - info.record_at < RECORD_INTERVAL:
            return False
        if not self.records.take(info.address, now):
            return False
        info.record_at = now
        return True

    def may_ask_advice(self, address: str) -> bool:
        return self.advice.take(address, self.clock())

    # Spectators --------------------------------------------------------------------

    def may_spectate(self, address: str) -> bool:
        return self.spectating[address] < self.limits.spectators_per_address

    def spectator_came(self, address: str) -> None:
        self.spectating[address] += 1

    def spectator_left(self, address: str) -> None:
        self.spectating[address] -= 1
        if not self.spectating[address]:
            del self.spectating[address]

    # Tables ------------------------------------------------------------------------

    def may_create(
        self, address: str, tables: Iterable[Table], *, house: bool = False
    ) -> str | None:
        """Why ``address`` may not create a table now (with the server's bots if ``house``),
        beside ``tables`` (None: it may)."""
        limits = self.limits
        tables = list(tables)
        open_tables = sum(1 for table in tables if not table.finished)
        if open_tables >= limits.max_open_tables:
            return (
                f"this server hosts {open_tables} unfinished tables, as many as it may: "
                "join one of them, or try again later"
            )
        waiting = sum(1 for t in tables if t.created_by == address and t.state is None)
        if waiting >= limits.waiting_tables_per_address:
            return (
                f"{waiting} tables created from your address are waiting for players, as many "
                "as this server allows: fill one of them first"
            )
        mine = sum(1 for t in tables if t.created_by == address and not t.finished)
        if mine >= limits.tables_per_address:
            return (
                f"{mine} unfinished tables were created from your address, as many as this "
                "server allows: finish one of them first"
            )
        if house:
            refusal = self._house_refusal(address, tables)
            if refusal is not None:
                return refusal
        recent = self.created.get(address, deque())
        while recent and recent[0] <= self.clock() - 60.0:
            recent.popleft()
        if len(recent) >= limits.tables_per_minute:
            return (
                f"this server allows {limits.tables_per_minute} new tables a minute from one "
                f"address, and yours made {len(recent)} in the last minute: try again later"
            )
        return None

    def _house_refusal(self, address: str, tables: list[Table]) -> str | None:
        limits = self.limits
        house = [t for t in tables if not t.finished and any(s.house for s in t.seats)]
        if len(house) >= limits.max_house_tables:
            return (
                f"this server's bots play at {len(house)} tables, as many as it allows: join "
                "a table of people, or try again later"
            )
        mine = sum(1 for t in house if t.created_by == address)
        if mine >= limits.house_tables_per_address:
            return (
                f"this server's bots play at {mine} tables created from your address, as many "
                "as it allows: finish one of them first"
            )
        return None

    def table_created(self, address: str) -> None:
        self.created.setdefault(address, deque()).append(self.clock())

    def forget_old(self, now: float) -> None:
        """Forget tables created more than a minute ago (the addresses with them too)."""
        for address, created in list(self.created.items()):
            while created and created[0] <= now - 60.0:
                created.popleft()
            if not created:
                del self.created[address]
