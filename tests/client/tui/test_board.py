"""The map rendering: every space where it belongs, Italy's coasts, a full Tyros, sizes."""

from __future__ import annotations

import re
from typing import Any

import pytest
from prompt_toolkit.formatted_text import StyleAndTextTuples
from tyros_client.tui.board import Marks, board_text, cell_origin, geometry, render_board
from tyros_protocol.board import BOARD
from tyros_protocol.views import GameView
from tyros_rules import Options, new_game, view


def full_view(**changes: Any) -> GameView:
    """A real view of a new 4-player game, with some fields replaced."""
    state = new_game(Options(players=4, seed=1, starting_seat=0))
    out = view(state, 0)
    out.update(changes)
    return GameView.model_validate(out)


def lines_text(lines: list[StyleAndTextTuples]) -> list[str]:
    return ["".join(text for _, text, *_ in line) for line in lines]


def cell_text(lines: list[StyleAndTextTuples], label: str, width: int, height: int) -> list[str]:
    """The characters of one space's cell."""
    geo = geometry(width, height)
    top, left = cell_origin(label, width, height)
    rows = lines_text(lines)
    return [rows[top + y][left : left + geo.cell_width] for y in range(geo.cell_height)]


def styles_at(lines: list[StyleAndTextTuples], row: int, column: int) -> str:
    x = 0
    for style, text, *_ in lines[row]:
        if x <= column < x + len(text):
            return style
        x += len(text)
    raise IndexError(column)


@pytest.mark.parametrize("size", [(100, 19), (80, 14), (60, 10), (42, 5)])
def test_every_space_is_in_its_cell(size: tuple[int, int]) -> None:
    width, height = size
    lines = render_board(full_view(), width, height)
    assert len(lines) <= height
    assert all(len("".join(t for _, t, *_ in line)) <= width for line in lines)
    for label in BOARD.space_labels:
        cell = cell_text(lines, label, width, height)
        assert cell[0].lstrip().startswith(label), (label, cell)


def test_names_and_empires_at_full_size() -> None:
    v = full_view()
    lines = render_board(v, 100, 19)
    geo = geometry(100, 19)
    assert (geo.cell_width, geo.cell_height, geo.gap_x, geo.gap_y) == (13, 3, 1, 1)
    for space, label in enumerate(BOARD.space_labels):
        head = cell_text(lines, label, 100, 19)[0]
        name = "Tyros" if label == "TY" else BOARD.names[space]
        # (a name of several words keeps its last word: Carthago Nova is not Carthago)
        assert name.split()[-1][:6] in head, (label, head)
        colour = v.chips.get(label)
        if colour:
            assert head.endswith(" " + colour[0].upper())
            top, left = cell_origin(label, 100, 19)
            assert f"class:empire.{colour}" in styles_at(lines, top, left)
        else:
            assert head[-1] not in "OYGV"
    # First game: orange 7, yellow 13, green 23, violet 26.
    assert cell_text(lines, "7", 100, 19)[0].endswith("O")
    assert cell_text(lines, "26", 100, 19)[0].endswith("V")


def test_serpent_desert_and_sea_links() -> None:
    text = board_text(render_board(full_view(), 100, 19))
    assert "serpent" in text and "desert" in text
    lines = lines_text(render_board(full_view(), 100, 19))
    # 10-15 has no sea link (northern Italy), 6-10 has one: '~' in the gap between them.
    top, left10 = cell_origin("10", 100, 19)
    _, left15 = cell_origin("15", 100, 19)
    _, left6 = cell_origin("6", 100, 19)
    middle = top + 1
    assert lines[middle][left10 - 1] == "~"
    assert lines[middle][left15 - 1] == " "
    assert left6 < left10


def test_tiles_in_my_hand_are_marked() -> None:
    v = full_view()
    lines = render_board(v, 100, 19)
    mine = set(v.tiles or ())
    assert len(mine) == 4
    for label in BOARD.space_labels[1:]:
        head = cell_text(lines, label, 100, 19)[0]
        assert (head[2] == "*") == (label in mine), head
        top, left = cell_origin(label, 100, 19)
        if label in mine:
            assert "class:tile" in styles_at(lines, top, left + 2)


def test_ships_per_player_on_both_coasts_of_italy() -> None:
    ships = [
        {"port": "16W", "seat": 1, "count": 1},
        {"port": "16E", "seat": 3, "count": 1},
        {"port": "12", "seat": 2, "count": 2},
    ]
    lines = render_board(full_view(ships=ships), 100, 19)
    italy = cell_text(lines, "16", 100, 19)
    # Ships under the name, past the number: they read as this cell's.
    assert italy[1] == "   W:B E:D".ljust(len(italy[1]))
    top, left = cell_origin("16", 100, 19)
    row = lines_text(lines)[top + 1]
    assert "class:player.1" in styles_at(lines, top + 1, left + row[left:].index("B"))
    assert "class:player.3" in styles_at(lines, top + 1, left + row[left:].index("D"))
    assert cell_text(lines, "12", 100, 19)[1].strip() == "CC"
    # One coast only still says which.
    lines = render_board(full_view(ships=[{"port": "16E", "seat": 0, "count": 2}]), 100, 19)
    assert cell_text(lines, "16", 100, 19)[1].strip() == "E:AA"
    # Costs per coast, on a line of their own.
    lines = render_board(full_view(), 100, 19, Marks(costs={"16W": 2, "16E": 4, "27": 1}))
    assert cell_text(lines, "16", 100, 19)[2].strip() == "W$2 E$4"
    assert cell_text(lines, "27", 100, 19)[2].strip() == "$1"


def test_a_full_tyros() -> None:
    ships = [{"port": "TY", "seat": seat, "count": 2} for seat in range(4)]
    v = full_view(ships=ships, cities={"TY": 2}, chips={**full_view().chips, "TY": "green"})
    for width, height in ((100, 19), (80, 14)):
        lines = render_board(v, width, height)
        cell = cell_text(lines, "TY", width, height)
        assert "AABBCCDD" in "".join(cell), cell
        assert "city C" in "".join(cell) or "[C]" in "".join(cell)
        assert cell[0].startswith("TY")
    narrow = render_board(v, 42, 5)
    cell = cell_text(narrow, "TY", 42, 5)
    assert cell[0].startswith("TY")


def test_city_owner_and_ships_in_the_small_layouts() -> None:
    v = full_view(cities={"23": 1}, ships=[{"port": "23", "seat": 1, "count": 1}])
    big = cell_text(render_board(v, 100, 19), "23", 100, 19)
    assert big[1].startswith("   city B B")
    two = cell_text(render_board(v, 80, 14), "23", 80, 14)
    assert len(two) == 2 and two[1].lstrip().startswith("[B] B")
    one = cell_text(render_board(v, 42, 5), "23", 42, 5)
    assert len(one) == 1 and one[0].startswith("23") and "[B]" in one[0]


def test_no_view_yet_draws_the_bare_board() -> None:
    text = board_text(render_board(None, 100, 19))
    for label in BOARD.space_labels:
        assert label in text


@pytest.mark.parametrize("size", [(80, 14), (80, 10), (100, 19), (100, 24)])
def test_a_cost_never_touches_a_sea_link(size: tuple[int, int]) -> None:
    width, height = size
    costs = {port: 3 for port in BOARD.port_labels}
    lines = lines_text(render_board(full_view(), width, height, Marks(costs=costs)))
    shown = 0
    for line in lines:
        for cost in re.finditer(r"[WE]?\$\d", line):
            shown += 1
            before = line[cost.start() - 1] if cost.start() else " "
            after = line[cost.end()] if cost.end() < len(line) else " "
            assert "~" not in before + after, (size, line)
    assert shown == len(BOARD.port_labels)  # (every port's cost is drawn, whole)
