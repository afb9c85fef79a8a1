"""Determinization: a full engine state consistent with what one seat has seen.

A search bot cannot look at the server's :class:`~tyros_server.engine.GameState`;
it sees :func:`~tyros_server.engine.view` for its seat and the events its seat
is shown. :func:`determinize` turns such a view into a complete state by
copying every public detail (the board, supplies, counts, the discard pile,
the round and turn, a pending trade, the city owner's card, the seats still to
keep 3 cards, the tiles a player had to reveal) and the seat's own hand and
tiles, then dealing everything the seat cannot see at random:

- the commerce cards neither in its hand nor in the discard pile go to the
  other hands (as many as each holds) and the rest, shuffled, to the draw pile;
- the map tiles neither played, nor in its hand, nor revealed go to the other
  hands (after their revealed tiles) and the rest, shuffled, to the tile pile.

A :class:`Memory` fed with the seat's events (``Bot.observe``) adds what the
events proved and the view no longer shows: cards another seat must still hold
(taken from the discards, received in a trade or as the city owner's card and
not spent or discarded since) and the tiles put under the tile pile. It keeps
lower bounds only, so it is never wrong about a hand, merely less informed;
and if it ever disagrees with the view (events missed or replayed after a
reconnection) the determinizer drops it rather than trust it.

>>> import random
>>> from tyros_server.engine import Options, new_game, view
>>> state = new_game(Options(players=4, seed=5))
>>> seen = view(state, 2)
>>> sample = determinize(seen, 2, random.Random(1))
>>> view(sample, 2) == seen
True
>>> sample.hands[2] == state.hands[2], sum(sample.hands[0]) == sum(state.hands[0])
(True, True)
"""

from __future__ import annotations

import random
from typing import Any

from tyros_protocol.board import BOARD, Board
from tyros_protocol.cards import CARD_NAMES, COLOUR_NAMES, DECK, CardCounts, counts_from_names
from tyros_server.engine import GameState, Options, Phase
from tyros_server.engine.actions import mask_of_seats
from tyros_server.engine.legal import playable_tiles
from tyros_server.engine.state import (
    ACCEPTED,
    DECLINED,
    MAX_SEATS,
    NOT_ASKED,
    PENDING,
    blank_state,
)

_ANSWERS = {"pending": PENDING, "accept": ACCEPTED, "decline": DECLINED}
_PHASES = {phase.name.lower(): phase for phase in Phase}
_RESAMPLE_TRIES = 50


class InconsistentView(ValueError):
    """The view (with the memory) admits no complete state: the cards or tiles do not add up."""


def _clip_minus(known: list[int], cards: CardCounts | tuple[int, ...]) -> None:
    for kind in range(5):
        known[kind] = max(0, known[kind] - cards[kind])


def _add(known: list[int], cards: CardCounts | tuple[int, ...]) -> None:
    for kind in range(5):
        known[kind] += cards[kind]


class Memory:
    """What a seat's events proved about hidden things that its view does not show.

    ``cards[s]`` is a lower bound on seat ``s``'s hand (card counts): cards it
    was seen to receive and cannot have spent or discarded since. ``tile_bottom``
    is the known bottom of the tile pile (index 0 is the very bottom): tiles put
    under it by players who could not expand, most recent first.

    >>> memory = Memory(0)
    >>> memory.observe({"type": "trade_completed", "seat": 1, "with": 2,
    ...                 "give": ["orange"], "get": ["green", "green"]})
    >>> memory.cards[1], memory.cards[2]
    ([0, 0, 2, 0, 0], [1, 0, 0, 0, 0])
    >>> memory.observe({"type": "action", "seat": 1,
    ...                 "action": {"kind": "move", "from": "TY", "to": "23", "pay": ["green"]}})
    >>> memory.cards[1]
    [0, 0, 1, 0, 0]
    """

    def __init__(self, seat: int, board: Board = BOARD) -> None:
        self.seat = seat
        self.board = board
        self.cards: list[list[int]] = [[0] * 5 for _ in range(MAX_SEATS)]
        self.tile_bottom: list[int] = []

    def observe(self, event: dict[str, Any]) -> None:
        """Update from one event as this seat sees it (unknown shapes are ignored)."""
        kind = event.get("type")
        if kind == "action":
            self._action(event)
        elif kind == "trade_completed":
            seat, partner = event["seat"], event["with"]
            give, get = counts_from_names(event["give"]), counts_from_names(event["get"])
            _clip_minus(self.cards[seat], give)
            _add(self.cards[seat], get)
            _clip_minus(self.cards[partner], get)
            _add(self.cards[partner], give)
        elif kind == "cards_discarded":
            _clip_minus(self.cards[event["seat"]], counts_from_names(event["cards"]))

    def _action(self, event: dict[str, Any]) -> None:
        seat = event["seat"]
        action = event["action"]
        kind = action["kind"]
        known = self.cards[seat]
        if "pay" in action:
            _clip_minus(known, counts_from_names(action["pay"]))
        if kind == "bank_pick":
            _add(known, counts_from_names([action["take"]]))
        elif kind == "give_card":
            owner = action.get("to", event.get("to"))
            if "card" in action:
                card = counts_from_names([action["card"]])
                _clip_minus(known, card)
                if owner is not None:
                    _add(self.cards[owner], card)
            else:  # an unseen card left the giver: any one kind may have lost one
                _clip_minus(known, (1, 1, 1, 1, 1))
        elif kind == "return_tile":
            tile = self.board.parse_space(action["tile"])
            if tile in self.tile_bottom:
                self.tile_bottom.remove(tile)
            self.tile_bottom.insert(0, tile)


class Determinizer:
    """Parses a view once; :meth:`sample` then deals the hidden parts afresh each time."""

    def __init__(self, view: dict[str, Any], seat: int, memory: Memory | None = None,
                 board: Board = BOARD) -> None:
        self.seat = seat
        self.board = board
        n = view["players"]
        self.players = n
        state = blank_state(Options(players=n, setup=view["setup"], seed=0), board)
        state.log = None
        state.version = view["version"]
        state.phase = _PHASES[view["phase"]]
        state.round = view["round"]
        state.starting_seat = view["starting_seat"]
        state.current = view["current"]
        state.expand_queue = list(view["expand_queue"])
        state.passes = view["passes"]
        state.trade_tried = bool(view["trade_tried"])
        parse_space, parse_port = board.parse_space, board.parse_port
        for label, colour in view["chips"].items():
            state.chips[parse_space(label)] = COLOUR_NAMES.index(colour)
        for label, owner in view["cities"].items():
            state.cities[parse_space(label)] = owner
        for entry in view["ships"]:
            state.add_ships(parse_port(entry["port"]), entry["seat"], entry["count"])
        seats = view["seats"]
        state.ship_supply = [s["ships_in_supply"] for s in seats]
        state.city_supply = [s["cities_in_supply"] for s in seats]
        state.revealed = [tuple(sorted(parse_space(t) for t in s["revealed_tiles"]))
                          for s in seats]
        state.discard = tuple(view["discard"].get(name, 0) for name in CARD_NAMES)
        state.removed_tiles = [parse_space(t) for t in view["removed_tiles"]]
        bonus = view["all_four_bonus"]
        state.all_four_bonus = -1 if bonus is None else bonus
        owed = view["owed_to"]
        state.owed_to = -1 if owed is None else owed
        state.keep_pending = [s in view["keep_pending"] for s in range(n)]
        state.score = view["score"]
        own_hand = counts_from_names(view["hand"])
        own_tiles = tuple(sorted(parse_space(t) for t in view["tiles"]))
        state.hands[seat] = own_hand
        state.tiles[seat] = own_tiles

        # What the view alone proves about other hands: a pending trade's cards.
        required = [[0] * 5 for _ in range(n)]
        trade = view["trade"]
        if trade is not None:
            give, get = counts_from_names(trade["give"]), counts_from_names(trade["get"])
            state.trade = (trade["proposer"], mask_of_seats(trade["to"]), *give, *get)
            state.answers = [NOT_ASKED] * n
            for answer in trade["answers"]:
                state.answers[answer["seat"]] = _ANSWERS[answer["answer"]]
            required[trade["proposer"]] = list(give)
            for answer in trade["answers"]:
                if answer["answer"] == "accept":
                    required[answer["seat"]] = [max(a, b) for a, b in
                                                zip(required[answer["seat"]], get, strict=True)]
        self.template = state

        # Cards --------------------------------------------------------------------
        self.card_counts = [s["cards"] for s in seats]
        self.draw_count = view["draw_pile"]
        pool = [DECK[k] - own_hand[k] - state.discard[k] for k in range(5)]
        if min(pool) < 0:
            raise InconsistentView("the hand and the discard pile hold more cards than the deck")
        others = [s for s in range(n) if s != seat]
        known = self._known_cards(others, required, pool, memory)
        self.known_cards = known
        self.card_pool = [k for k in range(5)
                          for _ in range(pool[k] - sum(known[s][k] for s in others))]
        slots = sum(self.card_counts[s] - sum(known[s]) for s in others)
        if slots + self.draw_count != len(self.card_pool):
            raise InconsistentView(f"{len(self.card_pool)} unseen cards for {slots} hidden "
                                   f"hand cards and a draw pile of {self.draw_count}")

        # Tiles --------------------------------------------------------------------
        self.tile_counts = [s["tiles"] for s in seats]
        self.pile_count = view["tile_pile"]
        seen = set(state.removed_tiles) | set(own_tiles)
        for s in others:
            seen.update(state.revealed[s])
        unseen = [t for t in range(1, board.space_count) if t not in seen]
        bottom: list[int] = []
        forced: list[int] = []
        if memory is not None:
            fresh = [t for t in memory.tile_bottom if t not in seen]
            if len(fresh) == len(memory.tile_bottom):  # else the memory is stale: ignore it
                bottom = fresh[:self.pile_count]
                forced = fresh[self.pile_count:]  # drawn since, and still in a hidden hand
        hidden_slots = [self.tile_counts[s] - len(state.revealed[s]) if s != seat else 0
                        for s in range(n)]
        if sum(hidden_slots) < len(forced):
            bottom, forced = [], []
        self.hidden_slots = hidden_slots
        self.tile_bottom = bottom
        self.forced_tiles = forced
        self.free_tiles = [t for t in unseen if t not in bottom and t not in forced]
        if sum(hidden_slots) + self.pile_count != len(unseen):
            raise InconsistentView(f"{len(unseen)} unseen tiles for {sum(hidden_slots)} hidden "
                                   f"hand tiles and a pile of {self.pile_count}")
        # An opponent stopped to expand without revealing its tiles has a playable tile.
        self.needs_playable = (state.phase == Phase.EXPAND and state.current != seat
                               and not state.revealed[state.current])

    def _known_cards(self, others: list[int], required: list[list[int]], pool: list[int],
                     memory: Memory | None) -> list[list[int]]:
        known = [list(required[s]) for s in range(self.players)]
        for s in others:
            if sum(known[s]) > self.card_counts[s]:
                raise InconsistentView(f"seat {s} holds fewer cards than its trade needs")
        if memory is None:
            return known
        merged = [list(row) for row in known]
        for s in others:
            candidate = [max(a, b) for a, b in zip(known[s], memory.cards[s], strict=True)]
            if sum(candidate) <= self.card_counts[s]:
                merged[s] = candidate
        if any(sum(merged[s][k] for s in others) > pool[k] for k in range(5)):
            return known  # the memory contradicts the view: do without it
        return merged

    def sample(self, rng: random.Random) -> GameState:
        """A complete state, its hidden parts dealt at random; the template is not changed."""
        state = self.template.copy(seed=rng.getrandbits(62))
        seat = self.seat
        # Cards.
        pool = self.card_pool[:]
        rng.shuffle(pool)
        at = 0
        for s in range(self.players):
            if s == seat:
                continue
            hand = list(self.known_cards[s])
            take = self.card_counts[s] - sum(hand)
            for card in pool[at:at + take]:
                hand[card] += 1
            at += take
            state.hands[s] = tuple(hand)  # type: ignore[assignment]
        state.draw_pile = pool[at:]
        # Tiles.
        for _ in range(_RESAMPLE_TRIES):
            self._deal_tiles(state, rng)
            if not self.needs_playable or playable_tiles(state, state.current):
                break
        return state

    def _deal_tiles(self, state: GameState, rng: random.Random) -> None:
        free = self.free_tiles[:]
        rng.shuffle(free)
        slots = [s for s in range(self.players) for _ in range(self.hidden_slots[s])]
        rng.shuffle(slots)
        hidden: list[list[int]] = [[] for _ in range(self.players)]
        order = self.forced_tiles + free
        for slot, tile in zip(slots, order, strict=False):
            hidden[slot].append(tile)
        pile_part = order[len(slots):]
        for s in range(self.players):
            if s != self.seat:
                state.tiles[s] = tuple(sorted((*state.revealed[s], *hidden[s])))
        state.tile_pile = self.tile_bottom + pile_part


def determinize(view: dict[str, Any], seat: int, rng: random.Random,
                memory: Memory | None = None) -> GameState:
    """One complete state consistent with ``view`` (seat ``seat``'s view) and ``memory``."""
    return Determinizer(view, seat, memory).sample(rng)


__all__ = ["Determinizer", "InconsistentView", "Memory", "determinize"]
