"""What a :class:`~.session.ClientSession` tells the program: a notice for each message
received (validated and classified once), a handle for each action sent and its fate, and
how each error the server may send is handled (:data:`JOIN_ERRORS`, :data:`ACTION_ERRORS`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from tyros_protocol.errors import ErrorCode
from tyros_protocol.events import Event
from tyros_protocol.messages import Accepted as AcceptedMessage
from tyros_protocol.messages import (
    AdviceMessage,
    ChatLine,
    Error,
    GameView,
    Prompt,
    Record,
    SeatClock,
    TableInfo,
    Tables,
    Update,
    Welcome,
)

RETRY_PAUSE = 0.25
"""Seconds before an action the server could not take now (rate limit, storage) goes again."""


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
    # (not at once again: the table waits on disk until its player resumes it on purpose)
    ErrorCode.TABLE_PAUSED: Handling.FATAL,
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


class Fate(Enum):
    """What became of an action sent."""

    PENDING = "pending"
    """Sent (perhaps again), not answered yet: on its way."""
    ACCEPTED = "accepted"
    REFUSED = "refused"
    """The server said no (:attr:`ActionHandle.refusal` says why), or it can no longer be
    sent (another seat's move made it illegal)."""
    LOST = "lost"
    """The connection closed before an answer: it may or may not have been played (the
    next update says)."""


@dataclass(eq=False, slots=True)
class ActionHandle:
    """One action the program sent, and what became of it. The session may send it again
    (under new message ids: another seat moved first, or the server asked it to slow down);
    the handle stays the same until the action is answered."""

    action: dict[str, Any]
    version: int
    """The game version it was first sent for."""
    fate: Fate = Fate.PENDING
    refusal: Error | None = None
    """The ``error`` message that refused it."""
    played_at: int | None = None
    """The game version it led to, once accepted (the update that shows it follows)."""
    stale_resends: int = 0
    retry_pause: float = RETRY_PAUSE

    @property
    def pending(self) -> bool:
        return self.fate is Fate.PENDING

    def unseen(self, version: int) -> bool:
        """Whether it is pending, or accepted and the update that shows it (at ``played_at``)
        has not come yet: the game at ``version`` is not yet what the server made of it."""
        return self.pending or (
            self.fate is Fate.ACCEPTED and self.played_at is not None and version < self.played_at
        )


# Notices: what the session tells the program, each message validated and classified once


@dataclass(frozen=True, slots=True)
class Joined:
    """A seat (or a place as a spectator) at a table: the ``welcome``."""

    welcome: Welcome
    seat: int | None
    table: str
    token: str | None
    fresh: bool
    """Another table or seat than before: nothing of it has been seen yet."""


@dataclass(frozen=True, slots=True)
class JoinRefused:
    """The server refused to seat us; :attr:`handling` says what the session does."""

    error: Error
    handling: Handling

    @property
    def code(self) -> ErrorCode:
        return self.error.code


@dataclass(frozen=True, slots=True)
class Updated:
    """An ``update``, with only the events not seen before."""

    update: Update
    events: list[Event]
    """The update's events that are new to this seat (a resync repeats recent ones)."""
    resync: bool
    """The first update since a join: it repeats the recent events."""
    restart: bool
    """Nothing tells old events from new (a first join, or events without versions): what
    was shown of the game is to be shown afresh from :attr:`events`."""

    @property
    def prompt(self) -> Prompt | None:
        return self.update.prompt

    @property
    def view(self) -> GameView:
        return self.update.view

    @property
    def version(self) -> int:
        return self.update.version

    @property
    def clocks(self) -> list[SeatClock] | None:
        return self.update.clocks


@dataclass(frozen=True, slots=True)
class Accepted:
    """One of our actions was played (``handle`` None: one we no longer track)."""

    accepted: AcceptedMessage
    handle: ActionHandle | None


@dataclass(frozen=True, slots=True)
class Refused:
    """The server refused something we sent after joining: one of our actions
    (``handle``), or talk, a hint, a request (``handle`` None)."""

    error: Error
    handle: ActionHandle | None

    @property
    def code(self) -> ErrorCode:
        return self.error.code


@dataclass(frozen=True, slots=True)
class TableChanged:
    """Who sits at the table, connected or not, and the table's settings."""

    info: TableInfo


@dataclass(frozen=True, slots=True)
class Heard:
    """A line of table talk not heard before."""

    line: ChatLine


@dataclass(frozen=True, slots=True)
class Reply:
    """Anything else: a table list, a record, advice."""

    message: Tables | Record | AdviceMessage


Notice = Joined | JoinRefused | Updated | Accepted | Refused | TableChanged | Heard | Reply
"""What :meth:`ClientSession.receive` tells the program."""


__all__ = [
    "ACTION_ERRORS",
    "JOIN_ERRORS",
    "RETRY_PAUSE",
    "Accepted",
    "ActionHandle",
    "Fate",
    "Handling",
    "Heard",
    "JoinRefused",
    "Joined",
    "Notice",
    "Refused",
    "Reply",
    "TableChanged",
    "Updated",
]
