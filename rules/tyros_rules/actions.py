"""Actions as flat tuples of ints: cheap to build, hash and compare.

The first item is the :class:`Kind`; the rest follow a fixed layout per kind, described
once in :data:`SPECS` from the protocol's catalogue (:mod:`tyros_protocol.catalogue`): each
kind's fields in tuple order and what each holds. The tuple layout (:data:`LENGTH`, the index
and slice constants such as :data:`MOVE_PAY`), the JSON form (:func:`action_to_json`,
:func:`parse_action`) and the fields a view may show to whom (``views._ACTION_FIELDS``) all
come from it (``pay``, ``give``, ``get`` and ``keep`` are card counts of five ints):

>>> for spec in SPECS.values():
...     print(spec.layout())
(PASS,)
(EXPAND, tile, colour)
(RETURN_TILE, tile)
(MOVE, from, to, *pay)
(CITY, space, ship, *pay)
(SHIP, space, *pay)
(BANK_DRAW, *pay)
(BANK_PICK, take, *pay)
(PROPOSE, to, *give, *get)
(ANSWER, accept)
(COMPLETE, with)
(WITHDRAW,)
(GIVE_CARD, card)
(KEEP, *cards)
(COUNTER, *give, *get)

Code outside this module reads an action through the constants, never through
literal indices or slices: ``action[MOVE_PAY]`` is the payment of a move.

Outside the engine an action is a JSON object (:func:`action_to_json`,
:func:`parse_action`):

>>> from tyros_protocol.board import BOARD
>>> a = parse_action({"kind": "move", "from": "TY", "to": "23", "pay": ["green"] * 4}, BOARD)
>>> a == (Kind.MOVE, 0, 23, 0, 0, 4, 0, 0)
True
>>> a[MOVE_TO], a[MOVE_PAY]
(23, (0, 0, 4, 0, 0))
>>> action_to_json(a, BOARD)
{'kind': 'move', 'from': 'TY', 'to': '23', 'pay': ['green', 'green', 'green', 'green']}
>>> describe_action(a, BOARD)  # in the catalogue's words
'move TY -> 23 paying green x4'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from tyros_protocol import words
from tyros_protocol.board import Board
from tyros_protocol.cards import (
    CARD_NAMES,
    COLOUR_NAMES,
    DECK_SIZE,
    CardCounts,
    CardError,
    counts_from_names,
    names_from_counts,
    parse_card,
    parse_colour,
)
from tyros_protocol.catalogue import ACTIONS

from .constants import MAX_SEATS
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
    COUNTER = 14


# The kinds as plain ints, for hot paths and for building actions: ``Kind.MOVE`` is an enum
# attribute lookup (about 0.1 µs in Python 3.11), and a tuple holding an IntEnum member stays
# tracked by the garbage collector (the engine caches hundreds of thousands of actions).
(
    K_PASS,
    K_EXPAND,
    K_RETURN_TILE,
    K_MOVE,
    K_CITY,
    K_SHIP,
    K_BANK_DRAW,
    K_BANK_PICK,
    K_PROPOSE,
    K_ANSWER,
    K_COMPLETE,
    K_WITHDRAW,
    K_GIVE_CARD,
    K_KEEP,
    K_COUNTER,
) = (int(kind) for kind in Kind)

KIND_NAMES: dict[Kind, str] = {kind: kind.name.lower() for kind in Kind}
_KIND_BY_NAME: dict[str, Kind] = {name: kind for kind, name in KIND_NAMES.items()}


# The description of every kind ----------------------------------------------------

# What a field holds. Each type has one wire form, one parser and one English form (below).
SPACE = "space"
"""A space id; on the wire its label (``"23"``, ``"TY"``)."""
PORT = "port"
"""A port id; on the wire its label (``"16E"``)."""
COLOUR = "colour"
"""An empire colour; on the wire its name."""
CARD = "card"
"""One kind of card; on the wire its name."""
CARDS = "cards"
"""Five card counts (five ints in the tuple); on the wire a list of card names."""
SEATS = "seats"
"""A set of seats as a bit mask; on the wire a non-empty list of seat numbers."""
SEAT = "seat"
"""A seat number."""
FLAG = "flag"
"""0 or 1; on the wire false or true."""

_WIDTH = {CARDS: 5}


@dataclass(frozen=True, slots=True)
class ActionField:
    """One field of an action kind."""

    name: str
    """Its name in the JSON form."""
    type: str
    """What it holds: :data:`SPACE`, :data:`PORT`, :data:`COLOUR`, :data:`CARD`,
    :data:`CARDS`, :data:`SEATS`, :data:`SEAT` or :data:`FLAG`."""
    at: int | slice
    """Where it is in the tuple: an index, or a slice for card counts."""
    private: bool
    """Shown only to the acting seat and its counterpart (see :mod:`.views`)."""


@dataclass(frozen=True, slots=True)
class KindSpec:
    """Everything about one kind of action the engine reads: its fields, where."""

    kind: Kind
    name: str
    """Its ``kind`` in the JSON form."""
    fields: tuple[ActionField, ...]
    """In tuple order, after the kind."""
    wire: tuple[ActionField, ...]
    """The same fields in the order of the JSON object."""
    length: int
    """The length of the tuple."""

    def at(self, name: str) -> int | slice:
        for spec_field in self.fields:
            if spec_field.name == name:
                return spec_field.at
        raise KeyError(f"{self.name} has no field {name!r}")

    def layout(self) -> str:
        parts = [
            self.kind.name,
            *(("*" if isinstance(f.at, slice) else "") + f.name for f in self.fields),
        ]
        return f"({', '.join(parts)})" if len(parts) > 1 else f"({parts[0]},)"


def _spec(kind: Kind) -> KindSpec:
    """The catalogue's entry of ``kind``, placed in the tuple."""
    entry = ACTIONS[KIND_NAMES[kind]]
    built: list[ActionField] = []
    index = 1
    for item in entry.fields:
        width = _WIDTH.get(item.type, 1)
        at: int | slice = slice(index, index + width) if width > 1 else index
        built.append(ActionField(item.name, item.type, at, item.seat_only))
        index += width
    wire = tuple(next(f for f in built if f.name == name) for name in entry.wire)
    return KindSpec(kind, entry.kind, tuple(built), wire, index)


SPECS: dict[int, KindSpec] = {kind: _spec(kind) for kind in Kind}
"""Every kind's description, in the order of the kinds."""

LENGTH: dict[int, int] = {kind: spec.length for kind, spec in SPECS.items()}
"""The length of each kind's tuple."""


def _index(kind: Kind, name: str) -> int:
    at = SPECS[kind].at(name)
    assert isinstance(at, int)
    return at


def _slice(kind: Kind, name: str) -> slice:
    at = SPECS[kind].at(name)
    assert isinstance(at, slice)
    return at


# Where each field is, for the code that reads actions (``action[MOVE_PAY]``).
EXPAND_TILE = _index(Kind.EXPAND, "tile")
EXPAND_COLOUR = _index(Kind.EXPAND, "colour")
RETURNED_TILE = _index(Kind.RETURN_TILE, "tile")
MOVE_FROM = _index(Kind.MOVE, "from")
MOVE_TO = _index(Kind.MOVE, "to")
MOVE_PAY = _slice(Kind.MOVE, "pay")
CITY_SPACE = _index(Kind.CITY, "space")
CITY_SHIP = _index(Kind.CITY, "ship")
CITY_PAY = _slice(Kind.CITY, "pay")
SHIP_SPACE = _index(Kind.SHIP, "space")
SHIP_PAY = _slice(Kind.SHIP, "pay")
DRAW_PAY = _slice(Kind.BANK_DRAW, "pay")
PICK_TAKE = _index(Kind.BANK_PICK, "take")
PICK_PAY = _slice(Kind.BANK_PICK, "pay")
PROPOSE_TO = _index(Kind.PROPOSE, "to")
PROPOSE_GIVE = _slice(Kind.PROPOSE, "give")
PROPOSE_GET = _slice(Kind.PROPOSE, "get")
ANSWER_ACCEPT = _index(Kind.ANSWER, "accept")
COMPLETE_WITH = _index(Kind.COMPLETE, "with")
GIVEN_CARD = _index(Kind.GIVE_CARD, "card")
KEPT = _slice(Kind.KEEP, "cards")
COUNTER_GIVE = _slice(Kind.COUNTER, "give")
COUNTER_GET = _slice(Kind.COUNTER, "get")

PAY_AT: dict[int, slice] = {
    kind: spec.fields[-1].at
    for kind, spec in SPECS.items()
    if spec.fields and spec.fields[-1].name == "pay" and isinstance(spec.fields[-1].at, slice)
}
"""Where the payment is, for the kinds that pay (always last)."""
UNPAID_AT: dict[int, slice] = {kind: slice(0, at.start) for kind, at in PAY_AT.items()}
"""The rest of a paying action: its kind and target, whatever it pays."""

# A pending trade (``GameState.trade``) is the proposal with the proposer's seat in place of
# the kind (:func:`pending_trade`): the proposal's constants index it too.
TRADE_PROPOSER = 0
TRADE_TO = PROPOSE_TO
TRADE_GIVE = PROPOSE_GIVE
TRADE_GET = PROPOSE_GET

PASS: Action = (K_PASS,)
WITHDRAW: Action = (K_WITHDRAW,)


def pending_trade(seat: Seat, proposal: Action) -> tuple[int, ...]:
    """The state's record of ``seat``'s ``proposal`` (read it with the ``TRADE_*`` constants)."""
    return (seat, *proposal[1:])


def bank_draw(pay: CardCounts) -> Action:
    return (K_BANK_DRAW, *pay)


def bank_pick(take: int, pay: CardCounts) -> Action:
    return (K_BANK_PICK, take, *pay)


def propose(asked_mask: int, give: CardCounts, get: CardCounts) -> Action:
    return (K_PROPOSE, asked_mask, *give, *get)


def answer(accept: bool) -> Action:
    return (K_ANSWER, int(accept))


def give_card(card: int) -> Action:
    return (K_GIVE_CARD, card)


def payment(action: Action) -> CardCounts:
    """The cards an action pays (all zero for actions that pay nothing)."""
    at = PAY_AT.get(action[0])
    if at is None:
        return (0, 0, 0, 0, 0)
    return action[at]  # type: ignore[return-value]


def seats_in_mask(mask: int) -> list[Seat]:
    return [seat for seat in range(mask.bit_length()) if mask >> seat & 1]


def mask_of_seats(seats: list[Seat]) -> int:
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


# Each field type's wire form and parser ------------------------------


def _cards(value: Any) -> CardCounts:
    if not isinstance(value, list) or len(value) > DECK_SIZE:  # no more than the game has
        raise CardError("cards must be a list of card names")
    if not all(isinstance(name, str) for name in value):
        raise CardError("cards must be a list of card names")
    return counts_from_names(value)


def _seat(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < MAX_SEATS:
        raise ValueError(f"not a seat: {value!r}")
    return value


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"expected a string, got {value!r}")
    return value


def _parse_seats(name: str, value: Any, board: Board) -> tuple[int, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError(f"'{name}' must be a non-empty list of seats")
    return (mask_of_seats([_seat(s) for s in value]),)


def _parse_flag(name: str, value: Any, board: Board) -> tuple[int, ...]:
    if not isinstance(value, bool):
        raise ValueError(f"'{name}' must be true or false")
    return (int(value),)


# type -> (wire form, parser (field name, wire value, board) -> ints)
_TYPES: dict[
    str,
    tuple[Callable[[Any, Board], Any], Callable[[str, Any, Board], tuple[int, ...]]],
] = {
    SPACE: (lambda v, b: b.space_label(v), lambda n, v, b: (b.parse_space(_text(v)),)),
    PORT: (lambda v, b: b.port_label(v), lambda n, v, b: (b.parse_port(_text(v)),)),
    COLOUR: (lambda v, b: COLOUR_NAMES[v], lambda n, v, b: (parse_colour(_text(v)),)),
    CARD: (lambda v, b: CARD_NAMES[v], lambda n, v, b: (parse_card(_text(v)),)),
    CARDS: (lambda v, b: names_from_counts(v), lambda n, v, b: _cards(v)),
    SEATS: (lambda v, b: seats_in_mask(v), _parse_seats),
    SEAT: (lambda v, b: v, lambda n, v, b: (_seat(v),)),
    FLAG: (lambda v, b: bool(v), _parse_flag),
}


def describe_action(action: Action, board: Board) -> str:
    """A short line for logs, in the catalogue's words (see :mod:`tyros_protocol.words`)."""
    return words.describe_action(action_to_json(action, board))


_CACHE_LIMIT = 1 << 16
"""Entries per board and kind of cache before it starts afresh."""


class _BoardCache:
    """The wire forms of actions on one board. It holds the board itself, so that the
    board's ``id`` (its key) can never be reused by another board."""

    __slots__ = ("board", "json")

    def __init__(self, board: Board) -> None:
        self.board = board
        self.json: dict[Action, dict[str, Any]] = {}


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
    names the receiver). Its ``action`` is shared like :func:`action_to_json`'s results: do
    not mutate it. (A cache of whole events by seat and action was slower: a dict four times
    the size of the wire forms' one, looked up at random, misses the CPU's caches.)"""
    found_cache = _CACHES.get(id(board))  # _cache_of, inlined: one call per action taken
    found = found_cache.json.get(action) if found_cache is not None else None
    if found is None:
        found = action_to_json(action, board)
    return {"type": "action", "seat": seat, "action": found}


def _action_json(action: Action, board: Board) -> dict[str, Any]:
    spec = SPECS[action[0]]
    out: dict[str, Any] = {"kind": spec.name}
    for spec_field in spec.wire:
        out[spec_field.name] = _TYPES[spec_field.type][0](action[spec_field.at], board)
    return out


_FIELDS: dict[Kind, frozenset[str]] = {
    spec.kind: frozenset(f.name for f in spec.fields) for spec in SPECS.values()
}
"""The fields of each kind's JSON form, besides ``kind``."""


def parse_action(data: Any, board: Board) -> Action:
    """Check the shape of a wire action and encode it (legality is checked on push).

    >>> from tyros_protocol.board import BOARD
    >>> parse_action({"kind": "fly"}, BOARD)
    Traceback (most recent call last):
    ...
    tyros_rules.errors.IllegalActionError: unknown action kind 'fly'
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
        raise IllegalActionError(
            Reason.MALFORMED, f"{KIND_NAMES[kind]} takes {expected}; got {sorted(fields)}"
        )
    try:
        return _encode(kind, data, board)
    except (ValueError, TypeError) as exc:  # BoardError and CardError are ValueErrors
        raise IllegalActionError(Reason.MALFORMED, f"{KIND_NAMES[kind]}: {exc}") from exc


def encode_action(data: dict[str, Any], board: Board) -> Action:
    """Encode a wire action whose shape the protocol's models have checked already (an
    incoming message is parsed once): no second check of its fields, only the encoding;
    an IllegalActionError if it cannot be encoded after all. Legality is checked on push.

    >>> from tyros_protocol.board import BOARD
    >>> encode_action({"kind": "pass"}, BOARD) == parse_action({"kind": "pass"}, BOARD)
    True
    """
    try:
        return _encode(_KIND_BY_NAME[data["kind"]], data, board)
    except (KeyError, ValueError, TypeError) as exc:  # (the models should not let it come)
        raise IllegalActionError(Reason.MALFORMED, f"cannot read the action: {exc}") from exc


def _encode(kind: Kind, data: dict[str, Any], board: Board) -> Action:
    out = [int(kind)]  # actions hold plain ints (see legal.py)
    for spec_field in SPECS[kind].fields:  # in tuple order: the first bad field is reported
        out.extend(_TYPES[spec_field.type][1](spec_field.name, data[spec_field.name], board))
    return tuple(out)
