"""Every refusal the session's guards make, in one table: the code a client reads and the
words a person reads (``{...}`` filled in where a refusal names something), as the client's
``Handling`` tables say once what it does with each code. The outbox builds the message
(:meth:`.Outbox.refuse`); the engine's own refusals keep the engine's words.

>>> STALE.said(version=12)
'the game is at version 12'
>>> NO_SUCH_TABLE.code.value
'no_such_table'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tyros_protocol.errors import ErrorCode

from ..chat import CHAT_BURST, CHAT_PER_SECOND


@dataclass(frozen=True, slots=True)
class Guard:
    """One guard's refusal."""

    code: ErrorCode
    words: str

    def said(self, **fill: Any) -> str:
        return self.words.format(**fill) if fill else self.words


# Any frame ------------------------------------------------------------------------------

TOO_FAST = Guard(ErrorCode.RATE_LIMITED, "slow down")
BINARY = Guard(ErrorCode.BINARY_FRAME, "send JSON text frames")
NOT_JSON = Guard(ErrorCode.BAD_JSON, "not valid JSON")
NOT_A_MESSAGE = Guard(ErrorCode.BAD_MESSAGE, "{why}")
"""Not a message of the protocol (``why``: which field, or a repeated key)."""
TOO_DEEP = Guard(ErrorCode.BAD_MESSAGE, "nested too deeply")
RECORDS_TOO_OFTEN = Guard(
    ErrorCode.RATE_LIMITED, "one record a second (and a few more from one address): ask again"
)

# Joining --------------------------------------------------------------------------------

ALREADY_JOINED = Guard(ErrorCode.ALREADY_JOINED, "this connection has joined a table already")
OTHER_PROTOCOL = Guard(ErrorCode.UNSUPPORTED_PROTOCOL, "this server speaks protocol {protocol}")
NO_SEED = Guard(
    ErrorCode.SEED_NOT_ALLOWED,
    "this server deals its own games (a seed would show every hand); leave the seed out",
)
UNAVAILABLE = Guard(
    ErrorCode.TABLE_UNAVAILABLE,
    "table {table} cannot be loaded ({why}); the server's log says more",
)
NO_SUCH_TABLE = Guard(ErrorCode.NO_SUCH_TABLE, "no table named {table}")
TOO_MANY_TABLES = Guard(ErrorCode.TOO_MANY_TABLES, "{why}")
"""(``why``: the admission's words for the bound met.)"""
NO_HOUSE_BOTS = Guard(ErrorCode.BAD_MESSAGE, "{why}")
"""The server's own bots cannot take the seats asked for (``why``: the lobby's words)."""
NOT_CREATED = Guard(ErrorCode.INTERNAL, "could not create")
NAME_TAKEN = Guard(ErrorCode.NAME_TAKEN, "{why}")
FINISHED = Guard(ErrorCode.TABLE_FINISHED, "the game at table {table} is over; choose another name")
FULL = Guard(ErrorCode.TABLE_FULL, "table {table} is full: watch it, or choose another table")
SEAT_NOT_STORED = Guard(ErrorCode.INTERNAL, "could not store the seat")
BOTS_NOT_SEATED = Guard(ErrorCode.INTERNAL, "could not seat the bots")
SPECTATORS_AT_TABLE = Guard(
    ErrorCode.TOO_MANY_SPECTATORS,
    "table {table} has {count} spectators, as many as this server allows",
)
SPECTATORS_FROM_ADDRESS = Guard(
    ErrorCode.TOO_MANY_SPECTATORS, "{count} spectator connections from your address already"
)
BAD_TOKEN = Guard(ErrorCode.BAD_TOKEN, "unknown seat token")
PAUSED = Guard(
    ErrorCode.TABLE_PAUSED,
    "table {table} was paused: nobody played at it for a long while. "
    "Resume your seat with its token to go on",
)

# Records --------------------------------------------------------------------------------

RECORD_UNAVAILABLE = Guard(ErrorCode.TABLE_UNAVAILABLE, "that table cannot be loaded")
RECORD_NOT_STARTED = Guard(ErrorCode.NOT_FINISHED, "that game has not started yet")
RECORDS_BUSY = Guard(
    ErrorCode.RATE_LIMITED, "the server is making other records: ask again in a moment"
)

# At a table -----------------------------------------------------------------------------

JOIN_FIRST = Guard(ErrorCode.HELLO_FIRST, "join a table first")
HELLO_FIRST = Guard(ErrorCode.HELLO_FIRST, "say hello first")
HINTS_OFF = Guard(ErrorCode.HINTS_OFF, "this table was created without hints")
ADVICE_TOO_OFTEN = Guard(
    ErrorCode.RATE_LIMITED,
    "advice is on its way (to you, or to your address) or was asked too often: ask after it",
)
TALK_TOO_FAST = Guard(
    ErrorCode.RATE_LIMITED,
    f"at most {CHAT_BURST} lines at once and one every {1 / CHAT_PER_SECOND:.0f} s: "
    "say it again in a moment",
)
TALK_NOT_STORED = Guard(ErrorCode.INTERNAL, "could not store that")
SPECTATOR = Guard(ErrorCode.SPECTATOR, "spectators cannot act")
NOT_STARTED = Guard(ErrorCode.NOT_STARTED, "the game starts when every seat is taken")
TOO_LATE = Guard(
    ErrorCode.TOO_LATE,
    "another seat ended that decision before your action arrived (the trade was completed "
    "or withdrawn, or the time to answer ran out): nothing to do",
)
STALE = Guard(ErrorCode.STALE_VERSION, "the game is at version {version}")
ANSWERED_SINCE = Guard(
    ErrorCode.STALE_VERSION,
    "seat {seat} answered at version {version}, after the version you acted on: "
    "look at its answer first",
)
NOT_STORED = Guard(ErrorCode.INTERNAL, "{why}")
"""An action the store did not keep (``why``: the ledger's words, which say whether the
server still writes)."""
