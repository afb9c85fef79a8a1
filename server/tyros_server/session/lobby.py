"""Coming to a table: loading stored tables, the table list, records, ``hello`` (a seat,
a new table, or a place as a spectator) and ``resume`` (a seat taken back by its token).
"""

from __future__ import annotations

import bisect
import logging
import secrets
from typing import Any

from tyros_protocol.basics import skeleton
from tyros_protocol.board import BOARD
from tyros_protocol.messages import (
    BOT_LEVELS,
    GetRecord,
    Hello,
    ListTables,
    Resume,
)
from tyros_protocol.words import letter
from tyros_rules import (
    PUBLIC_FORMAT,
    RULES_VERSION,
    Options,
    Phase,
    new_game,
    parse_action,
    public_record,
    push,
)

from ..chat import KEPT_LINES, TableTalk
from ..storage import StorageError, token_digest
from ..tables import HOUSE, ConnId, SeatSlot, Table
from . import guards
from .admission import Connection
from .archive import Archive
from .ledger import Ledger
from .outbox import Close, Output, Send, clip
from .part import Part, Shared

log = logging.getLogger("tyros.session")


class Lobby(Part):
    """Tables loaded and looked up, seats given and taken back."""

    def __init__(self, shared: Shared, ledger: Ledger, archive: Archive) -> None:
        super().__init__(shared)
        self.ledger = ledger
        self.archive = archive
        self.quarantined: dict[str, str] = self.store.quarantined()
        """Tables that could not be loaded (or were lost to damage on disk: see
        :mod:`..backups`), and why: shown as unavailable, never played."""

    def resume_table(self, name: str) -> Table | None:
        """Load a stored table and replay its game; a table that cannot be loaded is
        quarantined (named in the log, shown as unavailable) and the others go on."""
        try:
            table = self._load_table(name)
        except Exception as exc:  # whatever is wrong with one table must not stop the rest
            reason = clip(f"{type(exc).__name__}: {exc}", 200)
            self.quarantined[name] = reason
            log.error("table %s cannot be loaded and is quarantined: %s", name, reason)
            return None
        self.tables[name] = table
        for seat, slot in enumerate(table.seats):
            if not slot.house:
                self.shared.by_digest[slot.digest] = (name, seat)
                self.shared.paused.pop(slot.digest, None)  # (it was paused: back now)
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
            attended=now,
            clock=stored.clock,
            hints=stored.hints,
        )
        for slot in stored.seats:
            loaded = SeatSlot(slot.name, slot.token_digest, absent_since=now, program=slot.program)
            if loaded.house:  # the server's own bot: back at once, as it never left
                loaded.absent_since, loaded.bot = float("-inf"), True
            table.seats.append(loaded)
        if any(slot.house for slot in table.seats):  # (stored before levels: the default)
            known = stored.bot_level in BOT_LEVELS
            table.bot_level = stored.bot_level if known else self.limits.default_bot_level
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
            clocks = self.shared.start_clocks(table)
            if clocks is not None:
                for (seat, _), left in zip(stored.actions, stored.reserves or [], strict=False):
                    if left is not None:  # each seat's reserve as its last action left it
                        clocks.reserve[seat] = left
            if state.phase == Phase.TRADE:
                table.trade_deadline = now + table.trade_seconds
        log.info("resumed table %s with %d actions", name, len(stored.actions))
        return table

    def tables_page(self, conn: ConnId, request: ListTables) -> Send:
        """One bounded page of the tables in name order (unavailable ones, and finished ones
        kept on disk only, included), and where the next page starts."""
        names = sorted({*self.tables, *self.quarantined, *self.shared.listed})
        start = bisect.bisect_right(names, request.after) if request.after is not None else 0
        size = max(1, min(request.limit, self.limits.list_page))
        page = names[start : start + size]
        more = start + size < len(names)
        infos = [self._info_by_name(name) for name in page]
        next_page = page[-1] if more and page else None
        return self.outbox.tables(conn, request.id, infos, next_page, self.limits.default_bot_level)

    def record(self, conn: ConnId, request: GetRecord) -> Output:
        """A finished game's record, for a replay; a game not over as a spectator saw it.
        A record made from the store is made off the loop (:mod:`.archive`)."""
        self.ledger.settle()  # what a batch holds back must not reach a record
        if request.table in self.quarantined:
            return [self.outbox.refuse(conn, request.id, guards.RECORD_UNAVAILABLE)]
        table = self.tables.get(request.table)
        if table is not None and table.state is None:
            return [self.outbox.refuse(conn, request.id, guards.RECORD_NOT_STARTED)]
        if table is not None and table.state is not None and table.state.score is None:
            # Not over: only what a spectator saw (every hand in it would be a leak).
            return [self._public_record_reply(conn, request, table)]
        if request.public and table is not None:
            return [self._public_record_reply(conn, request, table)]
        return self.archive.fetch(
            conn, request.id, request.table, public=request.public, known=table is not None
        )

    def _public_record_reply(self, conn: ConnId, request: GetRecord, table: Table) -> Send:
        """The record of ``table``'s game as a spectator saw it (in progress, or finished
        and in memory), made once per version."""
        state = table.state
        assert state is not None
        cached = table.record_cache.get(PUBLIC_FORMAT)
        if cached is None or cached[0] != state.version:
            record = public_record(state, [slot.name for slot in table.seats])
            cached = table.record_cache[PUBLIC_FORMAT] = (state.version, record)
        return self.outbox.record(conn, request.id, request.table, cached[1])

    def _info_by_name(self, name: str) -> dict[str, Any]:
        table = self.tables.get(name)
        if table is not None:
            return self.outbox.table_info(table)
        if name in self.shared.listed and name not in self.quarantined:
            return self.shared.listed[name]
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

    def hello(self, conn: ConnId, info: Connection, hello: Hello) -> Output:
        if hello.seed is not None and not self.shared.allow_seed:
            return [self.outbox.refuse(conn, hello.id, guards.NO_SEED)]
        table = self.tables.get(hello.table)
        creating = False
        known = hello.table in self.quarantined or table is not None
        if not known and self.store.has_table(hello.table):
            # A finished game: kept on disk only, until somebody asks for it.
            table = self.resume_table(hello.table)
        if hello.table in self.quarantined:
            return [
                self.outbox.refuse(
                    conn,
                    hello.id,
                    guards.UNAVAILABLE,
                    table=hello.table,
                    why=self.quarantined[hello.table],
                )
            ]
        if table is None:
            if hello.spectate:
                return [self.outbox.refuse(conn, hello.id, guards.NO_SUCH_TABLE, table=hello.table)]
            refusal = self.admission.may_create(
                info.address, self.tables.values(), house=hello.bots > 0
            )
            if refusal is not None:
                return self._refuse_and_close(
                    conn,
                    info,
                    self.outbox.refuse(conn, hello.id, guards.TOO_MANY_TABLES, why=refusal),
                )
            refusal = self._house_refusal(hello) if hello.bots else None
            if refusal is not None:
                return [self.outbox.refuse(conn, hello.id, guards.NO_HOUSE_BOTS, why=refusal)]
            table = self._create_table(hello, info.address)
            creating = True
            if table is None:
                return [self.outbox.refuse(conn, hello.id, guards.NOT_CREATED)]
        taken = self._name_taken(table, hello.name)
        if hello.spectate:
            if taken is not None:
                return [self.outbox.refuse(conn, hello.id, guards.NAME_TAKEN, why=taken)]
            info.name = hello.name
            watching = self._spectate(conn, info, table, hello.id)
            if info.table is None:  # refused: a full table is no place to wait at
                return self._refuse_and_close(conn, info, *watching)
            return watching
        if table.finished:
            return [self.outbox.refuse(conn, hello.id, guards.FINISHED, table=table.name)]
        if len(table.seats) >= table.options.players:
            return [self.outbox.refuse(conn, hello.id, guards.FULL, table=table.name)]
        if taken is not None:
            return [self.outbox.refuse(conn, hello.id, guards.NAME_TAKEN, why=taken)]
        seat = len(table.seats)
        token = secrets.token_urlsafe(32)
        digest = token_digest(token)
        try:
            self.store.add_seat(table.name, seat, hello.name, digest, hello.program)
        except StorageError as exc:
            self.shared.faults.failed("storing a seat", exc)
            return [self.outbox.refuse(conn, hello.id, guards.SEAT_NOT_STORED)]
        table.seats.append(SeatSlot(hello.name, digest, conn, program=hello.program))
        table.changed = table.attended = self.clock()
        self.shared.by_digest[digest] = (table.name, seat)
        info.table, info.seat = table.name, seat
        log.info("%s took seat %d of table %s", hello.name, seat, table.name)
        out: Output = [Send(conn, self.outbox.welcome(hello.id, table, seat, hello.name, token))]
        if creating and hello.bots and not self._seat_house_bots(table, hello.bots, hello.name):
            # (not an answer to the hello, which took its seat: the table waits for people)
            out.append(self.outbox.refuse(conn, None, guards.BOTS_NOT_SEATED))
        if len(table.seats) == table.options.players:
            table.state = new_game(table.options)
            table.renew_prompts()
            self.shared.start_clocks(table)
            log.info("table %s starts", table.name)
        out += self.outbox.table_update(table)
        if table.state is not None:
            out += self.outbox.broadcast(table, resync=True)
        out += self.outbox.talk_sync(conn, table, seat)  # what was said while the table filled
        return out

    def _spectate(self, conn: ConnId, info: Connection, table: Table, msg_id: int | None) -> Output:
        limits = self.limits
        if len(table.spectators) >= limits.spectators_per_table:
            return [
                self.outbox.refuse(
                    conn,
                    msg_id,
                    guards.SPECTATORS_AT_TABLE,
                    table=table.name,
                    count=len(table.spectators),
                )
            ]
        if not self.admission.may_spectate(info.address):
            return [
                self.outbox.refuse(
                    conn,
                    msg_id,
                    guards.SPECTATORS_FROM_ADDRESS,
                    count=limits.spectators_per_address,
                )
            ]
        table.spectators.add(conn)
        self.admission.spectator_came(info.address)
        info.table, info.spectator = table.name, True
        # The newcomer hears of the table now; the others in the next notice, with every
        # spectator who came or went meanwhile (not one message to all for each).
        self.notice_later(table)
        return [
            Send(conn, self.outbox.welcome(msg_id, table, None, None, None)),
            self.outbox.table(conn, table),
            *self.outbox.spectator_sync(conn, table),
            *self.outbox.talk_sync(conn, table, None),
        ]

    def _name_taken(self, table: Table, name: str) -> str | None:
        """Why ``name`` may not join ``table``, as a player or a spectator (None: it may): a
        seated player there has a name that looks the same (case and look-alike letters of
        other scripts aside: ``skeleton``), and talk or the log would read as theirs."""
        looks = skeleton(name)
        for seat, slot in enumerate(table.seats):
            if skeleton(slot.name) == looks:
                same = "is called" if slot.name == name else "has a name that looks like"
                return (
                    f"the player in seat {letter(seat)} at table {table.name} {same} {name}: "
                    "choose another name (or resume your seat with its token)"
                )
        return None

    def _refuse_and_close(self, conn: ConnId, info: Connection, *refusal: Send | Close) -> Output:
        """A refusal for a limit, then the close: the connection would only hold a place
        (the connection cap, a file descriptor) that others are waiting for."""
        info.closing = True
        return [*refusal, Close(conn, 1013, "a limit was reached: try again later")]

    def notice_later(self, table: Table) -> None:
        if table.notice_due is None:
            table.notice_due = self.clock() + self.limits.notice_seconds

    def _house_refusal(self, hello: Hello) -> str | None:
        """Why the server cannot seat its own bots as ``hello`` asks (None: it can)."""
        if self.takeover is None:
            return "this server plays no bots"
        if hello.bots >= hello.players:
            return f"at most {hello.players - 1} bots: you take a seat too"
        return None

    def _seat_house_bots(self, table: Table, count: int, creator: str) -> bool:
        """Seat ``count`` of the server's own bots after the creator (False if the store
        refused). Nobody's token takes their seats; they play at the table's pace."""
        names = (f"bot-{n}" for n in range(1, 10) if f"bot-{n}".casefold() != creator.casefold())
        for name in list(names)[:count]:
            seat = len(table.seats)
            digest = f"{HOUSE}{table.name}:{seat}"
            try:
                self.store.add_seat(table.name, seat, name, digest, True)
            except StorageError as exc:
                self.shared.faults.failed("storing a bot's seat", exc)
                return False
            table.seats.append(
                SeatSlot(name, digest, absent_since=float("-inf"), bot=True, program=True)
            )
            log.info("the server's bot %s took seat %d of table %s", name, seat, table.name)
        return True

    def _create_table(self, hello: Hello, address: str) -> Table | None:
        seed = hello.seed if hello.seed is not None else secrets.randbits(63)
        options = Options(players=hello.players, setup=hello.setup, seed=seed)
        salt = secrets.token_hex(16)
        clock = hello.clock.model_dump() if hello.clock is not None else None
        if clock is None and self.limits.default_clock is not None:
            decision, reserve = self.limits.default_clock
            clock = {"decision": decision, "reserve": reserve}
        level = (hello.bot_level or self.limits.default_bot_level) if hello.bots else None
        try:
            self.store.create_table(
                hello.table,
                options.to_json(),
                hello.trade_seconds,
                self.wall_clock(),
                salt,
                RULES_VERSION,
                clock,
                hello.hints,
                level,
            )
        except StorageError as exc:
            self.shared.faults.failed(f"creating table {hello.table}", exc)
            return None
        now = self.clock()
        table = Table(
            hello.table,
            options,
            hello.trade_seconds,
            salt=salt,
            created_by=address,
            changed=now,
            attended=now,
            clock=clock,
            hints=hello.hints,
            bot_level=level,
        )
        self.tables[hello.table] = table
        self.admission.table_created(address)
        log.info(
            "table %s created for %d players (%s setup)", hello.table, hello.players, hello.setup
        )
        return table

    def resume(self, conn: ConnId, info: Connection, resume: Resume) -> Output:
        found = self._find_seat(resume.token)
        note = None
        if found is None:
            found = self._unpause(resume.token)
            note = (
                "this table was paused while nobody played at it, and left the server's "
                "memory; it goes on now, where it stood"
            )
        if found is None:
            return [self.outbox.refuse(conn, resume.id, guards.BAD_TOKEN)]
        table, seat = found
        slot = table.seats[seat]
        out: Output = []
        if slot.conn is not None and slot.conn != conn:
            old = self.conns.get(slot.conn)
            if old is not None:
                old.table = old.seat = None
            out.append(Close(slot.conn, 4000, "this seat was taken back by a new connection"))
        slot.conn, slot.absent_since, slot.bot = conn, None, False
        table.changed = table.attended = self.clock()
        info.table, info.seat = table.name, seat
        log.info("seat %d of table %s is back", seat, table.name)
        out.append(Send(conn, self.outbox.welcome(resume.id, table, seat, slot.name, None, note)))
        out += self.outbox.table_update(table)
        out += self.outbox.sync(conn, table, seat)
        out += self.outbox.talk_sync(conn, table, seat)
        return out

    def _unpause(self, token: str) -> tuple[Table, int] | None:
        """The seat ``token`` opens at a paused table, loaded again (None: none)."""
        digest = token_digest(token)
        name = next(
            (n for known, n in self.shared.paused.items() if secrets.compare_digest(known, digest)),
            None,
        )
        if name is None:
            return None
        if name not in self.tables and self.resume_table(name) is None:
            return None  # (quarantined: the log says why)
        return self._find_seat(token)

    def _find_seat(self, token: str) -> tuple[Table, int] | None:
        digest = token_digest(token)
        for known, (table_name, seat) in self.shared.by_digest.items():
            # Compare every digest in constant time, whatever matches.
            if secrets.compare_digest(known, digest) and table_name in self.tables:
                return self.tables[table_name], seat
        return None
