"""Every refusal of a command says why, in a player's words: one test per reason."""

from __future__ import annotations

from typing import Any

from tyros_client.tui.commands import Context, Problem, parse

from tests.client.views import game_view

NAMES = ["Ann", "Bob", "Cyd", "Dee"]
PASS = {"kind": "pass"}


def view(**fields: Any) -> dict[str, Any]:
    """Seat 0's view in the card-action phase, on its turn, changed by ``fields``."""
    base: dict[str, Any] = {
        "viewer": 0,
        "players": 4,
        "phase": "actions",
        "current": 0,
        "to_act": [0],
        "chips": {"21": "yellow", "16": "violet", "30": "green", "22": "yellow"},
        "cities": {"30": 0},
        "ships": [],
        "hand": [],
        "seats": [
            {
                "seat": s,
                "cards": 5,
                "tiles": 3,
                "revealed_tiles": [],
                "ships_in_supply": 8,
                "cities_in_supply": 9,
            }
            for s in range(4)
        ],
    }
    base.update(fields)
    return base


def refusal(
    line: str,
    seen: dict[str, Any],
    *legal: dict[str, Any],
    seat: int | None = 0,
) -> str:
    if not legal and seat in seen.get("to_act", []):
        legal = (PASS,)
    ctx = Context(
        legal=list(legal),
        seat=seat,
        names=NAMES,
        players=4,
        hand=list(seen.get("hand") or []),
        view=game_view(seen),
    )
    result = parse(line, ctx)
    assert isinstance(result, Problem), result
    for raw in ("_", "{", "Error", "Traceback"):  # no codes, JSON or exception text
        assert raw not in result.message, result.message
    return result.message


def test_a_city_short_of_cards_counts_the_colour_and_the_wilds() -> None:
    # The player's lone ship in 21 (yellow) and 4 of the 5 yellow cards needed.
    seen = view(
        ships=[{"port": "21", "seat": 0, "count": 1}],
        hand=["yellow", "yellow", "yellow", "wild", "green"],
    )
    message = refusal("city 21", seen)
    assert "it costs 5 yellow (wild cards count) and you hold 3 yellow and 1 wild" in message


def test_a_city_beside_a_rivals_ship() -> None:
    seen = view(
        ships=[{"port": "21", "seat": 0, "count": 1}, {"port": "21", "seat": 2, "count": 1}],
        hand=["yellow"] * 5,
    )
    assert "C Cyd also has a ship in 21: a city needs your ships alone there" in refusal(
        "city 21", seen
    )


def test_a_city_with_no_ship_there_and_in_a_space_of_no_empire() -> None:
    assert "a city needs one of your ships in 22, and you have none there" in refusal(
        "city 22", view(hand=["yellow"] * 5)
    )
    assert "1 belongs to no empire yet" in refusal("city 1", view())


def test_two_ships_in_the_space_stop_a_ship_and_a_move() -> None:
    seen = view(
        ships=[{"port": "30", "seat": 0, "count": 1}, {"port": "30", "seat": 1, "count": 1}],
        hand=["green", "green"],
    )
    assert "30 already holds 2 ships, the most a space may" in refusal("ship 30", seen)
    seen = view(
        ships=[{"port": "30", "seat": 3, "count": 2}, {"port": "22", "seat": 0, "count": 1}],
        hand=["green"] * 6,
    )
    assert "30 already holds 2 ships" in refusal("move 22 30", seen)


def test_a_ship_outside_tyros_needs_ones_own_city() -> None:
    seen = view(cities={"30": 0, "22": 1, "TY": 2}, hand=["yellow"])
    assert "a space with your own city, and 22 has B Bob's city" in refusal("ship 22", seen)


def test_a_move_names_the_cost_against_the_hand() -> None:
    # From 21 to 16 (violet) is more than the one violet and one wild held.
    seen = view(ships=[{"port": "21", "seat": 0, "count": 1}], hand=["violet", "wild"])
    message = refusal("move 21 16", seen)
    assert "steps away: it costs" in message and "violet" in message
    assert "you hold 1 violet and 1 wild" in message


def test_whose_turn_it_is_and_that_a_spectator_only_watches() -> None:
    seen = view(current=2, to_act=[2])
    assert "it is C Cyd's turn (card actions): wait for them" in refusal("move 21 16", seen)
    assert "spectators cannot act" in refusal("pass", view(viewer=None), seat=None)
    keeping = view(phase="keep", to_act=[1, 3])
    assert "the others are choosing the cards they keep" in refusal("pass", keeping)


def test_a_command_of_another_phase_names_the_phase() -> None:
    message = refusal("expand 14", view())
    assert "that is for the expansion, and this is the card actions" in message
    assert "now you can: pass" in message
