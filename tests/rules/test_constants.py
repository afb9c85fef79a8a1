"""The rulebook's numbers (engine/constants.py) agree with the board, the deck and each other.

Their values are checked where they act (the invariants recount every game from their own
copy of the rulebook); here, what a wrong or newly edited number would break silently.
"""

from __future__ import annotations

from itertools import combinations

from tyros_protocol.board import BOARD, TYROS
from tyros_protocol.cards import COLOURS, DECK_SIZE
from tyros_rules.constants import (
    BANK_DRAW_MAX,
    BANK_PICK_COST,
    CARDS_DEALT,
    CITY_COST,
    CITY_POINTS,
    EXPANSION_PASSES,
    FIRST_GAME_STARTS,
    HAND_TILES,
    KEEP_CARDS,
    PLAYER_COUNTS,
    SHIP_CARDS_OF_COLOUR,
    SHIP_COST,
    SHIP_LIMIT,
    SHIP_POINTS,
    SHIPS_PER_PLAYER,
    START_SHIPS_IN_TYROS,
)


def test_every_player_count_has_its_deal_and_expansions() -> None:
    assert set(CARDS_DEALT) == set(EXPANSION_PASSES) == set(PLAYER_COUNTS)


def test_the_first_game_starts_are_four_apart_spaces_of_the_board() -> None:
    spaces = [space for space, _ in FIRST_GAME_STARTS]
    # The rulebook's space numbers are the board's ids, and each start space has a tile.
    assert [BOARD.space_label(space) for space in spaces] == [str(space) for space in spaces]
    assert TYROS not in spaces
    assert [colour for _, colour in FIRST_GAME_STARTS] == list(COLOURS)
    # "No two empires may begin on spaces that are adjacent."
    assert not any(b in BOARD.neighbours[a] for a, b in combinations(spaces, 2))


def test_every_deal_fits_the_tiles_and_the_deck() -> None:
    tiles = BOARD.space_count - 1  # one a space, none for Tyros
    for players in PLAYER_COUNTS:
        assert players * HAND_TILES + len(FIRST_GAME_STARTS) <= tiles
        # A round deals from every card but those kept: the deal must never run short.
        assert players * (CARDS_DEALT[players] + KEEP_CARDS) <= DECK_SIZE


def test_the_start_ships_fit_the_supply_and_tyros() -> None:
    assert START_SHIPS_IN_TYROS <= SHIPS_PER_PLAYER
    assert START_SHIPS_IN_TYROS <= SHIP_LIMIT  # each player's two in Tyros are legal


def test_the_costs_fit_what_the_enumeration_assumes() -> None:
    assert CITY_COST[1] == min(CITY_COST)  # card_actions skips cities below the cheaper one
    assert min(SHIP_COST) >= SHIP_CARDS_OF_COLOUR
    assert len(SHIP_COST) == SHIP_LIMIT  # a cost for each count of ships a build may join
    assert max(BANK_DRAW_MAX, BANK_PICK_COST) < 4  # legal._bank_trades packs them in 2 bits


def test_the_points_go_by_rank_largest_empire_first() -> None:
    for points in (CITY_POINTS, SHIP_POINTS):
        assert len(points) == len(COLOURS)
        assert list(points) == sorted(points, reverse=True)
