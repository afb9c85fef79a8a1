"""Why a command cannot be played now, in a player's words.

Legality is the server's (the prompt's legal list); this module only explains a refusal,
from that list and the seat's own view: whose turn it is, what is in the way (two ships
there, a rival's ship, no empire there), what is missing (cards of a colour, wilds
counted, against the cost). It never decides what is legal.

It reads the view as the protocol's model (:class:`~tyros_protocol.views.GameView`) and the
legal actions in the frame's form (as the commands send them); the page's ``why.js`` reads
the same view as a frame, and its reasons are tested against this module's on the same
views.

>>> from tyros_rules import Options, new_game, view
>>> game = GameView.model_validate({**view(new_game(Options(players=3, seed=1)), 0),
...                                 "phase": "actions", "current": 1, "to_act": [1]})
>>> turn_problem(game, 0, ["Ann", "Bob", "Cyd"])
"it is B Bob's turn (card actions): wait for them"
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from tyros_protocol.board import BOARD, BoardError
from tyros_protocol.views import GameView
from tyros_protocol.words import phase_name
from tyros_rules import CITY_COST, SHIP_CARDS_OF_COLOUR, SHIP_COST, SHIP_LIMIT

from ..words import COLOURS, either, who

Names = Sequence[str | None]


def turn_problem(view: GameView | None, seat: int | None, names: Names) -> str | None:
    """Why the seat may do nothing now (None: it may act)."""
    if seat is None:
        return "you are watching this table: spectators cannot act"
    if not view:
        return "the game starts when every seat is taken"
    phase = view.phase
    if phase == "over":
        return "the game is over ('score' shows the sheet)"
    to_act = view.to_act
    if seat in to_act:
        return None
    if phase == "keep":
        return "the others are choosing the cards they keep: wait for them"
    if phase == "trade" and view.trade is not None:
        return "a trade offer is being answered: wait for it to end"
    if phase == "give_card" and view.owed_to is not None:
        return (
            f"{who(to_act[0], names) if to_act else 'a player'} is giving a card to "
            f"{who(view.owed_to, names)}: wait for them"
        )
    current = to_act[0] if to_act else view.current
    words = phase_name(phase)
    return f"it is {who(current, names)}'s turn ({words}): wait for them"


def _space_label(token: str) -> str | None:
    try:
        return BOARD.space_label(BOARD.parse_space(token))
    except (BoardError, ValueError, IndexError):
        return None


def _ships_in(view: GameView, space: str) -> Counter[int]:
    """Ships in ``space`` by seat (both coasts of Italy together)."""
    counted: Counter[int] = Counter()
    for stack in view.ships:
        if BOARD.space_label(BOARD.port_space[BOARD.parse_port(stack.port)]) == space:
            counted[stack.seat] += stack.count
    return counted


def _colour_cards(hand: Sequence[str], colour: str) -> tuple[int, int]:
    return sum(1 for c in hand if c == colour), sum(1 for c in hand if c == "wild")


def _missing(need: int, colour: str, hand: Sequence[str]) -> str | None:
    have, wild = _colour_cards(hand, colour)
    if have + wild >= need:
        return None
    return (
        f"it costs {need} {colour} (wild cards count) and you hold {have} {colour} and {wild} wild"
    )


def _building(view: GameView, seat: int, token: str, piece: str) -> tuple[str | None, str]:
    """(the space ``token`` names, "") or (None, why nothing can be built anywhere)."""
    space = _space_label(token)
    if space is None:
        return None, f"{token!r} is not a space of the map"
    info = next((info for info in view.seats if info.seat == seat), None)
    left = None if info is None else getattr(info, f"{piece}_in_supply")
    if left == 0:
        one = {"cities": "city", "ships": "ship"}[piece]
        return None, f"you have no {one} left in your supply"
    return space, ""


def city_problem(view: GameView, seat: int, token: str, names: Names) -> str:
    """Why no city can be built in the space ``token`` names (the seat is to act)."""
    space, problem = _building(view, seat, token, "cities")
    if space is None:
        return problem
    colour = view.chips.get(space)
    if colour is None:
        return f"{space} belongs to no empire yet: a city needs an empire's space"
    owner = view.cities.get(space)
    if owner is not None:
        return f"{space} already has a city ({who(owner, names)}'s)"
    ships = _ships_in(view, space)
    if not ships.get(seat):
        return f"a city needs one of your ships in {space}, and you have none there"
    rivals = [s for s in ships if s != seat]
    if rivals:
        return (
            f"{who(rivals[0], names)} also has a ship in {space}: a city needs your "
            "ships alone there"
        )
    need = CITY_COST[1] if ships[seat] >= 2 else CITY_COST[0]
    missing = _missing(need, colour, view.hand or [])
    return missing or f"a city in {space} is not possible now"


def ship_problem(view: GameView, seat: int, token: str, names: Names) -> str:
    """Why no ship can be built in the space ``token`` names (the seat is to act)."""
    space, problem = _building(view, seat, token, "ships")
    if space is None:
        return problem
    hand = view.hand or []
    cities = view.cities
    ships = _ships_in(view, space)
    if space == "TY" and "TY" not in cities:
        if ships.get(seat, 0) >= SHIP_LIMIT:
            return f"you already have {SHIP_LIMIT} ships in Tyros, the most one player may"
        need = sum(ships.values()) + 1
        if len(hand) < need:
            return (
                f"a ship in Tyros costs {need} cards now (one more than the ships there) "
                f"and you hold {len(hand)}"
            )
        return "a ship in Tyros is not possible now"
    owner = cities.get(space)
    if owner is None or owner != seat:
        where = "Tyros or " if "TY" not in cities else ""
        return f"ships are built in {where}a space with your own city, and {space} has " + (
            "no city" if owner is None else f"{who(owner, names)}'s city"
        )
    present = sum(ships.values())
    if present >= SHIP_LIMIT:
        return f"{space} already holds {SHIP_LIMIT} ships, the most a space may"
    colour = view.chips.get(space, "")
    need = SHIP_COST[1] if present else SHIP_COST[0]
    have, wild = _colour_cards(hand, colour)
    if not present and have + wild < need:
        return f"a ship in {space} costs {need} {colour} (or a wild) and you hold none"
    if present and (len(hand) < need or have + wild < SHIP_CARDS_OF_COLOUR):
        return f"a second ship in {space} costs {need} cards, one of them {colour} (or a wild)"
    return f"a ship in {space} is not possible now"


def _ports(label: str) -> tuple[int, ...]:
    """The ports a space or port label names (both coasts for ``16``; none if no label)."""
    try:
        return (BOARD.port_labels.index(label.strip().upper()),)
    except ValueError:
        pass
    try:
        return BOARD.space_ports[BOARD.parse_space(label)]
    except BoardError:
        return ()


def move_problem(view: GameView, seat: int, start: str | None, end: str, names: Names) -> str:
    """Why no ship of the seat can move (from ``start``) to ``end`` (the seat is to act).

    ``start`` and ``end`` are labels of a space (``23``, ``TY``) or a port (``16W``): the
    command line resolves the names a player types before it asks.
    """
    targets = _ports(end)
    if not targets:
        return f"{end!r} is not a space of the map"
    space = BOARD.space_label(BOARD.port_space[targets[0]])
    colour = view.chips.get(space)
    if colour is None:
        return f"{space} belongs to no empire yet: ships move only into empires' spaces"
    ships = _ships_in(view, space)
    cities = view.cities
    if space == "TY" and "TY" not in cities:
        if ships.get(seat, 0) >= SHIP_LIMIT:
            return f"you already have {SHIP_LIMIT} ships in Tyros, the most one player may"
    elif sum(ships.values()) >= SHIP_LIMIT:
        return f"{space} already holds {SHIP_LIMIT} ships, the most a space may"
    mine = [port for stack in view.ships if stack.seat == seat for port in _ports(stack.port)]
    if start is not None:
        starts = _ports(start)
        if not starts:
            return f"{start!r} is not a space of the map"
        origins = [port for port in mine if port in starts]
        if not origins:
            return f"you have no ship in {start.upper()}"
        if set(origins) & set(targets):
            return f"your ship is in {space} already"
    else:
        origins = [port for port in mine if port not in targets]
    if not origins:
        return "you have no ship on the board" if not mine else f"your ships are in {space}"
    routes = [BOARD.distance[o][t] for o in origins for t in targets if BOARD.distance[o][t] > 0]
    if not routes:
        return f"no sea route leads to {space}"
    steps = min(routes)
    missing = _missing(steps, colour, view.hand or [])
    if missing:
        return f"{space} is {steps} step{'s' if steps != 1 else ''} away: {missing}"
    return f"no move to {space} is possible now"


NO_TILE_TOUCHES = "no tile of yours touches an empire: choose one to put back (return TILE)"
"""Why no tile can be played on an expansion turn whose only actions put one back."""


def expand_problem(
    tile: str, held: Sequence[str], legal: Sequence[Mapping[str, Any]]
) -> str | None:
    """Why ``tile`` cannot be played on the seat's expansion turn (None: it can), from the
    tiles ``held`` and the seat's legal list."""
    tiles = {str(a["tile"]) for a in legal if a.get("kind") == "expand"}
    playable = sorted(tiles, key=lambda label: int(label))  # (tiles are numbered spaces)
    if not playable:
        if any(a.get("kind") == "return_tile" for a in legal):
            return NO_TILE_TOUCHES
        return None
    if tile in playable:
        return None
    problem = "you do not hold tile" if tile not in held else "no empire touches"
    return f"{problem} {tile}; you can play: {', '.join(playable)}"


def request_problem(legal: Sequence[Mapping[str, Any]]) -> str | None:
    """What the table waits for from the seat before any other action (None: nothing): a
    trade offer to answer, or one's own offer to settle. Asked with the seat's legal list."""
    kinds = {str(a.get("kind")) for a in legal}
    if kinds & {"answer", "counter"}:
        answers = [
            word
            for word, can in (
                ("accept", any(a.get("kind") == "answer" and a.get("accept") for a in legal)),
                ("decline", any(a.get("kind") == "answer" and not a.get("accept") for a in legal)),
                ("counter", "counter" in kinds),
            )
            if can
        ]
        return "answer the trade offer first: " + either(answers)
    if "complete" in kinds:
        return "your trade offer has its answers: complete it or withdraw it first"
    if "withdraw" in kinds:
        return "your trade offer waits for its answers: wait for them, or withdraw it"
    return None


def colours_of(cards: Sequence[str]) -> str:
    """The hand by colour, for messages: ``'2 green, 1 wild'``."""
    counted = Counter(cards)
    parts = [f"{counted[c]} {c}" for c in (*COLOURS, "wild") if counted[c]]
    return ", ".join(parts) or "no cards"
