"""The map as prompt-toolkit formatted text, from a view alone.

:func:`render_board` lays the board's grid (7 x 5) out in the space it is
given: each cell shows the space's number, its short name when there is
room, its empire (a tint through the style and a letter, so that it reads
without colour too), the city and its owner, the ships per player (Italy's
two coasts apart) and, on request, the cost of moving there. The spaces of
the tiles in the viewer's hand are marked with ``*``. Between neighbouring
cells a ``~`` marks a sea link. Smaller areas get smaller cells and fewer
details; nothing here knows a rule of the game.

>>> lines = render_board(None, 100, 19)
>>> text = board_text(lines)
>>> "TY Tyros" in text and "29 Bithynia" in text and "serpent" in text
True
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from prompt_toolkit.formatted_text import StyleAndTextTuples
from tyros_protocol.board import BOARD, Board
from tyros_protocol.views import GameView

from ..words import letter

MAX_CELL_WIDTH = 18
MAX_CELL_HEIGHT = 4


@dataclass(frozen=True, slots=True)
class Geometry:
    cell_width: int
    cell_height: int
    gap_x: int
    gap_y: int
    rows: int
    cols: int

    @property
    def width(self) -> int:
        return self.cols * self.cell_width + (self.cols - 1) * self.gap_x

    @property
    def height(self) -> int:
        return self.rows * self.cell_height + (self.rows - 1) * self.gap_y

    @property
    def link_row(self) -> int:
        """The line of a cell beside which an east-west sea link's ``~`` is drawn."""
        return self.cell_height // 2


def geometry(width: int, height: int, board: Board = BOARD) -> Geometry:
    """Cell size and spacing for an area of ``width`` x ``height`` characters."""
    rows, cols = len(board.grid), len(board.grid[0])
    gap_x = 1 if width >= cols * 7 + cols - 1 else 0
    cell_width = max(3, min(MAX_CELL_WIDTH, (width - gap_x * (cols - 1)) // cols))
    gap_y = 1 if height >= rows * 2 + rows - 1 else 0
    cell_height = max(1, min(MAX_CELL_HEIGHT, (height - gap_y * (rows - 1)) // rows))
    return Geometry(cell_width, cell_height, gap_x, gap_y, rows, cols)


@dataclass(slots=True)
class Marks:
    """What the map highlights besides the game itself."""

    tiles: frozenset[str] = frozenset()
    """Spaces of the viewer's tiles."""
    costs: Mapping[str, int] = field(default_factory=dict)
    """Port label -> cost to move a ship there (shown as ``$n``)."""
    origin: str | None = None
    """The port a shown move starts from."""


@dataclass(slots=True)
class _Space:
    label: str
    name: str
    colour: str | None
    city: int | None
    ships: dict[str, list[tuple[int, int]]]
    """Port label -> [(seat, count)]."""
    ports: tuple[str, ...]


def _spaces(view: GameView | None, board: Board) -> dict[str, _Space]:
    chips: Mapping[str, str] = {} if view is None else view.chips
    cities: Mapping[str, int] = {} if view is None else view.cities
    ships: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for stack in [] if view is None else view.ships:
        ships[stack.port].append((stack.seat, stack.count))
    out = {}
    for space, label in enumerate(board.space_labels):
        ports = tuple(board.port_labels[p] for p in board.space_ports[space])
        out[label] = _Space(
            label,
            board.names[space],
            chips.get(label),
            cities.get(label),
            {port: sorted(ships[port]) for port in ports if ships.get(port)},
            ports,
        )
    return out


def _fit(fragments: StyleAndTextTuples, width: int, style: str) -> StyleAndTextTuples:
    """Cut or pad a line of fragments to exactly ``width`` characters."""
    out: StyleAndTextTuples = []
    used = 0
    for frag_style, text, *_ in fragments:
        if used >= width:
            break
        piece = text[: width - used]
        out.append((f"{style} {frag_style}".strip(), piece))
        used += len(piece)
    if used < width:
        out.append((style, " " * (width - used)))
    return out


def _length(fragments: StyleAndTextTuples) -> int:
    return sum(len(text) for _, text, *_ in fragments)


def _ships(space: _Space, compact: bool) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    coasts = len(space.ports) > 1
    for port in space.ports:
        stacks = space.ships.get(port)
        if not stacks:
            continue
        if out:
            out.append(("", " "))
        if coasts:
            out.append(("class:coast", f"{port[-1]}:"))
        for seat, count in stacks:
            if compact and count > 1:
                out.append((f"class:ship class:player.{seat}", f"{letter(seat)}{count}"))
            else:
                out.append((f"class:ship class:player.{seat}", letter(seat) * count))
    return out


def _cost(space: _Space, marks: Marks) -> StyleAndTextTuples:
    coasts = len(space.ports) > 1
    parts: StyleAndTextTuples = []
    for port in space.ports:
        if port in marks.costs:
            if parts:
                parts.append(("", " "))
            prefix = port[-1] if coasts else ""
            parts.append(("class:cost", f"{prefix}${marks.costs[port]}"))
    return parts


def _cost_on(cost: StyleAndTextTuples, row: int, geo: Geometry) -> StyleAndTextTuples:
    """``cost`` as drawn at the right of the cell's line ``row``: on the sea links' line a
    blank follows it, so that ``$3`` never runs into the ``~`` beside the cell."""
    if cost and geo.gap_x and row == geo.link_row and _length(cost) < geo.cell_width:
        return [*cost, ("", " ")]
    return cost


def _city(space: _Space, short: bool) -> StyleAndTextTuples:
    if space.city is None:
        return []
    seat = space.city
    if short:
        return [
            ("class:city", "["),
            (f"class:city class:player.{seat}", letter(seat)),
            ("class:city", "]"),
        ]
    return [("class:city", "city "), (f"class:city class:player.{seat}", letter(seat))]


def _cell(space: _Space, marks: Marks, geo: Geometry) -> list[StyleAndTextTuples]:
    width, height = geo.cell_width, geo.cell_height
    style = f"class:space class:empire.{space.colour}" if space.colour else "class:space"
    mine = space.label in marks.tiles
    number_style = "class:number class:tile" if mine else "class:number"
    if marks.origin is not None and marks.origin.rstrip("WE") == space.label:
        number_style += " class:origin"
    tag = space.colour[0].upper() if space.colour else ""
    head: StyleAndTextTuples = [
        (number_style, f"{space.label:>2}"),
        ("class:tile" if mine else "", "*" if mine else " "),
    ]
    room = width - 3 - (len(tag) + 1 if tag else 0)
    name = space.name if space.label != "TY" else "Tyros"
    body_ships = _ships(space, compact=width < 9)
    cost = _cost(space, marks)
    if not body_ships and len(space.ports) > 1 and not cost:  # (costs name the coasts)
        body_ships = [("class:coast", "W/E")]  # Italy: two coasts, with their own links
    if height == 1:
        line = [
            *head[:1],
            *(head[1:] if mine else []),
            ("class:tag", tag),
            *_city(space, True),
            *body_ships,
        ]
        if cost:
            cost = _cost_on(cost, 0, geo)
            line = _fit(line, max(0, width - _length(cost)), "") + cost
        return [_fit(line, width, style)]
    if height == 2:
        cost = _cost_on(cost, 1, geo)
    city = _city(space, short=height == 2 or width < 11)
    crowded = (
        height == 2
        and bool(city)
        and (_length(city) + 1 + _length(body_ships) + _length(cost) + (1 if cost else 0) > width)
    )
    if crowded:  # the city goes up into the name's place, the ships keep their line
        head += [*city, ("", " " * max(0, room - _length(city)))]
        city = []
    elif room >= 3:
        head.append(("class:name", _shortened(name, room).ljust(room)))
    else:
        head.append(("", " " * max(0, room)))
    if tag:
        head.append(("class:tag", f" {tag}"))
    lines = [_fit(head, width, style)]
    # The city and the ships go under the name, indented past the number, so that they
    # read as this cell's and not as the end of the cell on their left (or the one above).
    if height == 2:
        left = [*city, ("", " ") if city and body_ships else ("", ""), *body_ships]
        gap = width - _length(left) - _length(cost)
        if gap < 1 and cost:
            left = _fit(left, max(0, width - _length(cost) - 1), "")
            gap = 1
        indent = min(INDENT, max(0, gap - 1))
        left = [("", " " * indent), *left]
        gap -= indent
        lines.append(_fit([*left, ("", " " * max(0, gap)), *cost], width, style))
        return lines
    both = [*city, ("", " ") if city and body_ships else ("", ""), *body_ships]
    if _length(both) + INDENT <= width:
        lines.append(_fit([("", " " * INDENT), *both], width, style))
        cost = _cost_on(cost, 2, geo)
        lines.append(_fit([("", " " * max(0, width - _length(cost))), *cost], width, style))
    else:
        cost = _cost_on(cost, 1, geo)
        gap = width - _length(city) - _length(cost)
        lines.append(_fit([*city, ("", " " * max(1, gap)), *cost], width, style))
        lines.append(_fit(body_ships, width, style))
    while len(lines) < height:
        lines.append(_fit([], width, style))
    return lines


INDENT = 3
"""Columns the city and the ships stand in from the cell's left edge (past its number)."""


def _shortened(name: str, room: int) -> str:
    """``name`` in ``room`` characters: whole while it fits; a name of several words keeps
    its last word whole and cuts the first ones (``Carthago Nova`` -> ``Cart. Nova``,
    ``Ca.Nova``: never ``Carthago``, which is another space); else cut with a dot. Never a
    letter alone, which would read as a seat's or an empire's.

    >>> _shortened("Carthago Nova", 10), _shortened("Carthago Nova", 7), _shortened("Troas", 9)
    ('Cart. Nova', 'Ca.Nova', 'Troas')
    >>> _shortened("Carthago Nova", 5), _shortened("Carthago", 5), _shortened("Carthago", 7)
    ('Ca.N.', 'Cart.', 'Cartha.')
    """
    if len(name) <= room:
        return name
    first, _, last = name.rpartition(" ")
    keep = room - len(last) - 1  # what is left for the first words, a dot included
    if first and keep >= 3:  # (two letters at least: one alone reads as a seat's)
        return f"{first[: keep - 1]}. {last}"
    if first and room >= len(last) + 3:
        return f"{first[:2]}.{last}"
    if first and room >= 5:
        return f"{first[:2]}.{last[: room - 4]}."
    return name[: room - 1] + "."


def _blocked_cell(label: str, geo: Geometry) -> list[StyleAndTextTuples]:
    word = "serpent" if label == "~~" else "desert"
    style = "class:serpent" if word == "serpent" else "class:desert"
    pattern = "~ " if word == "serpent" else ". "
    fill = (pattern * geo.cell_width)[: geo.cell_width]
    lines: list[StyleAndTextTuples] = []
    middle = 0 if geo.cell_height <= 2 else 1
    for row in range(geo.cell_height):
        if row == middle and geo.cell_width >= len(word) + 2:
            text = f" {word} ".center(geo.cell_width, pattern[0])
        else:
            text = fill if row % 2 == 0 else fill[1:] + fill[:1]
        lines.append([(style, text)])
    return lines


def _links(board: Board) -> dict[tuple[str, str], list[str]]:
    """(space, space) -> the ports of the first space linked to the second."""
    out: dict[tuple[str, str], list[str]] = defaultdict(list)
    for port, linked in enumerate(board.links):
        a = board.space_labels[board.port_space[port]]
        for other in linked:
            b = board.space_labels[board.port_space[other]]
            out[(a, b)].append(board.port_labels[port])
    return out


_LINKS = _links(BOARD)


def _port_links(board: Board) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(space, space) -> each sea link between them once, as (port of the first, port of
    the second)."""
    out: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
    for port, linked in enumerate(board.links):
        a = board.space_labels[board.port_space[port]]
        for other in linked:
            b = board.space_labels[board.port_space[other]]
            out[(a, b)].append((board.port_labels[port], board.port_labels[other]))
    return out


_PORT_LINKS = _port_links(BOARD)


def render_board(
    view: GameView | None,
    width: int,
    height: int,
    marks: Marks | None = None,
    board: Board = BOARD,
) -> list[StyleAndTextTuples]:
    """The map in ``width`` x ``height`` characters, one list of fragments per line."""
    tiles = () if view is None else view.tiles or ()
    marks = marks or Marks(tiles=frozenset(tiles))
    geo = geometry(width, height, board)
    links = _LINKS if board is BOARD else _links(board)
    spaces = _spaces(view, board)
    left = max(0, (width - geo.width) // 2)
    lines: list[StyleAndTextTuples] = []
    for r, row in enumerate(board.grid):
        cells = [spaces.get(label, label) for label in row]
        rendered = [
            _cell(c, marks, geo) if isinstance(c, _Space) else _blocked_cell(c, geo) for c in cells
        ]
        for y in range(geo.cell_height):
            line: StyleAndTextTuples = [("", " " * left)] if left else []
            for c, fragments in enumerate(rendered):
                if c and geo.gap_x:
                    linked = y == geo.link_row and (str(row[c - 1]), str(row[c])) in links
                    line.append(("class:link", "~") if linked else ("class:gap", " "))
                line.extend(fragments[y])
            lines.append(line)
        if geo.gap_y and r + 1 < len(board.grid):
            lines.append(_gap_row(board, r, geo, links, left))
    return lines


def _gap_row(
    board: Board, r: int, geo: Geometry, links: Mapping[tuple[str, str], list[str]], left: int
) -> StyleAndTextTuples:
    """The row between two rows of cells: a ``~`` under each north-south sea link, on the
    coast it leaves from or arrives at (Italy's west or east), one mark per link."""
    chars = [" "] * geo.width
    for c in range(geo.cols):
        above, below = str(board.grid[r][c]), str(board.grid[r + 1][c])
        start = c * (geo.cell_width + geo.gap_x)
        for port_above, port_below in _PORT_LINKS.get((above, below), ()):
            coast = next((p[-1] for p in (port_above, port_below) if p[-1] in "WE"), "")
            if coast == "W":
                x = start + geo.cell_width // 4
            elif coast == "E":
                x = start + (3 * geo.cell_width) // 4
            else:
                x = start + geo.cell_width // 2
            chars[x] = "~"
    text = "".join(chars)
    out: StyleAndTextTuples = [("", " " * left)] if left else []
    run_start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or (text[i] == "~") != (text[run_start] == "~"):
            style = "class:link" if text[run_start] == "~" else "class:gap"
            out.append((style, text[run_start:i]))
            run_start = i
    return out


def board_text(lines: Sequence[StyleAndTextTuples]) -> str:
    """The rendered map as plain text (for tests and for screens without colour)."""
    return "\n".join("".join(text for _, text, *_ in line).rstrip() for line in lines)


def cell_origin(label: str, width: int, height: int, board: Board = BOARD) -> tuple[int, int]:
    """(line, column) of the top-left corner of a space's cell in :func:`render_board`."""
    geo = geometry(width, height, board)
    space = board.parse_space(label)
    r, c = board.positions[space]
    left = max(0, (width - geo.width) // 2)
    return r * (geo.cell_height + geo.gap_y), left + c * (geo.cell_width + geo.gap_x)


def space_at(x: int, y: int, width: int, height: int, board: Board = BOARD) -> str | None:
    """The label of the space drawn at (``x``, ``y``) by :func:`render_board` in a
    ``width`` x ``height`` area (None: a gap, the serpent, the desert or outside).

    >>> top, left = cell_origin("22", 100, 19)
    >>> space_at(left + 2, top + 1, 100, 19), space_at(left - 1, top, 100, 19)
    ('22', None)
    """
    geo = geometry(width, height, board)
    left = max(0, (width - geo.width) // 2)
    col, dx = divmod(x - left, geo.cell_width + geo.gap_x)
    row, dy = divmod(y, geo.cell_height + geo.gap_y)
    if x < left or not (0 <= row < geo.rows and 0 <= col < geo.cols):
        return None
    if dx >= geo.cell_width or dy >= geo.cell_height:
        return None
    label = str(board.grid[row][col])
    return label if label in board.space_labels else None
