"""The expansion phase: adjacency, colours, Tyros, drawing, passes, the cannot-expand reveal.

Rules: rulebook "2. Expand Empires"; RULINGS.md "A round" step 2; RULES.md X1, X2;
BOARD.md "Grid" (adjacency is the orthogonal grid, not the sea links).
"""

from __future__ import annotations

from typing import Any

import pytest
from tyros_protocol.board import TYROS
from tyros_rules import (
    GameState,
    IllegalActionError,
    Kind,
    Options,
    Phase,
    Reason,
    event_view,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)
from tyros_rules.actions import PASS

from tests.rules.builders import make_state, space

ORANGE, YELLOW, GREEN, VIOLET = 0, 1, 2, 3


def start_round(players: int, round_number: int, starting_seat: int, **kwargs: Any) -> GameState:
    """A game whose previous round has just ended: the last pass starts ``round_number``.

    Hands are empty (nobody keeps cards), so the new round is dealt at once and its
    expansion phase begins with ``starting_seat``.
    """
    previous = (starting_seat - 1) % players
    state = make_state(
        players,
        phase=Phase.ACTIONS,
        current=previous,
        starting_seat=previous,
        round_number=round_number - 1,
        **kwargs,
    )
    state.passes = players - 1
    push(state, previous, PASS)
    assert state.round == round_number
    assert state.starting_seat == starting_seat
    return state


def expand_state(
    tiles: dict[int, list[str]],
    chips: dict[str, str],
    *,
    current: int = 0,
    tile_pile: list[str] | None = None,
    players: int = 4,
) -> GameState:
    """A state in the expansion phase where ``current`` is the last seat to expand."""
    return make_state(
        players, phase=Phase.EXPAND, current=current, chips=chips, tiles=tiles, tile_pile=tile_pile
    )


def log_of(state: GameState, kind: str) -> list[dict[str, Any]]:
    assert state.log is not None
    return [e for e in state.log if e["type"] == kind]


def play_expansions(state: GameState) -> list[int]:
    """Play the expansion phase out (lowest legal action each turn); the seats that acted."""
    acted = []
    while state.phase == Phase.EXPAND:
        (seat,) = seats_to_act(state)
        acted.append(seat)
        push(state, seat, min(legal_actions(state, seat)))
    return acted


# Adjacency ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chip", "tile", "playable"),
    [
        ("21", "16", True),  # grid neighbours without a sea link (Greece)
        ("10", "15", True),  # northern Italy: no sea link, still neighbours
        ("29", "30", True),  # Anatolia: no sea link, still neighbours
        ("12", "11", True),  # neighbours with a sea link
        ("7", "12", False),  # diagonal
        ("5", "14", False),  # the desert lies between them
        ("27", "28", False),  # the serpent lies between them
        ("23", "28", False),  # diagonal across the serpent
        ("1", "3", False),  # two apart in a column
        ("6", "15", False),  # two apart in a row
    ],
)
def test_adjacency_is_the_orthogonal_grid(chip: str, tile: str, playable: bool) -> None:
    state = expand_state({0: [tile]}, {chip: "y"})
    legal = legal_actions(state, 0)
    if playable:
        assert legal == [(Kind.EXPAND, space(tile), YELLOW)]
        push(state, 0, (Kind.EXPAND, space(tile), YELLOW))
        assert state.chips[space(tile)] == YELLOW
    else:
        assert legal == [(Kind.RETURN_TILE, space(tile))]
        with pytest.raises(IllegalActionError):
            push(state, 0, (Kind.EXPAND, space(tile), YELLOW))


def test_only_tiles_next_to_an_empire_are_offered() -> None:
    state = expand_state({0: ["2", "11", "20", "32"]}, {"7": "o", "21": "g"})
    legal = legal_actions(state, 0)
    assert sorted(legal) == sorted(
        [(Kind.EXPAND, 2, ORANGE), (Kind.EXPAND, 11, ORANGE), (Kind.EXPAND, 20, GREEN)]
    )


def test_colour_choice_when_two_empires_touch() -> None:
    state = expand_state({0: ["12"]}, {"8": "o", "17": "g", "13": "g"})
    assert sorted(legal_actions(state, 0)) == [(Kind.EXPAND, 12, ORANGE), (Kind.EXPAND, 12, GREEN)]
    with pytest.raises(IllegalActionError) as err:
        push(state, 0, (Kind.EXPAND, 12, YELLOW))  # no yellow neighbour
    assert err.value.reason == Reason.ILLEGAL
    push(state, 0, (Kind.EXPAND, 12, GREEN))
    assert state.chips[12] == GREEN
    assert state.chips[8] == ORANGE and state.chips[17] == GREEN


@pytest.mark.parametrize("colour", [ORANGE, VIOLET])
def test_either_colour_may_be_chosen(colour: int) -> None:
    state = expand_state({0: ["26"]}, {"25": "o", "27": "v"})
    push(state, 0, (Kind.EXPAND, 26, colour))
    assert state.chips[26] == colour


def test_played_tile_leaves_the_game() -> None:
    state = expand_state({0: ["11", "1"]}, {"7": "o"}, tile_pile=["4", "9"])
    push(state, 0, (Kind.EXPAND, 11, ORANGE))
    assert 11 not in state.tiles[0]
    assert 11 in state.removed_tiles
    assert 11 not in state.tile_pile


# Tyros -------------------------------------------------------------------------------


@pytest.mark.parametrize("tile", ["31", "32"])
def test_chip_on_31_or_32_colours_tyros(tile: str) -> None:
    neighbour = {"31": "30", "32": "28"}[tile]
    state = expand_state({0: [tile]}, {neighbour: "v"})
    assert state.chips[TYROS] == -1
    push(state, 0, (Kind.EXPAND, space(tile), VIOLET))
    assert state.chips[space(tile)] == VIOLET
    assert state.chips[TYROS] == VIOLET
    assert log_of(state, "tyros_coloured") == [{"type": "tyros_coloured", "colour": "violet"}]


def test_tyros_is_not_recoloured_later() -> None:
    # Three players, round 2: two passes. Seat 0 plays 31 (violet from 30), making Tyros
    # violet; seat 1 plays 32 as yellow (from 28): Tyros stays violet.
    state = start_round(
        3,
        2,
        0,
        chips={"30": "v", "28": "y", "1": "o"},
        tiles={0: ["31", "2"], 1: ["32", "6"], 2: ["3", "10"]},
        tile_pile=["14", "19", "24", "5", "9", "4"],
    )
    assert state.phase == Phase.EXPAND and state.current == 0
    push(state, 0, (Kind.EXPAND, 31, VIOLET))
    assert state.chips[TYROS] == VIOLET
    assert state.current == 1
    # 32 touches 28 (yellow) and Tyros (now violet): both colours are offered.
    assert {a for a in legal_actions(state, 1) if a[1] == 32} == {
        (Kind.EXPAND, 32, YELLOW),
        (Kind.EXPAND, 32, VIOLET),
    }
    push(state, 1, (Kind.EXPAND, 32, YELLOW))
    assert state.chips[32] == YELLOW
    assert state.chips[TYROS] == VIOLET
    assert len(log_of(state, "tyros_coloured")) == 1


def test_coloured_tyros_counts_as_a_neighbour() -> None:
    # 31 touches 27, 30 and Tyros; only Tyros has a chip.
    state = expand_state({0: ["31"]}, {"TY": "g", "32": "g"})
    assert legal_actions(state, 0) == [(Kind.EXPAND, 31, GREEN)]


def test_uncoloured_tyros_is_no_neighbour() -> None:
    # Tyros without a chip lends no colour, and it is never a tile to play.
    state = expand_state({0: ["31"]}, {"28": "o"})
    assert legal_actions(state, 0) == [(Kind.RETURN_TILE, 31)]
    state = expand_state({0: ["31"]}, {"30": "o"})
    with pytest.raises(IllegalActionError):
        push(state, 0, (Kind.EXPAND, TYROS, ORANGE))


# Drawing -----------------------------------------------------------------------------


def test_draw_the_top_tile_after_playing() -> None:
    state = expand_state(
        {0: ["11", "1"], 1: ["29"]}, {"7": "o"}, tile_pile=["4", "9", "14"]
    )  # 14 is the top
    push(state, 0, (Kind.EXPAND, 11, ORANGE))
    assert state.tiles[0] == (1, 14)
    assert state.tile_pile == [4, 9]
    drawn = log_of(state, "tile_drawn")
    assert drawn == [{"type": "tile_drawn", "seat": 0, "count": 1, "tile": "14"}]


def test_no_draw_when_the_pile_is_empty() -> None:
    state = expand_state({0: ["11", "1"], 1: ["29"]}, {"7": "o"}, tile_pile=[])
    push(state, 0, (Kind.EXPAND, 11, ORANGE))
    assert state.tiles[0] == (1,)
    assert state.tile_pile == []
    assert log_of(state, "tile_drawn") == []


# Passes ------------------------------------------------------------------------------

# The first-game empires: 28 free tiles, so the pile outlasts two passes and a seat that
# cannot expand still takes its turn (putting a tile under the pile).
FIRST_CHIPS = {"7": "o", "13": "y", "23": "g", "26": "v"}


@pytest.mark.parametrize(
    ("players", "round_number", "starting", "passes"),
    [
        (4, 1, 0, 2),
        (4, 1, 2, 2),
        (4, 2, 1, 1),
        (4, 3, 3, 1),
        (4, 5, 0, 1),
        (3, 1, 0, 2),
        (3, 2, 1, 2),
        (3, 4, 2, 2),
    ],
)
def test_expansion_passes(players: int, round_number: int, starting: int, passes: int) -> None:
    state = start_round(players, round_number, starting, chips=FIRST_CHIPS)
    acted = play_expansions(state)
    order = [(starting + i) % players for i in range(players)]
    assert acted == order * passes
    assert state.phase == Phase.ACTIONS
    assert state.current == starting


@pytest.mark.parametrize(("players", "turns"), [(4, 8), (3, 6)])
def test_first_round_of_a_new_game(players: int, turns: int) -> None:
    state = new_game(Options(players=players, seed=21, starting_seat=1))
    acted = play_expansions(state)
    assert acted == [(1 + i) % players for i in range(players)] * (turns // players)
    assert state.phase == Phase.ACTIONS
    # Each turn played a tile or put one under the pile; the hands were refilled.
    assert all(len(t) == 4 for t in state.tiles)


def test_second_round_with_four_players_has_one_pass() -> None:
    state = new_game(Options(players=4, seed=21, starting_seat=3))
    play_expansions(state)
    while state.phase == Phase.ACTIONS:
        push(state, state.current, PASS)
    while state.phase == Phase.KEEP:
        seat = seats_to_act(state)[0]
        push(state, seat, legal_actions(state, seat)[0])
    assert state.round == 2
    assert play_expansions(state) == [0, 1, 2, 3]


def test_must_expand_when_able() -> None:
    state = expand_state({0: ["11", "29"]}, {"7": "o"}, tile_pile=["4"])
    for action in [PASS, (Kind.RETURN_TILE, 29), (Kind.RETURN_TILE, 11)]:
        with pytest.raises(IllegalActionError):
            push(state, 0, action)
    assert state.tiles[0] == (11, 29)


# Cannot expand -----------------------------------------------------------------------


def test_cannot_expand_reveals_and_swaps_a_tile() -> None:
    # Three players, round 2 (two passes). Seat 0 holds nothing next to an empire.
    state = start_round(
        3,
        2,
        0,
        chips={"1": "o", "17": "g", "31": "v", "TY": "v"},
        tiles={0: ["20", "25", "29", "5"], 1: ["21", "12"], 2: ["18", "22"]},
        tile_pile=["3", "8", "9", "13"],
    )  # 13 is the top
    assert state.phase == Phase.EXPAND and state.current == 0
    # The reveal happened at once, in public.
    revealed = log_of(state, "tiles_revealed")
    assert revealed == [{"type": "tiles_revealed", "seat": 0, "tiles": ["5", "20", "25", "29"]}]
    for viewer in (None, 0, 1, 2):
        assert event_view(revealed[0], viewer) == revealed[0]
        assert view(state, viewer)["seats"][0]["revealed_tiles"] == ["5", "20", "25", "29"]
        assert view(state, viewer)["seats"][1]["revealed_tiles"] == []
    # The seat must put one of its tiles under the pile; it plays none.
    assert sorted(legal_actions(state, 0)) == [(Kind.RETURN_TILE, t) for t in (5, 20, 25, 29)]
    chips_before = list(state.chips)
    push(state, 0, (Kind.RETURN_TILE, 25))
    assert state.chips == chips_before
    assert state.tile_pile == [25, 3, 8, 9]  # under the pile: the front
    assert state.tiles[0] == (5, 13, 20, 29)  # drew the top tile
    # The tiles still held stay public; the new one is secret.
    assert state.revealed[0] == (5, 20, 29)
    for viewer in (None, 1, 2):
        assert view(state, viewer)["seats"][0]["revealed_tiles"] == ["5", "20", "29"]
    drawn = log_of(state, "tile_drawn")[-1]
    assert drawn["tile"] == "13"
    assert event_view(drawn, 0) == drawn
    assert "tile" not in (event_view(drawn, 1) or {})
    assert "tile" not in (event_view(drawn, None) or {})
    # Play passes on; seats 1 and 2 expand green next to 17 and draw 9 and 8.
    assert state.current == 1
    push(state, 1, (Kind.EXPAND, 12, GREEN))
    push(state, 2, (Kind.EXPAND, 18, GREEN))
    # Second pass: the drawn 13 now touches 12 and 18 (green); the revealed tiles still don't.
    assert state.current == 0
    assert legal_actions(state, 0) == [(Kind.EXPAND, 13, GREEN)]
    push(state, 0, (Kind.EXPAND, 13, GREEN))
    assert state.revealed[0] == (5, 20, 29)
    assert len(log_of(state, "tiles_revealed")) == 1
    assert state.current == 1


def test_playing_a_revealed_tile_removes_it_from_the_revealed_list() -> None:
    state = expand_state({0: ["20", "29"]}, {"21": "y"})
    state.revealed[0] = (20, 29)
    push(state, 0, (Kind.EXPAND, 20, YELLOW))
    assert state.revealed[0] == (29,)
    assert view(state, None)["seats"][0]["revealed_tiles"] == ["29"]


def test_cannot_expand_with_empty_pile_reveals_and_nothing_else() -> None:
    # Four players, round 3 (one pass): seat 1 is stuck and the pile is empty.
    state = start_round(
        4,
        3,
        0,
        chips={"7": "o"},
        tiles={0: ["11", "1"], 1: ["29", "32"], 2: ["2", "5"], 3: ["8", "20"]},
        tile_pile=[],
    )
    push(state, 0, (Kind.EXPAND, 11, ORANGE))
    # Seat 1 never gets to act: it reveals and is skipped; seat 2 is next.
    assert seats_to_act(state) == [2]
    assert state.tiles[1] == (29, 32)
    assert state.revealed[1] == (29, 32)
    assert log_of(state, "tiles_revealed") == [
        {"type": "tiles_revealed", "seat": 1, "tiles": ["29", "32"]}
    ]
    skipped = log_of(state, "expansion_skipped")
    assert skipped == [{"type": "expansion_skipped", "seat": 1, "reason": "pile_empty"}]
    assert event_view(skipped[0], 3) == skipped[0]
    assert state.tile_pile == []
    push(state, 2, (Kind.EXPAND, 2, ORANGE))
    push(state, 3, (Kind.EXPAND, 8, ORANGE))
    assert state.phase == Phase.ACTIONS


def test_seat_without_tiles_is_skipped() -> None:
    # Three players, round 2 (two passes), empty pile: seat 1 plays its only tile in the
    # first pass and is skipped in the second. The game goes on to the card actions.
    state = start_round(
        3, 2, 0, chips={"7": "o"}, tiles={0: ["2", "6"], 1: ["8"], 2: ["11", "12"]}, tile_pile=[]
    )
    push(state, 0, (Kind.EXPAND, 2, ORANGE))
    push(state, 1, (Kind.EXPAND, 8, ORANGE))
    assert state.tiles[1] == ()
    push(state, 2, (Kind.EXPAND, 11, ORANGE))
    push(state, 0, (Kind.EXPAND, 6, ORANGE))
    assert seats_to_act(state) == [2]
    skipped = log_of(state, "expansion_skipped")
    assert skipped == [{"type": "expansion_skipped", "seat": 1, "reason": "no_tiles"}]
    with pytest.raises(IllegalActionError) as err:
        push(state, 1, PASS)
    assert err.value.reason == Reason.NOT_YOUR_TURN
    push(state, 2, (Kind.EXPAND, 12, ORANGE))
    assert state.phase == Phase.ACTIONS
    assert state.current == 0


def test_first_seat_without_playable_tile_acts_before_the_others() -> None:
    # The stuck seat is the starting seat: it must choose before anyone else acts.
    state = start_round(
        4,
        2,
        2,
        chips={"1": "o"},
        tiles={0: ["2"], 1: ["6"], 2: ["30"], 3: ["3"]},
        tile_pile=["9", "14"],
    )
    assert seats_to_act(state) == [2]
    assert legal_actions(state, 2) == [(Kind.RETURN_TILE, 30)]
    push(state, 2, (Kind.RETURN_TILE, 30))
    assert state.tiles[2] == (14,)
    assert state.tile_pile == [30, 9]
    assert seats_to_act(state) == [3]
