"""Determinization: a full engine state consistent with what one seat has seen.

A search bot cannot look at the server's :class:`~tyros_rules.GameState`;
it sees :func:`~tyros_rules.view` for its seat and the events its seat
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
>>> from tyros_rules import Options, new_game, view
>>> state = new_game(Options(players=4, seed=5))
>>> seen = view(state, 2)
>>> sample = determinize(seen, 2, random.Random(1))
>>> view(sample, 2) == seen
True
>>> sample.hands[2] == state.hands[2], sum(sample.hands[0]) == sum(state.hands[0])
(True, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tyros_protocol.board import BOARD, Board
from tyros_protocol.cards import DECK, CardCounts, counts_from_names
from tyros_rules import (
    MAX_SEATS,
    GameState,
    Phase,
    Unseen,
    deal_unseen,
    playable_tiles,
    state_from_view,
)

_RESAMPLE_TRIES = 50
_WEIGH_TRIES = 8


class InconsistentView(ValueError):
    """The view (with the memory) admits no complete state: the cards or tiles do not add up."""


@dataclass(frozen=True, slots=True)
class Holdings:
    """What the other seats could hold, as far as one seat can tell: each seat's public card
    count, the cards its events prove it holds (``known``) and how many unseen cards of
    each kind are proven nowhere (``pool``: in hands or the draw pile, nobody knows where).

    >>> holdings = Holdings(counts=(3, 2), known=((0, 0, 0, 0, 0), (1, 0, 0, 0, 0)),
    ...                     pool=(0, 4, 4, 0, 1))
    >>> holdings.could_give(1, (1, 1, 0, 0, 0)), holdings.could_give(1, (2, 0, 0, 0, 0))
    (True, False)
    >>> holdings.could_give(1, (0, 1, 1, 0, 0))  # two unknown cards, but one is an orange
    False
    """

    counts: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    pool: tuple[int, ...]
    declined: tuple[tuple[tuple[CardCounts, CardCounts], ...], ...] = ()
    """The offers each seat declined this round, as (offered, asked) cards (see
    :class:`Memory`)."""

    def turned_down(self, seat: int, give: Sequence[int], get: Sequence[int]) -> bool:
        """Whether ``seat`` declined, this round, an offer at least as good for it as this
        one (giving it ``give`` for ``get``): it would decline again, and asking only holds
        the table up. A better offer may still be made.

        >>> declined = ((), (((1, 0, 0, 0, 0), (0, 0, 2, 0, 0)),))  # orange for green x2
        >>> holdings = Holdings((3, 3), ((0,) * 5,) * 2, (4,) * 5, declined)
        >>> holdings.turned_down(1, (1, 0, 0, 0, 0), (0, 0, 2, 0, 1))  # asks more
        True
        >>> holdings.turned_down(1, (1, 1, 0, 0, 0), (0, 0, 2, 0, 0))  # offers more
        False
        """
        if seat >= len(self.declined):
            return False
        return any(
            all(a <= b for a, b in zip(give, offered, strict=True))
            and all(a >= b for a, b in zip(get, asked, strict=True))
            for offered, asked in self.declined[seat]
        )

    def could_give(self, seat: int, cards: Sequence[int]) -> bool:
        """Whether ``seat`` may hold every card of ``cards`` (counts by kind)."""
        known = self.known[seat]
        unknown = 0
        for kind in range(5):
            more = cards[kind] - known[kind]
            if more > 0:
                if more > self.pool[kind]:
                    return False
                unknown += more
        return unknown <= self.counts[seat] - sum(known)

    def chance_to_give(self, seat: int, cards: Sequence[int]) -> float:
        """The chance that ``seat`` holds every card of ``cards``, as far as one can tell:
        its unknown cards drawn from the unseen ones (each kind taken apart, a close
        estimate for the one or two cards a trade asks).

        >>> holdings = Holdings(counts=(0, 5), known=((0,) * 5, (0, 0, 0, 0, 0)),
        ...                     pool=(10, 10, 10, 9, 1))
        >>> round(holdings.chance_to_give(1, (0, 0, 0, 0, 1)), 3)  # 5 cards of 40, 1 wild
        0.125
        >>> known = Holdings((0, 5), ((0,) * 5, (0, 0, 0, 0, 1)), (10, 10, 10, 9, 0))
        >>> known.chance_to_give(1, (0, 0, 0, 0, 1))  # a wild it was seen to take
        1.0
        """
        if not self.could_give(seat, cards):
            return 0.0
        known = self.known[seat]
        unknown = self.counts[seat] - sum(known)
        unseen = sum(self.pool)
        chance = 1.0
        for kind in range(5):
            need = cards[kind] - known[kind]
            if need > 0:
                chance *= _at_least(need, unseen, self.pool[kind], unknown)
        return chance

    @classmethod
    def of_state(cls, state: GameState, seat: int) -> Holdings:
        """Holdings knowing nothing but the counts: what ``seat`` sees in a full ``state``."""
        pool = [0] * 5
        for card in state.draw_pile:
            pool[card] += 1
        for other in range(state.players):
            if other != seat:
                for kind in range(5):
                    pool[kind] += state.hands[other][kind]
        nothing = (0, 0, 0, 0, 0)
        return cls(
            tuple(sum(hand) for hand in state.hands[: state.players]),
            tuple(nothing for _ in range(state.players)),
            tuple(pool),
        )


def _at_least(need: int, total: int, good: int, drawn: int) -> float:
    """The chance of ``need`` or more good ones among ``drawn`` taken from ``total``, of
    which ``good`` are good (hypergeometric).

    >>> _at_least(1, 40, 1, 5)
    0.125
    """
    if drawn > total:
        drawn = total
    ways = math.comb(total, drawn)
    if ways == 0:
        return 0.0
    fewer = sum(math.comb(good, k) * math.comb(total - good, drawn - k) for k in range(need))
    return 1.0 - fewer / ways


def _clip_minus(known: list[int], cards: CardCounts | tuple[int, ...]) -> None:
    for kind in range(5):
        known[kind] = max(0, known[kind] - cards[kind])


def _add(known: list[int], cards: CardCounts | tuple[int, ...]) -> None:
    for kind in range(5):
        known[kind] += cards[kind]


def _kinds(cards: CardCounts | tuple[int, ...]) -> int:
    """The kinds among ``cards``, as a bit mask."""
    return sum(1 << kind for kind in range(5) if cards[kind])


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
        self.declined: list[list[tuple[CardCounts, CardCounts]]] = [[] for _ in range(MAX_SEATS)]
        """The offers each seat declined this round: (offered, asked) cards."""
        self.asked = [0] * MAX_SEATS
        """The kinds (a bit mask) each seat asked for in an offer or a counter this round
        and has not been given since: what it lacks, more likely than not."""
        self._offer: tuple[CardCounts, CardCounts] | None = None  # the pending offer's terms

    def copy(self) -> Memory:
        """A copy to change apart from this one."""
        out = Memory(self.seat, self.board)
        out.cards = [list(row) for row in self.cards]
        out.tile_bottom = list(self.tile_bottom)
        out.declined = [list(row) for row in self.declined]
        out.asked = list(self.asked)
        out._offer = self._offer
        return out

    def observe(self, event: dict[str, Any]) -> None:
        """Update from one event as this seat sees it (unknown shapes are ignored).

        >>> memory = Memory(0)
        >>> memory.observe({"type": "action", "seat": 0, "action": {"kind": "propose",
        ...                 "to": [1, 2], "give": ["orange"], "get": ["green", "green"]}})
        >>> memory.observe({"type": "action", "seat": 1,
        ...                 "action": {"kind": "answer", "accept": False}})
        >>> memory.declined[1], memory.declined[2]
        ([((1, 0, 0, 0, 0), (0, 0, 2, 0, 0))], [])
        >>> memory.observe({"type": "action", "seat": 0, "action": {"kind": "withdraw"}})
        >>> memory.observe({"type": "action", "seat": 2,
        ...                 "action": {"kind": "answer", "accept": False}})
        >>> memory.declined[2]  # no offer is out: an answer heard late is not counted
        []
        >>> memory.observe({"type": "round_start", "round": 2, "starting_seat": 1})
        >>> memory.declined[1]
        []
        """
        kind = event.get("type")
        if kind == "round_start":  # new cards: what a seat lacked it may hold now
            self.declined = [[] for _ in range(MAX_SEATS)]
            self.asked = [0] * MAX_SEATS
        if kind == "action":
            self._action(event)
        elif kind == "trade_completed":
            seat, partner = event["seat"], event["with"]
            give, get = counts_from_names(event["give"]), counts_from_names(event["get"])
            _clip_minus(self.cards[seat], give)
            _add(self.cards[seat], get)
            _clip_minus(self.cards[partner], get)
            _add(self.cards[partner], give)
            self.asked[seat] &= ~_kinds(get)
            self.asked[partner] &= ~_kinds(give)
        elif kind == "cards_discarded":
            _clip_minus(self.cards[event["seat"]], counts_from_names(event["cards"]))

    def _action(self, event: dict[str, Any]) -> None:
        seat = event["seat"]
        action = event["action"]
        kind = action["kind"]
        known = self.cards[seat]
        # (What a seat showed it held in a trade is not kept once the offer is gone: kept,
        # it played no better, rather worse; docs/benchmarks.md, "What opponents' offers say".)
        if kind == "propose":  # it wants what it asks
            get = counts_from_names(action["get"])
            self._offer = counts_from_names(action["give"]), get
            self.asked[seat] |= _kinds(get)
        elif kind == "answer" and not action.get("accept") and self._offer is not None:
            self.declined[seat].append(self._offer)
        elif kind == "counter":  # it wants what it asks of the proposer
            self.asked[seat] |= _kinds(counts_from_names(action.get("give", [])))
        elif kind in ("complete", "withdraw"):
            self._offer = None  # (a decline heard later belongs to another offer)
        if "pay" in action:
            _clip_minus(known, counts_from_names(action["pay"]))
        if kind == "bank_pick":
            taken = counts_from_names([action["take"]])
            _add(known, taken)
            self.asked[seat] &= ~_kinds(taken)
        elif kind == "give_card":
            owner = action.get("to", event.get("to"))
            if "card" in action:
                card = counts_from_names([action["card"]])
                _clip_minus(known, card)
                if owner is not None:
                    _add(self.cards[owner], card)
                    self.asked[owner] &= ~_kinds(card)
            else:  # an unseen card left the giver: any one kind may have lost one
                _clip_minus(known, (1, 1, 1, 1, 1))
        elif kind == "return_tile":
            tile = self.board.parse_space(action["tile"])
            if tile in self.tile_bottom:
                self.tile_bottom.remove(tile)
            self.tile_bottom.insert(0, tile)


class Determinizer:
    """Parses a view once; :meth:`sample` then deals the hidden parts afresh each time.

    The engine's :func:`~tyros_rules.state_from_view` gives the template: every
    detail the view shows, the other hands and both piles empty. What is left to deal
    is worked out here once: the unseen cards (:meth:`_plan_cards`) and the unseen tiles
    (:meth:`_plan_tiles`), with what the memory proves.
    """

    def __init__(
        self,
        view: dict[str, Any],
        seat: int,
        memory: Memory | None = None,
        board: Board = BOARD,
        *,
        lack_weight: float = 1.0,
    ) -> None:
        self.seat = seat
        self.lack_weight = lack_weight
        self.board = board
        self.players = view["players"]
        self.template = state = state_from_view(view, board=board)
        self.others = [s for s in range(self.players) if s != seat]
        self.declined: tuple[tuple[tuple[CardCounts, CardCounts], ...], ...] = (
            tuple(tuple(row) for row in memory.declined[: self.players]) if memory else ()
        )
        self.lacking = [0] * self.players
        if memory is not None and lack_weight < 1.0:
            for s in self.others:
                self.lacking[s] = memory.asked[s]
                for _offered, asked in memory.declined[s]:
                    self.lacking[s] |= _kinds(asked)
        self._plan_cards(view, memory)
        self._plan_tiles(view, memory)
        # An opponent stopped to expand without revealing its tiles has a playable tile.
        self.needs_playable = (
            state.phase == Phase.EXPAND
            and state.current != seat
            and not state.revealed[state.current]
        )

    # Cards ----------------------------------------------------------------------------

    def _plan_cards(self, view: dict[str, Any], memory: Memory | None) -> None:
        """The cards each other hand must hold, and the pool the rest are dealt from."""
        state = self.template
        own_hand = state.hands[self.seat]
        self.card_counts = [s["cards"] for s in view["seats"]]
        self.draw_count = view["draw_pile"]
        pool = [DECK[k] - own_hand[k] - state.discard[k] for k in range(5)]
        if min(pool) < 0:
            raise InconsistentView("the hand and the discard pile hold more cards than the deck")
        others = self.others
        known = self._known_cards(_trade_cards(view), pool, memory)
        self.known_cards = known
        self.card_pool = [
            k for k in range(5) for _ in range(pool[k] - sum(known[s][k] for s in others))
        ]
        slots = sum(self.card_counts[s] - sum(known[s]) for s in others)
        if slots + self.draw_count != len(self.card_pool):
            raise InconsistentView(
                f"{len(self.card_pool)} unseen cards for {slots} hidden "
                f"hand cards and a draw pile of {self.draw_count}"
            )

    def _known_cards(
        self, required: list[list[int]], pool: list[int], memory: Memory | None
    ) -> list[list[int]]:
        others = self.others
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

    def _deal_cards(self, rng: random.Random) -> tuple[dict[int, CardCounts], list[int]]:
        """The other hands and the draw pile: at random, each card of a kind a seat is
        believed to lack (:attr:`Memory.asked`, an offer it declined) in its hand kept with
        the chance ``lack_weight`` (by rejection: a few tries, then the last deal)."""
        hands, pile = self._deal_cards_once(rng)
        if not any(self.lacking):
            return hands, pile
        for _ in range(_WEIGH_TRIES):
            if rng.random() < self._weight(hands):
                break
            hands, pile = self._deal_cards_once(rng)
        return hands, pile

    def _weight(self, hands: dict[int, CardCounts]) -> float:
        """The chance of keeping a deal: ``lack_weight`` for each card dealt to a seat (beyond
        those it is known to hold) of a kind it is believed to lack."""
        unlikely = 0
        for s, hand in hands.items():
            lacking = self.lacking[s]
            if lacking:
                known = self.known_cards[s]
                for kind in range(5):
                    if lacking >> kind & 1:
                        unlikely += hand[kind] - known[kind]
        return self.lack_weight**unlikely

    def _deal_cards_once(self, rng: random.Random) -> tuple[dict[int, CardCounts], list[int]]:
        pool = self.card_pool[:]
        shuffle(pool, rng)
        hands: dict[int, CardCounts] = {}
        at = 0
        for s in self.others:
            hand = list(self.known_cards[s])
            take = self.card_counts[s] - sum(hand)
            for card in pool[at : at + take]:
                hand[card] += 1
            at += take
            hands[s] = tuple(hand)  # type: ignore[assignment]
        return hands, pool[at:]

    def holdings(self) -> Holdings:
        """What the other seats could hold, by their counts and what the events proved."""
        pool = [0] * 5
        for card in self.card_pool:
            pool[card] += 1
        return Holdings(
            tuple(self.card_counts),
            tuple(tuple(row) for row in self.known_cards),
            tuple(pool),
            self.declined,
        )

    # Tiles ----------------------------------------------------------------------------

    def _plan_tiles(self, view: dict[str, Any], memory: Memory | None) -> None:
        """The tiles nobody has seen, the known bottom of the pile, and the hidden slots."""
        state = self.template
        self.tile_counts = [s["tiles"] for s in view["seats"]]
        self.pile_count = view["tile_pile"]
        seen = set(state.removed_tiles) | set(state.tiles[self.seat])
        for s in self.others:
            seen.update(state.revealed[s])
        unseen = [t for t in range(1, self.board.space_count) if t not in seen]
        bottom: list[int] = []
        forced: list[int] = []
        if memory is not None:
            fresh = [t for t in memory.tile_bottom if t not in seen]
            if len(fresh) == len(memory.tile_bottom):  # else the memory is stale: ignore it
                bottom = fresh[: self.pile_count]
                forced = fresh[self.pile_count :]  # drawn since, and still in a hidden hand
        hidden_slots = [
            self.tile_counts[s] - len(state.revealed[s]) if s != self.seat else 0
            for s in range(self.players)
        ]
        if sum(hidden_slots) < len(forced):
            bottom, forced = [], []
        self.hidden_slots = hidden_slots
        self.tile_bottom = bottom
        self.forced_tiles = forced
        self.free_tiles = [t for t in unseen if t not in bottom and t not in forced]
        if sum(hidden_slots) + self.pile_count != len(unseen):
            raise InconsistentView(
                f"{len(unseen)} unseen tiles for {sum(hidden_slots)} hidden "
                f"hand tiles and a pile of {self.pile_count}"
            )

    def _deal_tiles(self, rng: random.Random) -> tuple[dict[int, tuple[int, ...]], list[int]]:
        free = self.free_tiles[:]
        shuffle(free, rng)
        slots = [s for s in range(self.players) for _ in range(self.hidden_slots[s])]
        shuffle(slots, rng)
        hidden: list[list[int]] = [[] for _ in range(self.players)]
        order = self.forced_tiles + free
        for slot, tile in zip(slots, order, strict=False):
            hidden[slot].append(tile)
        revealed = self.template.revealed
        tiles = {s: tuple(sorted((*revealed[s], *hidden[s]))) for s in self.others}
        return tiles, self.tile_bottom + order[len(slots) :]

    # Sampling -------------------------------------------------------------------------

    def sample(self, rng: random.Random) -> GameState:
        """A complete state, its hidden parts dealt at random; the template is not changed."""
        state = self.template.copy(seed=rng.getrandbits(62))
        hands, draw_pile = self._deal_cards(rng)
        for _ in range(_RESAMPLE_TRIES):
            tiles, tile_pile = self._deal_tiles(rng)
            deal_unseen(state, Unseen(hands, tiles, draw_pile, tile_pile))
            if not self.needs_playable or playable_tiles(state, state.current):
                break
        return state


def shuffle(items: list[int], rng: random.Random) -> None:
    """``rng.shuffle(items)``, draw for draw (the same order from the same seed): the
    standard library's is plain Python, which was a quarter of a compiled search's time.

    >>> a, b = list(range(40)), list(range(40))
    >>> shuffle(a, random.Random(5)); random.Random(5).shuffle(b); a == b
    True
    """
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        # random.Random._randbelow_with_getrandbits(i + 1): the fewest bits, retried
        bits = (i + 1).bit_length()
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def _trade_cards(view: dict[str, Any]) -> list[list[int]]:
    """What the view alone proves about other hands: a pending trade's cards (the proposer
    holds what it offers, a seat that accepted holds what it was asked for, and a seat that
    countered holds what its counter would make it give, the counter's ``get``)."""
    required = [[0] * 5 for _ in range(view["players"])]
    trade = view["trade"]
    if trade is not None:
        give, get = counts_from_names(trade["give"]), counts_from_names(trade["get"])
        required[trade["proposer"]] = list(give)
        for answer in trade["answers"]:
            if answer["answer"] == "accept":
                held = get
            elif answer["answer"] == "counter":
                held = counts_from_names(answer.get("get") or [])
            else:
                continue
            seat = answer["seat"]
            required[seat] = [max(a, b) for a, b in zip(required[seat], held, strict=True)]
    return required


def determinize(
    view: dict[str, Any], seat: int, rng: random.Random, memory: Memory | None = None
) -> GameState:
    """One complete state consistent with ``view`` (seat ``seat``'s view) and ``memory``."""
    return Determinizer(view, seat, memory).sample(rng)


__all__ = ["Determinizer", "Holdings", "InconsistentView", "Memory", "determinize", "shuffle"]
