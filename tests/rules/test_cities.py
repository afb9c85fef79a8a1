"""Action B, building a city: exclusive control, cost 5 or 4, the ship that goes home,
Italy's two coasts, one city per space, the city supply, Tyros, the all-four bonus."""

from __future__ import annotations

import pytest
from tyros_rules import Kind, Reason, push
from tyros_rules.actions import Action
from tyros_rules.state import GameState

from tests.rules.builders import assert_illegal, cards, legal, make_state, port, space
from tests.rules.invariants import check_invariants

CHIPS = {"22": "g", "23": "g", "24": "g"}


def city(where: str, ship: str, payment: str) -> Action:
    return (Kind.CITY, space(where), port(ship), *cards(payment))


def city_actions(state: GameState, seat: int, where: str | None = None) -> set[Action]:
    return {
        a
        for a in legal(state, seat)
        if a[0] == Kind.CITY and (where is None or a[1] == space(where))
    }


# Exclusive control and cost ----------------------------------------------------------


def test_city_with_one_ship_costs_five_and_sends_the_ship_home() -> None:
    state = make_state(chips=CHIPS, ships={"23": {0: 1}}, hands={0: "g g g g g y"})
    assert city_actions(state, 0) == {city("23", "23", "g g g g g")}
    push(state, 0, city("23", "23", "g g g g g"))
    assert state.cities[space("23")] == 0
    assert state.city_supply[0] == 9
    assert state.ships_of(port("23"), 0) == 0
    assert state.ship_supply[0] == 10
    assert state.hands[0] == cards("y")
    assert state.discard == cards("g g g g g")
    assert state.current == 1
    check_invariants(state)


def test_city_with_two_ships_costs_four_and_one_ship_stays() -> None:
    state = make_state(chips=CHIPS, ships={"23": {0: 2}}, hands={0: "g g g g"})
    assert city_actions(state, 0) == {city("23", "23", "g g g g")}
    push(state, 0, city("23", "23", "g g g g"))
    assert state.cities[space("23")] == 0
    assert state.ships_of(port("23"), 0) == 1
    assert state.ship_supply[0] == 9
    assert state.hands[0] == cards("")
    check_invariants(state)


@pytest.mark.parametrize(
    ("own", "hand", "payments"),
    [
        (1, "g g g g g", {"g g g g g"}),
        (1, "g g g g w w", {"g g g g w", "g g g w w"}),
        (1, "w w w w w", {"w w w w w"}),
        (1, "g g g g y y v", set()),
        (1, "y y y y y", set()),
        (2, "g g g g w w", {"g g g g", "g g g w", "g g w w"}),
        (2, "g w w w w", {"g w w w", "w w w w"}),
        (2, "g g g y o", set()),
    ],
)
def test_city_payments_with_wilds(own: int, hand: str, payments: set[str]) -> None:
    state = make_state(chips=CHIPS, ships={"23": {0: own}}, hands={0: hand})
    assert city_actions(state, 0) == {city("23", "23", p) for p in payments}


@pytest.mark.parametrize(
    "payment",
    [
        "g g g g",  # four with one ship
        "g g g g g g",  # six
        "g g g g y",  # one of another colour
        "y y y y y",  # the wrong colour
    ],
)
def test_city_with_a_wrong_payment_is_refused(payment: str) -> None:
    state = make_state(chips=CHIPS, ships={"23": {0: 1}}, hands={0: "g g g g g g y y y y y"})
    assert_illegal(state, 0, city("23", "23", payment), Reason.ILLEGAL)


@pytest.mark.parametrize(
    "ships",
    [
        {"23": {0: 1, 1: 1}},  # another player's ship beside it
        {"23": {1: 2}},  # only another player's ships
        {"22": {0: 1}},  # a ship next door does not count
        {},
    ],
)
def test_city_needs_exclusive_control(ships: dict[str, dict[int, int]]) -> None:
    state = make_state(chips=CHIPS, ships=ships, hands={0: "g g g g g g"})
    assert city_actions(state, 0, "23") == set()
    assert_illegal(state, 0, city("23", "23", "g g g g g"))


def test_city_needs_an_empire_chip() -> None:
    # 21 has no chip (no ship could end a move there; put one there anyway).
    hand = "o o o o o y y y y y g g g g g v v v v v"
    state = make_state(chips=CHIPS, ships={"21": {0: 1}}, hands={0: hand})
    assert city_actions(state, 0) == set()


def test_city_in_the_other_players_space_is_refused_for_the_wrong_seat() -> None:
    state = make_state(chips=CHIPS, ships={"23": {1: 1}}, hands={0: "g g g g g", 1: "g g g g g"})
    assert_illegal(state, 0, city("23", "23", "g g g g g"))
    assert_illegal(state, 1, city("23", "23", "g g g g g"), Reason.NOT_YOUR_TURN)


# Italy: both coasts, and the ship named in the action ---------------------------------


@pytest.mark.parametrize(("home", "stays"), [("16W", "16E"), ("16E", "16W")])
def test_city_in_italy_with_a_ship_on_each_coast(home: str, stays: str) -> None:
    state = make_state(
        chips={"16": "y"}, ships={"16W": {0: 1}, "16E": {0: 1}}, hands={0: "y y y y w"}
    )
    # Two ships in the space: cost 4; either ship may go home.
    assert city_actions(state, 0) == {
        city("16", ship, p) for ship in ("16W", "16E") for p in ("y y y y", "y y y w")
    }
    push(state, 0, city("16", home, "y y y y"))
    assert state.ships_of(port(home), 0) == 0
    assert state.ships_of(port(stays), 0) == 1
    assert state.cities[space("16")] == 0
    check_invariants(state)


def test_city_in_italy_names_the_coast_of_the_ship() -> None:
    state = make_state(chips={"16": "y"}, ships={"16E": {0: 1}}, hands={0: "y y y y y"})
    assert city_actions(state, 0) == {city("16", "16E", "y y y y y")}
    assert_illegal(state, 0, city("16", "16W", "y y y y y"))


def test_city_in_italy_is_contested_across_the_coasts() -> None:
    state = make_state(
        chips={"16": "y"}, ships={"16W": {0: 1}, "16E": {1: 1}}, hands={0: "y y y y y"}
    )
    assert city_actions(state, 0) == set()


def test_the_ship_port_must_be_in_the_space() -> None:
    state = make_state(chips=CHIPS, ships={"23": {0: 1}, "22": {0: 1}}, hands={0: "g g g g g"})
    assert_illegal(state, 0, city("23", "22", "g g g g g"))


# One city per space, city supply -----------------------------------------------------


@pytest.mark.parametrize("owner", [0, 1])
def test_one_city_per_space(owner: int) -> None:
    state = make_state(
        chips=CHIPS, cities={"23": owner}, ships={"23": {0: 1}}, hands={0: "g g g g g g"}
    )
    assert city_actions(state, 0, "23") == set()
    assert_illegal(state, 0, city("23", "23", "g g g g g"))


def test_no_city_once_the_supply_is_exhausted() -> None:
    chips = {**{str(s): "o" for s in range(1, 10)}, "10": "y", "11": "y"}
    built = {str(s): 0 for s in range(1, 11)}  # ten cities: the whole supply
    state = make_state(chips=chips, cities=built, ships={"11": {0: 1}}, hands={0: "y y y y y"})
    assert state.city_supply[0] == 0
    assert city_actions(state, 0) == set()
    assert_illegal(state, 0, city("11", "11", "y y y y y"))
    # The same place with one city fewer built would allow it.
    del built["10"]
    state = make_state(chips=chips, cities=built, ships={"11": {0: 1}}, hands={0: "y y y y y"})
    assert city_actions(state, 0) == {city("11", "11", "y y y y y")}


# Tyros ---------------------------------------------------------------------------------


def test_no_city_in_tyros_before_it_has_a_chip() -> None:
    state = make_state(
        chips=CHIPS,
        ships={"TY": {0: 2}},
        hands={0: "o o o o o y y y y y g g g g g v v v v v w w w w"},
    )
    assert city_actions(state, 0, "TY") == set()
    assert_illegal(state, 0, city("TY", "TY", "g g g g"))


def test_city_in_tyros_once_it_has_a_chip() -> None:
    chips = {"31": "o", "TY": "o"}
    state = make_state(chips=chips, ships={"TY": {0: 2}}, hands={0: "o o o o w w"})
    assert city_actions(state, 0, "TY") == {
        city("TY", "TY", p) for p in ("o o o o", "o o o w", "o o w w")
    }
    push(state, 0, city("TY", "TY", "o o w w"))
    assert state.cities[space("TY")] == 0
    assert state.ships_of(port("TY"), 0) == 1
    check_invariants(state)


def test_city_in_tyros_needs_exclusive_control_too() -> None:
    chips = {"31": "o", "TY": "o"}
    state = make_state(chips=chips, hands={0: "o o o o o"})  # two ships of every seat
    assert city_actions(state, 0, "TY") == set()


# The all-four-empires bonus ----------------------------------------------------------

FOUR = {"1": "o", "2": "o", "10": "y", "11": "y", "15": "g", "16": "g", "25": "v", "26": "v"}


def test_first_to_have_cities_in_all_four_empires_gets_the_bonus() -> None:
    state = make_state(
        chips=FOUR,
        cities={"1": 0, "10": 0, "15": 0, "2": 1, "11": 1, "16": 1},
        ships={"25": {0: 1}, "26": {1: 1}},
        hands={0: "v v v v v", 1: "v v v v v"},
    )
    assert state.all_four_bonus == -1
    push(state, 0, city("25", "25", "v v v v v"))
    assert state.all_four_bonus == 0
    check_invariants(state)
    # Seat 1 completes its four empires next: the bonus stays with seat 0.
    push(state, 1, city("26", "26", "v v v v v"))
    assert state.cities[space("26")] == 1
    assert state.all_four_bonus == 0
    check_invariants(state)


def test_four_cities_in_three_empires_earn_no_bonus() -> None:
    state = make_state(
        chips=FOUR, cities={"1": 0, "2": 0, "10": 0}, ships={"15": {0: 1}}, hands={0: "g g g g g"}
    )
    push(state, 0, city("15", "15", "g g g g g"))
    assert state.all_four_bonus == -1


def test_the_bonus_counts_a_city_in_tyros_in_its_empire() -> None:
    chips = {"31": "v", "TY": "v", "1": "o", "10": "y", "15": "g"}
    state = make_state(
        chips=chips, cities={"1": 0, "10": 0, "15": 0}, ships={"TY": {0: 1}}, hands={0: "v v v v v"}
    )
    push(state, 0, city("TY", "TY", "v v v v v"))
    assert state.all_four_bonus == 0
