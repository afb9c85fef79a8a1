"""What a seat (or a spectator) may see of the game: the view and its parts.

A field marked *seat only* is present only in the view of the seat it belongs to.
"""

from __future__ import annotations

from typing import Literal

from .basics import CardName, ColourName, Model, PortLabel, SeatNumber, SpaceLabel, seat_only


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
    answer: Literal["pending", "accept", "decline", "counter"]
    give: list[CardName] | None = None
    """For a counter-offer: what the proposer would give (the proposer's side, as ever)."""
    get: list[CardName] | None = None
    """For a counter-offer: what the proposer would get."""


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
    last_round: bool = False
    """The game ends with this round: a seat holds no tiles."""
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
    hand: list[CardName] | None = seat_only("your cards (absent in a spectator's view)")
    tiles: list[SpaceLabel] | None = seat_only("your map tiles (absent in a spectator's view)")
