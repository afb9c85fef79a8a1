"""The default board against BOARD.md, and the board file validator.

Every check listed in BOARD.md "Checks the layout must pass" is here, each with the
rulebook's own route; the expected grid and links are copied from BOARD.md by hand.
"""

from __future__ import annotations

import copy
import json
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from tyros_protocol.board import BOARD, TYROS, BoardError, load_board, parse_board


def p(label: str) -> int:
    return BOARD.parse_port(label)


def s(label: str) -> int:
    return BOARD.parse_space(label)


def linked(a: str, b: str) -> bool:
    return p(b) in BOARD.links[p(a)]


def is_route(route: str) -> bool:
    """Whether every step of a route such as "31-30-26" follows a sea link."""
    ports = route.split("-")
    return all(linked(a, b) for a, b in pairwise(ports))


def cost(a: str, b: str) -> int:
    return BOARD.distance[p(a)][p(b)]


def shortest(a: str, b: str) -> str:
    return "-".join(BOARD.port_label(port) for port in BOARD.route(p(a), p(b)))


def steps(route: str) -> int:
    return route.count("-")


# BOARD.md "Grid" and "Sea links", copied by hand.
GRID = """
 1  6 10 15 20 25 29
 2  7 11 16 21 26 30
 3  8 12 17 22 27 31
 4  9 13 18 23 ~~ TY
 5 .. 14 19 24 28 32
"""
LINKS = """
1-2 2-3 3-4 4-5 6-7 7-8 8-9 10-11 11-12 12-13 13-14
15-16E 16E-17 16W-17 17-18 18-19 20-21 21-22 22-23 23-24
25-26 26-27 30-31 31-TY TY-32
1-6 6-10 20-25 25-29
2-7 7-11 11-16W 21-26 26-30
3-8 8-12 12-17 17-22 22-27 27-31
4-9 9-13 13-18 18-23
14-19 19-24 24-28 28-32
"""


def board_links() -> set[frozenset[str]]:
    return {
        frozenset((BOARD.port_label(a), BOARD.port_label(b)))
        for a, ends in enumerate(BOARD.links)
        for b in ends
    }


# BOARD.md "Checks the layout must pass" ------------------------------------------------


def test_tyros_to_23_costs_4_by_either_rulebook_route() -> None:
    assert cost("TY", "23") == 4
    for route in ("TY-32-28-24-23", "TY-31-27-22-23"):
        assert is_route(route) and steps(route) == 4
    assert shortest("TY", "23") in ("TY-32-28-24-23", "TY-31-27-22-23")


def test_31_to_29_goes_round_by_26_and_25_not_by_30_29() -> None:
    assert is_route("31-30-26-25-29")
    assert not is_route("31-30-29")
    assert not linked("30", "29")
    assert cost("31", "29") == 4  # the rulebook's route is also the shortest


def test_shortest_22_to_8() -> None:
    assert cost("22", "8") == 3
    assert shortest("22", "8") == "22-17-12-8"


def test_shortest_22_to_15_goes_by_italys_east_coast() -> None:
    assert cost("22", "15") == 3
    assert shortest("22", "15") == "22-17-16E-15"


def test_15_to_10_costs_5_round_the_boot() -> None:
    assert not linked("15", "10")
    assert cost("15", "10") == 5
    for route in ("15-16E-17-16W-11-10", "15-16E-17-12-11-10"):
        assert is_route(route) and steps(route) == 5


def test_26_21_16_is_not_a_route() -> None:
    assert linked("26", "21")
    assert not linked("21", "16W") and not linked("21", "16E")
    assert not is_route("26-21-16W") and not is_route("26-21-16E")


def test_nothing_reaches_or_crosses_the_serpent() -> None:
    with pytest.raises(BoardError):
        BOARD.parse_space("~~")
    assert "~~" not in BOARD.port_labels and "~~" in BOARD.blocked
    serpent = (3, 5)
    assert serpent not in BOARD.positions
    # Its four neighbours 27 (north), 28 (south), 23 (west) and Tyros (east) never link across.
    assert BOARD.positions[s("27")] == (2, 5) and BOARD.positions[s("28")] == (4, 5)
    assert BOARD.positions[s("23")] == (3, 4) and BOARD.positions[TYROS] == (3, 6)
    assert not linked("27", "28") and not linked("23", "TY")
    # Tyros to 28 must go round by 32, never through the serpent's cell.
    assert shortest("TY", "28") == "TY-32-28"


def test_first_game_start_spaces_are_pairwise_not_adjacent() -> None:
    starts = [s(label) for label in ("7", "13", "23", "26")]  # rulebook, first game
    for a in starts:
        for b in starts:
            assert b not in BOARD.neighbours[a]


# The rest of BOARD.md --------------------------------------------------------------


def test_grid_is_the_reference_layout() -> None:
    expected = [line.split() for line in GRID.strip().splitlines()]
    assert [list(row) for row in BOARD.grid] == expected
    for r, row in enumerate(expected):
        for c, label in enumerate(row):
            if label not in ("~~", ".."):
                assert BOARD.positions[s(label)] == (r, c)
    assert BOARD.space_count == 33
    assert BOARD.space_labels[TYROS] == "TY" and s("TY") == TYROS == 0
    assert [BOARD.space_label(n) for n in range(1, 33)] == [str(n) for n in range(1, 33)]


def test_links_are_exactly_the_48_of_board_md() -> None:
    expected = {frozenset(link.split("-")) for link in LINKS.split()}
    assert len(expected) == 48
    assert board_links() == expected
    assert sum(len(ends) for ends in BOARD.links) == 2 * 48
    for absent in ("10-15", "15-20", "16W-21", "16E-21", "29-30"):
        assert frozenset(absent.split("-")) not in board_links()


def test_links_join_orthogonal_neighbours_only_and_are_symmetric() -> None:
    for a, ends in enumerate(BOARD.links):
        for b in ends:
            assert a in BOARD.links[b]
            sa, sb = BOARD.port_space[a], BOARD.port_space[b]
            (ra, ca), (rb, cb) = BOARD.positions[sa], BOARD.positions[sb]
            assert abs(ra - rb) + abs(ca - cb) == 1
            assert sb in BOARD.neighbours[sa]


def test_neighbours_are_the_orthogonal_grid_cells() -> None:
    at = {pos: space for space, pos in enumerate(BOARD.positions)}
    for space, (r, c) in enumerate(BOARD.positions):
        around = {at[q] for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if q in at}
        assert set(BOARD.neighbours[space]) == around
    assert set(BOARD.neighbours[s("9")]) == {s("4"), s("8"), s("13")}  # the desert is no space
    assert set(BOARD.neighbours[s("23")]) == {s("18"), s("22"), s("24")}  # nor the serpent


def test_every_space_is_reachable_and_linked() -> None:
    for space in range(BOARD.space_count):
        ports = BOARD.space_ports[space]
        assert all(BOARD.links[port] for port in ports)
        assert any(BOARD.distance[p("TY")][port] > 0 for port in ports) or space == TYROS
    for a in range(BOARD.port_count):
        for b in range(BOARD.port_count):
            assert BOARD.distance[a][b] == BOARD.distance[b][a] >= 0
            assert (BOARD.distance[a][b] == 0) == (a == b)
            assert len(BOARD.route(a, b)) == BOARD.distance[a][b] + 1


def test_tyros_neighbours_31_and_32() -> None:
    assert set(BOARD.neighbours[TYROS]) == {s("31"), s("32")}
    assert {BOARD.port_label(q) for q in BOARD.links[p("TY")]} == {"31", "32"}


def test_italy_has_two_coasts_and_ships_are_built_on_the_west() -> None:
    assert [BOARD.port_label(q) for q in BOARD.space_ports[s("16")]] == ["16W", "16E"]
    assert BOARD.port_label(BOARD.build_port(s("16"))) == "16W"
    assert BOARD.port_space[p("16W")] == BOARD.port_space[p("16E")] == s("16")
    assert BOARD.port_count == 34
    for space in range(BOARD.space_count):
        if space != s("16"):
            assert BOARD.space_ports[space] == (space,)
    with pytest.raises(BoardError, match="16W, 16E"):
        BOARD.parse_port("16")


def test_going_round_italy_takes_two_steps_by_17() -> None:
    assert not linked("16E", "16W")
    assert cost("16E", "16W") == 2
    assert shortest("16E", "16W") == "16E-17-16W"
    assert shortest("16W", "16E") == "16W-17-16E"


def test_labels_parse_loosely() -> None:
    assert BOARD.parse_space(" ty ") == TYROS
    assert BOARD.port_label(BOARD.parse_port("16w")) == "16W"
    assert BOARD.parse_port("23") == s("23") == 23
    for bad in ("0", "33", "..", "", "16X"):
        with pytest.raises(BoardError):
            BOARD.parse_port(bad)


# The validator ---------------------------------------------------------------------


def board_data() -> dict[str, Any]:
    text = resources.files("tyros_protocol").joinpath("data/board.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return copy.deepcopy(data)


def set_cell(data: dict[str, Any], old: str, new: str) -> None:
    for row in data["grid"]:
        for c, label in enumerate(row):
            if label == old:
                row[c] = new
                return
    raise AssertionError(f"no cell {old}")


def drop_links(data: dict[str, Any], *links: str) -> None:
    for link in links:
        data["links"].remove(link)


def test_the_data_file_gives_the_default_board() -> None:
    board = parse_board(board_data())
    assert board == BOARD
    assert board.names[s("16")] == "Italia" and board.names[TYROS] == "Tyros"


def test_a_data_file_with_links_in_any_direction_and_order_is_the_same_board() -> None:
    data = board_data()
    data["links"] = ["-".join(reversed(link.split("-"))) for link in reversed(data["links"])]
    board = parse_board(data)
    assert board.links == BOARD.links and board.distance == BOARD.distance


def _link_to_serpent(data: dict[str, Any]) -> None:
    data["links"].append("27-~~")


def _link_across_serpent(data: dict[str, Any]) -> None:
    data["links"].append("23-TY")


def _link_between_non_neighbours(data: dict[str, Any]) -> None:
    data["links"].append("1-32")


def _duplicate_link(data: dict[str, Any]) -> None:
    data["links"].append("12-8")  # "8-12" is already there


def _link_to_itself(data: dict[str, Any]) -> None:
    data["links"].append("16W-16E")


def _link_to_unknown_port(data: dict[str, Any]) -> None:
    data["links"].append("16-17")  # 16 has coasts: a link must name one


def _missing_space_number(data: dict[str, Any]) -> None:
    set_cell(data, "5", "..")
    drop_links(data, "4-5")


def _unreachable_spaces(data: dict[str, Any]) -> None:
    drop_links(data, "13-14", "18-19", "19-24")  # 14 and 19 keep only their link 14-19


def _coast_with_no_link(data: dict[str, Any]) -> None:
    drop_links(data, "16W-17", "11-16W")


def _extra_coast_with_no_link(data: dict[str, Any]) -> None:
    data["coasts"]["16"].append("16S")


def _duplicated_cell(data: dict[str, Any]) -> None:
    set_cell(data, "9", "8")


def _no_tyros(data: dict[str, Any]) -> None:
    set_cell(data, "TY", "..")


def _ragged_grid(data: dict[str, Any]) -> None:
    data["grid"][2].pop()


def _not_a_link(data: dict[str, Any]) -> None:
    data["links"].append("1-2-3")


def _no_links(data: dict[str, Any]) -> None:
    del data["links"]


BROKEN: list[tuple[Any, str]] = [
    (_link_to_serpent, r"27-~~.*'~~'.*not a space"),
    (_link_across_serpent, r"23-TY.*not orthogonal neighbours"),
    (_link_between_non_neighbours, r"1-32.*not orthogonal neighbours"),
    (_duplicate_link, r"12-8.*listed twice"),
    (_link_to_itself, r"16W-16E.*itself"),
    (_link_to_unknown_port, r"16-17.*unknown port '16'"),
    (_missing_space_number, r"\b5\b"),
    (_unreachable_spaces, r"space 14 cannot be reached by sea from Tyros"),
    (_coast_with_no_link, r"port 16W has no sea link"),
    (_extra_coast_with_no_link, r"port 16S has no sea link"),
    (_duplicated_cell, r"cell '8' appears twice"),
    (_no_tyros, r"Tyros is not on the grid"),
    (_ragged_grid, r"rectangle"),
    (_not_a_link, r"'1-2-3'.*two ports"),
    (_no_links, r"malformed board data.*links"),
]


@pytest.mark.parametrize(
    ("breakage", "message"), BROKEN, ids=[b.__name__.strip("_") for b, _ in BROKEN]
)
def test_validator_rejects_a_broken_board_and_says_why(breakage: Any, message: str) -> None:
    data = board_data()
    breakage(data)
    with pytest.raises(BoardError, match=message):
        parse_board(data)


def test_load_board_reads_a_file_and_rejects_non_json(tmp_path: Path) -> None:
    good = tmp_path / "board.json"
    good.write_text(json.dumps(board_data()), encoding="utf-8")
    assert load_board(str(good)) == BOARD
    bad = tmp_path / "bad.json"
    bad.write_text("{ not json", encoding="utf-8")
    with pytest.raises(BoardError, match="not JSON"):
        load_board(str(bad))
    listed = tmp_path / "list.json"
    listed.write_text("[]", encoding="utf-8")
    with pytest.raises(BoardError, match="JSON object"):
        load_board(str(listed))


def test_within_lists_every_reachable_port_by_distance() -> None:
    for port in range(BOARD.port_count):
        reachable = {p for p, d in enumerate(BOARD.distance[port]) if d > 0}
        rows = BOARD.within[port]
        every = rows[-1]
        assert {p for p, _, _ in every} == reachable
        steps = [d for _, d, _ in every]
        assert steps == sorted(steps) and len(rows) == max(steps) + 1
        for p, d, space in every:
            assert d == BOARD.distance[port][p] and space == BOARD.port_space[p]
        for most, row in enumerate(rows):
            assert row == tuple(e for e in every if e[1] <= most)
