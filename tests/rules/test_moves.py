"""Action A, moving a ship: costs, wild cards, where a ship may end, Tyros, Italy, city owners.

Every cost here is worked out by hand from the sea links in BOARD.md (and the
rulebook's own route examples), never read from the engine's distance table.
"""

from __future__ import annotations

import pytest
from tyros_rules import (
    Kind,
    Phase,
    Reason,
    push,
    seats_to_act,
)
from tyros_rules.actions import MOVE_PAY, Action
from tyros_rules.state import GameState

from tests.rules.builders import assert_illegal, cards, legal, make_state, port, space
from tests.rules.invariants import check_invariants

# Every numbered space and Tyros coloured, each empire one connected group:
# columns 1-2 orange, column 3 yellow, columns 4-5 green, columns 6-7 and Tyros violet
# (violet is connected 27-26-25-29-30-31-TY-32-28 around the sea serpent).
FULL_BOARD: dict[str, str] = {
    **{str(s): "o" for s in range(1, 10)},
    **{str(s): "y" for s in range(10, 15)},
    **{str(s): "g" for s in range(15, 25)},
    **{str(s): "v" for s in range(25, 33)},
    "TY": "v",
}
COLOUR_INDEX = {"o": 0, "y": 1, "g": 2, "v": 3}
ALL_CARDS = "o o o o o o y y y y y y g g g g g g v v v v v v"


def phase_of(state: GameState) -> Phase:
    """The phase, read through a call (so that type checkers do not keep an old narrowing)."""
    return state.phase


def pay(text: str) -> tuple[int, int, int, int, int]:
    return cards(text)


def move(frm: str, to: str, payment: str) -> Action:
    return (Kind.MOVE, port(frm), port(to), *pay(payment))


def moves_between(state: GameState, seat: int, frm: str, to: str) -> set[tuple[int, ...]]:
    """The payments of every legal move of ``seat`` from one port to another."""
    return {
        a[MOVE_PAY]
        for a in legal(state, seat)
        if a[0] == Kind.MOVE and a[1] == port(frm) and a[2] == port(to)
    }


def destinations(state: GameState, seat: int, frm: str) -> set[int]:
    return {a[2] for a in legal(state, seat) if a[0] == Kind.MOVE and a[1] == port(frm)}


# Costs: the shortest sea route, in the destination's colour -------------------------

# (from port, to port, steps) - each worked out on the sea links of BOARD.md.
ROUTES = [
    ("TY", "23", 4),  # rulebook: 32-28-24-23 or 31-27-22-23
    ("22", "8", 3),  # rulebook: 22-17-12-8
    ("22", "15", 3),  # rulebook: 22-17-16-15 (16 on its east coast)
    ("15", "10", 5),  # rulebook: 15-16-17-16-11-10; 15-10 is no link
    ("10", "15", 5),  # the same route backwards
    ("31", "29", 4),  # rulebook: 31-30-26-25-29; 31-30-29 is no route
    ("29", "31", 4),
    ("16E", "16W", 2),  # 16E-17-16W: round the boot
    ("16W", "16E", 2),
    ("15", "16E", 1),
    ("15", "16W", 3),  # 15-16E-17-16W
    ("11", "16W", 1),
    ("11", "16E", 3),  # 11-16W-17-16E or 11-12-17-16E
    ("26", "16E", 4),  # 26-21-16 is no route: 26-21-22-17-16E
    ("26", "16W", 4),  # 26-27-22-17-16W
    ("27", "28", 4),  # not across the sea serpent: 27-31-TY-32-28 or 27-22-23-24-28
    ("23", "TY", 4),  # not across the sea serpent: 23-24-28-32-TY
    ("5", "9", 2),  # 5-4-9
    ("TY", "31", 1),
    ("TY", "32", 1),
    ("31", "32", 2),  # 31-TY-32
]


def _colour_of(label: str) -> str:
    return FULL_BOARD[label.rstrip("EW")]


@pytest.mark.parametrize(("frm", "to", "steps"), ROUTES)
def test_move_costs_one_destination_card_per_step_of_the_shortest_route(
    frm: str, to: str, steps: int
) -> None:
    state = make_state(chips=FULL_BOARD, ships={frm: {0: 1}}, hands={0: ALL_CARDS})
    colour = _colour_of(to)
    # Six cards of every colour: the only way to pay is `steps` cards of the destination colour.
    assert moves_between(state, 0, frm, to) == {pay(" ".join([colour] * steps))}
    push(state, 0, move(frm, to, " ".join([colour] * steps)))
    assert state.ships_of(port(to), 0) == 1
    assert state.ships_of(port(frm), 0) == 0
    expected_hand = list(pay(ALL_CARDS))
    expected_hand[COLOUR_INDEX[colour]] -= steps
    assert state.hands[0] == tuple(expected_hand)
    assert state.discard[COLOUR_INDEX[colour]] == steps
    assert state.current == 1
    check_invariants(state)


@pytest.mark.parametrize(("frm", "to", "steps"), ROUTES)
def test_move_needs_the_whole_cost(frm: str, to: str, steps: int) -> None:
    colour = _colour_of(to)
    short = " ".join([colour] * (steps - 1))
    state = make_state(chips=FULL_BOARD, ships={frm: {0: 1}}, hands={0: short})
    assert moves_between(state, 0, frm, to) == set()
    if short:
        assert_illegal(state, 0, move(frm, to, short))


def test_first_game_moves_out_of_tyros() -> None:
    """First-game empires (7 orange, 13 yellow, 23 green, 26 violet), Tyros still without chip."""
    chips = {"7": "o", "13": "y", "23": "g", "26": "v"}
    # TY->7: 31-27-22-17-12-11-7 (7); TY->13: 31-27-22-17-12-13 (6);
    # TY->23: 32-28-24-23 (4); TY->26: 31-27-26 or 31-30-26 (3).
    hand = "o o o o o o o y y y y y y g g g g v v v"
    state = make_state(chips=chips, hands={0: hand})
    got = {a for a in legal(state, 0) if a[0] == Kind.MOVE}
    assert got == {
        move("TY", "7", "o o o o o o o"),
        move("TY", "13", "y y y y y y"),
        move("TY", "23", "g g g g"),
        move("TY", "26", "v v v"),
    }
    # One card short of each cost, no move at all.
    state = make_state(chips=chips, hands={0: "o o o o o o y y y y y g g g v v"})
    assert not [a for a in legal(state, 0) if a[0] == Kind.MOVE]


# Wild cards --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "payments"),
    [
        ("g g g g", {"g g g g"}),
        ("g g g g g w", {"g g g g", "g g g w"}),
        ("g g g w w w y", {"g g g w", "g g w w", "g w w w"}),
        ("g g w w w w", {"g g w w", "g w w w", "w w w w"}),
        ("w w w w y y", {"w w w w"}),
        ("g w w y y v", set()),
    ],
)
def test_move_lists_every_wild_variant(hand: str, payments: set[str]) -> None:
    """TY -> 23 (green) costs 4: each wild stands for a green, in every combination."""
    state = make_state(chips=FULL_BOARD, ships={"TY": {0: 1}}, hands={0: hand})
    assert moves_between(state, 0, "TY", "23") == {pay(p) for p in payments}


@pytest.mark.parametrize("payment", ["g g g w", "g g w w", "g w w w"])
def test_move_paid_with_wilds(payment: str) -> None:
    hand = "g g g w w w y"
    state = make_state(chips=FULL_BOARD, ships={"TY": {0: 1}}, hands={0: hand})
    push(state, 0, move("TY", "23", payment))
    assert state.hands[0] == tuple(h - p for h, p in zip(pay(hand), pay(payment), strict=True))
    assert state.discard == pay(payment)
    assert state.ships_of(port("23"), 0) == 1
    check_invariants(state)


@pytest.mark.parametrize(
    "payment",
    [
        "y y y y",  # the colour of the start, not of the destination
        "g g g",  # too few
        "g g g g g",  # too many: the shortest route is charged
        "g g g y",  # a card of another colour
        "g g g v",
    ],
)
def test_move_with_a_wrong_payment_is_refused(payment: str) -> None:
    state = make_state(chips=FULL_BOARD, ships={"TY": {0: 1}}, hands={0: "g g g g g y y y y v w"})
    assert_illegal(state, 0, move("TY", "23", payment), Reason.ILLEGAL)


def test_move_paid_with_cards_not_held_is_refused() -> None:
    state = make_state(chips=FULL_BOARD, ships={"TY": {0: 1}}, hands={0: "g g g w"})
    assert_illegal(state, 0, move("TY", "23", "g g g g"), Reason.CANNOT_AFFORD)


def test_only_own_ships_move() -> None:
    state = make_state(chips=FULL_BOARD, ships={"22": {1: 1}}, hands={0: ALL_CARDS})
    assert destinations(state, 0, "22") == set()
    assert_illegal(state, 0, move("22", "23", "g"))


# Where a ship may pass and end -------------------------------------------------------


def test_move_passes_through_full_spaces() -> None:
    """22 -> 8 goes only through 17 and 12; both full, the move still costs 3."""
    state = make_state(
        chips=FULL_BOARD,
        ships={"22": {0: 1}, "17": {1: 1, 2: 1}, "12": {1: 1, 3: 1}},
        hands={0: "o o o y y g g"},
    )
    assert moves_between(state, 0, "22", "8") == {pay("o o o")}
    assert moves_between(state, 0, "22", "17") == set()  # full: cannot end there
    assert moves_between(state, 0, "22", "12") == set()
    push(state, 0, move("22", "8", "o o o"))
    assert state.ships_of(port("8"), 0) == 1
    check_invariants(state)


def test_move_passes_through_spaces_without_chips_but_never_ends_there() -> None:
    chips = {"22": "g", "23": "g", "8": "o"}  # 17 and 12, on the way to 8, have no chip
    state = make_state(
        chips=chips, ships={"22": {0: 1}}, hands={0: "o o o o o y y y y y g g g g g v v v v v w w"}
    )
    assert destinations(state, 0, "22") == {port("23"), port("8")}
    assert moves_between(state, 0, "22", "8") == {pay("o o o"), pay("o o w"), pay("o w w")}
    for target in ("17", "12", "21", "27", "TY"):
        for payment in ("g", "o", "g g", "o o", "v v v"):
            assert_illegal(state, 0, move("22", target, payment))


def test_tyros_without_a_chip_cannot_be_entered() -> None:
    chips = {"27": "v", "26": "v"}  # 31 and 32 have no chip, so Tyros has none
    state = make_state(chips=chips, ships={"27": {0: 1}}, hands={0: "v v v v o o y y g g w w"})
    assert port("TY") not in destinations(state, 0, "27")
    assert_illegal(state, 0, move("27", "TY", "v v"))


def test_ships_leave_tyros_while_it_has_no_chip() -> None:
    state = make_state(chips={"23": "g"}, hands={0: "g g g g"})
    assert moves_between(state, 0, "TY", "23") == {pay("g g g g")}


@pytest.mark.parametrize(
    ("present", "allowed"),
    [
        ({}, True),
        ({1: 1}, True),
        ({0: 1}, True),
        ({1: 1, 2: 1}, False),
        ({1: 2}, False),
        ({0: 2}, False),
        ({0: 1, 3: 1}, False),
    ],
)
def test_at_most_two_ships_end_in_a_space(present: dict[int, int], allowed: bool) -> None:
    state = make_state(chips=FULL_BOARD, ships={"22": {0: 1}, "23": present}, hands={0: "g g"})
    assert (moves_between(state, 0, "22", "23") == {pay("g")}) is allowed
    if allowed:
        push(state, 0, move("22", "23", "g"))
        assert state.total_ships_in_space(space("23")) == sum(present.values()) + 1
        check_invariants(state)
    else:
        assert moves_between(state, 0, "22", "23") == set()
        assert_illegal(state, 0, move("22", "23", "g"))


def test_a_ship_cannot_stay_where_it_is() -> None:
    state = make_state(chips=FULL_BOARD, ships={"23": {0: 1}}, hands={0: ALL_CARDS})
    assert moves_between(state, 0, "23", "23") == set()
    assert_illegal(state, 0, move("23", "23", ""))
    assert_illegal(state, 0, move("23", "23", "g"))


# Tyros: two ships per player while it has no city ------------------------------------

TYROS_CHIPS = {"31": "o", "TY": "o", "32": "o"}


def test_eighth_ship_enters_tyros_without_a_city() -> None:
    ships = {"TY": {0: 2, 1: 2, 2: 2, 3: 1}, "31": {3: 1}}
    state = make_state(chips=TYROS_CHIPS, ships=ships, current=3, hands={3: "o"})
    assert moves_between(state, 3, "31", "TY") == {pay("o")}
    push(state, 3, move("31", "TY", "o"))
    assert state.total_ships_in_space(space("TY")) == 8
    assert state.current == 0
    check_invariants(state)


def test_third_own_ship_cannot_enter_tyros_without_a_city() -> None:
    ships = {"TY": {0: 2, 1: 1}, "31": {0: 1}, "32": {1: 1}}
    state = make_state(chips=TYROS_CHIPS, ships=ships, hands={0: "o o o", 1: "o o o"})
    assert moves_between(state, 0, "31", "TY") == set()
    assert_illegal(state, 0, move("31", "TY", "o"))
    # Seat 1 has one ship there, with 3 other ships beside it: it may bring a second.
    state.current = 1
    assert moves_between(state, 1, "32", "TY") == {pay("o")}


def test_tyros_with_a_city_takes_two_ships_in_all() -> None:
    # Seat 1's city in Tyros, one of its ships there: one more ship fits, then no more.
    ships = {"TY": {1: 1}, "31": {0: 1}, "32": {2: 1}}
    state = make_state(chips=TYROS_CHIPS, cities={"TY": 1}, ships=ships, hands={0: "o o", 2: "o o"})
    assert moves_between(state, 0, "31", "TY") == {pay("o")}
    push(state, 0, move("31", "TY", "o"))
    push(state, 0, (Kind.GIVE_CARD, 0))  # seat 1 owns the city
    state.current = 2
    assert state.total_ships_in_space(space("TY")) == 2
    assert moves_between(state, 2, "32", "TY") == set()
    assert_illegal(state, 2, move("32", "TY", "o"))


def test_tyros_with_a_city_limits_each_player_too() -> None:
    # Even the city owner: two ships in Tyros are the limit once the city stands.
    ships = {"TY": {1: 1, 0: 1}, "32": {1: 1}}
    state = make_state(
        chips=TYROS_CHIPS, cities={"TY": 1}, ships=ships, current=1, hands={1: "o o"}
    )
    assert moves_between(state, 1, "32", "TY") == set()


# Italy's two coasts -------------------------------------------------------------------


@pytest.mark.parametrize(("frm", "to"), [("16E", "16W"), ("16W", "16E")])
def test_changing_coast_in_italy_costs_two(frm: str, to: str) -> None:
    state = make_state(chips={"16": "y", "17": "y"}, ships={frm: {0: 1}}, hands={0: "y y w"})
    assert moves_between(state, 0, frm, to) == {pay("y y"), pay("y w")}
    push(state, 0, move(frm, to, "y w"))
    assert state.ships_of(port(to), 0) == 1
    assert state.ships_of(port(frm), 0) == 0
    check_invariants(state)


def test_changing_coast_is_not_blocked_by_a_full_italy() -> None:
    state = make_state(chips={"16": "y"}, ships={"16E": {0: 1}, "16W": {1: 1}}, hands={0: "y y"})
    assert moves_between(state, 0, "16E", "16W") == {pay("y y")}
    push(state, 0, move("16E", "16W", "y y"))
    assert state.ships_of(port("16W"), 0) == 1
    assert state.total_ships_in_space(space("16")) == 2
    check_invariants(state)


def test_a_full_italy_cannot_be_entered_on_either_coast() -> None:
    state = make_state(
        chips={"16": "y", "17": "y"},
        ships={"16E": {1: 1}, "16W": {2: 1}, "17": {0: 1}},
        hands={0: "y y y"},
    )
    assert moves_between(state, 0, "17", "16W") == set()
    assert moves_between(state, 0, "17", "16E") == set()


def test_italy_with_one_ship_can_be_entered_on_both_coasts() -> None:
    state = make_state(
        chips={"16": "y", "17": "y"}, ships={"16E": {1: 1}, "17": {0: 1}}, hands={0: "y"}
    )
    assert moves_between(state, 0, "17", "16W") == {pay("y")}
    assert moves_between(state, 0, "17", "16E") == {pay("y")}


# Ending in another player's city -----------------------------------------------------

CITY_CHIPS = {"22": "g", "23": "g"}


def test_mover_gives_the_city_owner_a_card_of_its_choice() -> None:
    state = make_state(
        chips=CITY_CHIPS, cities={"23": 1}, ships={"22": {0: 1}}, hands={0: "g o o y w", 1: "v"}
    )
    push(state, 0, move("22", "23", "g"))
    assert phase_of(state) == Phase.GIVE_CARD
    assert state.current == 0
    assert state.owed_to == 1
    assert seats_to_act(state) == [0]
    # One option per kind still held (orange, yellow, wild; the green was spent).
    assert sorted(legal(state, 0)) == [
        (Kind.GIVE_CARD, 0),
        (Kind.GIVE_CARD, 1),
        (Kind.GIVE_CARD, 4),
    ]
    check_invariants(state)
    assert_illegal(state, 0, (Kind.PASS,))
    assert_illegal(state, 0, (Kind.GIVE_CARD, 2))  # no green left
    assert_illegal(state, 1, (Kind.GIVE_CARD, 3), Reason.NOT_YOUR_TURN)
    push(state, 0, (Kind.GIVE_CARD, 1))
    assert state.hands[0] == pay("o o w")
    assert state.hands[1] == pay("y v")
    assert phase_of(state) == Phase.ACTIONS
    assert state.current == 1
    assert state.owed_to == -1
    assert state.passes == 0
    check_invariants(state)


def test_mover_holding_one_kind_still_chooses() -> None:
    state = make_state(chips=CITY_CHIPS, cities={"23": 2}, ships={"22": {0: 1}}, hands={0: "g g g"})
    push(state, 0, move("22", "23", "g"))
    assert phase_of(state) == Phase.GIVE_CARD
    assert legal(state, 0) == [(Kind.GIVE_CARD, 2)]
    push(state, 0, (Kind.GIVE_CARD, 2))
    assert state.hands[0] == pay("g")
    assert state.hands[2] == pay("g")


def test_mover_with_no_cards_left_gives_nothing() -> None:
    state = make_state(
        chips=CITY_CHIPS, cities={"23": 1}, ships={"22": {0: 1}}, hands={0: "w", 1: "o"}
    )
    push(state, 0, move("22", "23", "w"))
    assert phase_of(state) == Phase.ACTIONS
    assert state.current == 1
    assert state.hands[0] == pay("")
    assert state.hands[1] == pay("o")
    check_invariants(state)


def test_mover_ending_in_own_city_gives_nothing() -> None:
    state = make_state(
        chips=CITY_CHIPS, cities={"23": 0}, ships={"22": {0: 1}}, hands={0: "g o", 1: "y"}
    )
    push(state, 0, move("22", "23", "g"))
    assert phase_of(state) == Phase.ACTIONS
    assert state.current == 1
    assert state.hands[0] == pay("o")
    assert state.hands[1] == pay("y")


def test_passing_through_a_city_costs_no_card() -> None:
    # 22 -> 8 goes through 17 (seat 1's city): nothing is owed.
    chips = {"17": "g", "22": "g", "8": "o"}
    state = make_state(chips=chips, cities={"17": 1}, ships={"22": {0: 1}}, hands={0: "o o o y"})
    push(state, 0, move("22", "8", "o o o"))
    assert phase_of(state) == Phase.ACTIONS
    assert state.hands[0] == pay("y")
    assert state.current == 1


def test_changing_coast_into_a_city_in_italy_owes_a_card() -> None:
    state = make_state(
        chips={"16": "y"}, cities={"16": 3}, ships={"16E": {0: 1}}, hands={0: "y y v"}
    )
    push(state, 0, move("16E", "16W", "y y"))
    assert phase_of(state) == Phase.GIVE_CARD
    assert state.owed_to == 3
    push(state, 0, (Kind.GIVE_CARD, 3))
    assert state.hands[3] == pay("v")
    assert state.hands[0] == pay("")
