"""How the game goes on from a position, as :mod:`.evaluate` foresees it: how far it still
goes (:func:`future`), what a city and a ship-held space of each empire will be worth at the
end (:func:`empire_values`), and how sure a majority or the all-four-empires bonus is."""

from __future__ import annotations

import math
from collections.abc import Sequence

from tyros_protocol.board import TYROS
from tyros_rules import BONUS, CITY_POINTS, SHIP_POINTS, GameState, Phase

COLOURS = 4
GROWTH_SPREAD = 0.35
"""Variance of an empire's growth per tile still to be played."""


# How far the game still goes ------------------------------------------------------


def future(state: GameState) -> tuple[int, int]:
    """(tiles still to be played, card-action phases still to come, this one included).

    A quick forecast that assumes every tile can be played: hands are refilled
    from the pile while it lasts, and the game ends after the round in which a
    hand runs out.

    >>> from tyros_rules import Options, new_game
    >>> future(new_game(Options(players=4, seed=1)))
    (28, 6)
    """
    phase = state.phase
    if phase == Phase.OVER:
        return 0, 0
    players = state.players
    tiles = [len(t) for t in state.tiles]
    pile = len(state.tile_pile)
    played = 0
    if phase == Phase.EXPAND:
        played, pile = _expansion_turns((state.current, *state.expand_queue), tiles, pile)
    phases = 0 if phase == Phase.KEEP else 1
    if phase != Phase.KEEP and not all(tiles):
        return played, phases
    round_number = state.round
    while all(tiles) and phases < 20:
        round_number += 1
        phases += 1
        passes = 2 if players == 3 or round_number == 1 else 1
        more, pile = _expansion_turns(list(range(players)) * passes, tiles, pile)
        played += more
    return played, phases


def _expansion_turns(seats: Sequence[int], tiles: list[int], pile: int) -> tuple[int, int]:
    """Each seat in turn plays a tile if it has one and draws one while the pile lasts
    (``tiles`` counts each hand and is updated): (tiles played, tiles left in the pile)."""
    played = 0
    for seat in seats:
        if tiles[seat]:
            tiles[seat] -= 1
            played += 1
            if pile:
                pile -= 1
                tiles[seat] += 1
    return played, pile


# Empire values ---------------------------------------------------------------------


def _interpolate(points: Sequence[int], position: float) -> float:
    low = int(position)
    if low >= len(points) - 1:
        return float(points[-1])
    frac = position - low
    return points[low] * (1 - frac) + points[low + 1] * frac


_EMPIRES: dict[tuple[int, tuple[int, ...]], tuple[list[float], list[float]]] = {}
""":func:`empire_values` by what it depends on: the chips change only with a tile."""


def empire_values(state: GameState, tiles_left: int) -> tuple[list[float], list[float]]:
    """(expected points of a city, of a ship-controlled space) in each empire at the end
    (shared lists: read them, never change them)."""
    key = (tiles_left, tuple(state.chips))
    found = _EMPIRES.get(key)
    if found is None:
        if len(_EMPIRES) >= 1 << 14:
            _EMPIRES.clear()
        found = _EMPIRES[key] = _empire_values(state, tiles_left)
    return found


def _empire_values(state: GameState, tiles_left: int) -> tuple[list[float], list[float]]:
    chips = state.chips
    sizes = [0] * COLOURS
    for colour in chips:
        if colour >= 0:
            sizes[colour] += 1
    if tiles_left <= 0:
        order = sorted(range(COLOURS), key=lambda c: -sizes[c])
        city = [0.0] * COLOURS
        ship = [0.0] * COLOURS
        for rank, colour in enumerate(order):
            city[colour] = float(CITY_POINTS[rank])
            ship[colour] = float(SHIP_POINTS[rank])
        return city, ship
    neighbours = state.board.neighbours
    frontier = [0] * COLOURS
    for space, colour in enumerate(chips):
        if colour < 0 and space != TYROS:
            seen = 0
            for other in neighbours[space]:
                c = chips[other]
                if c >= 0 and not seen >> c & 1:
                    seen |= 1 << c
                    frontier[c] += 1
    total = sum(frontier)
    expected = [
        sizes[c] + (tiles_left * frontier[c] / total if total else 0.0) for c in range(COLOURS)
    ]
    spread = 2 * GROWTH_SPREAD * tiles_left + 0.25
    scale = 1.7 / math.sqrt(spread)
    city = [0.0] * COLOURS
    ship = [0.0] * COLOURS
    for c in range(COLOURS):
        position = 0.0
        for d in range(COLOURS):
            if d != c:
                gap = expected[d] - expected[c] + (0.5 if d < c else -0.5)
                position += 1.0 / (1.0 + math.exp(-scale * gap))
        city[c] = _interpolate(CITY_POINTS, position)
        ship[c] = _interpolate(SHIP_POINTS, position)
    return city, ship


def majority_share(mine: int, best_other: int, phases_left: int) -> float:
    """Expected majority bonus (points) with ``mine`` cities in an empire against ``best_other``.

    >>> majority_share(2, 1, 0), majority_share(1, 1, 0), majority_share(0, 0, 3)
    (7.0, 0.0, 0.0)
    """
    if mine <= 0:
        return 0.0
    if phases_left <= 0:
        return float(BONUS) if mine > best_other else 0.0
    lead = mine - best_other
    late = max(0, 4 - phases_left) * 0.08
    if lead > 0:
        return BONUS * min(1.0, 0.55 + 0.15 * lead + late)
    if lead == 0:
        return BONUS * 0.3
    return BONUS * max(0.0, 0.12 + 0.06 * lead)


def all_four_share(colours: int, phases_left: int) -> float:
    """Expected all-four-empires bonus for a seat with cities in ``colours`` empires (unawarded)."""
    if phases_left <= 0 or colours < 2:
        return 0.0
    if colours == 2:
        return BONUS * (0.12 if phases_left >= 3 else 0.04)
    return BONUS * (0.5 if phases_left >= 2 else 0.35)


def hold_factor(phases_left: int) -> float:
    """Chance a space held by ships alone is still held at the end."""
    if phases_left <= 0:
        return 1.0
    return max(0.7, 0.95 - 0.05 * phases_left)
