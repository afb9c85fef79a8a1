"""Random self-play: thousands of seeded games, checked after every action.

Each game picks uniformly among ``legal_actions`` of the first seat in
``seats_to_act``. After every action the state must obey the invariants
(:mod:`tests.rules.invariants`); every game must end within a bounded
number of actions; its score sheet must equal an independent recount; and
replaying its record must reach the identical state.

Most games use ``push_unchecked`` and the cheap per-action check; every
``CHECKED_EVERY``-th game uses ``push``, the full invariant check after every
action, asserts that ``legal_actions`` lists exactly the actions the rules allow
(:func:`~tests.rules.invariants.expected_actions`) and that ``check_action``
accepts each of them (the expensive part: one ``legal_actions`` call per action).
One builder game in five (random play keen on building) also compares the listings.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from tyros_rules import (
    IllegalActionError,
    Kind,
    Options,
    Phase,
    Reason,
    check_action,
    export_record,
    legal_actions,
    new_game,
    push,
    push_unchecked,
    replay,
    score_game,
    seats_to_act,
)
from tyros_rules.state import GameState

from .builders import make_state
from .invariants import (
    FastChecker,
    InvariantError,
    check_chips_kept,
    check_invariants,
    check_score,
    expected_actions,
    recount,
    recount_winners,
)

GAMES = 2000
CHUNK = 100
CHECKED_EVERY = 20
MAX_STEPS = 20_000
"""Random games take well under a thousand actions; this bound only catches a game that
never ends."""


def game_options(seed: int) -> Options:
    """Seeds cycle through 3 and 4 players and both setups."""
    return Options(players=3 + seed % 2, setup=("first", "variable")[seed // 2 % 2], seed=seed)


def is_checked(seed: int) -> bool:
    """One game in CHECKED_EVERY, rotating through the four kinds of game of game_options."""
    return seed % CHECKED_EVERY == seed // CHECKED_EVERY % 4


def _check_every_legal_action(state: GameState, legal: list[tuple[int, ...]], seat: int) -> None:
    # The listing is exactly what the rules allow, each action once.
    assert len(set(legal)) == len(legal), "an action is listed twice"
    expected = expected_actions(state, seat)
    assert set(legal) == expected, (
        f"missing {sorted(expected - set(legal))[:5]}, extra {sorted(set(legal) - expected)[:5]}"
    )
    for action in legal:
        check_action(state, seat, action)  # raises if the engine rejects its own listing
    acting = set(seats_to_act(state))
    for other in range(state.players):
        if other in acting:
            continue
        assert legal_actions(state, other) == [], f"seat {other} is not to act"
        with pytest.raises(IllegalActionError) as refused:
            check_action(state, other, legal[0])
        assert refused.value.reason == Reason.NOT_YOUR_TURN


def play_game(seed: int, checked: bool, kinds: Counter[int]) -> GameState:
    """Play one random game to its end, checking it after every action."""
    state = new_game(game_options(seed))
    rng = random.Random(seed * 1_000_003 + 17)
    check_invariants(state)
    fast = FastChecker(state)
    previous = state.chips[:]
    steps = 0
    while state.phase != Phase.OVER:
        steps += 1
        assert steps <= MAX_STEPS, f"game {seed} has not ended after {MAX_STEPS} actions"
        acting = seats_to_act(state)
        assert acting, f"game {seed}: nobody may act in phase {state.phase.name}"
        seat = acting[0]
        legal = legal_actions(state, seat)
        assert legal, f"game {seed}: seat {seat} must act but has no legal action"
        action = rng.choice(legal)
        kinds[action[0]] += 1
        if checked:
            _check_every_legal_action(state, legal, seat)
            push(state, seat, action)
            check_invariants(state)
            check_chips_kept(previous, state.chips)
            previous = state.chips[:]
        else:
            push_unchecked(state, seat, action)
            fast(state)
    assert state.version == steps
    assert seats_to_act(state) == []
    assert all(legal_actions(state, seat) == [] for seat in range(state.players))
    return state


def check_finished(seed: int, state: GameState) -> None:
    check_invariants(state)
    check_score(state)
    # The game ends when some player holds no map tile (rulebook, "Ending the Game").
    assert not all(state.tiles), f"game {seed} ended with map tiles in every hand"
    copy = replay(export_record(state))
    assert copy.fingerprint() == state.fingerprint(), f"game {seed}: replay differs"
    assert copy.score == state.score


CHUNKS = [range(start, min(start + CHUNK, GAMES)) for start in range(0, GAMES, CHUNK)]
FREQUENT = {
    Kind.PASS,
    Kind.EXPAND,
    Kind.RETURN_TILE,
    Kind.MOVE,
    Kind.SHIP,
    Kind.BANK_DRAW,
    Kind.BANK_PICK,
    Kind.PROPOSE,
    Kind.ANSWER,
    Kind.COMPLETE,
    Kind.WITHDRAW,
}
"""Decisions that random play takes dozens of times per hundred games (cities, keeping
cards and paying a city owner are rarer: the builder games below cover them)."""


@pytest.mark.parametrize("seeds", CHUNKS, ids=[f"games{r.start}-{r.stop - 1}" for r in CHUNKS])
def test_random_games(seeds: range) -> None:
    kinds: Counter[int] = Counter()
    setups: Counter[tuple[int, str]] = Counter()
    for seed in seeds:
        state = play_game(seed, is_checked(seed), kinds)
        check_finished(seed, state)
        setups[state.players, state.options.setup] += 1
    # Every chunk covers both player counts and setups...
    assert set(setups) == {(3, "first"), (4, "first"), (3, "variable"), (4, "variable")}
    # ...and the common decisions, so that the invariants are tested against them.
    missing = sorted(kind.name for kind in FREQUENT if kinds[kind] == 0)
    assert not missing, f"no random game took these actions: {missing}"


def test_game_count() -> None:
    assert sum(len(r) for r in CHUNKS) == GAMES >= 2000
    checked = [game_options(seed) for r in CHUNKS for seed in r if is_checked(seed)]
    assert len(checked) >= 100
    assert {(o.players, o.setup) for o in checked} == {
        (3, "first"),
        (4, "first"),
        (3, "variable"),
        (4, "variable"),
    }


# Builder games: random play weighted towards building, so that cities, majorities and
# moves into cities (paying their owner) are common and the recount is really exercised.

BUILDER_GAMES = 300
WEIGHTS: dict[int, int] = {
    Kind.CITY: 1000,
    Kind.SHIP: 30,
    Kind.MOVE: 20,
    Kind.COMPLETE: 5,
    Kind.BANK_DRAW: 3,
    Kind.BANK_PICK: 3,
    Kind.PASS: 1,
    Kind.PROPOSE: 1,
    Kind.WITHDRAW: 1,
}
"""Relative weight of each kind of action (10 for kinds not listed); uniform within a kind."""


def play_builder_game(seed: int, kinds: Counter[int]) -> GameState:
    state = new_game(game_options(seed))
    rng = random.Random(seed * 7_919 + 3)
    check_invariants(state)
    fast = FastChecker(state)
    steps = 0
    while state.phase != Phase.OVER:
        steps += 1
        assert steps <= MAX_STEPS, f"builder game {seed} has not ended after {MAX_STEPS} actions"
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        if seed % 5 == 0:  # one game in five: the listing is exactly what the rules allow
            assert sorted(legal) == sorted(expected_actions(state, seat)), f"builder game {seed}"
        by_kind: dict[int, list[tuple[int, ...]]] = {}
        for action in legal:
            by_kind.setdefault(action[0], []).append(action)
        choices = sorted(by_kind)
        kind = rng.choices(choices, [WEIGHTS.get(k, 10) for k in choices])[0]
        action = rng.choice(by_kind[kind])
        kinds[kind] += 1
        push_unchecked(state, seat, action)
        fast(state)
    return state


BUILDER_CHUNKS = [
    range(GAMES + start, GAMES + start + 100) for start in range(0, BUILDER_GAMES, 100)
]


@pytest.mark.parametrize(
    "seeds", BUILDER_CHUNKS, ids=[f"builders{r.start}-{r.stop - 1}" for r in BUILDER_CHUNKS]
)
def test_builder_games(seeds: range) -> None:
    kinds: Counter[int] = Counter()
    cities = majorities = 0
    for seed in seeds:
        state = play_builder_game(seed, kinds)
        check_finished(seed, state)
        cities += sum(1 for owner in state.cities if owner >= 0)
        assert state.score is not None
        majorities += sum(len(p["majority_bonus"]) for p in state.score["players"])
    missing = sorted(kind.name for kind in Kind if kinds[kind] == 0)
    assert not missing, f"no builder game took these actions: {missing}"
    assert cities >= 100 and majorities >= 50, (cities, majorities)


# The checker and the recount themselves: they must catch what they claim to catch ------


def _fresh() -> GameState:
    return new_game(Options(players=3, setup="first", seed=5, starting_seat=0))


def _lose_a_card(state: GameState) -> None:
    hand = state.hands[0]
    kind = next(k for k in range(5) if hand[k])
    state.hands[0] = tuple(n - (k == kind) for k, n in enumerate(hand))  # type: ignore[assignment]


def _duplicate_a_tile(state: GameState) -> None:
    state.tile_pile.append(state.tile_pile[0])


def _three_ships_in_space_7(state: GameState) -> None:
    for seat in range(3):  # one ship from each player's Tyros pair
        state.ships[0 * 4 + seat] -= 1
        state.ships[7 * 4 + seat] += 1


def _ship_on_empty_sea(state: GameState) -> None:
    state.ships[0 * 4 + 1] -= 1
    state.ships[1 * 4 + 1] += 1  # space 1 has no empire chip


def _third_ship_in_tyros(state: GameState) -> None:
    state.ships[0 * 4 + 2] += 1
    state.ship_supply[2] -= 1


def _ship_from_nowhere(state: GameState) -> None:
    state.ships[7 * 4 + 0] += 1


def _city_without_chip(state: GameState) -> None:
    state.cities[1] = 0
    state.city_supply[0] -= 1


def _city_from_nowhere(state: GameState) -> None:
    state.cities[7] = 1


def _chip_changes(state: GameState) -> None:
    state.chips[7] = 1  # orange 7 turns yellow


def _negative_supply(state: GameState) -> None:
    state.ship_supply[1] = -1
    state.ships[0 * 4 + 1] += 9


BREAKAGES = [
    _lose_a_card,
    _duplicate_a_tile,
    _three_ships_in_space_7,
    _ship_on_empty_sea,
    _third_ship_in_tyros,
    _ship_from_nowhere,
    _city_without_chip,
    _city_from_nowhere,
    _chip_changes,
    _negative_supply,
]


@pytest.mark.parametrize("breakage", BREAKAGES, ids=[b.__name__.strip("_") for b in BREAKAGES])
def test_checkers_catch_broken_states(breakage: Callable[[GameState], None]) -> None:
    state = _fresh()
    check_invariants(state)
    fast = FastChecker(state)
    before = state.chips[:]
    breakage(state)
    with pytest.raises(InvariantError):
        fast(state)
    with pytest.raises(InvariantError):
        check_invariants(state)
        check_chips_kept(before, state.chips)


def test_checker_catches_disconnected_empire() -> None:
    state = _fresh()
    # An orange chip far from orange 7 (and from Tyros), its tile taken from the pile.
    tile = next(t for t in state.tile_pile if t in (1, 2, 3, 4, 5, 10, 15, 20, 29))
    state.chips[tile] = 0
    state.tile_pile.remove(tile)
    state.removed_tiles.append(tile)
    with pytest.raises(InvariantError, match="not connected"):
        check_invariants(state)


def _final(**kwargs: Any) -> GameState:
    state = make_state(3, phase=Phase.OVER, tiles={0: [], 1: ["1"], 2: ["2"]}, **kwargs)
    state.log = None  # the all-four bonus is then read from the state, not the log
    state.score = score_game(state)
    return state


def test_recount_by_hand() -> None:
    # Orange 4 spaces (1st), yellow 3 and green 3 (tie: yellow 2nd, green 3rd), violet 2 (4th).
    state = _final(
        chips={
            "7": "o",
            "6": "o",
            "8": "o",
            "12": "o",
            "13": "y",
            "14": "y",
            "9": "y",
            "23": "g",
            "22": "g",
            "24": "g",
            "26": "v",
            "27": "v",
        },
        cities={"7": 0, "13": 0, "14": 1, "9": 1, "23": 2},
        ships={
            "6": {0: 1},
            "8": {0: 1, 1: 1},
            "22": {2: 2},
            "26": {1: 1},
            "13": {0: 1},
            "24": {1: 1},
            "TY": {0: 2, 1: 2, 2: 2},
        },
    )
    # Seat 0: city 7 (orange 12) + city 13 (yellow 10) + ship 6 (orange 6); 8 is contested,
    #         its ship in 13 stands by a city; orange majority 7 -> 35.
    # Seat 1: cities 14, 9 (yellow 10 + 10) + ships 26 (violet 3) and 24 (green 4); yellow
    #         majority (2 against 1) 7 -> 34.
    # Seat 2: city 23 (green 9) + ship 22 (green 4); green majority 7 -> 20.
    # Tyros has no chip: its ships score nothing.
    assert recount(state) == {0: 35, 1: 34, 2: 20}
    assert recount_winners(state) == [0]
    check_score(state)


def test_recount_tie_break_by_largest_empire() -> None:
    chips = {
        "7": "o",
        "6": "o",
        "8": "o",
        "12": "o",
        "11": "o",
        "13": "y",
        "14": "y",
        "23": "g",
        "22": "g",
        "26": "v",
        "27": "v",
    }
    # Seat 0: city 7 + ship 8 = 12 + 6 (all orange). Seat 1: city 6 (orange 12) + ships 26 and
    # 27 (violet 3 + 3). One orange city each: no majority. 18 all; seat 0 has more orange.
    state = _final(
        chips=chips, cities={"7": 0, "6": 1}, ships={"8": {0: 1}, "26": {1: 1}, "27": {1: 1}}
    )
    assert recount(state) == {0: 18, 1: 18, 2: 0}
    assert recount_winners(state) == [0]
    check_score(state)
    # Seat 0: city 7 + ship 13 (yellow 5); seat 1: city 6 + ship 14 (yellow 5): a shared win.
    state = _final(chips=chips, cities={"7": 0, "6": 1}, ships={"13": {0: 1}, "14": {1: 1}})
    assert recount(state) == {0: 17, 1: 17, 2: 0}
    assert recount_winners(state) == [0, 1]
    check_score(state)


def test_recount_all_four_bonus() -> None:
    state = _final(
        chips={
            "7": "o",
            "6": "o",
            "8": "o",
            "13": "y",
            "12": "y",
            "14": "y",
            "23": "g",
            "22": "g",
            "26": "v",
        },
        cities={"7": 2, "13": 2, "23": 2, "26": 2, "6": 0, "8": 0},
        ships={},
    )
    state.all_four_bonus = 2
    state.score = score_game(state)
    # Orange 3 and yellow 3 (orange first), green 2, violet 1.
    # Seat 2: 12 + 10 + 9 + 8, all four 7, majorities yellow, green, violet 21 -> 67.
    # Seat 0: two orange cities 24, orange majority 7 -> 31.
    assert recount(state) == {0: 31, 1: 0, 2: 67}
    check_score(state)


def test_expected_actions_by_hand() -> None:
    # Seat 0 holds 4 green and an orange; green 23 and orange 31 (so Tyros is orange).
    state = make_state(3, chips={"23": "g", "31": "o", "TY": "o", "7": "o"}, hands={0: "g g g g o"})
    expected = expected_actions(state, 0)
    assert (Kind.MOVE, 0, 23, 0, 0, 4, 0, 0) in expected  # TY-32-28-24-23 or TY-31-27-22-23
    assert (Kind.MOVE, 0, 31, 1, 0, 0, 0, 0) in expected
    assert not any(a[0] == Kind.MOVE and a[2] == 7 for a in expected)  # 7 is 10 steps away
    assert not any(a[0] == Kind.CITY for a in expected)  # Tyros is shared by all three
    # A ship in Tyros costs 7 cards (6 ships there): seat 0 holds only 5.
    assert not any(a[0] == Kind.SHIP for a in expected)
    assert sorted(legal_actions(state, 0)) == sorted(expected)
