"""Game records: JSON documents listing every chance outcome and decision, and replay.

The completeness test does not trust the engine: it rebuilds every hand, pile and
discard pile from the record's events alone (shuffles, deals, draws, decisions) and
compares the result with the final state. A chance outcome missing from the record,
or a decision whose effect the record cannot explain, makes the books disagree.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from tyros_protocol.board import BOARD, TYROS
from tyros_protocol.cards import COLOUR_NAMES, DECK, WILD, counts_from_names, parse_card
from tyros_rules import (
    RECORD_FORMAT,
    Kind,
    Options,
    Phase,
    RecordError,
    export_record,
    legal_actions,
    new_game,
    parse_action,
    push,
    push_unchecked,
    replay,
    seats_to_act,
)
from tyros_rules.state import GameState

from .invariants import check_invariants, check_score

FIRST_GAME_STARTS = {7, 13, 23, 26}
TILES_DEALT = 4
CARDS_DEALT = {3: 12, 4: 10}
MAX_STEPS = 20_000

Policy = Callable[[random.Random, list[tuple[int, ...]]], tuple[int, ...]]


def uniform(rng: random.Random, legal: list[tuple[int, ...]]) -> tuple[int, ...]:
    return rng.choice(legal)


def builder(rng: random.Random, legal: list[tuple[int, ...]]) -> tuple[int, ...]:
    """Random, but keen on building and moving, so that cities get visited (a card is paid)."""
    weights: dict[int, int] = {
        Kind.CITY: 1000,
        Kind.SHIP: 30,
        Kind.MOVE: 20,
        Kind.PASS: 1,
        Kind.PROPOSE: 1,
        Kind.WITHDRAW: 1,
        Kind.BANK_DRAW: 3,
        Kind.BANK_PICK: 3,
    }
    by_kind: dict[int, list[tuple[int, ...]]] = {}
    for action in legal:
        by_kind.setdefault(action[0], []).append(action)
    kinds = sorted(by_kind)
    kind = rng.choices(kinds, [weights.get(k, 10) for k in kinds])[0]
    return rng.choice(by_kind[kind])


def hoarder(rng: random.Random, legal: list[tuple[int, ...]]) -> tuple[int, ...]:
    """Random, but mostly passing: hands stay full, so rounds end with cards to keep."""
    if (Kind.PASS,) in legal and rng.random() < 0.8:
        return (Kind.PASS,)
    return rng.choice(legal)


def play(
    options: Options,
    policy: Policy = uniform,
    steps: int | None = None,
    until: Callable[[GameState], bool] | None = None,
) -> GameState:
    """A seeded random game: to the end, for ``steps`` actions, or until ``until`` holds."""
    state = new_game(options)
    rng = random.Random(options.seed + 1000)
    done = 0
    while state.phase != Phase.OVER and (steps is None or done < steps):
        if until is not None and until(state):
            break
        seat = seats_to_act(state)[0]
        push_unchecked(state, seat, policy(rng, legal_actions(state, seat)))
        done += 1
        assert done <= MAX_STEPS
    return state


GAMES = [
    (Options(players=3, setup="first", seed=11), uniform),
    (Options(players=4, setup="first", seed=12), uniform),
    (Options(players=3, setup="variable", seed=13), uniform),
    (Options(players=4, setup="variable", seed=14), uniform),
    (Options(players=4, setup="variable", seed=15), builder),
    (Options(players=3, setup="first", seed=16, starting_seat=2), builder),
    (Options(players=4, setup="variable", seed=17), hoarder),
]
GAME_IDS = [f"{o.players}p-{o.setup}-{o.seed}-{p.__name__}" for o, p in GAMES]
_finished: dict[int, GameState] = {}


def finished(index: int) -> GameState:
    if index not in _finished:
        _finished[index] = play(*GAMES[index])
    return _finished[index]


# The document ----------------------------------------------------------------------


@pytest.mark.parametrize("index", range(len(GAMES)), ids=GAME_IDS)
def test_record_is_plain_json(index: int) -> None:
    state = finished(index)
    record = export_record(state, names=["Ann", "Bob", "Cyd", "Dan"][: state.players])
    text = json.dumps(record)
    assert json.loads(text) == record
    assert record["format"] == RECORD_FORMAT
    assert record["players"] == [
        {"seat": seat, "name": name}
        for seat, name in enumerate(["Ann", "Bob", "Cyd", "Dan"][: state.players])
    ]
    options = record["options"]
    assert options["players"] == state.players and options["setup"] == state.options.setup
    assert options["seed"] == state.options.seed
    assert options["starting_seat"] == state.options.starting_seat  # as the table chose it
    assert record["events"][0]["type"] == "starting_seat"  # the seat drawn is an event
    assert record["finished"] is True
    assert record["actions"] == state.version


@pytest.mark.parametrize("index", range(len(GAMES)), ids=GAME_IDS)
def test_record_lists_every_decision_with_its_seat(index: int) -> None:
    state = finished(index)
    events = export_record(state)["events"]
    decisions = [e for e in events if e["type"] == "action"]
    assert len(decisions) == state.version
    for event in decisions:
        assert event["seat"] in range(state.players)
        parse_action(event["action"], BOARD)  # a well-formed wire action
        if event["action"]["kind"] == "give_card":
            assert event["to"] in range(state.players) and event["to"] != event["seat"]


@pytest.mark.parametrize("index", range(len(GAMES)), ids=GAME_IDS)
def test_record_ends_with_the_score_sheet(index: int) -> None:
    state = finished(index)
    record = export_record(state)
    assert record["score"] == state.score is not None
    assert record["events"][-1] == {"type": "game_end", "score": state.score}
    check_score(state)


# Completeness: rebuild the game's books from the record alone -------------------------


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


@pytest.mark.parametrize("index", range(len(GAMES)), ids=GAME_IDS)
def test_record_lists_every_chance_outcome(index: int) -> None:
    state = finished(index)
    audit(export_record(state), state)


def test_the_audited_games_cover_every_kind_of_event() -> None:
    seen: set[str] = set()
    rejected_start = False
    for index in range(len(GAMES)):
        state = finished(index)
        record = export_record(state)
        seen |= audit(record, state).kinds_seen
        rejected_start |= any(
            e["type"] == "start_tile" and not e["accepted"] for e in record["events"]
        )
    assert rejected_start, "no variable setup turned a start tile down"
    wanted = {
        "starting_seat",
        "shuffle",
        "start_tile",
        "empire_founded",
        "tiles_dealt",
        "tile_drawn",
        "cards_dealt",
        "cards_drawn",
        "trade_completed",
        "cards_discarded",
        "round_start",
        "round_end",
        "game_end",
        "action",
        "expand",
        "return_tile",
        "move",
        "city",
        "ship",
        "bank_draw",
        "bank_pick",
        "propose",
        "answer",
        "complete",
        "withdraw",
        "give_card",
        "keep",
        "counter",
        "pass",
    }
    assert wanted <= seen, sorted(wanted - seen)


# Replay ------------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(len(GAMES)), ids=GAME_IDS)
def test_replay_of_a_finished_game(index: int) -> None:
    state = finished(index)
    record = export_record(state)
    again = replay(json.loads(json.dumps(record)))
    assert again.fingerprint() == state.fingerprint()
    assert again.phase == Phase.OVER and again.score == state.score
    assert export_record(again) == record
    check_invariants(again)


STOPS: list[tuple[str, Callable[[GameState], bool]]] = [
    ("at the start", lambda s: True),
    ("expanding", lambda s: s.phase == Phase.EXPAND and s.round == 2),
    ("card actions", lambda s: s.phase == Phase.ACTIONS and s.round == 2 and s.passes == 1),
    ("mid-trade", lambda s: s.phase == Phase.TRADE),
    ("keeping 3", lambda s: s.phase == Phase.KEEP),
    ("owing a card", lambda s: s.phase == Phase.GIVE_CARD),
]


@pytest.mark.parametrize(("name", "stop"), STOPS, ids=[name for name, _ in STOPS])
def test_replay_of_an_unfinished_game(name: str, stop: Callable[[GameState], bool]) -> None:
    for seed in range(40):
        state = play(
            Options(players=3 + seed % 2, setup="variable", seed=seed), builder, until=stop
        )
        if state.phase != Phase.OVER:
            break
    assert stop(state), f"no game reached the stop {name!r}"
    record = export_record(state)
    assert record["finished"] is False and record["score"] is None
    assert record["actions"] == state.version
    again = replay(json.loads(json.dumps(record)))
    assert again.fingerprint() == state.fingerprint()
    assert seats_to_act(again) == seats_to_act(state)
    for seat in range(state.players):
        assert legal_actions(again, seat) == legal_actions(state, seat)
    audit(record, state)


def test_a_replayed_unfinished_game_plays_on_as_the_original() -> None:
    # A saved game must be resumable: replaying its record gives a game that goes on,
    # and (record.py) "a replayed unfinished game plays on exactly as the original would".
    original = play(Options(players=3, setup="variable", seed=3), uniform, steps=300)
    assert original.score is None  # not over yet
    again = replay(export_record(original))
    rng = random.Random(99)
    steps = 0
    while original.phase != Phase.OVER:
        seat = seats_to_act(original)[0]
        action = rng.choice(legal_actions(original, seat))
        push(original, seat, action)
        push(again, seat, action)
        assert again.fingerprint() == original.fingerprint()
        steps += 1
        assert steps <= MAX_STEPS
    check_invariants(again)
    check_score(again)
    assert export_record(again) == export_record(original)


# Tampering ---------------------------------------------------------------------------


def _decisions(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in record["events"] if e["type"] == "action"]


def _first(record: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(e for e in _decisions(record) if e["action"]["kind"] == kind)


def _change_expansion(record: dict[str, Any]) -> None:
    event = _first(record, "expand")
    event["action"]["tile"] = "TY"


def _change_payment(record: dict[str, Any]) -> None:
    event = _first(record, "move")
    pay = event["action"]["pay"]
    pay.append(pay[0])  # one card too many


def _change_seat(record: dict[str, Any]) -> None:
    event = _decisions(record)[5]
    event["seat"] = (event["seat"] + 1) % record["options"]["players"]


def _swap_two_decisions(record: dict[str, Any]) -> None:
    events = record["events"]
    positions = [i for i, e in enumerate(events) if e["type"] == "action"]
    a, b = positions[0], positions[1]
    events[a], events[b] = events[b], events[a]


def _drop_a_decision(record: dict[str, Any]) -> None:
    events = record["events"]
    events.remove(_first(record, "pass"))


def _swap_in_card_shuffle(record: dict[str, Any]) -> None:
    shuffle = next(e for e in record["events"] if e["type"] == "shuffle" and e["pile"] == "cards")
    order = shuffle["order"]
    last = len(order) - 1  # the top card, dealt first
    other = next(i for i in range(last) if order[i] != order[last])
    order[last], order[other] = order[other], order[last]


def _foreign_card_in_shuffle(record: dict[str, Any]) -> None:
    shuffle = next(e for e in record["events"] if e["type"] == "shuffle" and e["pile"] == "cards")
    order = shuffle["order"]
    order[0] = "violet" if order[0] != "violet" else "orange"


def _swap_in_tile_shuffle(record: dict[str, Any]) -> None:
    shuffle = next(e for e in record["events"] if e["type"] == "shuffle" and e["pile"] == "tiles")
    order = shuffle["order"]
    order[0], order[-1] = order[-1], order[0]


def _drop_a_shuffle(record: dict[str, Any]) -> None:
    events = record["events"]
    last = max(i for i, e in enumerate(events) if e["type"] == "shuffle")
    del events[last]


def _change_a_drawn_card(record: dict[str, Any]) -> None:
    event = next(e for e in record["events"] if e["type"] == "cards_dealt")
    event["cards"][0] = "wild" if event["cards"][0] != "wild" else "orange"


def _change_the_starting_seat(record: dict[str, Any]) -> None:
    first = record["events"][0]
    first["seat"] = (first["seat"] + 1) % record["options"]["players"]


def _contradict_the_starting_seat(record: dict[str, Any]) -> None:
    first = record["events"][0]
    record["options"]["starting_seat"] = (first["seat"] + 1) % record["options"]["players"]


def _truncate_after_a_bank_draw(record: dict[str, Any]) -> None:
    events = record["events"]
    at = events.index(_first(record, "bank_draw"))
    del events[at + 1 :]  # the cards drawn are cut off


def _truncate_before_a_decision(record: dict[str, Any]) -> None:
    events = record["events"]
    positions = [i for i, e in enumerate(events) if e["type"] == "action"]
    del events[positions[len(positions) // 2] :]


def _truncate_the_score(record: dict[str, Any]) -> None:
    del record["events"][-1]


def _lose_a_field(record: dict[str, Any]) -> None:
    del _decisions(record)[3]["seat"]


def _garble_an_action(record: dict[str, Any]) -> None:
    _decisions(record)[3]["action"] = {"kind": "fly"}


def _no_events(record: dict[str, Any]) -> None:
    del record["events"]


def _wrong_format(record: dict[str, Any]) -> None:
    record["format"] = "tyros-record/0"


def _bad_options(record: dict[str, Any]) -> None:
    record["options"]["players"] = 5


TAMPERING = [
    _change_expansion,
    _change_payment,
    _change_seat,
    _swap_two_decisions,
    _drop_a_decision,
    _swap_in_card_shuffle,
    _foreign_card_in_shuffle,
    _swap_in_tile_shuffle,
    _drop_a_shuffle,
    _change_a_drawn_card,
    _change_the_starting_seat,
    _contradict_the_starting_seat,
    _truncate_after_a_bank_draw,
    _truncate_before_a_decision,
    _truncate_the_score,
    _lose_a_field,
    _garble_an_action,
    _no_events,
    _wrong_format,
    _bad_options,
]


@pytest.mark.parametrize("tamper", TAMPERING, ids=[t.__name__.strip("_") for t in TAMPERING])
def test_a_tampered_record_is_refused(tamper: Callable[[dict[str, Any]], None]) -> None:
    state = finished(0)
    record = copy.deepcopy(export_record(state))
    tamper(record)
    assert record != export_record(state)
    with pytest.raises(RecordError):
        replay(record)


def test_a_cleanly_cut_record_that_says_so_is_an_unfinished_game() -> None:
    state = finished(0)
    record = copy.deepcopy(export_record(state))
    _truncate_before_a_decision(record)
    record["actions"] = len(_decisions(record))
    record["finished"] = False
    record["score"] = None
    again = replay(record)
    assert again.version == record["actions"] and again.phase != Phase.OVER
    check_invariants(again)


# The referee on many games --------------------------------------------------------------

POLICIES = [uniform, builder, hoarder]


def test_every_record_passes_the_referee() -> None:
    seen: set[str] = set()
    for policy in POLICIES:
        for seed in range(100, 130):
            options = Options(
                players=3 + seed % 2, setup=("first", "variable")[seed // 2 % 2], seed=seed
            )
            state = play(options, policy)
            seen |= audit(export_record(state), state).kinds_seen
    wanted = {
        "tyros_coloured",
        "tiles_revealed",
        "expansion_skipped",
        "start_tile",
        "city",
        "give_card",
        "keep",
        "return_tile",
        "trade_completed",
        "cards_drawn",
    }
    assert wanted <= seen, sorted(wanted - seen)


def _overpay_a_move(record: dict[str, Any]) -> None:
    event = _first(record, "move")
    event["action"]["pay"].append("wild")


def _expand_in_a_foreign_colour(record: dict[str, Any]) -> None:
    event = _first(record, "expand")
    colour = COLOUR_NAMES.index(event["action"]["colour"])
    event["action"]["colour"] = COLOUR_NAMES[(colour + 2) % 4]


def _hide_a_draw(record: dict[str, Any]) -> None:
    record["events"].remove(next(e for e in record["events"] if e["type"] == "cards_drawn"))


def _hide_a_tile_draw(record: dict[str, Any]) -> None:
    record["events"].remove(next(e for e in record["events"] if e["type"] == "tile_drawn"))


def _skip_the_city_owners_card(record: dict[str, Any]) -> None:
    record["events"].remove(_first(record, "give_card"))


FORGERIES = [
    _overpay_a_move,
    _expand_in_a_foreign_colour,
    _hide_a_draw,
    _hide_a_tile_draw,
    _skip_the_city_owners_card,
]


@pytest.mark.parametrize("forge", FORGERIES, ids=[f.__name__.strip("_") for f in FORGERIES])
def test_the_referee_catches_a_forged_record(forge: Callable[[dict[str, Any]], None]) -> None:
    state = finished(4)  # a builder game: it has moves into cities
    record = copy.deepcopy(export_record(state))
    audit(record, state)
    forge(record)
    with pytest.raises(AssertionError):
        audit(record, state)
