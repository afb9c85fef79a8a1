"""The sans-I/O heart of the server: tables, seats and connections.

:class:`Session` takes what connections say (text or bytes, already framed), and the
shell then drains what to send to whom (:meth:`Session.data_to_send`); it never touches a
socket or the event loop, so tests drive it directly. Time comes from an injected clock,
and :meth:`Session.tick` handles what time alone triggers. Every accepted action is
committed to the store before anything about it is sent.

The session is cut by responsibility, as websockets cuts its protocol: this module takes
messages in and dispatches them (and acts, and talks); :mod:`.admission` says who may send
what; :mod:`.lobby` seats players and spectators; :mod:`.ledger` commits actions;
:mod:`.timers` acts on time; :mod:`.outbox` builds every message.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
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
    TableInfo,
)
from tyros_rules import (
    Action,
    IllegalActionError,
    Kind,
    check_action,
    encode_action,
    legal_actions,
    view,
)

from ..chat import TableTalk
from ..deputies import Advice, Decision, Job, TakeoverPolicy, offers_made
from ..storage import StorageError, Store
from ..tables import ConnId, Table
from ..wire import RepeatedKey, decode_frame
from . import guards
from .admission import Connection, Limits
from .archive import Archive, Built, RecordJob
from .ledger import Ledger
from .lobby import Lobby
from .outbox import Close, Output, Send, clip
from .part import Part, Shared
from .timers import Timers

log = logging.getLogger("tyros.session")


class Session(Part):
    """Every table of one server, and the connections attached to them (the whole of which
    its parts are parts)."""

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
        levels: Callable[[str], TakeoverPolicy] | None = None,
    ) -> None:
        shared = Shared(
            store,
            limits or Limits(),
            clock,
            wall_clock,
            takeover,
            hello_seconds,
            allow_seed,
            levels,
        )
        super().__init__(shared)
        self._out: Output = []
        """What is to send, until the shell drains it (:meth:`data_to_send`)."""
        self.ledger = Ledger(shared)
        self.timers = Timers(shared, self.ledger)
        self.archive = Archive(shared)
        self.lobby = Lobby(shared, self.ledger, self.archive)
        for name in store.table_names(unfinished_only=True):
            self.lobby.resume_table(name)
        for name, listing in store.finished_listings(shared.limits.finished_listed):
            try:  # (the games that ended before the restart, as the lobby listed them)
                TableInfo.model_validate(listing)
            except ValidationError:
                log.warning("table %s: its stored row in the table list is not one", name)
                continue
            shared.listed[name] = listing

    @property
    def quarantined(self) -> dict[str, str]:
        """Tables that could not be loaded, and why: shown as unavailable, never played."""
        return self.lobby.quarantined

    # Time, batches and deputies: the shell's entry points ------------------------------

    def next_deadline(self) -> float | None:
        """When :meth:`tick` next has something to do (None: nothing pending)."""
        return self.timers.next_deadline()

    def data_to_send(self) -> Output:
        """What the session has to send, to whom, since the last call, in order: the shell
        feeds the session (a frame, a tick, a decision, a connection come or gone), then
        drains this, as websockets' protocols are fed and drained. Inside a batch what its
        frames cause waits for :meth:`end_batch`."""
        out, self._out = self._out, []
        return out

    def tick(self) -> None:
        """What time alone triggers now (see :mod:`.timers`)."""
        self._out += self.timers.tick()

    def drain_jobs(self) -> list[Job]:
        """The decisions asked for since the last drain (and tables whose bots may go), in
        order: the shell runs each off the event loop and hands decisions back to
        :meth:`decided`."""
        return self.deputies.drain()

    def drain_record_jobs(self) -> list[RecordJob]:
        """The records to make from the store since the last drain: the shell makes each
        off the event loop (:meth:`RecordJob.run`, with a store connection of its own) and
        hands it back to :meth:`recorded`."""
        return self.archive.drain()

    def recorded(self, job: RecordJob, result: Built) -> None:
        """A record made (or why not): sent to whoever asked for it and is still here."""
        self._out += self.archive.built(job, result)

    def decided(self, decision: Decision, action: Action | None) -> None:
        """Apply the choice made for ``decision`` (see :meth:`.Timers.decided`)."""
        self._out += self.timers.decided(decision, action)

    def advised(self, advice: Advice, action: Action | None) -> None:
        """Send the advice asked for (None: the policy failed, or chose what the seat may
        not do) to the connection that asked, if it is still here; its ``version`` says
        which decision it was about."""
        self.deputies.advised(advice)
        if action is not None and action not in advice.legal:
            # An offer the policy made up is checked as the engine would check it.
            table = self.tables.get(advice.table)
            state = table.state if table is not None else None
            if state is None or state.version != advice.version:
                action = None
            else:
                try:
                    check_action(state, advice.seat, action)
                except IllegalActionError:
                    action = None
        if advice.conn in self.conns:
            self._out.append(self.outbox.advice(advice.conn, advice.re, advice.version, action))

    def begin_batch(self) -> None:
        """Frames received until :meth:`end_batch` store their actions in one transaction
        (see :meth:`.Ledger.begin_batch`)."""
        self.ledger.begin_batch()

    def end_batch(self) -> None:
        """Commit the batch; everything its frames caused is then to send (see
        :meth:`.Ledger.end_batch`)."""
        self._out += self.ledger.end_batch()

    # Connections ----------------------------------------------------------------------

    def connect(self, conn: ConnId, address: str = "") -> None:
        self.conns[conn] = self.admission.arrive(address)

    def disconnect(self, conn: ConnId) -> None:
        self._out += self._disconnect(conn)

    def _disconnect(self, conn: ConnId) -> Output:
        info = self.conns.pop(conn, None)
        if info is None:
            return []
        self.admission.leave(info)
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
            return self.outbox.table_update(table)
        return []

    def _leave_as_spectator(self, conn: ConnId, info: Connection, table: Table) -> None:
        table.spectators.discard(conn)
        self.admission.spectator_left(info.address)
        self.lobby.notice_later(table)

    def receive(self, conn: ConnId, data: str | bytes) -> None:
        """Handle one frame from a connection; bad input yields a typed error only. In a
        batch (:meth:`begin_batch`) what it causes is held for :meth:`end_batch`."""
        batch = self.ledger.batch
        if batch is None:
            self._out += self._receive(conn, data)
            return
        first = len(batch.undos)
        out = self._receive(conn, data)
        batch.chunks.append((out, batch.undos[first:]))

    def _receive(self, conn: ConnId, data: str | bytes) -> Output:
        info = self.conns.get(conn)
        if info is None or info.closing:
            return []
        if not self.admission.allow(info):
            info.refused += 1
            if info.refused >= self.limits.flood_close:
                info.closing = True
                return [Close(conn, 1008, "too many messages too fast", abort=True)]
            return [self.outbox.refuse(conn, None, guards.TOO_FAST)]
        info.refused = 0
        info.last_active = self.clock()
        at = self.tables.get(info.table) if info.table is not None and not info.spectator else None
        if at is not None:  # (a table gone from memory is attended by nobody)
            at.attended = info.last_active  # its person is there
        if isinstance(data, bytes):
            return [self.outbox.refuse(conn, None, guards.BINARY)]
        try:
            raw = decode_frame(data)
        except RepeatedKey as exc:  # JSON, but it says two things: refused as a message
            return [self.outbox.refuse(conn, None, guards.NOT_A_MESSAGE, why=str(exc))]
        except (ValueError, RecursionError):
            return [self.outbox.refuse(conn, None, guards.NOT_JSON)]
        re = raw.get("id") if isinstance(raw, dict) else None
        re = re if type(re) is int and 0 <= re <= 2**53 else None
        try:
            message = CLIENT_ADAPTER.validate_python(raw, by_alias=True, by_name=False)
        except ValidationError as exc:
            return [self.outbox.refuse(conn, re, guards.NOT_A_MESSAGE, why=_summary(exc))]
        except RecursionError:
            return [self.outbox.refuse(conn, re, guards.TOO_DEEP)]
        if isinstance(message, ListTables):
            return [self.lobby.tables_page(conn, message)]
        if isinstance(message, GetRecord):
            if not self.admission.may_fetch_record(info):
                return [self.outbox.refuse(conn, message.id, guards.RECORDS_TOO_OFTEN)]
            return self.lobby.record(conn, message)
        if isinstance(message, Hello | Resume):
            if info.table is not None:
                return [self.outbox.refuse(conn, message.id, guards.ALREADY_JOINED)]
            if message.protocol != PROTOCOL_VERSION:
                protocol = PROTOCOL_VERSION
                return [
                    self.outbox.refuse(conn, message.id, guards.OTHER_PROTOCOL, protocol=protocol)
                ]
            if isinstance(message, Hello):
                return self.lobby.hello(conn, info, message)
            return self.lobby.resume(conn, info, message)
        if isinstance(message, Chat):
            return self._chat(conn, info, message)
        if isinstance(message, Hint):
            return self._hint(conn, info, message)
        return self._act(conn, info, message, raw["action"])  # (the models checked it)

    def _hint(self, conn: ConnId, info: Connection, hint: Hint) -> Output:
        """A seat asks for a hint: refused at a table with hints off, else its decision at
        that version is marked as made after a hint. With ``advice`` the server's bot
        weighs the decision (off the loop) and :meth:`advised` answers."""
        table = self.tables.get(info.table) if info.table is not None else None
        if table is None:
            return [self.outbox.refuse(conn, hint.id, guards.JOIN_FIRST)]
        if not table.hints:
            return [self.outbox.refuse(conn, hint.id, guards.HINTS_OFF)]
        state = table.state
        if info.spectator or info.seat is None or state is None:
            # A spectator's or an early hint marks no decision (and gets no advice).
            return [self.outbox.advice(conn, hint.id, 0, None)] if hint.advice else []
        seat = info.seat
        since = table.prompts.get(seat)
        if since is not None and (hint.advice or since <= hint.version <= state.version):
            # About the decision it has now (advice always is: it is the server's own).
            table.hint_asked[seat] = state.version if hint.advice else hint.version
        if not hint.advice:
            return []
        legal = legal_actions(state, seat)
        if self.takeover is None or not legal:
            return [self.outbox.advice(conn, hint.id, state.version, None)]
        advice = Advice(
            conn,
            hint.id,
            table.name,
            seat,
            state.version,
            view(state, seat),
            legal,
            self.takeover,
            table.people(),
            offers_made(state, seat),
        )
        if not self.admission.may_ask_advice(info.address) or not self.deputies.advise(
            advice, info.address
        ):
            return [self.outbox.refuse(conn, hint.id, guards.ADVICE_TOO_OFTEN)]
        return []

    def _chat(self, conn: ConnId, info: Connection, chat: Chat) -> Output:
        """A line of table talk: stored, then heard by the table (a seat's) or by its
        spectators only (a spectator's); the speaker gets ``accepted`` and hears it too."""
        table = self.tables.get(info.table) if info.table is not None else None
        if table is None:
            return [self.outbox.refuse(conn, chat.id, guards.JOIN_FIRST)]
        if not info.chat.take(self.clock()):
            return [self.outbox.refuse(conn, chat.id, guards.TALK_TOO_FAST)]
        seat = None if info.spectator else info.seat
        name = table.seats[seat].name if seat is not None else (info.name or "spectator")
        version = table.state.version if table.state is not None else 0
        line = table.talk.line(version=version, seat=seat, name=name, text=chat.text)
        try:
            self.store.append_chat(table.name, line, self.wall_clock())
        except StorageError as exc:
            self.shared.faults.failed("storing a line of chat", exc)
            return [self.outbox.refuse(conn, chat.id, guards.TALK_NOT_STORED)]
        table.talk.keep(line)
        self.archive.forget(table.name)  # its full record holds the talk
        table.changed = self.clock()
        out: Output = [self.outbox.accepted(conn, chat.id, version)]
        for listener, viewer in self.outbox.audience(table):
            if TableTalk.heard_by(line, seat=viewer):
                out.append(Send(listener, line))
        return out

    def _act(self, conn: ConnId, info: Connection, act: Act, wire: dict[str, Any]) -> Output:
        """``act``, whose action ``wire`` (as it came) the protocol's models have checked:
        it is encoded once, then checked against the game (an incoming action is parsed
        once)."""
        if info.table is None:
            return [self.outbox.refuse(conn, act.id, guards.HELLO_FIRST)]
        if info.spectator or info.seat is None:
            return [self.outbox.refuse(conn, act.id, guards.SPECTATOR)]
        table = self.tables[info.table]
        state = table.state
        if state is None:
            return [self.outbox.refuse(conn, act.id, guards.NOT_STARTED)]
        since = table.prompts.get(info.seat)
        # Made for an older version: taken if this seat's decision is the same since (the
        # engine checks it is legal now); if the seat has nothing to decide any more, the
        # engine says why. Only a seat that acted since, or was asked anew, is stale.
        deciding = since is not None and since <= act.version <= state.version
        began, ended = table.overtaken.get(info.seat, (0, 0))
        if not deciding and began <= act.version < ended:
            return [self.outbox.refuse(conn, act.id, guards.TOO_LATE)]
        acted = table.last_acted.get(info.seat, -1)
        if (
            act.version != state.version
            and not deciding
            and (since is not None or act.version < acted)
        ):
            return [self.outbox.refuse(conn, act.id, guards.STALE, version=state.version)]
        try:
            action = encode_action(wire, BOARD)
            check_action(state, info.seat, action)
        except IllegalActionError as exc:
            return [self.outbox.error(conn, act.id, ErrorCode(exc.reason.value), exc.message)]
        if action[0] == Kind.COMPLETE and act.version < table.last_acted.get(action[1], -1):
            # Made before that seat answered: its answer (maybe a counter-offer, on other
            # terms) was not seen, so the trade would be on terms the proposer never saw.
            answered = table.last_acted[action[1]]
            return [
                self.outbox.refuse(
                    conn, act.id, guards.ANSWERED_SINCE, seat=action[1], version=answered
                )
            ]
        out = self.ledger.commit(table, info.seat, action, (conn, act.id))
        if out is None:
            return [
                self.outbox.refuse(conn, act.id, guards.NOT_STORED, why=self.ledger.not_stored())
            ]
        return [self.outbox.accepted(conn, act.id, state.version), *out]


def _summary(exc: ValidationError) -> str:
    """A short, safe description of what was wrong with a message."""
    first = exc.errors(include_url=False, include_input=False)[:3]
    parts = [
        f"{clip('.'.join(str(p) for p in e['loc']) or 'message')}: {clip(e['msg'])}" for e in first
    ]
    more = exc.error_count() - len(first)
    return "; ".join(parts) + (f" (+{more} more)" if more > 0 else "")
