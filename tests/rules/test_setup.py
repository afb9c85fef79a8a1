"""Setting up a game: first-game and variable empires, tiles, ships, cards, starting seat.

Rules: rulebook "Preparing for Play"; RULINGS.md "Setup"; RULES.md S1-S3.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
import tyros_rules.rules as rules_module
from tyros_protocol.board import BOARD, TYROS
from tyros_protocol.cards import DECK, DECK_SIZE
from tyros_rules import (
    GameState,
    Kind,
    Options,
    Phase,
    legal_actions,
    new_game,
    push,
    seats_to_act,
)
from tyros_rules.constants import MAX_SEATS

ALL_TILES = list(range(1, 33))
ORANGE, YELLOW, GREEN, VIOLET = 0, 1, 2, 3

# Orthogonal neighbours written out by hand from the grid in BOARD.md (not read from the
# board loader), for the spaces these tests reason about.
GRID = [
    ["1", "6", "10", "15", "20", "25", "29"],
    ["2", "7", "11", "16", "21", "26", "30"],
    ["3", "8", "12", "17", "22", "27", "31"],
    ["4", "9", "13", "18", "23", "~~", "TY"],
    ["5", "..", "14", "19", "24", "28", "32"],
]


def grid_neighbours(label: str) -> set[str]:
    for r, row in enumerate(GRID):
        for c, cell in enumerate(row):
            if cell == label:
                out = set()
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= rr < len(GRID) and 0 <= cc < len(row):
                        other = GRID[rr][cc]
                        if other not in ("~~", ".."):
                            out.add(other)
                return out
    raise KeyError(label)


def adjacent(a: int, b: int) -> bool:
    return BOARD.space_label(b) in grid_neighbours(BOARD.space_label(a))


def all_held_tiles(state: GameState) -> list[int]:
    return [t for seat_tiles in state.tiles for t in seat_tiles]


def card_total(state: GameState) -> Counter[int]:
    total: Counter[int] = Counter(state.draw_pile)
    for hand in [*state.hands, state.discard]:
        for kind, n in enumerate(hand):
            total[kind] += n
    return total


def events(state: GameState, kind: str) -> list[dict[str, Any]]:
    assert state.log is not None
    return [e for e in state.log if e["type"] == kind]


def variable_script(draws: list[int], accepted: list[int]) -> list[list[int]]:
    """Shuffles for a variable setup whose start tiles are turned over in ``draws`` order.

    The first tile shuffle puts ``draws`` on top (the top of a pile is the end of its list);
    the second (the tiles left after setup) and the card shuffle keep a plain order.
    """
    first = [t for t in ALL_TILES if t not in draws] + list(reversed(draws))
    second = [t for t in ALL_TILES if t not in accepted]
    deck = [kind for kind, n in enumerate(DECK) for _ in range(n)]
    return [first, second, deck]


# First game ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_first_game_chips_and_removed_tiles(players: int) -> None:
    state = new_game(Options(players=players, setup="first", seed=11))
    expected = {7: ORANGE, 13: YELLOW, 23: GREEN, 26: VIOLET}
    for space in range(BOARD.space_count):
        assert state.chips[space] == expected.get(space, -1), BOARD.space_label(space)
    # Tyros is not next to any first-game start: it stays uncoloured.
    assert state.chips[TYROS] == -1
    assert sorted(state.removed_tiles) == [7, 13, 23, 26]
    for tile in (7, 13, 23, 26):
        assert tile not in state.tile_pile
        assert tile not in all_held_tiles(state)
    # The other 28 tiles are dealt or in the pile, each exactly once.
    in_play = all_held_tiles(state) + state.tile_pile
    assert sorted(in_play) == [t for t in ALL_TILES if t not in expected]


def test_first_game_start_spaces_are_not_adjacent() -> None:
    starts = [7, 13, 23, 26]
    for a in starts:
        for b in starts:
            assert not adjacent(a, b)


# Tiles, ships and cards --------------------------------------------------------------


@pytest.mark.parametrize("setup", ["first", "variable"])
@pytest.mark.parametrize("players", [3, 4])
def test_four_tiles_dealt_to_each_seat(players: int, setup: str) -> None:
    state = new_game(Options(players=players, setup=setup, seed=5))
    for seat in range(players):
        assert len(state.tiles[seat]) == 4
        assert len(set(state.tiles[seat])) == 4
    assert len(state.tile_pile) == 28 - 4 * players
    assert len(state.removed_tiles) == 4
    assert sorted(all_held_tiles(state) + state.tile_pile + state.removed_tiles) == ALL_TILES
    dealt = events(state, "tiles_dealt")
    assert [e["seat"] for e in dealt] == [
        (state.starting_seat + i) % players for i in range(players)
    ]
    assert all(e["count"] == 4 for e in dealt)


@pytest.mark.parametrize("players", [3, 4])
def test_two_ships_per_player_in_tyros_eight_in_supply(players: int) -> None:
    state = new_game(Options(players=players, seed=3))
    tyros_port = BOARD.parse_port("TY")
    for seat in range(players):
        assert state.ships[tyros_port * MAX_SEATS + seat] == 2
        assert state.ships_in_space(TYROS, seat) == 2
        assert state.ship_supply[seat] == 8
        assert state.city_supply[seat] == 10
        on_board = sum(state.ships[p * MAX_SEATS + seat] for p in range(BOARD.port_count))
        assert on_board == 2
    # Seats that do not play hold nothing.
    for seat in range(players, MAX_SEATS):
        assert all(state.ships[p * MAX_SEATS + seat] == 0 for p in range(BOARD.port_count))
    assert all(owner == -1 for owner in state.cities)


@pytest.mark.parametrize(("players", "dealt"), [(3, 12), (4, 10)])
def test_cards_dealt_per_player_count(players: int, dealt: int) -> None:
    state = new_game(Options(players=players, seed=8))
    for seat in range(players):
        assert sum(state.hands[seat]) == dealt
    assert len(state.draw_pile) == DECK_SIZE - dealt * players
    assert state.discard == (0, 0, 0, 0, 0)
    assert card_total(state) == Counter({k: n for k, n in enumerate(DECK)})
    assert [e["count"] for e in events(state, "cards_dealt")] == [dealt] * players


def test_deal_order_from_starting_seat_top_first() -> None:
    """Tiles and cards are dealt from the top of their piles, starting seat first (S1)."""
    tiles = [t for t in ALL_TILES if t not in (7, 13, 23, 26)]  # the 28 in play
    deck = [kind for kind, n in enumerate(DECK) for _ in range(n)]  # o*14 y*14 g*14 v*14 w*4
    state = new_game(
        Options(players=4, setup="first", seed=0, starting_seat=2), script=[list(tiles), list(deck)]
    )
    order = [2, 3, 0, 1]
    for i, seat in enumerate(order):
        top = len(tiles) - 4 * i
        assert set(state.tiles[seat]) == set(tiles[top - 4 : top])
    assert state.tile_pile == tiles[: len(tiles) - 16]
    # The deck's top (end of the list) is 4 wild and 14 violet: seat 2 gets the 4 wild and
    # 6 violet, seat 3 the next 8 violet and 2 green, and so on.
    assert state.hands[2] == (0, 0, 0, 6, 4)
    assert state.hands[3] == (0, 0, 2, 8, 0)
    assert state.hands[0] == (0, 0, 10, 0, 0)
    assert state.hands[1] == (0, 8, 2, 0, 0)
    assert len(state.draw_pile) == 20
    assert state.draw_pile == deck[:20]


# Starting seat -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seat"), [(3, 0), (3, 2), (4, 1), (4, 3)])
def test_starting_seat_option(players: int, seat: int) -> None:
    state = new_game(Options(players=players, seed=4, starting_seat=seat))
    assert state.starting_seat == seat
    assert state.log is not None
    assert state.log[0] == {"type": "starting_seat", "seat": seat}
    # Expansion begins with the starting seat.
    assert state.phase == Phase.EXPAND
    assert state.round == 1
    assert seats_to_act(state) == [seat]
    assert events(state, "round_start")[0]["starting_seat"] == seat


def test_default_starting_seat_is_seeded() -> None:
    seats = set()
    for seed in range(30):
        a = new_game(Options(players=4, seed=seed))
        b = new_game(Options(players=4, seed=seed))
        assert a.starting_seat == b.starting_seat
        assert a.fingerprint() == b.fingerprint()
        assert 0 <= a.starting_seat < 4
        seats.add(a.starting_seat)
    assert len(seats) > 1, "the starting seat should depend on the seed"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"players": 5},
        {"setup": "random"},
        {"players": 3, "starting_seat": 3},
        {"starting_seat": -1},
    ],
)
def test_bad_options_are_refused(kwargs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Options(**kwargs)


# Variable setup ------------------------------------------------------------------------


def test_variable_setup_colours_highest_first() -> None:
    draws = [5, 12, 30, 20]  # pairwise non-adjacent, none next to Tyros
    script = variable_script(draws, draws)
    state = new_game(Options(players=4, setup="variable", starting_seat=0), script=script)
    assert state.chips[30] == ORANGE
    assert state.chips[20] == YELLOW
    assert state.chips[12] == GREEN
    assert state.chips[5] == VIOLET
    assert state.chips[TYROS] == -1
    assert sum(1 for c in state.chips if c >= 0) == 4
    assert sorted(state.removed_tiles) == [5, 12, 20, 30]
    assert not set(draws) & set(all_held_tiles(state) + state.tile_pile)
    turned = events(state, "start_tile")
    assert [(e["tile"], e["accepted"]) for e in turned] == [
        ("5", True),
        ("12", True),
        ("30", True),
        ("20", True),
    ]
    founded = [(e["space"], e["colour"]) for e in events(state, "empire_founded")]
    assert founded == [("30", "orange"), ("20", "yellow"), ("12", "green"), ("5", "violet")]


def test_variable_setup_rejects_adjacent_tiles_to_the_bottom(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 13 and 17 touch 12; 6 and 2 touch 1.
    draws = [12, 13, 17, 1, 6, 2, 30, 5]
    accepted = [12, 1, 30, 5]
    seen: list[list[int]] = []
    original = rules_module._shuffle

    def spy(state: GameState, items: list[int], pile: str) -> list[int]:
        seen.append(list(items))
        return original(state, items, pile)

    monkeypatch.setattr(rules_module, "_shuffle", spy)
    state = new_game(
        Options(players=3, setup="variable", starting_seat=1),
        script=variable_script(draws, accepted),
    )
    turned = [(int(e["tile"]), e["accepted"]) for e in events(state, "start_tile")]
    assert turned == [
        (12, True),
        (13, False),
        (17, False),
        (1, True),
        (6, False),
        (2, False),
        (30, True),
        (5, True),
    ]
    assert state.chips[30] == ORANGE
    assert state.chips[12] == YELLOW
    assert state.chips[5] == GREEN
    assert state.chips[1] == VIOLET
    for tile in (13, 17, 6, 2):
        assert state.chips[tile] == -1
    # The second tile shuffle receives the pile as it stands: each rejected tile was put
    # under the pile in turn, so the last rejected is now the bottom (the front).
    assert seen[1][:4] == [2, 6, 17, 13]
    assert sorted(seen[1]) == [t for t in ALL_TILES if t not in accepted]
    # Rejected tiles stay in the game.
    assert {13, 17, 6, 2} <= set(all_held_tiles(state) + state.tile_pile)


def test_variable_setup_start_on_32_colours_tyros_and_blocks_31() -> None:
    # 32 accepted; 31 touches Tyros (which now counts as a space); 28 touches 32;
    # 27 touches neither 32 nor Tyros.
    draws = [32, 31, 28, 27, 9, 15]
    accepted = [32, 27, 9, 15]
    state = new_game(
        Options(players=4, setup="variable", starting_seat=3),
        script=variable_script(draws, accepted),
    )
    turned = [(int(e["tile"]), e["accepted"]) for e in events(state, "start_tile")]
    assert turned == [(32, True), (31, False), (28, False), (27, True), (9, True), (15, True)]
    assert state.chips[32] == ORANGE
    assert state.chips[TYROS] == ORANGE
    assert state.chips[27] == YELLOW
    assert state.chips[15] == GREEN
    assert state.chips[9] == VIOLET
    assert state.chips[31] == -1
    assert events(state, "tyros_coloured") == [{"type": "tyros_coloured", "colour": "orange"}]
    # Tyros is no tile: it is neither removed nor dealt.
    assert TYROS not in state.removed_tiles
    assert TYROS not in all_held_tiles(state) + state.tile_pile


def test_variable_setup_start_on_31_colours_tyros_and_blocks_32() -> None:
    draws = [31, 32, 30, 27, 22, 3, 14]
    accepted = [31, 22, 3, 14]
    state = new_game(
        Options(players=3, setup="variable", starting_seat=0),
        script=variable_script(draws, accepted),
    )
    turned = [(int(e["tile"]), e["accepted"]) for e in events(state, "start_tile")]
    assert turned == [
        (31, True),
        (32, False),
        (30, False),
        (27, False),
        (22, True),
        (3, True),
        (14, True),
    ]
    assert state.chips[TYROS] == state.chips[31] == ORANGE
    assert state.chips[22] == YELLOW
    assert state.chips[14] == GREEN
    assert state.chips[3] == VIOLET


@pytest.mark.parametrize("players", [3, 4])
def test_variable_setup_over_many_seeds(players: int) -> None:
    tyros_coloured = 0
    rejections = 0
    for seed in range(150):
        state = new_game(Options(players=players, setup="variable", seed=seed))
        turned = events(state, "start_tile")
        starts = [int(e["tile"]) for e in turned if e["accepted"]]
        assert len(starts) == 4
        assert sorted(state.removed_tiles) == sorted(starts)
        # Pairwise non-adjacent start spaces.
        for a in starts:
            for b in starts:
                assert not adjacent(a, b), (seed, a, b)
        # Colours: orange on the highest number, then yellow, green, violet.
        for colour, space in enumerate(sorted(starts, reverse=True)):
            assert state.chips[space] == colour
        by_tyros = [s for s in starts if s in (31, 32)]
        if by_tyros:
            tyros_coloured += 1
            assert state.chips[TYROS] == state.chips[by_tyros[0]] == ORANGE
            assert len(by_tyros) == 1  # the other is next to a coloured Tyros
        else:
            assert state.chips[TYROS] == -1
        assert sum(1 for c in state.chips if c >= 0) == 4 + bool(by_tyros)
        # Each turned-over tile was rejected exactly when it touched an accepted start
        # (or a Tyros coloured by one).
        accepted_so_far: list[int] = []
        for e in turned:
            tile = int(e["tile"])
            blocked = set(accepted_so_far)
            if blocked & {31, 32}:
                blocked.add(TYROS)
            touches = any(adjacent(tile, b) for b in blocked)
            assert e["accepted"] == (not touches), (seed, tile)
            if e["accepted"]:
                accepted_so_far.append(tile)
            else:
                rejections += 1
        assert sorted(all_held_tiles(state) + state.tile_pile + state.removed_tiles) == ALL_TILES
        assert all(len(t) == 4 for t in state.tiles)
    # The seeds exercise both special cases.
    assert tyros_coloured > 0
    assert rejections > 0


def test_variable_setup_is_deterministic_per_seed() -> None:
    a = new_game(Options(players=4, setup="variable", seed=99))
    b = new_game(Options(players=4, setup="variable", seed=99))
    c = new_game(Options(players=4, setup="variable", seed=100))
    assert a.fingerprint() == b.fingerprint()
    assert a.log == b.log
    assert a.fingerprint() != c.fingerprint()


def test_game_starts_in_round_one_expansion_first_seat_can_act() -> None:
    state = new_game(Options(players=4, setup="first", seed=2, starting_seat=1))
    assert state.round == 1
    assert state.phase == Phase.EXPAND
    assert state.current == 1
    # Whatever the seat may do here is an expansion decision.
    kinds = {a[0] for a in legal_actions(state, 1)}
    assert kinds <= {Kind.EXPAND, Kind.RETURN_TILE}
    assert kinds
    action = sorted(legal_actions(state, 1))[0]
    push(state, 1, action)
    assert state.version == 1
