"""The Tyros board: spaces, ports, grid adjacency and sea links, loaded from data.

The board lives in ``data/board.json``; :func:`parse_board` checks every rule a
board must obey and :data:`BOARD` is the default board, loaded at import.

Identifiers are small integers so the engine can index lists with them:
Tyros is space 0, numbered spaces keep their number. A *port* is where a ship
stands: every space has one port whose id is the space id; Italy's second
coast gets an id past the last space.

>>> BOARD.space_label(BOARD.parse_space("TY"))
'TY'
>>> BOARD.distance[BOARD.parse_port("TY")][BOARD.parse_port("23")]
4
>>> [BOARD.port_label(p) for p in BOARD.route(BOARD.parse_port("16E"), BOARD.parse_port("16W"))]
['16E', '17', '16W']
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass
from importlib import resources
from typing import Any

SpaceId = int
PortId = int

TYROS: SpaceId = 0


class BoardError(ValueError):
    """A board file breaks a rule of the board (see BOARD.md)."""


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable, validated board."""

    space_labels: tuple[str, ...]
    """Label of each space id ("TY", "1", ... "32")."""
    names: tuple[str, ...]
    """Display name of each space id."""
    positions: tuple[tuple[int, int], ...]
    """(row, column) of each space id in the grid, 0-based."""
    grid: tuple[tuple[str, ...], ...]
    """The grid as in the data file (rows of cell labels)."""
    blocked: frozenset[str]
    """Cell labels that are not spaces (serpent, desert)."""
    neighbours: tuple[tuple[SpaceId, ...], ...]
    """Orthogonal grid neighbours of each space that are spaces (for empires)."""
    port_labels: tuple[str, ...]
    port_space: tuple[SpaceId, ...]
    space_ports: tuple[tuple[PortId, ...], ...]
    """Ports of each space; the first is where a newly built ship goes."""
    links: tuple[tuple[PortId, ...], ...]
    """Sea links of each port."""
    distance: tuple[tuple[int, ...], ...]
    """Fewest steps between two ports; -1 when unreachable."""
    within: tuple[tuple[tuple[tuple[PortId, int, SpaceId], ...], ...], ...]
    """``within[port][steps]``: every other port up to ``steps`` away, as (port, distance,
    its space), nearest first; the last row holds every reachable port. What move
    enumeration walks for a hand that pays ``steps``."""

    @property
    def space_count(self) -> int:
        return len(self.space_labels)

    @property
    def port_count(self) -> int:
        return len(self.port_labels)

    def space_label(self, space: SpaceId) -> str:
        return self.space_labels[space]

    def port_label(self, port: PortId) -> str:
        return self.port_labels[port]

    def build_port(self, space: SpaceId) -> PortId:
        return self.space_ports[space][0]

    def parse_space(self, label: str) -> SpaceId:
        """The space id of a label such as ``"TY"`` or ``"23"``.

        >>> BOARD.parse_space("ty")
        0
        >>> BOARD.parse_space("~~")
        Traceback (most recent call last):
        ...
        tyros_protocol.board.BoardError: unknown space '~~'
        """
        key = label.strip().upper()
        for space, known in enumerate(self.space_labels):
            if known == key:
                return space
        raise BoardError(f"unknown space {label!r}")

    def parse_port(self, label: str) -> PortId:
        """The port id of a label; a space with one port may be named by its number.

        >>> BOARD.port_label(BOARD.parse_port("16e"))
        '16E'
        >>> BOARD.parse_port("16")
        Traceback (most recent call last):
        ...
        tyros_protocol.board.BoardError: space 16 has several coasts: name one of 16W, 16E
        """
        key = label.strip().upper()
        for port, known in enumerate(self.port_labels):
            if known == key:
                return port
        space = self.parse_space(key)
        ports = self.space_ports[space]
        if len(ports) > 1:
            names = ", ".join(self.port_labels[p] for p in ports)
            raise BoardError(f"space {key} has several coasts: name one of {names}")
        return ports[0]

    def route(self, start: PortId, end: PortId) -> list[PortId]:
        """One shortest sea route from start to end, both included ([] if none)."""
        if start == end:
            return [start]
        previous: dict[PortId, PortId] = {start: start}
        queue = deque([start])
        while queue:
            port = queue.popleft()
            for nxt in self.links[port]:
                if nxt not in previous:
                    previous[nxt] = port
                    if nxt == end:
                        path = [end]
                        while path[-1] != start:
                            path.append(previous[path[-1]])
                        return path[::-1]
                    queue.append(nxt)
        return []


@dataclass(frozen=True, slots=True)
class _BoardData:
    """The data file's fields, typed but not yet checked."""

    grid: tuple[tuple[str, ...], ...]
    tyros: str
    blocked: frozenset[str]
    coasts: dict[str, list[str]]
    links: list[str]
    names: dict[str, str]


def parse_board(data: dict[str, Any]) -> Board:
    """Build a :class:`Board` from the data file's JSON, checking every board rule."""
    raw = _read(data)
    space_labels, positions = _spaces(raw)
    neighbours = _neighbours(positions)
    port_labels, port_space, space_ports = _ports(space_labels, raw.coasts)
    links = _links(raw, port_labels, port_space, neighbours)
    distance = tuple(_distances_from(p, links) for p in range(len(port_labels)))
    tyros_port = 0
    for space, ports in enumerate(space_ports):
        if all(distance[tyros_port][p] < 0 for p in ports):
            raise BoardError(f"space {space_labels[space]} cannot be reached by sea from Tyros")
    return Board(
        space_labels=space_labels,
        names=tuple(raw.names.get(label, label) for label in space_labels),
        positions=positions,
        grid=raw.grid,
        blocked=raw.blocked,
        neighbours=neighbours,
        port_labels=port_labels,
        port_space=port_space,
        space_ports=space_ports,
        links=links,
        distance=distance,
        within=_within(distance, port_space),
    )


def _read(data: dict[str, Any]) -> _BoardData:
    try:
        grid = tuple(tuple(str(cell) for cell in row) for row in data["grid"])
        return _BoardData(
            grid=grid,
            tyros=str(data["tyros"]),
            blocked=frozenset(str(data[key]) for key in ("serpent", "desert")),
            coasts={str(k): [str(c) for c in v] for k, v in data.get("coasts", {}).items()},
            links=[str(link) for link in data["links"]],
            names={str(k): str(v) for k, v in data.get("names", {}).items()},
        )
    except (KeyError, TypeError, AttributeError) as exc:
        raise BoardError(f"malformed board data: {exc!r}") from exc


def _spaces(raw: _BoardData) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """The label and the grid position of each space id: Tyros, then 1..N, each once."""
    grid = raw.grid
    if not grid or any(len(row) != len(grid[0]) for row in grid):
        raise BoardError("the grid must be a non-empty rectangle")
    cells: dict[str, tuple[int, int]] = {}
    for r, row in enumerate(grid):
        for c, label in enumerate(row):
            if label in raw.blocked:
                continue
            if label in cells:
                raise BoardError(f"cell {label!r} appears twice in the grid")
            cells[label] = (r, c)
    if raw.tyros not in cells:
        raise BoardError("Tyros is not on the grid")
    numbered = sorted(label for label in cells if label != raw.tyros)
    if not all(label.isdigit() for label in numbered):
        raise BoardError(f"space labels must be numbers: {numbered}")
    count = len(numbered)
    numbers = {int(label) for label in numbered}
    if numbers != set(range(1, count + 1)) or len(numbers) != count:
        top = max(numbers, default=0)
        missing = sorted(set(range(1, top + 1)) - numbers)
        raise BoardError(
            f"numbered spaces must be 1..N, each once: missing {missing}"
            if missing
            else f"numbered spaces must be 1..{count}, each once"
        )
    space_labels = (raw.tyros, *(str(n) for n in range(1, count + 1)))
    return space_labels, tuple(cells[label] for label in space_labels)


def _neighbours(positions: tuple[tuple[int, int], ...]) -> tuple[tuple[SpaceId, ...], ...]:
    at = {pos: space for space, pos in enumerate(positions)}
    out: list[tuple[SpaceId, ...]] = []
    for r, c in positions:
        around = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        out.append(tuple(sorted(at[p] for p in around if p in at)))
    return tuple(out)


def _ports(
    space_labels: tuple[str, ...],
    coasts: dict[str, list[str]],
) -> tuple[tuple[str, ...], tuple[SpaceId, ...], tuple[tuple[PortId, ...], ...]]:
    """(port labels, space of each port, ports of each space). A space's first port shares
    its id; extra coasts are numbered after the spaces."""
    space_of = {label: i for i, label in enumerate(space_labels)}
    port_labels = list(space_labels)
    port_space = list(range(len(space_labels)))
    space_ports: list[list[PortId]] = [[s] for s in range(len(space_labels))]
    for space_label, coast_labels in coasts.items():
        if space_label not in space_of:
            raise BoardError(f"coasts given for unknown space {space_label!r}")
        if len(coast_labels) < 2 or len(set(coast_labels)) != len(coast_labels):
            raise BoardError(f"space {space_label} needs two or more distinct coasts")
        space = space_of[space_label]
        port_labels[space] = coast_labels[0]
        for extra in coast_labels[1:]:
            space_ports[space].append(len(port_labels))
            port_labels.append(extra)
            port_space.append(space)
    if len(set(port_labels)) != len(port_labels):
        raise BoardError("port labels must be unique")
    return tuple(port_labels), tuple(port_space), tuple(tuple(ports) for ports in space_ports)


def _links(
    raw: _BoardData,
    port_labels: tuple[str, ...],
    port_space: tuple[SpaceId, ...],
    neighbours: tuple[tuple[SpaceId, ...], ...],
) -> tuple[tuple[PortId, ...], ...]:
    """The sea links of each port, sorted: each joins two orthogonal neighbours, both ways."""
    port_of = {label: p for p, label in enumerate(port_labels)}
    links: list[set[PortId]] = [set() for _ in port_labels]
    for text in raw.links:
        ends = text.split("-")
        if len(ends) != 2:
            raise BoardError(f"link {text!r} must join two ports, as 'A-B'")
        for end in ends:
            if end in raw.blocked:
                raise BoardError(f"link {text!r} enters {end!r}, which is not a space")
            if end not in port_of:
                raise BoardError(f"link {text!r} names unknown port {end!r}")
        a, b = port_of[ends[0]], port_of[ends[1]]
        sa, sb = port_space[a], port_space[b]
        if sa == sb:
            raise BoardError(f"link {text!r} joins a space to itself")
        if sb not in neighbours[sa]:
            raise BoardError(f"link {text!r} joins spaces that are not orthogonal neighbours")
        if b in links[a]:
            raise BoardError(f"link {text!r} is listed twice")
        links[a].add(b)
        links[b].add(a)
    for port, linked in enumerate(links):
        if not linked:
            raise BoardError(f"port {port_labels[port]} has no sea link")
        if any(port not in links[other] for other in linked):
            raise BoardError(f"links of port {port_labels[port]} are not symmetric")
    return tuple(tuple(sorted(linked)) for linked in links)


def _within(
    distance: tuple[tuple[int, ...], ...],
    port_space: tuple[SpaceId, ...],
) -> tuple[tuple[tuple[tuple[PortId, int, SpaceId], ...], ...], ...]:
    """``Board.within``: for each port and each number of steps, the ports that near."""
    nearest = tuple(
        tuple(
            sorted(
                ((p, d, port_space[p]) for p, d in enumerate(row) if d > 0),
                key=lambda entry: entry[1],
            )
        )
        for row in distance
    )
    return tuple(
        tuple(
            tuple(entry for entry in row if entry[1] <= steps)
            for steps in range(max(d for _, d, _ in row) + 1)
        )
        for row in nearest
    )


def _distances_from(start: PortId, links: tuple[tuple[PortId, ...], ...]) -> tuple[int, ...]:
    dist = [-1] * len(links)
    dist[start] = 0
    queue = deque([start])
    while queue:
        port = queue.popleft()
        for nxt in links[port]:
            if dist[nxt] < 0:
                dist[nxt] = dist[port] + 1
                queue.append(nxt)
    return tuple(dist)


def load_board(path: str | None = None) -> Board:
    """Load and validate a board file (the packaged default when ``path`` is None)."""
    if path is None:
        text = resources.files("tyros_protocol").joinpath("data/board.json").read_text("utf-8")
    else:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BoardError(f"board file is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise BoardError("board file must hold a JSON object")
    return parse_board(data)


BOARD: Board = load_board()
"""The default board (BOARD.md)."""
