"""What happened, as an update's ``events`` tell it: one model per event ``type``.

Every event carries the game ``version`` it belongs to: the version of the update that
first reported it (0 for the deal before the first decision; an action and what it caused
have the version the action led to). Versions never go down along ``events``, and a
client that has seen version V skips every event with ``version <= V`` when a resync
repeats the recent ones.

A field marked *seat only* is there only for the seat the event concerns (the seat that
was dealt, drew or acted, or the city owner a card was given to); everybody else gets
the event without it. Another seat's ``keep`` therefore arrives as ``{"kind": "keep"}``.

>>> from pydantic import TypeAdapter
>>> seen = TypeAdapter(Event).validate_python(
...     {"type": "action", "version": 12, "seat": 2, "action": {"kind": "keep"}})
>>> seen.action.kind, seen.action.cards
('keep', None)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .actions import (
    AnswerAction,
    BankDrawAction,
    BankPickAction,
    CityAction,
    CompleteAction,
    CounterAction,
    ExpandAction,
    MoveAction,
    PassAction,
    ProposeAction,
    ReturnTileAction,
    ShipAction,
    WithdrawAction,
)
from .basics import CardName, ColourName, Model, SeatNumber, SpaceLabel, seat_only
from .views import ScoreSheet

Version = Annotated[int, Field(ge=0)]


class _Event(Model):
    version: Version
    """The game version this event belongs to (see the module's description)."""


# The deal -------------------------------------------------------------------------------


class StartingSeat(_Event):
    """The seat that starts the first round (drawn at random unless the options fix it)."""

    type: Literal["starting_seat"] = "starting_seat"
    seat: SeatNumber


class StartTile(_Event):
    """Variable setup: a tile turned over for a start space; ``accepted`` false when it
    touched a start space already found, and it went under the pile."""

    type: Literal["start_tile"] = "start_tile"
    tile: SpaceLabel
    accepted: bool


class EmpireFounded(_Event):
    """An empire's first chip."""

    type: Literal["empire_founded"] = "empire_founded"
    space: SpaceLabel
    colour: ColourName


class TyrosColoured(_Event):
    """Tyros takes the colour of the first empire chip placed next to it."""

    type: Literal["tyros_coloured"] = "tyros_coloured"
    colour: ColourName


class TilesDealt(_Event):
    """A seat's hand of map tiles at the start."""

    type: Literal["tiles_dealt"] = "tiles_dealt"
    seat: SeatNumber
    count: int
    tiles: list[SpaceLabel] | None = seat_only("the tiles dealt")


# Rounds ---------------------------------------------------------------------------------


class RoundStart(_Event):
    type: Literal["round_start"] = "round_start"
    round: int
    starting_seat: SeatNumber


class CardsDealt(_Event):
    """The cards a seat is dealt at the start of a round."""

    type: Literal["cards_dealt"] = "cards_dealt"
    seat: SeatNumber
    count: int
    cards: list[CardName] | None = seat_only("the cards dealt")


class ExpansionSkipped(_Event):
    """A seat takes no expansion turn: it has no tiles, or it revealed its tiles and the
    pile is empty so none goes under it."""

    type: Literal["expansion_skipped"] = "expansion_skipped"
    seat: SeatNumber
    reason: Literal["no_tiles", "pile_empty"]


class TilesRevealed(_Event):
    """A seat could play none of its tiles: they are shown to all (and stay shown)."""

    type: Literal["tiles_revealed"] = "tiles_revealed"
    seat: SeatNumber
    tiles: list[SpaceLabel]


class TileDrawn(_Event):
    """A seat draws a map tile (after expanding or returning one)."""

    type: Literal["tile_drawn"] = "tile_drawn"
    seat: SeatNumber
    count: int
    tile: SpaceLabel | None = seat_only("the tile drawn")


class ActionsStart(_Event):
    """The expansion phase is over; ``seat`` takes the first action turn."""

    type: Literal["actions_start"] = "actions_start"
    seat: SeatNumber


class CardsDrawn(_Event):
    """Cards a seat takes from the draw pile (a bank trade; the pile reshuffled if needed)."""

    type: Literal["cards_drawn"] = "cards_drawn"
    seat: SeatNumber
    count: int
    cards: list[CardName] | None = seat_only("the cards drawn")


class TradeCompleted(_Event):
    """``seat`` (the proposer) gave ``give`` to ``with`` and got ``get`` from it."""

    type: Literal["trade_completed"] = "trade_completed"
    seat: SeatNumber
    with_: SeatNumber = Field(alias="with")
    give: list[CardName]
    get: list[CardName]


class AllFourEmpires(_Event):
    """A seat is the first with a city in all four empires (the bonus is its)."""

    type: Literal["all_four_empires"] = "all_four_empires"
    seat: SeatNumber


class CardsDiscarded(_Event):
    """What a seat put on the discards when it kept its cards at a round's end."""

    type: Literal["cards_discarded"] = "cards_discarded"
    seat: SeatNumber
    cards: list[CardName]


class RoundEnd(_Event):
    type: Literal["round_end"] = "round_end"
    round: int


class GameEnd(_Event):
    type: Literal["game_end"] = "game_end"
    score: ScoreSheet


# Decisions ------------------------------------------------------------------------------


class GiveCardSeen(Model):
    """A card given to a city owner; the card itself is seen by the two seats only."""

    kind: Literal["give_card"] = "give_card"
    card: CardName | None = seat_only("the card (shown to the giver and the receiver)")
    to: SeatNumber
    """The city owner who received it."""


class KeepSeen(Model):
    """The cards a seat kept at a round's end (what it discarded is public: see
    ``cards_discarded``)."""

    kind: Literal["keep"] = "keep"
    cards: list[CardName] | None = seat_only("the cards kept")


SeenAction = Annotated[
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
    | CounterAction
    | CompleteAction
    | WithdrawAction
    | GiveCardSeen
    | KeepSeen,
    Field(discriminator="kind"),
]
"""An action as the others see it: the action itself, less what is the seat's own."""


class ActionTaken(_Event):
    """A seat's decision, first in the events of the update it led to."""

    type: Literal["action"] = "action"
    seat: SeatNumber
    action: SeenAction
    to: SeatNumber | None = seat_only("for give_card, the receiver (also in ``action.to`` for all)")
    by: Literal["clock", "takeover"] | None = None
    """Who decided if not the seat's owner: the server when the seat's time ran out
    (``clock``), or the bot that plays for an absent owner (``takeover``)."""


Event = Annotated[
    StartingSeat
    | StartTile
    | EmpireFounded
    | TyrosColoured
    | TilesDealt
    | RoundStart
    | CardsDealt
    | ExpansionSkipped
    | TilesRevealed
    | TileDrawn
    | ActionsStart
    | ActionTaken
    | CardsDrawn
    | TradeCompleted
    | AllFourEmpires
    | CardsDiscarded
    | RoundEnd
    | GameEnd,
    Field(discriminator="type"),
]
"""Every event a client may receive."""
