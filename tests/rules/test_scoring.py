"""End-of-game scoring on built positions, every number worked out by hand from the rulebook's
table (cities 12/10/9/8, ships 6/5/4/3 by empire rank; ties in size: orange > yellow > green >
violet), its removal steps, its two bonuses and its tie-break (RULINGS.md "Scoring", RULES.md
P1-P3)."""

from __future__ import annotations

from typing import Any

import pytest
from tyros_rules import Kind, Phase, push, score_game
from tyros_rules.state import GameState

from tests.rules.builders import make_state
from tests.rules.invariants import check_invariants

COLOURS = ("orange", "yellow", "green", "violet")


def scored(
    chips: dict[str, str],
    *,
    cities: dict[str, int] | None = None,
    ships: dict[str, dict[int, int]] | None = None,
    players: int = 4,
    all_four: int = -1,
) -> dict[str, Any]:
    state = make_state(players=players, chips=chips, cities=cities or {}, ships=ships or {})
    state.all_four_bonus = all_four
    check_invariants(state)
    return score_game(state)


def totals(sheet: dict[str, Any]) -> list[int]:
    return [p["total"] for p in sheet["players"]]


def empire(sheet: dict[str, Any], seat: int, colour: str) -> dict[str, Any]:
    entry: dict[str, Any] = sheet["players"][seat]["empires"][COLOURS.index(colour)]
    assert entry["colour"] == colour
    return entry


def ranks(sheet: dict[str, Any]) -> dict[str, int]:
    return {e["colour"]: e["rank"] for e in sheet["empires"]}


def sizes(sheet: dict[str, Any]) -> dict[str, int]:
    return {e["colour"]: e["size"] for e in sheet["empires"]}


# Removing ships, ship control, city control -------------------------------------------


def test_contested_ships_and_ships_in_city_spaces_score_nothing() -> None:
    # Orange 1-4 (4 spaces), yellow 6-8 (3), green 10-11 (2), violet 14 (1): ranked in order.
    chips = {
        "1": "o",
        "2": "o",
        "3": "o",
        "4": "o",
        "6": "y",
        "7": "y",
        "8": "y",
        "10": "g",
        "11": "g",
        "14": "v",
    }
    sheet = scored(
        chips,
        cities={"2": 0, "3": 1, "10": 3},
        ships={
            "1": {0: 1, 1: 1},  # contested: both removed
            "2": {1: 1},  # in seat 0's city: removed
            "3": {1: 1},  # in seat 1's own city: removed, the city scores alone
            "4": {2: 2},  # ship control (two ships, one space): 6
            "6": {3: 1},  # ship control, yellow: 5
            "7": {0: 1, 2: 1},  # contested
            "14": {2: 1},  # ship control, violet: 3
        },
    )
    assert sizes(sheet) == {"orange": 4, "yellow": 3, "green": 2, "violet": 1}
    assert ranks(sheet) == {"orange": 1, "yellow": 2, "green": 3, "violet": 4}
    # Seat 0: city in 2 (orange) 12. Seat 1: city in 3 (orange) 12; orange cities 1-1: no
    # majority. Seat 2: ships on 4 (6) and 14 (3). Seat 3: ship on 6 (5), city in 10 (green 9),
    # green majority 7.
    assert totals(sheet) == [12, 12, 9, 21]
    assert empire(sheet, 0, "orange") == {
        "colour": "orange",
        "cities": 1,
        "ship_spaces": 0,
        "points": 12,
    }
    assert empire(sheet, 1, "orange")["ship_spaces"] == 0
    assert empire(sheet, 0, "yellow")["ship_spaces"] == 0
    assert empire(sheet, 2, "orange") == {
        "colour": "orange",
        "cities": 0,
        "ship_spaces": 1,
        "points": 6,
    }
    assert empire(sheet, 3, "green")["points"] == 9
    assert sheet["players"][3]["majority_bonus"] == ["green"]
    assert [p["majority_points"] for p in sheet["players"]] == [0, 0, 0, 7]
    assert sheet["winners"] == [3]


def test_points_table_by_rank() -> None:
    # Sizes orange 4 (1-4), yellow 3 (10-12), green 2 (20-21), violet 1 (29).
    chips = {
        "1": "o",
        "2": "o",
        "3": "o",
        "4": "o",
        "10": "y",
        "11": "y",
        "12": "y",
        "20": "g",
        "21": "g",
        "29": "v",
    }
    sheet = scored(
        chips,
        cities={"1": 0, "10": 1, "20": 2, "29": 3},
        ships={"2": {1: 1}, "11": {2: 1}, "21": {3: 1}, "4": {0: 1}},
    )
    assert [(e["city_points"], e["ship_points"]) for e in sheet["empires"]] == [
        (12, 6),
        (10, 5),
        (9, 4),
        (8, 3),
    ]
    # Seat 0: city orange 12 + ship orange 6 + orange majority 7 = 25.
    # Seat 1: city yellow 10 + ship orange 6 + yellow majority 7 = 23.
    # Seat 2: city green 9 + ship yellow 5 + green majority 7 = 21.
    # Seat 3: city violet 8 + ship green 4 + violet majority 7 = 19.
    assert totals(sheet) == [25, 23, 21, 19]
    assert sheet["winners"] == [0]


# Empire size and rank ---------------------------------------------------------------------


def test_ties_in_size_rank_orange_yellow_green_violet() -> None:
    # Violet 4 (25, 26, 27, 29), yellow 3 (10-12), green 3 (20-22), orange 1 (1).
    chips = {
        "25": "v",
        "26": "v",
        "27": "v",
        "29": "v",
        "10": "y",
        "11": "y",
        "12": "y",
        "20": "g",
        "21": "g",
        "22": "g",
        "1": "o",
    }
    sheet = scored(
        chips,
        cities={"1": 0, "10": 1, "20": 2, "25": 3},
        ships={"11": {1: 1}, "21": {2: 1}, "26": {3: 1}},
    )
    assert ranks(sheet) == {"violet": 1, "yellow": 2, "green": 3, "orange": 4}
    # Seat 0: orange city 8 + 7. Seat 1: yellow city 10 + ship 5 + 7. Seat 2: green city 9 +
    # ship 4 + 7. Seat 3: violet city 12 + ship 6 + 7.
    assert totals(sheet) == [15, 22, 20, 25]
    assert sheet["winners"] == [3]


@pytest.mark.parametrize(
    ("seat_colour", "expected"),
    [
        ({0: "o", 1: "y", 2: "g", 3: "v"}, [12, 10, 9, 8]),
        ({0: "v", 1: "g", 2: "y", 3: "o"}, [8, 9, 10, 12]),
    ],
)
def test_equal_empires_rank_by_colour(seat_colour: dict[int, str], expected: list[int]) -> None:
    # Every empire has two spaces; each seat owns the city in one of them.
    spaces = {"o": ("1", "2"), "y": ("10", "11"), "g": ("20", "21"), "v": ("25", "26")}
    chips = {s: c for c, pair in spaces.items() for s in pair}
    cities = {spaces[c][0]: seat for seat, c in seat_colour.items()}
    sheet = scored(chips, cities=cities)
    assert ranks(sheet) == {"orange": 1, "yellow": 2, "green": 3, "violet": 4}
    # Each seat alone has the most cities in its empire: 7 more.
    assert totals(sheet) == [points + 7 for points in expected]


def test_an_empty_empire_ranks_last_and_does_not_push_the_others_down() -> None:
    # Yellow 2 (10, 11), green 1 (15); orange and violet have no space.
    chips = {"10": "y", "11": "y", "15": "g"}
    sheet = scored(chips, cities={"15": 0}, ships={"10": {1: 1}, "11": {1: 2}})
    assert sizes(sheet) == {"orange": 0, "yellow": 2, "green": 1, "violet": 0}
    assert ranks(sheet) == {"yellow": 1, "green": 2, "orange": 3, "violet": 4}
    # Seat 0: green city at rank 2 = 10, green majority 7. Seat 1: two yellow ship spaces 6 + 6.
    assert totals(sheet) == [17, 12, 0, 0]
    assert empire(sheet, 0, "orange")["points"] == 0
    assert sheet["players"][0]["majority_bonus"] == ["green"]


# Tyros ---------------------------------------------------------------------------------------


def test_tyros_counts_in_its_empire() -> None:
    # Violet on 31 and Tyros (2), green on 20 (1): violet is larger only thanks to Tyros.
    chips = {"31": "v", "TY": "v", "20": "g"}
    sheet = scored(chips, cities={"20": 1}, ships={"TY": {0: 2}, "31": {2: 1}})
    assert sizes(sheet)["violet"] == 2
    assert ranks(sheet) == {"violet": 1, "green": 2, "orange": 3, "yellow": 4}
    # Seat 0: Tyros ship control, violet rank 1 = 6. Seat 1: green city at rank 2 = 10 +
    # majority 7. Seat 2: ship on 31, violet 6.
    assert totals(sheet) == [6, 17, 6, 0]


def test_city_in_tyros_scores_in_its_empire() -> None:
    chips = {"31": "o", "32": "o", "TY": "o", "20": "y", "21": "y"}
    sheet = scored(chips, cities={"TY": 2}, ships={"TY": {2: 1, 1: 1}, "32": {1: 1}})
    # Orange 3 ranks first: the city is worth 12, the ship of seat 1 beside it nothing;
    # seat 1's ship on 32 controls it: 6. Orange majority for seat 2: 7.
    assert totals(sheet) == [0, 6, 19, 0]


def test_ships_in_tyros_without_a_chip_score_nothing() -> None:
    chips = {"20": "g"}
    sheet = scored(chips, ships={"TY": {0: 2}, "20": {1: 1}})
    # Seat 0's two ships in Tyros: no empire there. Green, alone, ranks first: seat 1 scores 6.
    assert totals(sheet) == [0, 6, 0, 0]


def test_several_players_in_tyros_score_nothing_there() -> None:
    chips = {"31": "o", "TY": "o"}
    sheet = scored(chips, ships={"TY": {0: 2, 1: 1}})
    assert totals(sheet) == [0, 0, 0, 0]


# Italy --------------------------------------------------------------------------------------


def test_ships_on_both_coasts_of_italy_are_one_space() -> None:
    # Yellow 15-16 (2) ranks first, orange 1 (1) second.
    chips = {"15": "y", "16": "y", "1": "o"}
    sheet = scored(chips, ships={"16W": {0: 1}, "16E": {0: 1}, "1": {1: 1}})
    assert empire(sheet, 0, "yellow")["ship_spaces"] == 1
    assert totals(sheet) == [6, 5, 0, 0]


def test_ships_of_two_players_on_the_two_coasts_of_italy_are_contested() -> None:
    chips = {"15": "y", "16": "y", "1": "o"}
    sheet = scored(chips, ships={"16W": {0: 1}, "16E": {1: 1}, "15": {1: 1}})
    assert totals(sheet) == [0, 6, 0, 0]


# Bonuses -------------------------------------------------------------------------------------

FOUR_BY_TWO = {"1": "o", "2": "o", "10": "y", "11": "y", "20": "g", "21": "g", "25": "v", "26": "v"}
BOTH_IN_ALL_FOUR = {"1": 0, "10": 0, "20": 0, "25": 0, "2": 1, "11": 1, "21": 1, "26": 1}


@pytest.mark.parametrize(
    ("first", "expected"),
    [
        (0, [46, 39, 0, 0]),
        (1, [39, 46, 0, 0]),
    ],
)
def test_all_four_bonus_goes_to_the_first_player_only(first: int, expected: list[int]) -> None:
    # Both seats have a city in every empire (12 + 10 + 9 + 8 = 39 each); cities are 1-1 in
    # every empire, so no majority; only the first to complete the four gets 7.
    sheet = scored(FOUR_BY_TWO, cities=BOTH_IN_ALL_FOUR, all_four=first)
    assert totals(sheet) == expected
    assert [p["all_four_bonus"] for p in sheet["players"]] == [
        7 if seat == first else 0 for seat in range(4)
    ]
    assert sheet["winners"] == [first]


def test_no_all_four_bonus_recorded_and_a_shared_win() -> None:
    sheet = scored(FOUR_BY_TWO, cities=BOTH_IN_ALL_FOUR)
    assert totals(sheet) == [39, 39, 0, 0]
    # Tied on total and on the orange (largest) empire's 12 points each: shared.
    assert sheet["winners"] == [0, 1]


def test_majority_bonus_needs_a_single_leader() -> None:
    # Orange 1-4: seat 0 two cities, seat 1 one. Yellow 10-11: seats 2 and 3 one each.
    chips = {"1": "o", "2": "o", "3": "o", "4": "o", "10": "y", "11": "y"}
    sheet = scored(chips, cities={"1": 0, "2": 0, "3": 1, "10": 2, "11": 3})
    assert [p["majority_bonus"] for p in sheet["players"]] == [["orange"], [], [], []]
    # Seat 0: 12 + 12 + 7. Seat 1: 12. Seats 2, 3: yellow cities at rank 2, 10 each.
    assert totals(sheet) == [31, 12, 10, 10]


def test_tied_majority_gives_nobody_the_bonus() -> None:
    chips = {"1": "o", "2": "o", "3": "o", "4": "o", "10": "y"}
    sheet = scored(chips, cities={"1": 0, "2": 0, "3": 1, "4": 1, "10": 2})
    assert [p["majority_points"] for p in sheet["players"]] == [0, 0, 7, 0]
    assert totals(sheet) == [24, 24, 17, 0]


# Winners -------------------------------------------------------------------------------------


def test_tie_broken_by_points_in_the_largest_empire() -> None:
    # Orange 1-3 (3) ranks first; yellow 6, green 10, violet 14 (1 each) follow in order.
    chips = {"1": "o", "2": "o", "3": "o", "6": "y", "10": "g", "14": "v"}
    sheet = scored(chips, ships={"1": {0: 1}, "2": {0: 1}, "6": {1: 1}, "10": {1: 1}, "14": {1: 1}})
    # Seat 0: 6 + 6 = 12, all from orange. Seat 1: 5 + 4 + 3 = 12, none from orange.
    assert totals(sheet) == [12, 12, 0, 0]
    assert [p["largest_empire_points"] for p in sheet["players"]] == [12, 0, 0, 0]
    assert sheet["winners"] == [0]


def test_tie_break_counts_city_and_ship_points_but_not_bonuses() -> None:
    # Orange 1-4 (4) first, yellow 6, green 10, violet 14.
    chips = {"1": "o", "2": "o", "3": "o", "4": "o", "6": "y", "10": "g", "14": "v"}
    sheet = scored(
        chips,
        cities={"1": 0},
        ships={"14": {0: 1}, "2": {1: 1}, "3": {1: 1}, "4": {1: 1}, "10": {1: 1}},
    )
    # Seat 0: orange city 12 + orange majority 7 + violet ship 3 = 22; orange points 12.
    # Seat 1: three orange ship spaces 18 + green ship 4 = 22; orange points 18.
    assert totals(sheet) == [22, 22, 0, 0]
    assert [p["largest_empire_points"] for p in sheet["players"]][:2] == [12, 18]
    assert sheet["winners"] == [1]


def test_still_tied_is_a_shared_win() -> None:
    chips = {"1": "o", "2": "o", "3": "o", "6": "y", "7": "y", "10": "g"}
    sheet = scored(chips, ships={"1": {0: 1}, "6": {0: 1}, "2": {2: 1}, "7": {2: 1}, "10": {1: 1}})
    # Seats 0 and 2: orange ship 6 + yellow ship 5 = 11 each, 6 from orange each.
    # Seat 1: green ship 4.
    assert totals(sheet) == [11, 4, 11, 0]
    assert sheet["winners"] == [0, 2]


def test_a_lower_total_never_wins_on_the_largest_empire() -> None:
    chips = {"1": "o", "2": "o", "3": "o", "6": "y", "7": "y", "10": "g"}
    sheet = scored(chips, ships={"1": {0: 1}, "2": {0: 1}, "6": {1: 1}, "7": {1: 1}, "10": {1: 1}})
    # Seat 0: 12, all orange. Seat 1: 5 + 5 + 4 = 14.
    assert totals(sheet) == [12, 14, 0, 0]
    assert sheet["winners"] == [1]


def test_three_player_scoring() -> None:
    chips = {"1": "o", "2": "o", "10": "y"}
    sheet = scored(chips, players=3, cities={"1": 2}, ships={"2": {1: 1}, "10": {0: 2}})
    # Orange 2 first, yellow 1 second. Seat 0: yellow ships 5. Seat 1: orange ship 6.
    # Seat 2: orange city 12 + majority 7.
    assert totals(sheet) == [5, 6, 19]
    assert len(sheet["players"]) == 3
    assert sheet["winners"] == [2]


# The final round ends in this score --------------------------------------------------------


def _final_round(all_four: int = -1) -> GameState:
    chips = {"1": "o", "2": "o", "10": "y"}
    state = make_state(
        chips=chips,
        cities={"1": 0},
        ships={"2": {1: 1}, "10": {2: 1}},
        current=3,
        tiles={0: [], 1: ["20"], 2: ["21"], 3: ["22"]},
        hands={0: "o o o o o", 3: "v"},
    )
    state.passes = 3
    state.all_four_bonus = all_four
    return state


def test_the_last_pass_of_the_final_round_scores_the_game() -> None:
    state = _final_round()
    push(state, 3, (Kind.PASS,))
    assert state.phase == Phase.OVER
    assert state.score == score_game(state)
    assert state.score is not None
    # Seat 0: orange city 12 + majority 7; seat 1: orange ship 6; seat 2: yellow ship 5.
    assert totals(state.score) == [19, 6, 5, 0]
    assert state.score["winners"] == [0]
    # Cards left in hand score nothing and nobody is asked to keep 3.
    assert state.hands[0] == (5, 0, 0, 0, 0)
    check_invariants(state)
