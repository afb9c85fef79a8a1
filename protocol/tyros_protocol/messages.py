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
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

from .errors import ErrorCode

CardName = Literal["orange", "yellow", "green", "violet", "wild"]
ColourName = Literal["orange", "yellow", "green", "violet"]
SpaceLabel = Annotated[str, Field(pattern=r"^(TY|[0-9]{1,2})$", max_length=2)]
PortLabel = Annotated[str, Field(pattern=r"^(TY|[0-9]{1,2}[WE]?)$", max_length=3)]
Cards = Annotated[list[CardName], Field(max_length=60)]
SeatNumber = Annotated[int, Field(ge=0, le=3)]
MessageId = Annotated[int, Field(ge=0, le=2**53)]
TableName = Annotated[str, Field(pattern=r"^[A-Za-z0-9_.-]{1,32}$")]


def printable_name(name: str) -> str:
    """A player's name as every screen and log may show it: printable characters only (no
    controls, no bidi or zero-width format characters), not blank, no outer spaces.

    >>> printable_name("Ann")
    'Ann'
    >>> printable_name("A\u202enn")
    Traceback (most recent call last):
    ValueError: a name has printable characters only (no controls, bidi or zero-width marks)
    """
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in name):
        raise ValueError(
            "a name has printable characters only (no controls, bidi or zero-width marks)"
        )
    if not name.strip() or name != name.strip():
        raise ValueError("a name is not blank and has no spaces around it")
    return name


PlayerName = Annotated[
    str,
    Field(min_length=1, max_length=32, pattern=r"^[^\x00-\x1f\x7f]+$"),
    AfterValidator(printable_name),
]


class Model(BaseModel):
    # Strict: the wire must match the schema exactly (no "7" for 7, no Python field names).
    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, validate_by_alias=True, validate_by_name=False
    )


# Actions (mirroring the engine's; payments are card lists) -----------------------


class PassAction(Model):
    kind: Literal["pass"] = "pass"


class ExpandAction(Model):
    kind: Literal["expand"] = "expand"
    tile: SpaceLabel
    colour: ColourName


class ReturnTileAction(Model):
    kind: Literal["return_tile"] = "return_tile"
    tile: SpaceLabel


class MoveAction(Model):
    kind: Literal["move"] = "move"
    from_: PortLabel = Field(alias="from")
    to: PortLabel
    pay: Cards


class CityAction(Model):
    kind: Literal["city"] = "city"
    space: SpaceLabel
    ship: PortLabel
    """The port of the ship that returns to supply (it matters only in Italy)."""
    pay: Cards


class ShipAction(Model):
    kind: Literal["ship"] = "ship"
    space: SpaceLabel
    pay: Cards


class BankDrawAction(Model):
    kind: Literal["bank_draw"] = "bank_draw"
    pay: Cards


class BankPickAction(Model):
    kind: Literal["bank_pick"] = "bank_pick"
    pay: Cards
    take: CardName


class ProposeAction(Model):
    kind: Literal["propose"] = "propose"
    to: Annotated[list[SeatNumber], Field(min_length=1, max_length=3)]
    give: Cards
    get: Cards


class AnswerAction(Model):
    kind: Literal["answer"] = "answer"
    accept: bool


class CompleteAction(Model):
    kind: Literal["complete"] = "complete"
    with_: SeatNumber = Field(alias="with")


class WithdrawAction(Model):
    kind: Literal["withdraw"] = "withdraw"


class GiveCardAction(Model):
    kind: Literal["give_card"] = "give_card"
    card: CardName


class KeepAction(Model):
    kind: Literal["keep"] = "keep"
    cards: Cards


Action = Annotated[
    PassAction
    | ExpandAction
    | ReturnTileAction
    | MoveAction
    | CityAction
    | ShipAction
    | BankDrawAction
    | BankPickAction
    | ProposeAction
    | AnswerAction
    | CompleteAction
    | WithdrawAction
    | GiveCardAction
    | KeepAction,
    Field(discriminator="kind"),
]


# Client -> server -----------------------------------------------------------------


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
    trade_seconds: Annotated[int, Field(ge=5, le=600)] = 60
    """How long asked seats have to answer a trade offer (no answer = decline)."""
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


class Act(Model):
    """Take an action, made for the state ``version`` the client saw."""

    type: Literal["action"] = "action"
    id: MessageId | None = None
    """Echoed as the answer's ``re`` (null when the message has none)."""
    version: Annotated[int, Field(ge=0)]
    action: Action


ClientMessage = Annotated[Hello | Resume | ListTables | Act, Field(discriminator="type")]


# Server -> client: the per-seat view ---------------------------------------------


class ShipStack(Model):
    port: PortLabel
    seat: SeatNumber
    count: int


class EmpireInfo(Model):
    colour: ColourName
    size: int
    rank: int


class SeatInfo(Model):
    seat: SeatNumber
    cards: int
    tiles: int
    revealed_tiles: list[SpaceLabel]
    ships_in_supply: int
    cities_in_supply: int


class TradeAnswer(Model):
    seat: SeatNumber
    answer: Literal["pending", "accept", "decline"]


class TradeInfo(Model):
    proposer: SeatNumber
    to: list[SeatNumber]
    give: list[CardName]
    get: list[CardName]
    answers: list[TradeAnswer]


class EmpireScore(Model):
    colour: ColourName
    size: int
    rank: int
    city_points: int
    ship_points: int


class PlayerEmpireScore(Model):
    colour: ColourName
    cities: int
    ship_spaces: int
    points: int


class PlayerScore(Model):
    seat: SeatNumber
    empires: list[PlayerEmpireScore]
    majority_bonus: list[ColourName]
    majority_points: int
    all_four_bonus: int
    largest_empire_points: int
    total: int


class ScoreSheet(Model):
    empires: list[EmpireScore]
    players: list[PlayerScore]
    winners: list[SeatNumber]


class GameView(Model):
    """What one seat (or a spectator, ``viewer`` null) may see of the game."""

    viewer: SeatNumber | None
    version: int
    players: Literal[3, 4]
    setup: Literal["first", "variable"]
    round: int
    phase: Literal["expand", "actions", "trade", "give_card", "keep", "over"]
    current: SeatNumber
    to_act: list[SeatNumber]
    expand_queue: list[SeatNumber]
    """Seats still to take an expansion turn this round, after ``current``."""
    starting_seat: SeatNumber
    passes: int
    trade_tried: bool
    chips: dict[str, ColourName]
    cities: dict[str, SeatNumber]
    ships: list[ShipStack]
    empires: list[EmpireInfo]
    seats: list[SeatInfo]
    discard: dict[CardName, int]
    draw_pile: int
    tile_pile: int
    removed_tiles: list[SpaceLabel]
    all_four_bonus: SeatNumber | None
    trade: TradeInfo | None
    owed_to: SeatNumber | None
    keep_pending: list[SeatNumber]
    score: ScoreSheet | None
    hand: list[CardName] | None = None
    tiles: list[SpaceLabel] | None = None


# Server -> client: messages -------------------------------------------------------


class SeatStatus(Model):
    seat: SeatNumber
    name: str | None
    connected: bool
    bot: bool = False
    """True while a takeover bot plays the seat for its absent owner."""


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
    seed: int | None = None
    """The game's seed, revealed (with ``salt``) once the game is over."""
    salt: str | None = None


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


class Tables(Model):
    type: Literal["tables"] = "tables"
    re: MessageId | None
    tables: list[TableInfo]
    next: str | None = None
    """Give this as ``after`` for the next page; None when this page is the last."""


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


class Update(Model):
    """After every change: the events you may see, your view, and a prompt if you must act."""

    type: Literal["update"] = "update"
    version: int
    events: list[dict[str, Any]]
    view: GameView
    prompt: Prompt | None = None


class Accepted(Model):
    type: Literal["accepted"] = "accepted"
    re: MessageId | None
    version: int


class Error(Model):
    type: Literal["error"] = "error"
    re: MessageId | None
    code: Annotated[ErrorCode, Field(strict=False)]  # a string on the wire
    message: str


ServerMessage = Annotated[
    Welcome | Tables | TableUpdate | Update | Accepted | Error, Field(discriminator="type")
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
