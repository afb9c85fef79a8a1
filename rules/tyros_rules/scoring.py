"""End-of-game scoring with a full, JSON-ready breakdown.

The steps follow the rulebook: drop ships from contested spaces, then from
spaces with a city; rank empires by size (ties: orange, yellow, green,
violet); score cities and ship-controlled spaces by rank; add the bonuses;
break ties on total by points from the largest empire's spaces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tyros_protocol.cards import COLOUR_NAMES

from .constants import BONUS, CITY_POINTS, SHIP_POINTS

if TYPE_CHECKING:
    from .state import GameState


def empire_ranks(chips: list[int]) -> tuple[list[int], list[int]]:
    """(size of each colour's empire, rank of each colour: 0 is the largest).

    >>> empire_ranks([0, 0, 1, 1, 2, -1])
    ([2, 2, 1, 0], [0, 1, 2, 3])
    """
    sizes = [0] * len(COLOUR_NAMES)
    for colour in chips:
        if colour >= 0:
            sizes[colour] += 1
    # Sorting is stable, so equal sizes keep the orange > yellow > green > violet order.
    order = sorted(range(len(sizes)), key=lambda colour: -sizes[colour])
    ranks = [0] * len(sizes)
    for rank, colour in enumerate(order):
        ranks[colour] = rank
    return sizes, ranks


def score_game(state: GameState) -> dict[str, Any]:
    """The score sheet of the state as it stands: the final one when the game ends, the
    points so far while it runs (the board alone decides them)."""
    board = state.board
    n = state.players
    sizes, ranks = empire_ranks(state.chips)
    largest = ranks.index(0)

    # Which seat controls each space by ships after the two removals (-1: nobody).
    ship_controller = []
    for space in range(board.space_count):
        present = [seat for seat in range(n) if state.ships_in_space(space, seat)]
        alone = len(present) == 1 and state.cities[space] < 0
        ship_controller.append(present[0] if alone else -1)

    players: list[dict[str, Any]] = []
    for seat in range(n):
        empires = []
        for colour, colour_name in enumerate(COLOUR_NAMES):
            cities = sum(
                1
                for space, owner in enumerate(state.cities)
                if owner == seat and state.chips[space] == colour
            )
            ship_spaces = sum(
                1
                for space, holder in enumerate(ship_controller)
                if holder == seat and state.chips[space] == colour
            )
            rank = ranks[colour]
            empires.append(
                {
                    "colour": colour_name,
                    "cities": cities,
                    "ship_spaces": ship_spaces,
                    "points": cities * CITY_POINTS[rank] + ship_spaces * SHIP_POINTS[rank],
                }
            )
        players.append({"seat": seat, "empires": empires})

    majorities: list[list[str]] = [[] for _ in range(n)]
    for colour, colour_name in enumerate(COLOUR_NAMES):
        counts = [p["empires"][colour]["cities"] for p in players]
        best = max(counts)
        if best > 0 and counts.count(best) == 1:
            majorities[counts.index(best)].append(colour_name)

    for seat, player in enumerate(players):
        player["majority_bonus"] = majorities[seat]
        player["majority_points"] = BONUS * len(majorities[seat])
        player["all_four_bonus"] = BONUS if state.all_four_bonus == seat else 0
        player["largest_empire_points"] = player["empires"][largest]["points"]
        player["total"] = (
            sum(e["points"] for e in player["empires"])
            + player["majority_points"]
            + player["all_four_bonus"]
        )

    top = max(p["total"] for p in players)
    tied = [p for p in players if p["total"] == top]
    best_largest = max(p["largest_empire_points"] for p in tied)
    winners = [p["seat"] for p in tied if p["largest_empire_points"] == best_largest]

    return {
        "empires": [
            {
                "colour": name,
                "size": sizes[colour],
                "rank": ranks[colour] + 1,
                "city_points": CITY_POINTS[ranks[colour]],
                "ship_points": SHIP_POINTS[ranks[colour]],
            }
            for colour, name in enumerate(COLOUR_NAMES)
        ],
        "players": players,
        "winners": winners,
    }


def running_points(state: GameState) -> list[int]:
    """Each seat's points if the game ended now: public, as the score sheet reads the
    board alone (cities, ships, empires)."""
    return [p["total"] for p in score_game(state)["players"]]
