"""Actions as flat tuples of ints: cheap to build, hash and compare.

The first item is the :class:`Kind`; the rest follow a fixed layout per kind
(``pay``, ``give``, ``get`` and ``keep`` are card counts of five ints):

=============  ===========================================
kind           layout
=============  ===========================================
PASS           ``(PASS,)``
EXPAND         ``(EXPAND, tile, colour)``
RETURN_TILE    ``(RETURN_TILE, tile)``
MOVE           ``(MOVE, from_port, to_port, *pay)``
CITY           ``(CITY, space, ship_port, *pay)``
SHIP           ``(SHIP, space, *pay)``
BANK_DRAW      ``(BANK_DRAW, *pay)``
BANK_PICK      ``(BANK_PICK, take, *pay)``
PROPOSE        ``(PROPOSE, asked_seat_mask, *give, *get)``
ANSWER         ``(ANSWER, accept)``
COMPLETE       ``(COMPLETE, partner)``
WITHDRAW       ``(WITHDRAW,)``
GIVE_CARD      ``(GIVE_CARD, card)``
KEEP           ``(KEEP, *keep)``
=============  ===========================================

Outside the engine an action is a JSON object (:func:`action_to_json`,
:func:`parse_action`):

>>> from tyros_protocol.board import BOARD
>>> a = parse_action({"kind": "move", "from": "TY", "to": "23", "pay": ["green"] * 4}, BOARD)
>>> a == (Kind.MOVE, 0, 23, 0, 0, 4, 0, 0)
True
>>> action_to_json(a, BOARD)
{'kind': 'move', 'from': 'TY', 'to': '23', 'pay': ['green', 'green', 'green', 'green']}
>>> describe_action(a, BOARD)
'move TY -> 23 paying green x4'
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from tyros_protocol.board import Board, BoardError
from tyros_protocol.cards import (
    CARD_NAMES,
    COLOUR_NAMES,
    CardCounts,
    CardError,
    counts_from_names,
    names_from_counts,
    parse_card,
    parse_colour,
)

from .errors import IllegalActionError, Reason

Action = tuple[int, ...]
Seat = int


class Kind(IntEnum):
    PASS = 0
    EXPAND = 1
    RETURN_TILE = 2
    MOVE = 3
    CITY = 4
    SHIP = 5
    BANK_DRAW = 6
    BANK_PICK = 7
    PROPOSE = 8
    ANSWER = 9
    COMPLETE = 10
    WITHDRAW = 11
    GIVE_CARD = 12
    KEEP = 13


# The kinds as plain ints, for hot paths and for building actions: ``Kind.MOVE`` is an enum
# attribute lookup (about 0.1 µs in Python 3.11), and a tuple holding an IntEnum member stays
# tracked by the garbage collector (the engine caches hundreds of thousands of actions).
(K_PASS, K_EXPAND, K_RETURN_TILE, K_MOVE, K_CITY, K_SHIP, K_BANK_DRAW, K_BANK_PICK, K_PROPOSE,
 K_ANSWER, K_COMPLETE, K_WITHDRAW, K_GIVE_CARD, K_KEEP) = (int(kind) for kind in Kind)

KIND_NAMES: dict[Kind, str] = {kind: kind.name.lower() for kind in Kind}
_KIND_BY_NAME: dict[str, Kind] = {name: kind for kind, name in KIND_NAMES.items()}
LENGTH: dict[int, int] = {Kind.PASS: 1, Kind.EXPAND: 3, Kind.RETURN_TILE: 2, Kind.MOVE: 8,
                          Kind.CITY: 8, Kind.SHIP: 7, Kind.BANK_DRAW: 6, Kind.BANK_PICK: 7,
                          Kind.PROPOSE: 12, Kind.ANSWER: 2, Kind.COMPLETE: 2, Kind.WITHDRAW: 1,
                          Kind.GIVE_CARD: 2, Kind.KEEP: 6}
"""The length of each kind's tuple."""
# Where the payment starts, for the kinds that pay.
PAY_OFFSET: dict[int, int] = {Kind.MOVE: 3, Kind.CITY: 3, Kind.SHIP: 2, Kind.BANK_DRAW: 1,
                              Kind.BANK_PICK: 2}

PASS: Action = (K_PASS,)
WITHDRAW: Action = (K_WITHDRAW,)


def payment(action: Action) -> CardCounts:
    """The cards an action pays (all zero for actions that pay nothing)."""
    start = PAY_OFFSET.get(action[0])
    if start is None:
        return (0, 0, 0, 0, 0)
    return action[start:start + 5]  # type: ignore[return-value]


def seats_in_mask(mask: int) -> list[Seat]:
    return [seat for seat in range(mask.bit_length()) if mask >> seat & 1]


def mask_of_seats(seats: list[Seat]) -> int:
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def _cards_text(counts: tuple[int, ...]) -> str:
    parts = [f"{CARD_NAMES[card]} x{n}" for card, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "nothing"


def describe_action(action: Action, board: Board) -> str:
    """A short English line for logs and the client."""
    kind = action[0]
    if kind == Kind.EXPAND:
        return f"expand {COLOUR_NAMES[action[2]]} into {board.space_label(action[1])}"
    if kind == Kind.RETURN_TILE:
        return f"put tile {board.space_label(action[1])} under the pile"
    if kind == Kind.MOVE:
        return (f"move {board.port_label(action[1])} -> {board.port_label(action[2])} "
                f"paying {_cards_text(action[3:8])}")
    if kind == Kind.CITY:
        return (f"build a city in {board.space_label(action[1])} paying {_cards_text(action[3:8])}"
                f" (the ship on {board.port_label(action[2])} goes home)")
    if kind == Kind.SHIP:
        return f"build a ship in {board.space_label(action[1])} paying {_cards_text(action[2:7])}"
    if kind == Kind.BANK_DRAW:
        return f"trade {_cards_text(action[1:6])} for as many from the draw pile"
    if kind == Kind.BANK_PICK:
        return f"trade {_cards_text(action[2:7])} for {CARD_NAMES[action[1]]} from the discards"
    if kind == Kind.PROPOSE:
        asked = ", ".join(f"seat {s}" for s in seats_in_mask(action[1]))
        return (f"offer {_cards_text(action[2:7])} for {_cards_text(action[7:12])} "
                f"to {asked}")
    if kind == Kind.ANSWER:
        return "accept the offer" if action[1] else "decline the offer"
    if kind == Kind.COMPLETE:
        return f"complete the trade with seat {action[1]}"
    if kind == Kind.GIVE_CARD:
        return f"give a {CARD_NAMES[action[1]]} card to the city owner"
    if kind == Kind.KEEP:
        return f"keep {_cards_text(action[1:6])}"
    return KIND_NAMES[Kind(kind)]


_CACHE_LIMIT = 1 << 16
"""Entries per board and kind of cache before it starts afresh."""


class _BoardCache:
    """The wire forms of actions on one board. It holds the board itself, so that the
    board's ``id`` (its key) can never be reused by another board."""

    __slots__ = ("board", "events", "json")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.json: dict[Action, dict[str, Any]] = {}
        self.events: dict[tuple[Seat, Action], dict[str, Any]] = {}


_CACHES: dict[int, _BoardCache] = {}


def _cache_of(board: Board) -> _BoardCache:
    found = _CACHES.get(id(board))
    if found is None:
        found = _CACHES[id(board)] = _BoardCache(board)
    return found


def action_to_json(action: Action, board: Board) -> dict[str, Any]:
    """The wire form of an action: a JSON object with a ``kind``.

    The result may be shared with other callers (it is cached): do not mutate it.
    """
    cache = _cache_of(board).json
    found = cache.get(action)
    if found is None:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        found = cache[action] = _action_json(action, board)
    return found


def action_event(seat: Seat, action: Action, board: Board) -> dict[str, Any]:
    """The log event of ``seat`` taking ``action`` (all but giving a card, whose event also
    names the receiver). Shared like :func:`action_to_json`'s results: do not mutate it.
    Logs then hold one object per distinct action rather than one per action taken."""
    found_cache = _CACHES.get(id(board))  # _cache_of, inlined: one call per action taken
    cache = (found_cache or _cache_of(board)).events
    key = (seat, action)
    found = cache.get(key)
    if found is None:
        if len(cache) >= _CACHE_LIMIT:
            cache.clear()
        found = cache[key] = {"type": "action", "seat": seat,
                              "action": action_to_json(action, board)}
    return found


def _action_json(action: Action, board: Board) -> dict[str, Any]:
    kind = Kind(action[0])
    out: dict[str, Any] = {"kind": KIND_NAMES[kind]}
    if kind == Kind.EXPAND:
        out["tile"] = board.space_label(action[1])
        out["colour"] = COLOUR_NAMES[action[2]]
    elif kind == Kind.RETURN_TILE:
        out["tile"] = board.space_label(action[1])
    elif kind == Kind.MOVE:
        out["from"] = board.port_label(action[1])
        out["to"] = board.port_label(action[2])
        out["pay"] = names_from_counts(action[3:8])
    elif kind == Kind.CITY:
        out["space"] = board.space_label(action[1])
        out["ship"] = board.port_label(action[2])
        out["pay"] = names_from_counts(action[3:8])
    elif kind == Kind.SHIP:
        out["space"] = board.space_label(action[1])
        out["pay"] = names_from_counts(action[2:7])
    elif kind == Kind.BANK_DRAW:
        out["pay"] = names_from_counts(action[1:6])
    elif kind == Kind.BANK_PICK:
        out["pay"] = names_from_counts(action[2:7])
        out["take"] = CARD_NAMES[action[1]]
    elif kind == Kind.PROPOSE:
        out["to"] = seats_in_mask(action[1])
        out["give"] = names_from_counts(action[2:7])
        out["get"] = names_from_counts(action[7:12])
    elif kind == Kind.ANSWER:
        out["accept"] = bool(action[1])
    elif kind == Kind.COMPLETE:
        out["with"] = action[1]
    elif kind == Kind.GIVE_CARD:
        out["card"] = CARD_NAMES[action[1]]
    elif kind == Kind.KEEP:
        out["cards"] = names_from_counts(action[1:6])
    return out


_FIELDS: dict[Kind, frozenset[str]] = {
    Kind.PASS: frozenset(),
    Kind.EXPAND: frozenset({"tile", "colour"}),
    Kind.RETURN_TILE: frozenset({"tile"}),
    Kind.MOVE: frozenset({"from", "to", "pay"}),
    Kind.CITY: frozenset({"space", "ship", "pay"}),
    Kind.SHIP: frozenset({"space", "pay"}),
    Kind.BANK_DRAW: frozenset({"pay"}),
    Kind.BANK_PICK: frozenset({"pay", "take"}),
    Kind.PROPOSE: frozenset({"to", "give", "get"}),
    Kind.ANSWER: frozenset({"accept"}),
    Kind.COMPLETE: frozenset({"with"}),
    Kind.WITHDRAW: frozenset(),
    Kind.GIVE_CARD: frozenset({"card"}),
    Kind.KEEP: frozenset({"cards"}),
}

_MAX_CARDS_IN_LIST = 60


def _cards(value: Any) -> CardCounts:
    if not isinstance(value, list) or len(value) > _MAX_CARDS_IN_LIST:
        raise CardError("cards must be a list of card names")
    if not all(isinstance(name, str) for name in value):
        raise CardError("cards must be a list of card names")
    return counts_from_names(value)


def _seat(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 4:
        raise ValueError(f"not a seat: {value!r}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {value!r}")
    return value


def parse_action(data: Any, board: Board) -> Action:
    """Check the shape of a wire action and encode it (legality is checked on push).

    >>> from tyros_protocol.board import BOARD
    >>> parse_action({"kind": "fly"}, BOARD)
    Traceback (most recent call last):
    ...
    tyros_server.engine.errors.IllegalActionError: unknown action kind 'fly'
    """
    if not isinstance(data, dict):
        raise IllegalActionError(Reason.MALFORMED, "an action must be a JSON object")
    name = data.get("kind")
    kind = _KIND_BY_NAME.get(name) if isinstance(name, str) else None
    if kind is None:
        raise IllegalActionError(Reason.MALFORMED, f"unknown action kind {data.get('kind')!r}")
    fields = set(data) - {"kind"}
    if fields != _FIELDS[kind]:
        expected = ", ".join(sorted(_FIELDS[kind])) or "no fields"
        raise IllegalActionError(Reason.MALFORMED,
                                 f"{KIND_NAMES[kind]} takes {expected}; got {sorted(fields)}")
    try:
        return _encode(kind, data, board)
    except (ValueError, TypeError) as exc:  # BoardError and CardError are ValueErrors
        raise IllegalActionError(Reason.MALFORMED, f"{KIND_NAMES[kind]}: {exc}") from exc


def _encode(kind: Kind, data: dict[str, Any], board: Board) -> Action:
    code = int(kind)  # actions hold plain ints (see legal.py)
    if kind in (Kind.PASS, Kind.WITHDRAW):
        return (code,)
    if kind == Kind.EXPAND:
        return (code, board.parse_space(_text(data["tile"])), parse_colour(_text(data["colour"])))
    if kind == Kind.RETURN_TILE:
        return (code, board.parse_space(_text(data["tile"])))
    if kind == Kind.MOVE:
        return (code, board.parse_port(_text(data["from"])), board.parse_port(_text(data["to"])),
                *_cards(data["pay"]))
    if kind == Kind.CITY:
        space, ship = board.parse_space(_text(data["space"])), board.parse_port(_text(data["ship"]))
        return (code, space, ship, *_cards(data["pay"]))
    if kind == Kind.SHIP:
        return (code, board.parse_space(_text(data["space"])), *_cards(data["pay"]))
    if kind == Kind.BANK_DRAW:
        return (code, *_cards(data["pay"]))
    if kind == Kind.BANK_PICK:
        return (code, parse_card(_text(data["take"])), *_cards(data["pay"]))
    if kind == Kind.PROPOSE:
        asked = data["to"]
        if not isinstance(asked, list) or not asked:
            raise ValueError("'to' must be a non-empty list of seats")
        return (code, mask_of_seats([_seat(s) for s in asked]), *_cards(data["give"]),
                *_cards(data["get"]))
    if kind == Kind.ANSWER:
        if not isinstance(data["accept"], bool):
            raise ValueError("'accept' must be true or false")
        return (code, int(data["accept"]))
    if kind == Kind.COMPLETE:
        return (code, _seat(data["with"]))
    if kind == Kind.GIVE_CARD:
        return (code, parse_card(_text(data["card"])))
    if kind == Kind.KEEP:
        return (code, *_cards(data["cards"]))
    raise BoardError(f"unhandled kind {kind}")  # pragma: no cover - every Kind is handled
