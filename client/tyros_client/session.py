"""The client's side of the protocol, without I/O: the twin of the server's ``Session``.

A :class:`ClientSession` is fed what happens on the connection (it opened, a frame
arrived, it closed, time passed) and answers with frames to send, messages for the
program to show or act on, and when it wants to be woken next. It joins (``hello``,
or ``resume`` with the seat's token), joins afresh when the server no longer knows the
token, sends an action again when another seat's move overtook it (if it is still
legal) or when the server asked it to slow down, gives up on refusals that trying
again cannot fix, and paces reconnections. Every message it sends is built from the
protocol's models; every error code the server may send is classified here
(:data:`JOIN_ERRORS`, :data:`ACTION_ERRORS`).

The terminal client, ``tyros-bot``, the benchmarks and the test fixtures drive one
each; they keep only their sockets and what they show or decide.

>>> session = ClientSession(Join(table="friday", name="Ann", players=3))
>>> session.connection_made()
>>> [json.loads(f)["type"] for f in session.frames_to_send()]
['hello']
>>> [m["type"] for m in session.receive(json.dumps({
...     "type": "welcome", "re": 1, "protocol": 1, "table": "friday", "seat": 0,
...     "name": "Ann", "token": "secret"}))]
['welcome']
>>> session.seat, session.token
(0, 'secret')
>>> session.receive('{"type": "error", "re": 2, "code": "table_full", "message": "x"}')[0]["code"]
'table_full'
>>> session.fatal is None  # a refusal of something else than the join is not fatal
True
"""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.errors import ErrorCode
from tyros_protocol.messages import ACTION_ADAPTER, Act, Hello, ListTables, Resume

SEAT_TAKEN = 4000
"""Close code: another connection resumed this seat."""
STALE_RESENDS = 5
"""How often an action overtaken by other seats' moves is sent again for the newest prompt."""
RETRY_PAUSE = 0.25
"""Seconds before an action the server could not take now (rate limit, storage) goes again."""
RETRY_PAUSE_MAX = 5.0
FIRST_DELAY = 0.25
"""Seconds before the first reconnection; doubled after each failure, up to ``max_delay``."""


class Handling(Enum):
    """What the session does with an error the server sent."""

    FATAL = "fatal"
    """Trying again would be refused again: stop and say why."""
    REJOIN = "rejoin"
    """The seat token is unknown (a new database?): join afresh with ``hello``."""
    RETRY = "retry"
    """Not now (a rate limit, a storage failure, too many connections): try again later."""
    RESEND_IF_LEGAL = "resend_if_legal"
    """Another seat moved first: send the same action for the newest prompt if legal there."""
    REPORT = "report"
    """A refusal of what we asked: the program shows it (a person) or logs it (a bot)."""


JOIN_ERRORS: dict[ErrorCode, Handling] = {
    ErrorCode.BAD_JSON: Handling.FATAL,
    ErrorCode.BAD_MESSAGE: Handling.FATAL,
    ErrorCode.BINARY_FRAME: Handling.FATAL,
    ErrorCode.UNSUPPORTED_PROTOCOL: Handling.FATAL,
    ErrorCode.RATE_LIMITED: Handling.RETRY,
    ErrorCode.HELLO_FIRST: Handling.FATAL,
    ErrorCode.ALREADY_JOINED: Handling.FATAL,
    ErrorCode.NO_SUCH_TABLE: Handling.FATAL,
    ErrorCode.TABLE_FULL: Handling.FATAL,
    ErrorCode.TABLE_FINISHED: Handling.FATAL,
    ErrorCode.NOT_FINISHED: Handling.FATAL,
    ErrorCode.HINTS_OFF: Handling.FATAL,
    ErrorCode.BAD_TOKEN: Handling.REJOIN,
    ErrorCode.SPECTATOR: Handling.FATAL,
    ErrorCode.NOT_STARTED: Handling.FATAL,
    ErrorCode.STALE_VERSION: Handling.FATAL,
    ErrorCode.TOO_LATE: Handling.FATAL,
    ErrorCode.TOO_MANY_CONNECTIONS: Handling.RETRY,
    ErrorCode.SEED_NOT_ALLOWED: Handling.FATAL,
    ErrorCode.NAME_TAKEN: Handling.FATAL,
    ErrorCode.TOO_MANY_TABLES: Handling.FATAL,
    ErrorCode.TOO_MANY_SPECTATORS: Handling.FATAL,
    ErrorCode.TABLE_UNAVAILABLE: Handling.FATAL,
    ErrorCode.INTERNAL: Handling.RETRY,
    ErrorCode.MALFORMED_ACTION: Handling.FATAL,
    ErrorCode.GAME_OVER: Handling.FATAL,
    ErrorCode.NOT_YOUR_TURN: Handling.FATAL,
    ErrorCode.WRONG_PHASE: Handling.FATAL,
    ErrorCode.ILLEGAL_ACTION: Handling.FATAL,
    ErrorCode.CANNOT_AFFORD: Handling.FATAL,
    ErrorCode.TRADE_ALREADY_TRIED: Handling.FATAL,
}
"""An error answering our ``hello``/``resume``: how the session handles it."""

ACTION_ERRORS: dict[ErrorCode, Handling] = {
    **{code: Handling.REPORT for code in ErrorCode},
    ErrorCode.STALE_VERSION: Handling.RESEND_IF_LEGAL,
    ErrorCode.RATE_LIMITED: Handling.RETRY,
    ErrorCode.INTERNAL: Handling.RETRY,
}
"""An error answering one of our actions (or anything else we sent): how it is handled."""


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


def action_message(version: int, action: dict[str, Any], msg_id: int = 0) -> dict[str, Any]:
    """An ``action`` message (``action`` as in a prompt's legal list; checked here).

    >>> action_message(3, {"kind": "pass"}, 7)
    {'type': 'action', 'id': 7, 'version': 3, 'action': {'kind': 'pass'}}
    """
    parsed = ACTION_ADAPTER.validate_python(action, by_alias=True, by_name=False)
    return Act(id=msg_id, version=version, action=parsed).model_dump(by_alias=True)


def still_legal(action: dict[str, Any], prompt: dict[str, Any]) -> bool:
    """Whether ``action`` is one of the prompt's legal actions (any proposal or counter-offer
    counts when one is legal: the server lists them only in part, one card for one).

    >>> prompt = {"legal": [{"kind": "pass"}, {"kind": "counter", "give": ["green"],
    ...                                          "get": ["violet"]}]}
    >>> still_legal({"kind": "counter", "give": ["green", "green"], "get": ["wild"]}, prompt)
    True
    >>> still_legal({"kind": "propose", "to": [1], "give": ["green"], "get": ["wild"]}, prompt)
    False
    """
    legal = prompt.get("legal") or []
    kind = action.get("kind")
    return action in legal or (
        kind in ("propose", "counter") and any(a.get("kind") == kind for a in legal)
    )


def error_code(message: dict[str, Any]) -> ErrorCode | None:
    """The typed code of an ``error`` message (None for a code this client does not know)."""
    try:
        return ErrorCode(str(message.get("code")))
    except ValueError:
        return None


# The session -----------------------------------------------------------------------------


@dataclass(slots=True)
class _Sent:
    """An action we sent and have not seen accepted or refused yet."""

    action: dict[str, Any]
    stale_resends: int = 0
    retry_pause: float = RETRY_PAUSE


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
        self.prompt: dict[str, Any] | None = None
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
        self._sent: dict[int, _Sent] = {}
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

    # The connection ----------------------------------------------------------------------

    def connection_made(self) -> None:
        """A connection is open: join on it."""
        self.connected, self.joined, self.close_requested = True, False, False
        self._out.clear()  # what was meant for the last connection is not for this one
        self._sent.clear()
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
            if sent is not None and self._still_wanted(msg_id, sent):
                self._send_action(sent)

    # Acting ------------------------------------------------------------------------------

    def send_action(self, action: dict[str, Any]) -> bool:
        """Send ``action`` for the newest prompt; False if not joined (nothing is sent)."""
        if not self.joined:
            return False
        self._send_action(_Sent(action))
        return True

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

    def receive(self, frame: str | bytes) -> list[dict[str, Any]]:
        """Fold in one frame; the messages the program should see (none for those the
        session dealt with itself, such as an error answered by sending again)."""
        try:
            message = json.loads(frame)
        except ValueError:
            return []
        if not isinstance(message, dict):
            return []
        kind = message.get("type")
        if kind == "welcome":
            self.joined = True
            self.seat = message.get("seat")
            if message.get("token"):
                self.token = str(message["token"])
            self._delay, self._failing_since = min(FIRST_DELAY, self.max_delay), None
        elif kind == "update":
            self.version = int(message.get("version", self.version))
            self.prompt = message.get("prompt")
        elif kind == "accepted":
            re = message.get("re")
            if isinstance(re, int):
                self._sent.pop(re, None)
        elif kind == "error" and not self._on_error(message):
            return []
        return [message]

    def is_join_reply(self, message: dict[str, Any]) -> bool:
        """Whether ``message`` answers a ``hello``/``resume`` of this connection."""
        re = message.get("re")
        return isinstance(re, int) and re in self._join_ids

    def _on_error(self, message: dict[str, Any]) -> bool:
        """Deal with an error; True if the program should see it too."""
        code, re = error_code(message), message.get("re")
        if self.is_join_reply(message) and re == self._join_id:
            handling = JOIN_ERRORS.get(code, Handling.FATAL) if code else Handling.FATAL
            if handling is Handling.REJOIN:
                self.token = None
                self._send_join()
            elif handling is Handling.RETRY:
                self.close_requested = True  # reconnect (and so join again) after a pause
            else:
                self._give_up(f"{message.get('code')}: {message.get('message')}", code)
            return True
        if re is None and code is ErrorCode.RATE_LIMITED:
            if not self.joined:  # the join itself was refused unread: join again later
                self.close_requested = True
                return True
            re = self._latest  # refused before it was read: it was our newest frame
        sent = self._sent.pop(re, None) if isinstance(re, int) else None
        if sent is None or code is None or not isinstance(re, int):
            return True
        handling = ACTION_ERRORS[code]
        if (
            handling is Handling.RESEND_IF_LEGAL
            and sent.stale_resends < STALE_RESENDS
            and self._still_wanted(re, sent)
        ):
            sent.stale_resends += 1
            self._send_action(sent)
            return False
        if handling is Handling.RETRY and re == self._latest:
            self._sent[re] = sent
            self._retries.append((self.clock() + sent.retry_pause, re))
            sent.retry_pause = min(sent.retry_pause * 2, RETRY_PAUSE_MAX)
            return False
        return True

    # Inside ------------------------------------------------------------------------------

    def _still_wanted(self, msg_id: int, sent: _Sent) -> bool:
        """Whether an action may go again: the newest we sent, and legal in the prompt."""
        if msg_id != self._latest or not self.joined or self.prompt is None:
            return False
        return still_legal(sent.action, self.prompt)

    def _send_action(self, sent: _Sent) -> None:
        msg_id = next(self._ids)
        version = (self.prompt or {}).get("version", self.version)
        self._queue(action_message(version, sent.action, msg_id))
        self._sent[msg_id] = sent
        if self.on_send is not None:
            self.on_send(msg_id, version, sent.action)
        self._latest = msg_id
        while len(self._sent) > 64:
            del self._sent[next(iter(self._sent))]

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
