"""Every message of the tyros protocol, both ways, as pydantic models.

Messages are JSON text frames. Each is an object with a ``type``; the models
forbid unknown fields. Clients send :data:`ClientMessage`, the server sends
:data:`ServerMessage`. The first message of a connection is ``hello``
(join or create a table, or watch it), ``resume`` (take a seat back with its
token) or ``list_tables``.

>>> msg = parse_client_message('{"type": "list_tables", "id": 1}')
>>> msg.type, msg.id
('list_tables', 1)
>>> act = parse_client_message(
...     '{"type": "action", "id": 2, "version": 7, '
...     '"action": {"kind": "move", "from": "TY", "to": "23", "pay": ["green", "wild"]}}')
>>> act.action.model_dump(by_alias=True)
{'kind': 'move', 'from': 'TY', 'to': '23', 'pay': ['green', 'wild']}
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, TypeAdapter

from .actions import (
    Action,
    AnswerAction,
    BankDrawAction,
    BankPickAction,
    CityAction,
    CompleteAction,
    CounterAction,
    ExpandAction,
    GiveCardAction,
    KeepAction,
    MoveAction,
    PassAction,
    ProposeAction,
    ReturnTileAction,
    ShipAction,
    WithdrawAction,
)
from .basics import (
    CardName,
    Cards,
    ChatText,
    ColourName,
    MessageId,
    Model,
    PlayerName,
    PortLabel,
    SeatNumber,
    SpaceLabel,
    TableName,
    printable_name,
)
from .errors import ErrorCode
from .events import Event
from .options import (
    MAX_DECISION,
    MAX_RESERVE,
    MAX_TRADE_SECONDS,
    MIN_DECISION,
    MIN_RESERVE,
    MIN_TRADE_SECONDS,
)
from .views import (
    EmpireInfo,
    EmpireScore,
    GameView,
    PlayerEmpireScore,
    PlayerScore,
    ScoreSheet,
    SeatInfo,
    ShipStack,
    TradeAnswer,
    TradeInfo,
)

# Client -> server -----------------------------------------------------------------


class ClockSetting(Model):
    """A table's clock: ``decision`` free seconds for every decision, and a ``reserve`` each
    seat spends when it thinks longer. When both run out the server decides for the seat
    (a bot, from that seat's view), that once."""

    decision: Annotated[int, Field(ge=MIN_DECISION, le=MAX_DECISION)]
    reserve: Annotated[int, Field(ge=MIN_RESERVE, le=MAX_RESERVE)]


BotLevel = Literal["easy", "normal", "hard", "expert"]
"""How strong the server's own bots at a table are: the levels ``tyros-play --level`` and
``tyros-bot --level`` take (easy slips, normal is greedy, hard searches, expert searches
five times as long)."""
BOT_LEVELS: tuple[BotLevel, ...] = get_args(BotLevel)
DEFAULT_BOT_LEVEL: BotLevel = "normal"
"""The level of the server's own bots unless the server or the hello says another."""


class Hello(Model):
    """Join a table (creating it if it does not exist) or watch it."""

    type: Literal["hello"] = "hello"
    id: MessageId | None = None
    """Echoed as the answer's ``re`` (null when the message has none)."""
    protocol: int
    name: PlayerName
    table: TableName
    players: Literal[3, 4] = 4
    setup: Literal["first", "variable"] = "first"
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | None = None
    trade_seconds: Annotated[int, Field(ge=MIN_TRADE_SECONDS, le=MAX_TRADE_SECONDS)] = 60
    """How long asked seats have to answer a trade offer (no answer = decline)."""
    clock: ClockSetting | None = None
    """A clock for the table, if this hello creates it (null: the server's default)."""
    hints: bool = True
    """If this hello creates the table: whether its players may ask for hints."""
    program: bool = False
    """This seat is played by a program (``tyros-bot``): the table shows it as a bot."""
    bots: Annotated[int, Field(ge=0, le=3)] = 0
    """If this hello creates the table: seats the server's own bots take at once (fewer
    than the players: the one saying hello takes a seat too)."""
    bot_level: BotLevel | None = None
    """If this hello creates the table with the server's bots: their level (null: the
    server's default, ``tyros-server --bot-level``)."""
    spectate: bool = False


class Resume(Model):
    """Take a seat back with the token received when joining."""

    type: Literal["resume"] = "resume"
    id: MessageId | None = None
    """Echoed as the answer's ``re`` (null when the message has none)."""
    protocol: int
    token: Annotated[str, Field(min_length=1, max_length=64)]


class ListTables(Model):
    """Ask for one page of the tables, in name order: those named after ``after``."""

    type: Literal["list_tables"] = "list_tables"
    id: MessageId | None = None
    """Echoed as the answer's ``re`` (null when the message has none)."""
    after: TableName | None = None
    """The ``next`` of the previous page (None: from the first table)."""
    limit: Annotated[int, Field(ge=1, le=100)] = 50
    """At most this many tables (the server may send fewer)."""


class GetRecord(Model):
    """Ask for a finished game's record (to replay it); any connection may, hello or not."""

    type: Literal["get_record"] = "get_record"
    id: MessageId | None = None
    """Echoed as the answer's ``re`` (null when the message has none)."""
    table: TableName
    public: bool = False
    """Ask for the game as a spectator saw it (``tyros-public-replay/1``: views after each
    decision), finished or not: for a client with no engine of its own to replay a record."""


class Hint(Model):
    """Say that this seat asks its client for a hint at game ``version`` (the client's bot
    thinks; the server only marks the seat's next decision as made after a hint)."""

    type: Literal["hint"] = "hint"
    id: MessageId | None = None
    """Echoed as an error's ``re`` (null when the message has none)."""
    version: Annotated[int, Field(ge=0)]
    advice: bool = False
    """Ask the server for its bot's choice too (a client with no bot of its own, such as
    the browser's page): answered by ``advice``."""


class Act(Model):
    """Take an action, made for the state ``version`` the client saw."""

    type: Literal["action"] = "action"
    id: MessageId | None = None
    """Echoed as the answer's ``re`` (null when the message has none)."""
    version: Annotated[int, Field(ge=0)]
    action: Action


class Chat(Model):
    """Say something at your table: a seat's words go to everyone there, a spectator's to
    the spectators only (nobody coaches a player). At most 300 characters, printable."""

    type: Literal["chat"] = "chat"
    id: MessageId | None = None
    """Echoed as the answer's ``re`` (null when the message has none)."""
    text: ChatText


ClientMessage = Annotated[
    Hello | Resume | ListTables | GetRecord | Hint | Act | Chat, Field(discriminator="type")
]

# Server -> client: messages -------------------------------------------------------


class SeatStatus(Model):
    seat: SeatNumber
    name: str | None
    connected: bool
    bot: bool = False
    """True while a takeover bot plays the seat for its absent owner."""
    program: bool = False
    """The seat said (``hello``) that a program plays it: a bot of its own."""
    takeover_in: float | None = None
    """For a seat whose owner is away: seconds from this message until a bot plays it
    (when it must act; 0: at its next decision). Null when connected, when a bot plays it
    already, or when the server lets no bot play absent seats."""


class TableInfo(Model):
    name: str
    players: Literal[3, 4]
    setup: Literal["first", "variable"]
    seats: list[SeatStatus]
    started: bool
    finished: bool
    spectators: int = 0
    unavailable: str | None = None
    """Why this table cannot be played or watched now (it could not be loaded)."""
    commitment: str | None = None
    """SHA-256 (hex) of ``tyros-seed:{seed}:{salt}``, fixed before the first deal."""
    hints: bool = True
    """Whether the players may ask their clients for hints (a table option; the server
    sends it only when false)."""
    seed: int | None = None
    """The game's seed, revealed (with ``salt``) once the game is over: below 2^63, so where
    JSON numbers are doubles (JavaScript) read its digits from the frame's text."""
    salt: str | None = None
    clock: ClockSetting | None = None
    """The table's clock (absent: none)."""
    winners: list[SeatNumber] | None = None
    """A finished game's winners (more than one: a shared win); absent until it is over."""
    bot_level: BotLevel | None = None
    """The level of the server's own bots at this table (absent: it has none)."""


class Welcome(Model):
    """Answer to hello/resume: where you sit (``seat`` null for a spectator)."""

    type: Literal["welcome"] = "welcome"
    re: MessageId | None
    protocol: int
    table: str
    seat: SeatNumber | None
    name: str | None
    token: str | None
    """Keep it secret: it takes this seat back after a disconnection."""
    note: str | None = None
    """What happened to the table meanwhile, when something did (it was paused while
    nobody played at it, and goes on now)."""


class Tables(Model):
    type: Literal["tables"] = "tables"
    re: MessageId | None
    tables: list[TableInfo]
    next: str | None = None
    """Give this as ``after`` for the next page; None when this page is the last."""
    bot_level: BotLevel = DEFAULT_BOT_LEVEL
    """The level of the server's own bots at a new table whose hello names none (the
    server's ``--bot-level``): what a page offers first."""


class Record(Model):
    """A game's record, to replay it: a finished game's as ``tyros-server export`` writes
    it (format ``tyros-record/1``: every event with every hand, the seed revealed), or a
    game not over as a spectator saw it (``tyros-public-replay/1``: the spectator's views
    and events only)."""

    type: Literal["record"] = "record"
    re: MessageId | None
    table: TableName
    record: dict[str, Any]


class TableUpdate(Model):
    """Who sits at the table; sent when a seat fills, leaves or comes back."""

    type: Literal["table"] = "table"
    table: TableInfo


class Prompt(Model):
    """What the receiving seat may do now; act on one of ``legal`` (or any legal proposal)."""

    id: int = 0
    """The game version this decision began at. It stays until the seat acts, whatever the
    other seats do meanwhile (answer a trade, keep cards), and an action sent with any
    ``version`` from ``id`` on is taken if it is legal when it arrives."""
    version: int
    legal: list[Action]
    deadline: float | None = None
    """Seconds left to answer a trade offer, when one is asked of you."""


class SeatClock(Model):
    seat: SeatNumber
    reserve: float
    """Seconds left in the seat's reserve (counting what its current decision used)."""
    left: float | None
    """While the seat must decide: seconds left for this decision (free seconds and the
    reserve together), counted from this message; null otherwise."""


class Update(Model):
    """After every change: the events you may see, your view, and a prompt if you must act."""

    type: Literal["update"] = "update"
    version: int
    events: list[Event]
    """What happened since your last update, as you may see it (see :mod:`.events`)."""
    view: GameView
    prompt: Prompt | None = None
    clocks: list[SeatClock] | None = None
    """At a table with a clock: every seat's time."""
    points: list[int] | None = None
    """While the game runs: each seat's points if it ended now (the board alone decides
    them, so everyone may know)."""


class ChatLine(Model):
    """Something said at the table, as stored (also sent again after a ``welcome``: the
    recent lines you may hear)."""

    type: Literal["chat"] = "chat"
    seq: int
    """The line's number at its table, from 1: a line repeated by a resync is skipped by it."""
    version: int
    """The game version it was said at (0 before the game starts)."""
    seat: SeatNumber | None
    """Who said it: a seat, or null for a spectator."""
    name: str
    audience: Literal["table", "spectators"]
    """``table``: said by a seat, heard by all; ``spectators``: heard by spectators only."""
    text: str


class Accepted(Model):
    type: Literal["accepted"] = "accepted"
    re: MessageId | None
    version: int


class AdviceMessage(Model):
    """The server's bot's choice for the seat that asked for a hint with ``advice``."""

    type: Literal["advice"] = "advice"
    re: MessageId | None
    version: int
    """The game's version the advice is about (stale once the game has moved on)."""
    action: Action | None
    """What the bot would do (null: no advice, e.g. nothing to decide)."""


class Error(Model):
    type: Literal["error"] = "error"
    re: MessageId | None
    code: Annotated[ErrorCode, Field(strict=False)]  # a string on the wire
    message: str


ServerMessage = Annotated[
    Welcome | Tables | Record | TableUpdate | Update | ChatLine | Accepted | AdviceMessage | Error,
    Field(discriminator="type"),
]

CLIENT_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
SERVER_ADAPTER: TypeAdapter[ServerMessage] = TypeAdapter(ServerMessage)
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Validate one client frame (raises ValueError for bad JSON, ValidationError otherwise).

    The JSON is decoded first: validating the decoded object is stricter about
    repeated keys than pydantic's own JSON mode.
    """
    return CLIENT_ADAPTER.validate_python(json.loads(text), by_alias=True, by_name=False)


def parse_server_message(text: str | bytes) -> ServerMessage:
    """Validate one server frame (raises ValueError for bad JSON, ValidationError otherwise)."""
    return SERVER_ADAPTER.validate_python(json.loads(text), by_alias=True, by_name=False)


def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of the whole protocol: both directions."""
    client = CLIENT_ADAPTER.json_schema(by_alias=True)
    server = SERVER_ADAPTER.json_schema(by_alias=True)
    defs = {**client.pop("$defs", {}), **server.pop("$defs", {})}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "tyros protocol",
        "description": "JSON text frames over a websocket; each message has a 'type'.",
        "$defs": {**defs, "ClientMessage": client, "ServerMessage": server},
        "oneOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
    }


__all__ = [
    "ACTION_ADAPTER",
    "CLIENT_ADAPTER",
    "SERVER_ADAPTER",
    "Accepted",
    "Act",
    "Action",
    "AdviceMessage",
    "AnswerAction",
    "BankDrawAction",
    "BankPickAction",
    "CardName",
    "Cards",
    "Chat",
    "ChatLine",
    "ChatText",
    "CityAction",
    "ClientMessage",
    "ClockSetting",
    "ColourName",
    "CompleteAction",
    "CounterAction",
    "EmpireInfo",
    "EmpireScore",
    "Error",
    "Event",
    "ExpandAction",
    "GameView",
    "GetRecord",
    "GiveCardAction",
    "Hello",
    "Hint",
    "KeepAction",
    "ListTables",
    "MessageId",
    "Model",
    "MoveAction",
    "PassAction",
    "PlayerEmpireScore",
    "PlayerName",
    "PlayerScore",
    "PortLabel",
    "Prompt",
    "ProposeAction",
    "Record",
    "Resume",
    "ReturnTileAction",
    "ScoreSheet",
    "SeatClock",
    "SeatInfo",
    "SeatNumber",
    "SeatStatus",
    "ServerMessage",
    "ShipAction",
    "ShipStack",
    "SpaceLabel",
    "TableInfo",
    "TableName",
    "TableUpdate",
    "Tables",
    "TradeAnswer",
    "TradeInfo",
    "Update",
    "Welcome",
    "WithdrawAction",
    "parse_client_message",
    "parse_server_message",
    "printable_name",
    "protocol_schema",
]
