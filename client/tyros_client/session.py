"""The client's side of the protocol, without I/O: the twin of the server's ``Session``.

A :class:`ClientSession` is fed what happens on the connection (it opened, a frame
arrived, it closed, time passed) and answers with frames to send, typed notices for the
program to show or act on (:data:`Notice`: each frame validated once with the protocol's
models, which the notices carry; events and talk passed on once), and when it wants to be
woken next. Each action sent has a
handle that says what became of it (:class:`ActionHandle`). It joins (``hello``,
or ``resume`` with the seat's token), joins afresh when the server no longer knows the
token, sends an action again when another seat's move overtook it (if it is still
legal) or when the server asked it to slow down, gives up on refusals that trying
again cannot fix, and paces reconnections. Every message it sends is built from the
protocol's models; every error code the server may send is classified, and what it tells
the program is typed, in :mod:`.notices`.

The terminal client, ``tyros-bot``, the benchmarks and the test fixtures drive one
each; they keep only their sockets and what they show or decide.

>>> session = ClientSession(Join(table="friday", name="Ann", players=3))
>>> session.connection_made()
>>> [json.loads(f)["type"] for f in session.frames_to_send()]
['hello']
>>> [joined] = session.receive(json.dumps({
...     "type": "welcome", "re": 1, "protocol": 1, "table": "friday", "seat": 0,
...     "name": "Ann", "token": "secret"}))
>>> type(joined).__name__, joined.seat, session.token
('Joined', 0, 'secret')
>>> [refused] = session.receive('{"type": "error", "re": 2, "code": "table_full", "message": "x"}')
>>> type(refused).__name__, refused.code.value
('Refused', 'table_full')
>>> session.fatal is None  # a refusal of something else than the join is not fatal
True
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.errors import ErrorCode
from tyros_protocol.messages import (
    ACTION_ADAPTER,
    Act,
    ChatLine,
    Error,
    GetRecord,
    Hello,
    ListTables,
    Prompt,
    Resume,
    TableUpdate,
    Update,
    Welcome,
    parse_server_message,
)
from tyros_protocol.messages import Accepted as AcceptedMessage

from .notices import (
    ACTION_ERRORS,
    JOIN_ERRORS,
    Accepted,
    ActionHandle,
    Fate,
    Handling,
    Heard,
    Joined,
    JoinRefused,
    Notice,
    Refused,
    Reply,
    TableChanged,
    Updated,
)

SEAT_TAKEN = 4000
"""Close code: another connection resumed this seat."""
STALE_RESENDS = 5
"""How often an action overtaken by other seats' moves is sent again for the newest prompt."""
RETRY_PAUSE_MAX = 5.0
FIRST_DELAY = 0.25
"""Seconds before the first reconnection; doubled after each failure, up to ``max_delay``."""


@dataclass(frozen=True, slots=True)
class Join:
    """Which table to join, as whom, and how to create it if it does not exist yet."""

    table: str
    name: str
    players: int = 4
    setup: str = "first"
    seed: int | None = None
    trade_seconds: int | None = None
    spectate: bool = False
    clock: tuple[int, int] | None = None
    """(decision, reserve) seconds for the table's clock, if it is created (None: the
    server's default)."""
    hints: bool | None = None
    """Whether players may ask for hints, if the table is created (None: yes)."""
    program: bool | None = None
    """True: a program plays this seat (a bot), and the table shows it."""
    bots: int | None = None
    """The seats the server's own bots take at once, if the table is created."""


# Messages, built from the protocol's models ---------------------------------------------


def hello_message(join: Join, msg_id: int = 0) -> dict[str, Any]:
    """The ``hello`` for ``join`` (options left unset are not sent: the server's defaults).

    >>> hello_message(Join("friday", "Ann", players=3), 1)["players"]
    3
    """
    fields: dict[str, Any] = {
        "id": msg_id,
        "protocol": PROTOCOL_VERSION,
        "name": join.name,
        "table": join.table,
        "players": join.players,
        "setup": join.setup,
        "seed": join.seed,
        "trade_seconds": join.trade_seconds,
        "spectate": join.spectate,
        "hints": join.hints,
        "program": join.program,
        "bots": join.bots,
        "clock": None
        if join.clock is None
        else {"decision": join.clock[0], "reserve": join.clock[1]},
    }
    hello = Hello(**{key: value for key, value in fields.items() if value is not None})
    given = hello.model_fields_set | {"type"}
    return {key: value for key, value in hello.model_dump().items() if key in given}


def resume_message(token: str, msg_id: int = 0) -> dict[str, Any]:
    return Resume(id=msg_id, protocol=PROTOCOL_VERSION, token=token).model_dump(by_alias=True)


def list_tables_message(msg_id: int = 0) -> dict[str, Any]:
    return ListTables(id=msg_id).model_dump(by_alias=True)


def record_message(table: str, msg_id: int = 0) -> dict[str, Any]:
    """A ``get_record`` for ``table``'s game (any connection may ask, joined or not).

    >>> record_message("friday", 1)
    {'type': 'get_record', 'id': 1, 'table': 'friday', 'public': False}
    """
    return GetRecord(id=msg_id, table=table).model_dump(by_alias=True)


def action_message(version: int, action: dict[str, Any], msg_id: int = 0) -> dict[str, Any]:
    """An ``action`` message (``action`` as in a prompt's legal list; checked here).

    >>> action_message(3, {"kind": "pass"}, 7)
    {'type': 'action', 'id': 7, 'version': 3, 'action': {'kind': 'pass'}}
    """
    parsed = ACTION_ADAPTER.validate_python(action, by_alias=True, by_name=False)
    return Act(id=msg_id, version=version, action=parsed).model_dump(by_alias=True)


def still_legal(action: dict[str, Any], prompt: Prompt) -> bool:
    """Whether ``action`` is one of the prompt's legal actions (any proposal or counter-offer
    counts when one is legal: the server lists them only in part, one card for one).

    >>> prompt = Prompt.model_validate({"version": 3, "legal": [{"kind": "pass"},
    ...     {"kind": "counter", "give": ["green"], "get": ["violet"]}]})
    >>> still_legal({"kind": "counter", "give": ["green", "green"], "get": ["wild"]}, prompt)
    True
    >>> still_legal({"kind": "propose", "to": [1], "give": ["green"], "get": ["wild"]}, prompt)
    False
    """
    kind = action.get("kind")
    if kind in ("propose", "counter"):
        return any(a.kind == kind for a in prompt.legal)
    try:
        typed = ACTION_ADAPTER.validate_python(action, by_alias=True, by_name=False)
    except ValueError:  # (not an action at all: never legal)
        return False
    return typed in prompt.legal


# The session -----------------------------------------------------------------------------


class ClientSession:
    """One seat's (or a spectator's) protocol state across connections."""

    def __init__(
        self,
        join: Join,
        *,
        token: str | None = None,
        max_delay: float = 5.0,
        give_up_after: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.join = join
        self.token = None if join.spectate else token
        self.seat: int | None = None
        self.fatal: str | None = None
        """Why the session gave up (None while it goes on)."""
        self.fatal_code: ErrorCode | None = None
        self.connected = False
        self.joined = False
        self.prompt: Prompt | None = None
        """The newest prompt the server sent this seat (None: nothing asked of it now)."""
        self.version = -1
        self.max_delay = max_delay
        self.give_up_after = give_up_after
        self.clock = clock
        self._ids = itertools.count(1)
        self._join_id: int | None = None
        self._join_ids: set[int] = set()
        """The ids of every ``hello``/``resume`` sent on this connection."""
        self._out: list[str] = []
        self._sent: dict[int, ActionHandle] = {}
        """Message id -> the action it carried, until answered."""
        self._latest: int | None = None
        """The id of the newest action sent: an older one is never sent again."""
        self._retries: list[tuple[float, int]] = []
        """(when, id) of actions waiting to go again after a pause."""
        self._delay = min(FIRST_DELAY, max_delay)
        self._failing_since: float | None = None
        self.close_requested = False
        """The session wants the connection closed (it gave up)."""
        self.on_send: Callable[[int, int, dict[str, Any]], None] | None = None
        """Told (message id, version, action) of every action sent, resent ones too."""
        self.seen_version = -1
        """The game version of the newest event passed on: a repeated one is not."""
        self.heard = 0
        """The ``seq`` of the newest line of talk passed on."""
        self._resync = True
        """The next update is the first since a join: it repeats the recent events."""
        self._table: str | None = None
        self.invalid = 0
        """Frames passed over: not JSON, or not a message of the protocol."""

    # The connection ----------------------------------------------------------------------

    def connection_made(self) -> None:
        """A connection is open: join on it."""
        self.connected, self.joined, self.close_requested = True, False, False
        self._out.clear()  # what was meant for the last connection is not for this one
        self._lose_sent()
        self._retries.clear()
        self._join_ids.clear()
        self._latest = None
        self._send_join()

    def connection_lost(self, code: int | None = None, reason: str | None = None) -> None:
        """The connection closed (``code`` None: it could not be opened or just broke)."""
        was_joined = self.joined
        self.connected = self.joined = False
        self.prompt = None
        self._out.clear()
        self._retries.clear()
        self._lose_sent()
        if code == SEAT_TAKEN and self.fatal is None:
            self._give_up(reason or "another client took this seat", None)
        if was_joined:
            self._delay, self._failing_since = min(FIRST_DELAY, self.max_delay), None

    def reconnect_delay(self) -> float | None:
        """Seconds to wait before connecting again (None: do not; see :attr:`fatal`)."""
        if self.fatal is not None:
            return None
        now = self.clock()
        if self._failing_since is None:
            self._failing_since = now
        elif self.give_up_after is not None and now - self._failing_since > self.give_up_after:
            self._give_up(f"the server was unreachable for over {self.give_up_after:.0f} s", None)
            return None
        delay = self._delay
        self._delay = min(self._delay * 2, self.max_delay)
        return delay

    def frames_to_send(self) -> list[str]:
        """The frames to write to the connection now, in order."""
        out, self._out = self._out, []
        return out

    # Time --------------------------------------------------------------------------------

    def next_timer(self) -> float | None:
        """When (on ``clock``) :meth:`tick` has something to do (None: nothing pending)."""
        return min((at for at, _ in self._retries), default=None)

    def tick(self) -> None:
        """Send again the actions whose pause is over."""
        now = self.clock()
        due = [item for item in self._retries if item[0] <= now]
        self._retries = [item for item in self._retries if item[0] > now]
        for _, msg_id in due:
            sent = self._sent.pop(msg_id, None)
            if sent is None:
                continue
            if self._still_wanted(msg_id, sent):
                self._send_action(sent)
            elif sent.pending:  # the game moved on meanwhile: it is not sent again
                sent.fate = Fate.REFUSED

    # Acting ------------------------------------------------------------------------------

    def send_action(self, action: dict[str, Any]) -> ActionHandle | None:
        """Send ``action`` for the newest prompt: its handle, which tells what becomes of
        it; None if not joined (nothing is sent)."""
        if not self.joined:
            return None
        handle = ActionHandle(action, self.version if self.prompt is None else self.prompt.version)
        self._send_action(handle)
        return handle

    def send_chat(self, text: str) -> bool:
        """Say ``text`` at the table; False if not joined (nothing is sent). Talk is not
        sent again after a refusal: the player sees why and may say it again."""
        if not self.joined:
            return False
        self._queue({"type": "chat", "id": next(self._ids), "text": text})
        return True

    def send_hint(self, version: int) -> bool:
        """Tell the server this seat asks for a hint at ``version`` (it marks the decision
        in the record); False if not joined."""
        if not self.joined:
            return False
        self._queue({"type": "hint", "id": next(self._ids), "version": version})
        return True

    # Receiving ---------------------------------------------------------------------------

    def receive(self, frame: str | bytes) -> list[Notice]:
        """Fold in one frame; what the program should know of it (nothing for what the
        session dealt with itself, such as an error answered by sending again, or an
        event or a line of talk passed on before)."""
        try:
            message = parse_server_message(frame)
        except ValueError:  # (pydantic's ValidationError is one) not a message of ours
            self.invalid += 1
            return []
        if isinstance(message, Welcome):
            return [self._welcome(message)]
        if isinstance(message, Update):
            return [self._update(message)]
        if isinstance(message, AcceptedMessage):
            handle = self._sent.pop(message.re, None) if message.re is not None else None
            if handle is not None:
                handle.fate, handle.played_at = Fate.ACCEPTED, message.version
            return [Accepted(message, handle)]
        if isinstance(message, Error):
            notice = self._on_error(message)
            return [] if notice is None else [notice]
        if isinstance(message, TableUpdate):
            return [TableChanged(message.table)]
        if isinstance(message, ChatLine):
            if message.seq <= self.heard:
                return []  # said before (a resync shows the recent talk again)
            self.heard = message.seq
            return [Heard(message)]
        return [Reply(message)]

    def _welcome(self, message: Welcome) -> Joined:
        self.joined = True
        seat, table = message.seat, message.table
        fresh = (table, seat) != (self._table, self.seat)
        if fresh:  # another game or seat: all its events are new
            self.seen_version, self.heard = -1, 0
        self.seat, self._table = seat, table
        if message.token:
            self.token = message.token
        self._resync = True
        self._delay, self._failing_since = min(FIRST_DELAY, self.max_delay), None
        return Joined(message, seat, table, self.token, fresh)

    def _update(self, message: Update) -> Updated:
        self.version = message.version
        self.prompt = message.prompt
        events = message.events
        resync, restart = self._resync, False
        if resync:
            self._resync = False
            if self.seen_version < 0:
                restart, self.seen_version = True, -1  # nothing to tell old from new by
        # (a resync repeats the recent events: those passed on already are not again)
        new = [event for event in events if event.version > self.seen_version]
        self.seen_version = max((event.version for event in new), default=self.seen_version)
        return Updated(message, new, resync, restart)

    def _on_error(self, message: Error) -> Notice | None:
        """Deal with an error; what the program should know of it (None: nothing)."""
        code, re = message.code, message.re
        if re is not None and re in self._join_ids and re == self._join_id:
            handling = JOIN_ERRORS.get(code, Handling.FATAL)
            if handling is Handling.REJOIN:
                self.token = None
                self._send_join()
            elif handling is Handling.RETRY:
                self.close_requested = True  # reconnect (and so join again) after a pause
            else:
                self._give_up(f"{code.value}: {message.message}", code)
            return JoinRefused(message, handling)
        if re is None and code is ErrorCode.RATE_LIMITED:
            if not self.joined:  # the join itself was refused unread: join again later
                self.close_requested = True
                return JoinRefused(message, Handling.RETRY)
            re = self._latest  # refused before it was read: it was our newest frame
        sent = self._sent.pop(re, None) if re is not None else None
        if sent is None or re is None:
            return Refused(message, None)
        handling = ACTION_ERRORS[code]
        if (
            handling is Handling.RESEND_IF_LEGAL
            and sent.stale_resends < STALE_RESENDS
            and self._still_wanted(re, sent)
        ):
            sent.stale_resends += 1
            self._send_action(sent)
            return None
        if handling is Handling.RETRY and re == self._latest:
            sent.refusal = message  # why, if it can never go again
            self._sent[re] = sent
            self._retries.append((self.clock() + sent.retry_pause, re))
            sent.retry_pause = min(sent.retry_pause * 2, RETRY_PAUSE_MAX)
            return None
        sent.fate, sent.refusal = Fate.REFUSED, message
        return Refused(message, sent)

    # Inside ------------------------------------------------------------------------------

    def _lose_sent(self) -> None:
        """The connection is gone: the actions it carried are answered by nobody."""
        for handle in self._sent.values():
            if handle.pending:
                handle.fate = Fate.LOST
        self._sent.clear()

    def _still_wanted(self, msg_id: int, sent: ActionHandle) -> bool:
        """Whether an action may go again: the newest we sent, and legal in the prompt."""
        if msg_id != self._latest or not self.joined or self.prompt is None:
            return False
        return still_legal(sent.action, self.prompt)

    def _send_action(self, sent: ActionHandle) -> None:
        msg_id = next(self._ids)
        version = self.version if self.prompt is None else self.prompt.version
        self._queue(action_message(version, sent.action, msg_id))
        self._sent[msg_id] = sent
        if self.on_send is not None:
            self.on_send(msg_id, version, sent.action)
        self._latest = msg_id
        while len(self._sent) > 64:  # long unanswered: an answer now would be no news
            forgotten = self._sent.pop(next(iter(self._sent)))
            if forgotten.pending and forgotten is not sent:
                forgotten.fate = Fate.LOST

    def _send_join(self) -> None:
        self._join_id = next(self._ids)
        self._join_ids.add(self._join_id)
        if self.token is not None and not self.join.spectate:
            self._queue(resume_message(self.token, self._join_id))
        else:
            self._queue(hello_message(self.join, self._join_id))

    def give_up(self, why: str) -> None:
        """The program cannot go on (its player failed): close, and do not reconnect."""
        self._give_up(why, None)

    def _give_up(self, why: str, code: ErrorCode | None) -> None:
        self.fatal, self.fatal_code = why, code
        self.close_requested = True

    def _queue(self, message: dict[str, Any]) -> None:
        self._out.append(json.dumps(message))
