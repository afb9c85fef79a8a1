"""The determinizer: complete states built from one seat's view, never from the real state."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tyros_client.bots.determinize import (
    Determinizer,
    InconsistentView,
    Memory,
    determinize,
    shuffle,
)
from tyros_protocol.board import BOARD
from tyros_protocol.cards import DECK
from tyros_rules import (
    Action,
    GameState,
    Kind,
    Options,
    Phase,
    event_view,
    legal_actions,
    new_game,
    playable_tiles,
    push,
    seats_to_act,
    view,
)
from tyros_rules.state import ACCEPTED

from tests.rules.builders import make_state

ALL_TILES = set(range(1, BOARD.space_count))


def wire(data: dict[str, Any]) -> dict[str, Any]:
    """The view as a client gets it: through JSON."""
    return json.loads(json.dumps(data))  # type: ignore[no-any-return]


def assert_conserved(state: GameState) -> None:
    """Every card and every tile is in exactly one place."""
    cards = [0, 0, 0, 0, 0]
    for hand in (*state.hands, state.discard):
        for kind in range(5):
            cards[kind] += hand[kind]
    for card in state.draw_pile:
        cards[card] += 1
    assert tuple(cards) == DECK
    tiles = [t for hand in state.tiles for t in hand] + state.tile_pile + state.removed_tiles
    assert len(tiles) == len(set(tiles)) == len(ALL_TILES)
    assert set(tiles) == ALL_TILES
    for seat in range(state.players):
        assert set(state.revealed[seat]) <= set(state.tiles[seat])


class Watcher:
    """Feeds every seat's memory with the events its seat sees, as a bot's observe() would."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.memories = [Memory(seat) for seat in range(state.players)]
        self.seen = 0

    def catch_up(self) -> None:
        log = self.state.log
        assert log is not None
        for event in log[self.seen :]:
            for memory in self.memories:
                shown = event_view(event, memory.seat)
                if shown is not None:
                    memory.observe(wire(shown))
        self.seen = len(log)


def lively_choice(state: GameState, legal: list[Action], rng: random.Random) -> Action:
    """A random action, but one that builds cities, moves ships and passes often enough
    for games to hold on to cards (keeping 3) and visit cities (the owner's card)."""
    if state.phase == Phase.ACTIONS:
        cities = [a for a in legal if a[0] == Kind.CITY]
        if cities and rng.random() < 0.8:
            return rng.choice(cities)
        if rng.random() < 0.25:
            return (Kind.PASS,)
        moves = [a for a in legal if a[0] == Kind.MOVE]
        if moves and rng.random() < 0.6:
            return rng.choice(moves)
    return rng.choice(legal)


def random_game(
    players: int, setup: str, seed: int, every: int = 1
) -> Iterator[tuple[GameState, Watcher]]:
    """Yield (state, watcher) at every ``every``-th decision of a seeded lively game.

    The rarer decisions (expanding, giving a card, keeping 3) are always yielded.
    """
    state = new_game(Options(players=players, setup=setup, seed=seed))
    watcher = Watcher(state)
    rng = random.Random(seed)
    step = 0
    while state.phase != Phase.OVER:
        watcher.catch_up()
        if step % every == 0 or state.phase in RARE:
            yield state, watcher
        seat = seats_to_act(state)[0]
        push(state, seat, lively_choice(state, legal_actions(state, seat), rng))
        step += 1
    watcher.catch_up()
    yield state, watcher


RARE = (Phase.EXPAND, Phase.GIVE_CARD, Phase.KEEP)
GAMES = [(3, "first", 1), (4, "first", 2), (3, "variable", 11), (4, "variable", 5)]


@pytest.mark.parametrize(("players", "setup", "seed"), GAMES)
def test_samples_show_exactly_the_view_they_came_from(players: int, setup: str, seed: int) -> None:
    rng = random.Random(seed)
    phases: Counter[Phase] = Counter()
    for state, watcher in random_game(players, setup, seed, every=3):
        for seat in range(players):
            seen = wire(view(state, seat))
            sample = determinize(seen, seat, rng, watcher.memories[seat])
            assert view(sample, seat) == seen
            assert_conserved(sample)
            # What the seat knows is copied, not guessed.
            assert sample.hands[seat] == state.hands[seat]
            assert sample.tiles[seat] == state.tiles[seat]
            for other in range(players):
                assert sum(sample.hands[other]) == sum(state.hands[other])
                assert len(sample.tiles[other]) == len(state.tiles[other])
                assert sample.revealed[other] == state.revealed[other]
            assert len(sample.draw_pile) == len(state.draw_pile)
            assert len(sample.tile_pile) == len(state.tile_pile)
            assert sample.trade == state.trade and sample.answers == state.answers
            assert sample.keep_pending == state.keep_pending
            assert sample.owed_to == state.owed_to
        phases[state.phase] += 1
    # Every phase of the game was checked, trades and the city owner's card included.
    assert set(phases) == set(Phase), phases


@pytest.mark.parametrize(
    ("players", "setup", "seed"),
    # The last three reached a counter-offer completed on samples that dealt the countering
    # seat none of the cards it offered (the view proves it holds them).
    [*GAMES, (3, "variable", 5), (4, "variable", 2), (4, "variable", 3)],
)
def test_every_sample_plays_to_the_end_with_legal_actions(
    players: int, setup: str, seed: int
) -> None:
    rng = random.Random(100 + seed)
    checked = 0
    for state, watcher in random_game(players, setup, seed, every=41):
        seat = checked % players
        sample = determinize(wire(view(state, seat)), seat, rng, watcher.memories[seat])
        while sample.phase != Phase.OVER:
            mover = seats_to_act(sample)[0]
            legal = legal_actions(sample, mover)
            assert legal
            push(sample, mover, rng.choice(legal))  # push checks every action
        assert sample.score is not None
        assert_conserved(sample)
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize(("players", "setup", "seed"), GAMES)
def test_memory_is_sound_and_samples_obey_it(players: int, setup: str, seed: int) -> None:
    """What the events proved is true of the real hands and pile, and every sample keeps it."""
    rng = random.Random(seed)
    proved = 0
    bottoms = 0
    for state, watcher in random_game(players, setup, seed):
        for memory in watcher.memories:
            for other in range(players):
                if other == memory.seat:
                    continue
                known = memory.cards[other]
                assert all(k <= h for k, h in zip(known, state.hands[other], strict=True))
                proved += sum(known)
            pile = len(state.tile_pile)
            bottom = [t for t in memory.tile_bottom if t not in state.removed_tiles][:pile]
            in_pile = [t for t in bottom if t in state.tile_pile]
            assert in_pile == state.tile_pile[: len(in_pile)]
            bottoms += len(in_pile)
        if state.version % 5 == 0 and state.phase != Phase.OVER:
            seat = state.version % players
            memory = watcher.memories[seat]
            determinizer = Determinizer(wire(view(state, seat)), seat, memory)
            sample = determinizer.sample(rng)
            for other in range(players):
                if other != seat:
                    known = determinizer.known_cards[other]
                    assert all(k <= h for k, h in zip(known, sample.hands[other], strict=True))
            assert sample.tile_pile[: len(determinizer.tile_bottom)] == determinizer.tile_bottom
    assert proved > 0  # the games did teach the memories something


def test_hidden_cards_and_tiles_are_dealt_afresh() -> None:
    state = new_game(Options(players=4, seed=9))
    seen = view(state, 0)
    rng = random.Random(1)
    hands: Counter[tuple[int, ...]] = Counter()
    tiles: Counter[tuple[int, ...]] = Counter()
    for _ in range(60):
        sample = determinize(seen, 0, rng)
        hands[sample.hands[1]] += 1
        tiles[sample.tiles[2]] += 1
        assert sample.hands[0] == state.hands[0] and sample.tiles[0] == state.tiles[0]
    # The real hands are not copied: the samples spread over many hands and tile sets.
    assert len(hands) > 30 and len(tiles) > 30


def test_a_pending_trade_gives_the_cards_it_needs() -> None:
    state = make_state(4, current=1, hands={0: "y y", 1: "o v", 2: "g g g", 3: "w y"})
    push(state, 1, (Kind.PROPOSE, 0b1101, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1))  # orange for a wild
    push(state, 3, (Kind.ANSWER, 1))
    assert state.answers[3] == ACCEPTED
    seen = view(state, 0)
    rng = random.Random(4)
    for _ in range(40):
        sample = determinize(seen, 0, rng)
        assert view(sample, 0) == seen
        assert sample.hands[1][0] >= 1  # the proposer holds the orange it offers
        assert sample.hands[3][4] >= 1  # the accepter holds the wild it is asked for
        for seat in seats_to_act(sample):
            assert legal_actions(sample, seat)
        push(sample, 1, (Kind.COMPLETE, 3))


def test_an_opponent_stopped_to_expand_has_a_playable_tile() -> None:
    rng = random.Random(2)
    for seed in range(6):
        state = new_game(Options(players=4, seed=seed))
        current = state.current
        seat = (current + 1) % 4
        seen = view(state, seat)
        for _ in range(10):
            sample = determinize(seen, seat, rng)
            assert playable_tiles(sample, current)


def test_a_memory_that_contradicts_the_view_is_dropped() -> None:
    state = new_game(Options(players=3, seed=3))
    memory = Memory(0)
    memory.cards[1] = [14, 14, 0, 0, 4]  # more than seat 1 holds
    memory.cards[2] = [0, 0, 14, 0, 0]
    memory.tile_bottom = [state.removed_tiles[0]]  # a tile that is out of the game
    determinizer = Determinizer(view(state, 0), 0, memory)
    assert determinizer.known_cards[1] == [0, 0, 0, 0, 0]
    assert determinizer.tile_bottom == []
    sample = determinizer.sample(random.Random(0))
    assert view(sample, 0) == view(state, 0)


def test_a_view_whose_cards_do_not_add_up_is_refused() -> None:
    seen = view(new_game(Options(players=3, seed=3)), 0)
    seen["draw_pile"] += 1
    with pytest.raises(InconsistentView):
        Determinizer(seen, 0)


def test_the_memory_follows_trades_gifts_picks_and_discards() -> None:
    memory = Memory(0)
    memory.observe(
        {
            "type": "trade_completed",
            "seat": 1,
            "with": 2,
            "give": ["orange"],
            "get": ["green", "green"],
        }
    )
    assert memory.cards[1] == [0, 0, 2, 0, 0] and memory.cards[2] == [1, 0, 0, 0, 0]
    memory.observe(
        {
            "type": "action",
            "seat": 2,
            "action": {"kind": "bank_pick", "take": "wild", "pay": ["orange", "yellow", "yellow"]},
        }
    )
    assert memory.cards[2] == [0, 0, 0, 0, 1]
    # A card given to seat 0 (it sees which) and one given between others (it does not).
    memory.observe(
        {
            "type": "action",
            "seat": 1,
            "to": 0,
            "action": {"kind": "give_card", "to": 0, "card": "green"},
        }
    )
    assert memory.cards[1] == [0, 0, 1, 0, 0]
    memory.observe(
        {
            "type": "action",
            "seat": 0,
            "to": 2,
            "action": {"kind": "give_card", "to": 2, "card": "violet"},
        }
    )
    assert memory.cards[2] == [0, 0, 0, 1, 1]
    memory.observe({"type": "action", "seat": 2, "to": 1, "action": {"kind": "give_card", "to": 1}})
    assert memory.cards[2] == [0, 0, 0, 0, 0]  # either card may have gone
    memory.observe({"type": "cards_discarded", "seat": 1, "cards": ["green"]})
    assert memory.cards[1] == [0, 0, 0, 0, 0]
    memory.observe({"type": "action", "seat": 1, "action": {"kind": "return_tile", "tile": "5"}})
    memory.observe({"type": "action", "seat": 2, "action": {"kind": "return_tile", "tile": "9"}})
    assert memory.tile_bottom == [9, 5]


def test_a_seat_that_countered_is_dealt_what_its_counter_offers() -> None:
    state = make_state(4, current=0, hands={0: "o o y w", 1: "g g v", 2: "g y", 3: "v v"})
    push(state, 0, (Kind.PROPOSE, 0b0110, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0))  # orange for green
    push(state, 1, (Kind.COUNTER, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0))  # a violet, not a green
    rng = random.Random(3)
    for _ in range(200):
        sample = determinize(wire(view(state, 0)), 0, rng)
        assert sample.hands[1][3] >= 1  # the violet it offered is in its hand


def test_the_memory_notes_the_kinds_asked_for_until_given_or_a_new_round() -> None:
    memory = Memory(0)
    offer = {"kind": "propose", "to": [2, 3], "give": ["orange"], "get": ["green", "green"]}
    memory.observe({"type": "action", "seat": 1, "action": offer})
    memory.observe({"type": "action", "seat": 2, "action": {"kind": "answer", "accept": True}})
    counter = {"kind": "counter", "give": ["violet"], "get": ["yellow"]}
    memory.observe({"type": "action", "seat": 3, "action": counter})
    memory.observe({"type": "action", "seat": 1, "action": {"kind": "withdraw"}})
    green, violet = 1 << 2, 1 << 3
    assert memory.asked[1] == green and memory.asked[3] == violet
    # What the withdrawn offer showed is not kept as proof (it played no better kept).
    assert memory.cards[1] == memory.cards[2] == memory.cards[3] == [0, 0, 0, 0, 0]
    memory.observe(
        {"type": "trade_completed", "seat": 1, "with": 2, "give": ["orange"], "get": ["green"]}
    )
    assert memory.asked[1] == 0  # it was given what it asked for
    pick = {"kind": "bank_pick", "take": "violet", "pay": ["orange", "orange", "orange"]}
    memory.observe({"type": "action", "seat": 3, "action": pick})
    assert memory.asked[3] == 0  # it took what it asked for from the bank
    memory.observe({"type": "action", "seat": 2, "action": {**offer, "get": ["wild"]}})
    memory.observe({"type": "round_start", "round": 2, "starting_seat": 1})
    assert not any(memory.asked)


def test_a_seat_that_asked_for_a_kind_is_dealt_less_of_it_when_weighed() -> None:
    state = make_state(4, current=1, hands={0: "y y", 1: "o v", 2: "g g g", 3: "w y"})
    seen = view(state, 0)
    memory = Memory(0)
    offer = {"kind": "propose", "to": [0], "give": ["orange"], "get": ["yellow"]}
    memory.observe({"type": "action", "seat": 1, "action": offer})
    memory.observe({"type": "action", "seat": 1, "action": {"kind": "withdraw"}})

    def yellows(lack_weight: float) -> int:
        determinizer = Determinizer(seen, 0, memory, lack_weight=lack_weight)
        rng = random.Random(7)
        samples = [determinizer.sample(rng) for _ in range(300)]
        for sample in samples:
            assert view(sample, 0) == seen
        return sum(sample.hands[1][1] for sample in samples)

    unweighed, weighed = yellows(1.0), yellows(0.2)
    assert weighed < unweighed / 2 and unweighed > 0


@given(st.integers(min_value=0, max_value=2**64), st.lists(st.integers(), max_size=80))
def test_shuffle_draws_as_the_standard_library_does(seed: int, items: list[int]) -> None:
    # The determinizations, and so every seeded search, depend on it drawing alike.
    ours, theirs = items[:], items[:]
    mine, reference = random.Random(seed), random.Random(seed)
    shuffle(ours, mine)
    reference.shuffle(theirs)
    assert ours == theirs
    assert mine.getstate() == reference.getstate()
