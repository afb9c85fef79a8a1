"""The actions a seat may send, one model per ``kind`` (mirroring the engine's;
payments are card lists)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .basics import CardName, Cards, ColourName, Model, PortLabel, SeatNumber, SpaceLabel


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


class CounterAction(Model):
    """Answer an offer made to you with other terms, from the proposer's side as the offer
    is: the proposer would give ``give`` and get ``get`` (you give ``get``)."""

    kind: Literal["counter"] = "counter"
    give: Cards
    get: Cards


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
    | CounterAction
    | CompleteAction
    | WithdrawAction
    | GiveCardAction
    | KeepAction,
    Field(discriminator="kind"),
]
