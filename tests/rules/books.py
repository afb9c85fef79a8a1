"""The referee of a game record: it rebuilds the game's books (hands, tiles, piles,
discards, chips, ships and cities) from the record's events alone and checks each chance
outcome against the recorded shuffles and each decision against the rulebook, without the
engine; :func:`audit` then compares the books with the engine's final state."""

from __future__ import annotations

from typing import Any

from tyros_protocol.board import BOARD, TYROS
from tyros_protocol.cards import COLOUR_NAMES, DECK, WILD, counts_from_names, parse_card
from tyros_rules.state import GameState

FIRST_GAME_STARTS = {7, 13, 23, 26}
TILES_DEALT = 4
CARDS_DEALT = {3: 12, 4: 10}


class Books:
    """A referee that keeps the whole game from a record's events alone.

    It follows hands, tiles, piles, discards, chips, ships and cities, and checks each
    chance outcome against the recorded shuffles and each decision against the
    rulebook (costs, limits, whose turn it is), independently of the engine.
    """

    def __init__(self, record: dict[str, Any]) -> None:
        options = record["options"]
        self.players: int = options["players"]
        self.variable = options["setup"] == "variable"
        n = self.players
        self.hands = [[0] * 5 for _ in range(n)]
        self.tiles: list[set[int]] = [set() for _ in range(n)]
        self.tile_pile: list[int] = []
        self.removed: set[int] = set()
        self.draw = [kind for kind in range(5) for _ in range(DECK[kind])]  # the whole deck
        self.discard = [0] * 5
        self.kept: dict[int, tuple[int, ...]] = {}
        self.offer: tuple[int, list[int], tuple[int, ...], tuple[int, ...]] | None = None
        """The pending proposal: (proposer, asked seats, give, get)."""
        self.replies: dict[int, tuple[int, ...] | None] = {}
        """Each asked seat that agreed: None on the offer's terms, else its counter's."""
        self.completing: tuple[int, ...] = ()
        """The terms of the trade being completed (its trade_completed event follows)."""
        """The cards each seat said it keeps, until its discard shows what went."""
        self.chips = [-1] * BOARD.space_count
        self.cities = [-1] * BOARD.space_count
        self.ships = {(TYROS, seat): 2 for seat in range(n)}  # (port, seat) -> ships
        self.first_seat = -1
        self.round = 0
        self.starting_seat = -1
        self.expansion_turns = 0
        self.accepted: list[int] = []
        self.founded: list[tuple[int, int]] = []
        self.tyros_due = -1
        """Colour Tyros must take at once (a chip went on 31 or 32), or -1."""
        self.tyros_early = -1
        """Colour Tyros took just before a start chip on 31 or 32 (setup), or -1."""
        self.owed: tuple[int, int] | None = None
        """(mover, city owner) when the next decision must be paying the owner a card."""
        self.game_over_due: bool | None = None
        self.start_draws = 0
        self.kinds_seen: set[str] = set()

    # Small helpers ---------------------------------------------------------------

    def take(self, counts: list[int], cards: tuple[int, ...], where: str) -> None:
        for kind in range(5):
            counts[kind] -= cards[kind]
            assert counts[kind] >= 0, f"{where} spends cards that are not there"

    def give(self, counts: list[int], cards: tuple[int, ...]) -> None:
        for kind in range(5):
            counts[kind] += cards[kind]

    def deal_cards(self, seat: int, count: int, names: list[str]) -> None:
        assert len(names) == count <= len(self.draw)
        top = self.draw[len(self.draw) - count :]
        del self.draw[len(self.draw) - count :]
        assert counts_from_names(names) == tuple(top.count(k) for k in range(5)), (
            "the cards dealt are not the top of the shuffled pile"
        )
        self.give(self.hands[seat], counts_from_names(names))

    def in_space(self, space: int, seat: int | None = None) -> int:
        seats = range(self.players) if seat is None else (seat,)
        return sum(self.ships.get((port, s), 0) for port in BOARD.space_ports[space] for s in seats)

    def place_chip(self, space: int, colour: int) -> None:
        assert self.tyros_due < 0, "Tyros was not coloured at once"
        assert self.chips[space] < 0
        self.chips[space] = colour
        if space in BOARD.neighbours[TYROS] and self.chips[TYROS] < 0:
            self.tyros_due = colour

    def playable(self, tile: int) -> set[int]:
        """Colours a tile may take: those of its chipped neighbours (none if it has a chip)."""
        if self.chips[tile] >= 0:
            return set()
        return {self.chips[near] for near in BOARD.neighbours[tile] if self.chips[near] >= 0}

    def pays_colour(self, pay: tuple[int, ...], colour: int, count: int) -> bool:
        """``count`` cards, each of ``colour`` or wild."""
        return sum(pay) == count and pay[colour] + pay[WILD] == count

    # Events ----------------------------------------------------------------------

    def event(self, e: dict[str, Any]) -> None:
        kind = e["type"]
        self.kinds_seen.add(kind)
        n = self.players
        if self.tyros_due >= 0:
            assert e == {"type": "tyros_coloured", "colour": COLOUR_NAMES[self.tyros_due]}
            self.chips[TYROS] = self.tyros_due
            self.tyros_due = -1
            return
        if kind == "tyros_coloured":  # during setup it comes just before the chip on 31/32
            assert self.chips[TYROS] < 0 and self.tyros_early < 0
            self.tyros_early = COLOUR_NAMES.index(e["colour"])
            return
        if self.tyros_early >= 0:
            assert kind == "empire_founded" and e["colour"] == COLOUR_NAMES[self.tyros_early]
            assert BOARD.parse_space(e["space"]) in BOARD.neighbours[TYROS]
            self.chips[TYROS] = self.tyros_early
            self.tyros_early = -1
        if self.owed is not None:
            assert kind == "action" and e["action"]["kind"] == "give_card", (
                "a ship ended in another player's city: its owner must get a card"
            )
        if self.game_over_due is not None:
            assert (kind == "game_end") == self.game_over_due
            self.game_over_due = None
        if kind == "starting_seat":
            self.first_seat = e["seat"]
        elif kind == "shuffle" and e["pile"] == "tiles":
            order = [BOARD.parse_space(t) for t in e["order"]]
            if self.variable and not self.tile_pile and not self.removed:
                assert sorted(order) == list(range(1, 33))  # the start spaces come from all 32
            else:
                expected = (
                    sorted(self.tile_pile)
                    if self.variable
                    else sorted(set(range(1, 33)) - FIRST_GAME_STARTS)
                )
                assert sorted(order) == expected
            self.tile_pile = order
        elif kind == "start_tile":
            tile = self.tile_pile.pop()
            assert BOARD.space_label(tile) == e["tile"], "start tiles come from the pile's top"
            taken = set(self.accepted)
            if taken & set(BOARD.neighbours[TYROS]):
                taken.add(TYROS)  # a chip on 31 or 32 colours Tyros, which then counts
            ok = tile not in taken and not taken & set(BOARD.neighbours[tile])
            assert e["accepted"] == ok, f"start tile {tile} wrongly {'refused' if ok else 'taken'}"
            if ok:
                self.accepted.append(tile)
            else:
                self.tile_pile.insert(0, tile)
            self.start_draws += 1
        elif kind == "empire_founded":
            space, colour = BOARD.parse_space(e["space"]), COLOUR_NAMES.index(e["colour"])
            self.founded.append((space, colour))
            if self.variable:  # highest number orange, then yellow, green, violet
                assert len(self.accepted) == 4
                expected = sorted(self.accepted, reverse=True)
            else:
                expected = [7, 13, 23, 26]
            assert self.founded == list(zip(expected, range(4), strict=False))[: len(self.founded)]
            self.place_chip(space, colour)
            self.removed.add(space)
        elif kind == "tiles_dealt":
            assert len(self.founded) == 4
            top = self.tile_pile[-TILES_DEALT:]
            del self.tile_pile[-TILES_DEALT:]
            assert sorted(BOARD.parse_space(t) for t in e["tiles"]) == sorted(top)
            assert e["count"] == TILES_DEALT
            self.tiles[e["seat"]] = set(top)
        elif kind == "tile_drawn":
            tile = self.tile_pile.pop()
            assert BOARD.space_label(tile) == e["tile"], "tiles are drawn from the top"
            self.tiles[e["seat"]].add(tile)
        elif kind == "round_start":
            self.round += 1
            assert e["round"] == self.round
            self.starting_seat = (self.first_seat + self.round - 1) % n  # passed clockwise
            assert e["starting_seat"] == self.starting_seat
            if self.round > 1:
                assert all(sum(hand) <= 3 for hand in self.hands), "each may keep only 3 cards"
            self.expansion_turns = 0
        elif kind == "shuffle" and e["pile"] == "cards":
            order = [parse_card(name) for name in e["order"]]
            pool = self.draw + [k for k in range(5) for _ in range(self.discard[k])]
            assert sorted(order) == sorted(pool), "a new round shuffles draw and discard piles"
            self.draw = order
            self.discard = [0] * 5
        elif kind in ("cards_dealt", "cards_drawn"):
            if kind == "cards_dealt":
                assert e["count"] == CARDS_DEALT[n]
            self.deal_cards(e["seat"], e["count"], e["cards"])
        elif kind == "expansion_skipped":
            seat = e["seat"]
            if e["reason"] == "no_tiles":
                assert not self.tiles[seat]
            else:
                assert not self.tile_pile and not any(map(self.playable, self.tiles[seat]))
            self.expansion_turns += 1
        elif kind == "tiles_revealed":
            tiles = {BOARD.parse_space(t) for t in e["tiles"]}
            assert tiles == self.tiles[e["seat"]] and not any(map(self.playable, tiles))
        elif kind == "actions_start":
            assert e["seat"] == self.starting_seat
            passes = 2 if n == 3 or self.round == 1 else 1
            assert self.expansion_turns == n * passes, "wrong number of expansion turns"
        elif kind == "trade_completed":
            give, get = counts_from_names(e["give"]), counts_from_names(e["get"])
            assert (*give, *get) == self.completing, "a trade on terms nobody agreed to"
            me, partner = self.hands[e["seat"]], self.hands[e["with"]]
            assert e["seat"] != e["with"]
            self.take(me, give, "a trade")
            self.take(partner, get, "a trade")
            self.give(me, get)
            self.give(partner, give)
        elif kind == "cards_discarded":
            dropped = counts_from_names(e["cards"])
            self.take(self.hands[e["seat"]], dropped, "keeping at most 3")
            self.give(self.discard, dropped)
            assert tuple(self.hands[e["seat"]]) == self.kept.pop(e["seat"])
        elif kind == "round_end":
            self.game_over_due = not all(self.tiles)
        elif kind == "game_end":
            assert not all(self.tiles)
        elif kind == "action":
            self.decision(e)

    def decision(self, e: dict[str, Any]) -> None:
        seat = e["seat"]
        action = e["action"]
        kind = action["kind"]
        self.kinds_seen.add(kind)
        hand = self.hands[seat]
        pay = counts_from_names(action.get("pay", []))
        if kind in ("expand", "return_tile"):
            self.expansion_turns += 1
        if kind == "expand":
            tile = BOARD.parse_space(action["tile"])
            assert tile in self.tiles[seat]
            assert COLOUR_NAMES.index(action["colour"]) in self.playable(tile)
            self.tiles[seat].remove(tile)
            self.removed.add(tile)
            self.place_chip(tile, COLOUR_NAMES.index(action["colour"]))
        elif kind == "return_tile":
            tile = BOARD.parse_space(action["tile"])
            assert not any(map(self.playable, self.tiles[seat])), "a playable tile was held"
            self.tiles[seat].remove(tile)
            self.tile_pile.insert(0, tile)
        elif kind == "move":
            start, end = BOARD.parse_port(action["from"]), BOARD.parse_port(action["to"])
            space = BOARD.port_space[end]
            colour = self.chips[space]
            assert self.ships.get((start, seat), 0) > 0 and start != end and colour >= 0
            assert self.pays_colour(pay, colour, BOARD.distance[start][end]), "wrong move cost"
            self.ships[start, seat] -= 1
            self.ships[end, seat] = self.ships.get((end, seat), 0) + 1
            if space != BOARD.port_space[start]:
                if space == TYROS and self.cities[TYROS] < 0:
                    assert self.in_space(TYROS, seat) <= 2
                else:
                    assert self.in_space(space) <= 2, f"3 ships in {BOARD.space_label(space)}"
        elif kind == "city":
            space, port = BOARD.parse_space(action["space"]), BOARD.parse_port(action["ship"])
            mine = self.in_space(space, seat)
            assert self.cities[space] < 0 and self.chips[space] >= 0
            assert 0 < mine == self.in_space(space), "a city needs sole ship control"
            assert self.pays_colour(pay, self.chips[space], 4 if mine == 2 else 5)
            assert BOARD.port_space[port] == space and self.ships.get((port, seat), 0) > 0
            self.ships[port, seat] -= 1
            self.cities[space] = seat
        elif kind == "ship":
            space = BOARD.parse_space(action["space"])
            present = self.in_space(space)
            if space == TYROS and self.cities[TYROS] < 0:
                assert self.in_space(TYROS, seat) < 2 and sum(pay) == present + 1
            else:
                assert self.cities[space] == seat, "ships are built by one's own city"
                colour = self.chips[space]
                if present == 0:
                    assert self.pays_colour(pay, colour, 1)
                else:
                    assert present == 1 and sum(pay) == 2 and pay[colour] + pay[WILD] >= 1
            port = BOARD.build_port(space)
            self.ships[port, seat] = self.ships.get((port, seat), 0) + 1
        elif kind == "bank_draw":
            assert 1 <= sum(pay) <= 3 and sum(pay) <= len(self.draw)
        elif kind == "bank_pick":
            assert sum(pay) == 3
            take = counts_from_names([action["take"]])
            self.take(self.discard, take, "taking from the discards")  # there before paying
            self.give(hand, take)
        elif kind == "give_card":
            assert self.owed == (seat, e["to"])
            self.owed = None
            card = counts_from_names([action["card"]])
            self.take(hand, card, "paying a city owner")
            self.give(self.hands[e["to"]], card)
        elif kind == "propose":
            give, get = counts_from_names(action["give"]), counts_from_names(action["get"])
            self.offer, self.replies = (seat, list(action["to"]), give, get), {}
        elif kind == "answer":
            assert self.offer is not None and seat in self.offer[1]
            if action["accept"]:
                self.replies[seat] = None
        elif kind == "counter":  # RULES.md A8: an asked seat's other terms
            assert self.offer is not None and seat in self.offer[1] and seat not in self.replies
            terms = (*counts_from_names(action["give"]), *counts_from_names(action["get"]))
            assert all(have >= n for have, n in zip(hand, terms[5:], strict=True))
            self.replies[seat] = terms
        elif kind in ("complete", "withdraw"):
            assert self.offer is not None and seat == self.offer[0]
            if kind == "complete":
                assert action["with"] in self.replies, "completed with a seat that did not agree"
                self.completing = self.replies[action["with"]] or (*self.offer[2], *self.offer[3])
            self.offer = None
        elif kind == "keep":
            kept = counts_from_names(action["cards"])
            assert all(kept[k] <= hand[k] for k in range(5)) and sum(kept) <= 3 < sum(hand)
            self.kept[seat] = tuple(kept)
        self.take(hand, pay, kind)
        self.give(self.discard, pay)
        if kind == "move":
            owner = self.cities[BOARD.port_space[BOARD.parse_port(action["to"])]]
            if owner >= 0 and owner != seat and any(hand):
                self.owed = (seat, owner)

    def agree_with(self, state: GameState) -> None:
        assert [tuple(hand) for hand in self.hands] == state.hands
        assert [tuple(sorted(tiles)) for tiles in self.tiles] == state.tiles
        assert self.tile_pile == state.tile_pile
        assert self.removed == set(state.removed_tiles)
        assert self.draw == state.draw_pile
        assert tuple(self.discard) == state.discard
        assert self.chips == state.chips
        assert self.cities == state.cities
        for port in range(BOARD.port_count):
            for seat in range(self.players):
                assert self.ships.get((port, seat), 0) == state.ships[port * 4 + seat]


def audit(record: dict[str, Any], state: GameState) -> Books:
    books = Books(record)
    events = record["events"]
    assert events[0]["type"] == "starting_seat" and events[0]["seat"] in range(state.players)
    assert record["options"]["starting_seat"] in (None, events[0]["seat"])
    for event in events:
        books.event(event)
    books.agree_with(state)
    if books.variable:
        assert books.start_draws >= 4
    return books
