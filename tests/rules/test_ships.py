"""Action C, building a ship: in one's own city (1 card, 2 beside a ship, none beside two),
in Tyros while it has no city (ships there + 1 cards of any colours, 2 own ships at most),
Tyros after its city, Italy's west coast, and the ship supply."""

from __future__ import annotations

import pytest
from tyros_rules import Kind, Reason, push
from tyros_rules.actions import SHIP_PAY, Action
from tyros_rules.state import GameState

from tests.rules.builders import assert_illegal, cards, legal, make_state, port, space
from tests.rules.invariants import check_invariants

CHIPS = {"22": "g", "23": "g", "24": "g"}
TYROS_CHIPS = {"31": "o", "32": "o", "TY": "o"}


def ship(where: str, payment: str) -> Action:
    return (Kind.SHIP, space(where), *cards(payment))


def ship_payments(state: GameState, seat: int, where: str) -> set[tuple[int, ...]]:
    return {a[SHIP_PAY] for a in legal(state, seat) if a[0] == Kind.SHIP and a[1] == space(where)}


def pays(*texts: str) -> set[tuple[int, ...]]:
    return {cards(t) for t in texts}


# In one's own city ---------------------------------------------------------------------


def test_ship_in_own_empty_city_costs_one_card_of_its_colour() -> None:
    state = make_state(chips=CHIPS, cities={"23": 0}, ships={}, hands={0: "g g w y"})
    assert ship_payments(state, 0, "23") == pays("g", "w")
    push(state, 0, ship("23", "g"))
    assert state.ships_of(port("23"), 0) == 1
    assert state.ship_supply[0] == 9
    assert state.hands[0] == cards("g w y")
    assert state.discard == cards("g")
    assert state.current == 1
    check_invariants(state)


def test_ship_paid_with_a_wild() -> None:
    state = make_state(chips=CHIPS, cities={"23": 0}, ships={}, hands={0: "w y"})
    assert ship_payments(state, 0, "23") == pays("w")
    push(state, 0, ship("23", "w"))
    assert state.hands[0] == cards("y")


@pytest.mark.parametrize("payment", ["y", "g g", "o", ""])
def test_ship_in_own_empty_city_with_a_wrong_payment(payment: str) -> None:
    state = make_state(chips=CHIPS, cities={"23": 0}, ships={}, hands={0: "g g y o"})
    assert_illegal(state, 0, ship("23", payment))


@pytest.mark.parametrize("present", [{0: 1}, {1: 1}])
def test_ship_beside_one_ship_costs_two_cards_one_of_the_colour(present: dict[int, int]) -> None:
    state = make_state(chips=CHIPS, cities={"23": 0}, ships={"23": present}, hands={0: "g y y w"})
    # Pairs from g, y, y, w: gy, gw, yw (the wild counts as green), but not yy.
    assert ship_payments(state, 0, "23") == pays("g y", "g w", "y w")
    assert_illegal(state, 0, ship("23", "y y"), Reason.ILLEGAL)
    assert_illegal(state, 0, ship("23", "g"), Reason.ILLEGAL)
    push(state, 0, ship("23", "y w"))
    assert state.total_ships_in_space(space("23")) == 2
    assert state.hands[0] == cards("g y")
    check_invariants(state)


def test_ship_beside_one_ship_lists_every_pair() -> None:
    state = make_state(
        chips=CHIPS, cities={"23": 0}, ships={"23": {2: 1}}, hands={0: "g g o v w w"}
    )
    assert ship_payments(state, 0, "23") == pays("g g", "g o", "g v", "g w", "o w", "v w", "w w")


def test_ship_beside_one_ship_without_the_colour_is_impossible() -> None:
    state = make_state(chips=CHIPS, cities={"23": 0}, ships={"23": {1: 1}}, hands={0: "o y v v"})
    assert ship_payments(state, 0, "23") == set()


@pytest.mark.parametrize("present", [{0: 2}, {0: 1, 1: 1}, {1: 1, 2: 1}])
def test_no_ship_beside_two_ships(present: dict[int, int]) -> None:
    state = make_state(chips=CHIPS, cities={"23": 0}, ships={"23": present}, hands={0: "g g g w w"})
    assert ship_payments(state, 0, "23") == set()
    assert_illegal(state, 0, ship("23", "g g"))


@pytest.mark.parametrize("cities", [{"23": 1}, {}])
def test_no_ship_outside_own_city(cities: dict[str, int]) -> None:
    state = make_state(chips=CHIPS, cities=cities, ships={"23": {0: 1}}, hands={0: "g g g w w"})
    assert ship_payments(state, 0, "23") == set()
    assert ship_payments(state, 0, "22") == set()
    assert_illegal(state, 0, ship("23", "g"))
    assert_illegal(state, 0, ship("23", "g g"))


# In Tyros without a city ---------------------------------------------------------------


def test_ship_in_tyros_costs_ships_there_plus_one_cards_of_any_colours() -> None:
    state = make_state(players=3, ships={"TY": {0: 1, 1: 2}}, hands={0: "o o y g w"})
    # Three ships in Tyros: four cards, any colours - every way to leave one card out.
    assert ship_payments(state, 0, "TY") == pays("o y g w", "o o g w", "o o y w", "o o y g")
    push(state, 0, ship("TY", "o o y g"))
    assert state.ships_of(port("TY"), 0) == 2
    assert state.hands[0] == cards("w")
    assert state.discard == cards("o o y g")
    check_invariants(state)


@pytest.mark.parametrize(
    ("in_tyros", "cost"),
    [
        ({}, 1),
        ({0: 1}, 2),
        ({1: 1}, 2),
        ({1: 2, 2: 2}, 5),
        ({0: 1, 1: 2, 2: 2}, 6),
    ],
)
def test_tyros_cost_counts_every_ship_there(in_tyros: dict[int, int], cost: int) -> None:
    hand = "v v v v v v v v"
    state = make_state(players=3, ships={"TY": in_tyros}, hands={0: hand})
    assert ship_payments(state, 0, "TY") == pays(" ".join(["v"] * cost))
    state = make_state(players=3, ships={"TY": in_tyros}, hands={0: " ".join(["v"] * (cost - 1))})
    assert ship_payments(state, 0, "TY") == set()


def test_eighth_ship_in_tyros() -> None:
    ships = {"TY": {0: 1, 1: 2, 2: 2, 3: 2}}
    state = make_state(ships=ships, hands={0: "o o y y g g v w", 1: "o o y y g g v w"})
    assert ship_payments(state, 0, "TY") == pays("o o y y g g v w")
    push(state, 0, ship("TY", "o o y y g g v w"))
    assert state.total_ships_in_space(space("TY")) == 8
    check_invariants(state)
    # Everyone now has two ships in Tyros: nobody builds there.
    assert ship_payments(state, 1, "TY") == set()


def test_at_most_two_own_ships_in_tyros() -> None:
    state = make_state(ships={"TY": {0: 2}}, hands={0: "o o o o o o"})
    assert ship_payments(state, 0, "TY") == set()
    assert_illegal(state, 0, ship("TY", "o o o"))


def test_ship_in_tyros_before_it_has_a_chip() -> None:
    state = make_state(chips=CHIPS, ships={"TY": {1: 1}}, hands={0: "y v"})
    assert state.chips[space("TY")] == -1
    assert ship_payments(state, 0, "TY") == pays("y v")


def test_ship_in_tyros_with_a_chip_but_no_city_still_costs_any_colours() -> None:
    state = make_state(chips=TYROS_CHIPS, ships={"TY": {1: 1}}, hands={0: "y v g"})
    assert ship_payments(state, 0, "TY") == pays("y v", "y g", "g v")


@pytest.mark.parametrize("payment", ["o", "o o o", "o y g"])
def test_ship_in_tyros_with_the_wrong_number_of_cards(payment: str) -> None:
    state = make_state(ships={"TY": {1: 1}}, hands={0: "o o o y g"})
    assert_illegal(state, 0, ship("TY", payment), Reason.ILLEGAL)


# In Tyros with a city --------------------------------------------------------------------


def test_only_the_owner_builds_in_tyros_after_its_city() -> None:
    state = make_state(
        chips=TYROS_CHIPS, cities={"TY": 0}, ships={"32": {1: 1}}, hands={0: "o w y", 1: "o o w y"}
    )
    # Normal cost: one orange (the chip's colour) or wild, the space being empty.
    assert ship_payments(state, 0, "TY") == pays("o", "w")
    state.current = 1
    assert ship_payments(state, 1, "TY") == set()
    assert_illegal(state, 1, ship("TY", "o"))
    assert_illegal(state, 1, ship("TY", "o y"))


def test_tyros_owner_builds_beside_one_ship_at_normal_cost() -> None:
    state = make_state(
        chips=TYROS_CHIPS, cities={"TY": 0}, ships={"TY": {1: 1}}, hands={0: "o y y"}
    )
    assert ship_payments(state, 0, "TY") == pays("o y")
    push(state, 0, ship("TY", "o y"))
    assert state.ships_of(port("TY"), 0) == 1
    check_invariants(state)


def test_tyros_owner_cannot_build_beside_two_ships() -> None:
    state = make_state(
        chips=TYROS_CHIPS, cities={"TY": 0}, ships={"TY": {0: 1, 1: 1}}, hands={0: "o o o o"}
    )
    assert ship_payments(state, 0, "TY") == set()


# Italy ---------------------------------------------------------------------------------


def test_ship_built_in_italy_goes_to_the_west_coast() -> None:
    state = make_state(chips={"16": "y"}, cities={"16": 0}, ships={}, hands={0: "y"})
    push(state, 0, ship("16", "y"))
    assert state.ships_of(port("16W"), 0) == 1
    assert state.ships_of(port("16E"), 0) == 0
    check_invariants(state)


def test_ship_built_in_italy_beside_a_ship_on_the_east_coast() -> None:
    state = make_state(chips={"16": "y"}, cities={"16": 0}, ships={"16E": {1: 1}}, hands={0: "y v"})
    assert ship_payments(state, 0, "16") == pays("y v")
    push(state, 0, ship("16", "y v"))
    assert state.ships_of(port("16W"), 0) == 1
    assert state.ships_of(port("16E"), 1) == 1
    check_invariants(state)


def test_no_ship_in_italy_beside_ships_on_both_coasts() -> None:
    state = make_state(
        chips={"16": "y"},
        cities={"16": 0},
        ships={"16E": {1: 1}, "16W": {2: 1}},
        hands={0: "y y w"},
    )
    assert ship_payments(state, 0, "16") == set()


# Ship supply ---------------------------------------------------------------------------

SUPPLY_CHIPS = {"1": "o", "2": "o", "3": "o", "4": "o", "5": "o", **CHIPS}


def _fleet(count: int) -> dict[str, dict[int, int]]:
    """``count`` ships of seat 0 (count >= 2): one in Tyros, the rest two by two on 1..5."""
    ships: dict[str, dict[int, int]] = {"TY": {0: 1}}
    left = count - 1
    for label in ("1", "2", "3", "4", "5"):
        here = min(2, left)
        if here:
            ships[label] = {0: here}
        left -= here
    return ships


def test_no_ship_once_the_supply_is_exhausted() -> None:
    hand = "g g g o o o"
    state = make_state(chips=SUPPLY_CHIPS, cities={"23": 0}, ships=_fleet(10), hands={0: hand})
    assert state.ship_supply[0] == 0
    assert not [a for a in legal(state, 0) if a[0] == Kind.SHIP]
    assert_illegal(state, 0, ship("23", "g"))
    assert_illegal(state, 0, ship("TY", "g o"))
    # With nine ships out the same hand builds in the city and in Tyros.
    state = make_state(chips=SUPPLY_CHIPS, cities={"23": 0}, ships=_fleet(9), hands={0: hand})
    assert state.ship_supply[0] == 1
    assert ship_payments(state, 0, "23") == pays("g")
    assert ship_payments(state, 0, "TY") == pays("g g", "g o", "o o")
