"""The one gate for hidden information: what a seat (or a spectator) may see.

Everything leaving the engine goes through :func:`view` or :func:`event_view`.
Both build their output from allow-lists: a field not named here is never
shown, so a field added to the state or to an event stays secret until
someone decides it is public (the shared rulings, ``RULINGS.md`` "Who sees what", which
come with the rulebook and are not in this repository).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tyros_protocol.board import BOARD, Board
from tyros_protocol.cards import (
    CARD_NAMES,
    COLOUR_NAMES,
    CardCounts,
    counts_from_names,
    names_from_counts,
)
from tyros_protocol.catalogue import EVENTS

from .actions import (
    SPECS,
    TRADE_GET,
    TRADE_GIVE,
    TRADE_PROPOSER,
    TRADE_TO,
    Seat,
    mask_of_seats,
    pending_trade,
    propose,
    seats_in_mask,
)
from .constants import MAX_SEATS
from .legal import is_last_round, seats_to_act
from .scoring import empire_ranks
from .state import (
    ACCEPTED,
    COUNTERED,
    DECLINED,
    NOT_ASKED,
    PENDING,
    GameState,
    Options,
    Phase,
    blank_state,
)

Viewer = int | None
"""A seat number, or None for a spectator."""

# Event type -> (fields everyone sees, extra fields for the seats it concerns), from the
# catalogue (its seat-only marks). An action's own fields are shown by _action_view.
# Events not there (the shuffles) are shown to nobody: they live in the record.
_EVENT_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    type_: (tuple(name for name in entry.public if name != "action"), entry.seat_only)
    for type_, entry in EVENTS.items()
}

# Action kind -> (fields everyone sees, fields only the acting seat and its counterpart see),
# from the kinds' descriptions (actions.SPECS). A card given to a city owner also shows the
# receiver, ``to``, which the event carries (see _action_view).
_ACTION_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    spec.name: (
        tuple(f.name for f in spec.wire if not f.private),
        tuple(f.name for f in spec.wire if f.private),
    )
    for spec in SPECS.values()
}


def _concerns(event: dict[str, Any], viewer: Viewer) -> bool:
    """Whether the event's private part belongs to the viewer (its seat or counterpart)."""
    return viewer is not None and viewer in (event.get("seat"), event.get("to"))


def event_view(
    event: dict[str, Any], viewer: Viewer, version: int | None = None
) -> dict[str, Any] | None:
    """What ``viewer`` may see of one event, or None if nothing; with ``version`` (the
    game version it belongs to, see :func:`event_versions`) when given."""
    rule = _EVENT_FIELDS.get(event.get("type", ""))
    if rule is None:
        return None
    public, private = rule
    allowed = public + private if _concerns(event, viewer) else public
    out: dict[str, Any] = {"type": event["type"]}
    if version is not None:
        out["version"] = version
    for name in allowed:
        if name in event:
            out[name] = event[name]
    if event["type"] == "action":
        out["action"] = _action_view(event, viewer)
    return out


def event_versions(events: list[dict[str, Any]], version: int) -> list[int]:
    """The game version each of ``events`` belongs to, when they are the last events of
    the log of a game now at ``version``: the version of the update that first reports
    it. Each decision is one ``action`` event and one version more, so an action and what
    followed from it belong to the version it led to; the deal belongs to version 0.

    >>> event_versions([{"type": "round_end"}, {"type": "action"}, {"type": "tile_drawn"}], 5)
    [4, 5, 5]
    """
    out = [0] * len(events)
    for at in range(len(events) - 1, -1, -1):
        out[at] = version
        if events[at].get("type") == "action":
            version -= 1
    return out


def events_seen(log: list[dict[str, Any]], viewer: Viewer) -> list[tuple[int, dict[str, Any]]]:
    """What ``viewer`` was shown of a whole log from the deal: (index in the log, the event
    as shown, with its version) for each event it saw.

    >>> log = [{"type": "round_start", "round": 1}, {"type": "action", "seat": 0,
    ...        "action": {"kind": "pass"}}]
    >>> [(at, seen["version"]) for at, seen in events_seen(log, None)]
    [(0, 0), (1, 1)]
    """
    out = []
    version = 0
    for at, event in enumerate(log):
        version += event.get("type") == "action"
        seen = event_view(event, viewer, version)
        if seen is not None:
            out.append((at, seen))
    return out


def _action_view(event: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    action = event["action"]
    public, private = _ACTION_FIELDS[action["kind"]]
    allowed = public + private if _concerns(event, viewer) else public
    out: dict[str, Any] = {"kind": action["kind"]}
    for name in allowed:
        if name in action:
            out[name] = action[name]
    if action["kind"] == "give_card" and "to" in event:
        out["to"] = event["to"]
    return out


class SeatView(dict[str, Any]):
    """A seat's view: ``public`` (the spectator view it was built from) plus the seat's
    own ``viewer``, ``hand`` and ``tiles``. Knowing that lets the server send the public
    part's JSON text to every seat without encoding it again."""

    __slots__ = ("public",)

    def __init__(self, public: dict[str, Any]) -> None:
        super().__init__(public)
        self.public = public


def view(state: GameState, viewer: Viewer, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The state as ``viewer`` may see it, as plain JSON-ready data.

    ``public`` is this state's spectator view, ``view(state, None)``, when the caller has
    already built it: every seat's view is that one plus the seat's own hand and tiles, so a
    broadcast builds the shared part once. The views then share their nested values: they
    are read, never changed.
    """
    base = public if public is not None else _public_view(state)
    if viewer is None:
        return base
    labels = state.board.space_labels
    out = SeatView(base)
    out["viewer"] = viewer
    out["hand"] = names_from_counts(state.hands[viewer])
    out["tiles"] = [labels[t] for t in state.tiles[viewer]]
    return out


def _public_view(state: GameState) -> dict[str, Any]:
    """What everyone may see: the spectator's view."""
    board = state.board
    labels = board.space_labels
    port_labels = board.port_labels
    sizes, ranks = empire_ranks(state.chips)
    ships = []
    all_ships = state.ships
    players = state.players
    for port in range(board.port_count):
        at = port * MAX_SEATS
        for seat in range(players):
            count = all_ships[at + seat]
            if count:
                ships.append({"port": port_labels[port], "seat": seat, "count": count})
    seats = [
        {
            "seat": seat,
            "cards": sum(state.hands[seat]),
            "tiles": len(state.tiles[seat]),
            "revealed_tiles": [labels[t] for t in state.revealed[seat]],
            "ships_in_supply": state.ship_supply[seat],
            "cities_in_supply": state.city_supply[seat],
        }
        for seat in range(players)
    ]
    return {
        "viewer": None,
        "version": state.version,
        "players": players,
        "setup": state.options.setup,
        "round": state.round,
        "last_round": is_last_round(state),
        "phase": state.phase.name.lower(),
        "current": state.current,
        "to_act": seats_to_act(state),
        "expand_queue": list(state.expand_queue),
        "starting_seat": state.starting_seat,
        "passes": state.passes,
        "trade_tried": state.trade_tried,
        "chips": {labels[s]: COLOUR_NAMES[c] for s, c in enumerate(state.chips) if c >= 0},
        "cities": {labels[s]: owner for s, owner in enumerate(state.cities) if owner >= 0},
        "ships": ships,
        "empires": [
            {"colour": name, "size": sizes[c], "rank": ranks[c] + 1}
            for c, name in enumerate(COLOUR_NAMES)
        ],
        "seats": seats,
        "discard": {CARD_NAMES[k]: n for k, n in enumerate(state.discard)},
        "draw_pile": len(state.draw_pile),
        "tile_pile": len(state.tile_pile),
        "removed_tiles": [labels[t] for t in state.removed_tiles],
        "all_four_bonus": state.all_four_bonus if state.all_four_bonus >= 0 else None,
        "trade": _trade_view(state),
        "owed_to": state.owed_to if state.owed_to >= 0 else None,
        "keep_pending": [s for s, pending in enumerate(state.keep_pending) if pending],
        "score": state.score,
    }


def _trade_view(state: GameState) -> dict[str, Any] | None:
    trade = state.trade
    if trade is None:
        return None
    answers: list[dict[str, Any]] = []
    for seat in seats_in_mask(trade[TRADE_TO]):
        answer = state.answers[seat]
        terms = state.counters[seat] if answer == COUNTERED else None
        if terms is not None:  # a counter-offer is as public as the offer
            answers.append(
                {
                    "seat": seat,
                    "answer": "counter",
                    "give": names_from_counts(terms[:5]),
                    "get": names_from_counts(terms[5:]),
                }
            )
            continue
        said = "pending" if answer == PENDING else ("accept" if answer else "decline")
        answers.append({"seat": seat, "answer": said})
    return {
        "proposer": trade[TRADE_PROPOSER],
        "to": seats_in_mask(trade[TRADE_TO]),
        "give": names_from_counts(trade[TRADE_GIVE]),
        "get": names_from_counts(trade[TRADE_GET]),
        "answers": answers,
    }


# The inverse of view ---------------------------------------------------------------


@dataclass(slots=True)
class Unseen:
    """What a view does not show: with it, :func:`state_from_view` rebuilds a whole state."""

    hands: dict[Seat, CardCounts]
    """The hand of every seat but the viewer."""
    tiles: dict[Seat, tuple[int, ...]]
    """The tiles of every seat but the viewer, sorted (the revealed ones among them)."""
    draw_pile: list[int]
    """The draw pile, top last."""
    tile_pile: list[int]
    """The tile pile, top last."""


def unseen(state: GameState, viewer: Viewer) -> Unseen:
    """What ``viewer``'s view of ``state`` hides (copied), for tests and record tools."""
    others = [seat for seat in range(state.players) if seat != viewer]
    return Unseen(
        {seat: state.hands[seat] for seat in others},
        {seat: state.tiles[seat] for seat in others},
        list(state.draw_pile),
        list(state.tile_pile),
    )


_PHASES = {phase.name.lower(): phase for phase in Phase}
_ANSWERS = {"pending": PENDING, "accept": ACCEPTED, "decline": DECLINED}


def state_from_view(
    seen: dict[str, Any], hidden: Unseen | None = None, board: Board = BOARD
) -> GameState:
    """A state whose :func:`view` for ``seen["viewer"]`` is ``seen``: the inverse of
    :func:`view`, for search. ``seen`` may have been through JSON.

    ``hidden`` fills in what the view does not show (other hands and tiles, both piles);
    without it those are empty, to be dealt later with :func:`deal_unseen` (on a
    :meth:`~GameState.copy`). The state has no log and seed 0 (give copies their own).

    >>> from .rules import new_game
    >>> state = new_game(Options(players=3, seed=4))
    >>> rebuilt = state_from_view(view(state, 1), unseen(state, 1))
    >>> rebuilt.fingerprint() == state.fingerprint(), view(rebuilt, 1) == view(state, 1)
    (True, True)
    """
    n = seen["players"]
    state = blank_state(Options(players=n, setup=seen["setup"], seed=0), board)
    state.log = None
    _copy_turn(state, seen)
    _copy_board(state, seen, board)
    _copy_cards_and_tiles(state, seen, board)
    _copy_trade(state, seen)
    if hidden is not None:
        deal_unseen(state, hidden)
    return state


def deal_unseen(state: GameState, hidden: Unseen) -> None:
    """Put ``hidden``'s hands, tiles and piles into ``state`` (its lists are taken, not copied)."""
    for seat, hand in hidden.hands.items():
        state.hands[seat] = hand
    for seat, tiles in hidden.tiles.items():
        state.tiles[seat] = tiles
    state.draw_pile = hidden.draw_pile
    state.tile_pile = hidden.tile_pile


def _copy_turn(state: GameState, seen: dict[str, Any]) -> None:
    state.version = seen["version"]
    state.phase = _PHASES[seen["phase"]]
    state.round = seen["round"]
    state.starting_seat = seen["starting_seat"]
    state.current = seen["current"]
    state.expand_queue = list(seen["expand_queue"])
    state.passes = seen["passes"]
    state.trade_tried = bool(seen["trade_tried"])
    owed = seen["owed_to"]
    state.owed_to = -1 if owed is None else owed
    state.keep_pending = [s in seen["keep_pending"] for s in range(state.players)]
    state.score = seen["score"]


def _copy_board(state: GameState, seen: dict[str, Any], board: Board) -> None:
    parse_space = board.parse_space
    for label, colour in seen["chips"].items():
        state.chips[parse_space(label)] = COLOUR_NAMES.index(colour)
    for label, owner in seen["cities"].items():
        state.cities[parse_space(label)] = owner
    for entry in seen["ships"]:
        state.add_ships(board.parse_port(entry["port"]), entry["seat"], entry["count"])
    seats = seen["seats"]
    state.ship_supply = [s["ships_in_supply"] for s in seats]
    state.city_supply = [s["cities_in_supply"] for s in seats]
    bonus = seen["all_four_bonus"]
    state.all_four_bonus = -1 if bonus is None else bonus


def _copy_cards_and_tiles(state: GameState, seen: dict[str, Any], board: Board) -> None:
    parse_space = board.parse_space
    state.revealed = [
        tuple(sorted(parse_space(t) for t in s["revealed_tiles"])) for s in seen["seats"]
    ]
    state.discard = tuple(seen["discard"].get(name, 0) for name in CARD_NAMES)
    state.removed_tiles = [parse_space(t) for t in seen["removed_tiles"]]
    viewer = seen["viewer"]
    if viewer is not None:
        state.hands[viewer] = counts_from_names(seen["hand"])
        state.tiles[viewer] = tuple(sorted(parse_space(t) for t in seen["tiles"]))


def _copy_trade(state: GameState, seen: dict[str, Any]) -> None:
    trade = seen["trade"]
    if trade is None:
        return
    give, get = counts_from_names(trade["give"]), counts_from_names(trade["get"])
    state.trade = pending_trade(trade["proposer"], propose(mask_of_seats(trade["to"]), give, get))
    state.answers = [NOT_ASKED] * state.players
    counters: list[tuple[int, ...] | None] = [None] * state.players
    for answer in trade["answers"]:
        if answer["answer"] == "counter":
            state.answers[answer["seat"]] = COUNTERED
            counters[answer["seat"]] = (
                *counts_from_names(answer["give"]),
                *counts_from_names(answer["get"]),
            )
        else:
            state.answers[answer["seat"]] = _ANSWERS[answer["answer"]]
    state.counters = tuple(counters)


__all__ = [
    "Unseen",
    "Viewer",
    "deal_unseen",
    "event_versions",
    "event_view",
    "state_from_view",
    "unseen",
    "view",
]
