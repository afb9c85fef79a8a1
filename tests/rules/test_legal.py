"""The fast enumeration agrees with its slow, obvious reading, along seeded random games.

``card_actions`` takes a hot path (everything at once, with inlined checks) and
``check_action`` a filtered one (one kind); both must say the same, and the moves
must be exactly those the rule describes.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from tyros_protocol.cards import WILD
from tyros_rules import (
    GameState,
    Kind,
    Options,
    Phase,
    legal_actions,
    new_game,
    seats_to_act,
)
from tyros_rules.actions import MOVE_PAY
from tyros_rules.constants import MAX_SEATS
from tyros_rules.legal import _ship_actions_in, card_actions, room_for_ship
from tyros_rules.rules import push_unchecked

KIND_ORDER = (Kind.PASS, Kind.MOVE, Kind.CITY, Kind.SHIP, Kind.BANK_DRAW, Kind.PROPOSE)
"""The order of the full enumeration; one bank kind yields both bank trades."""


def card_action_states(games: int, seed: int) -> Iterator[GameState]:
    """Every card-action decision of ``games`` seeded random games (3 and 4 players)."""
    for game in range(games):
        rng = random.Random(seed + game)
        state = new_game(
            Options(
                players=3 + game % 2, setup=("first", "variable")[game % 3 == 0], seed=seed + game
            )
        )
        while state.phase != Phase.OVER:
            if state.phase == Phase.ACTIONS:
                yield state
            seat = seats_to_act(state)[0]
            push_unchecked(state, seat, rng.choice(legal_actions(state, seat)))


def reference_moves(state: GameState, seat: int) -> set[tuple[int, int]]:
    """(from, to) of every move the rules allow, read straight from the rulebook."""
    board = state.board
    hand = state.hands[seat]
    out = set()
    for start in range(board.port_count):
        if not state.ships[start * MAX_SEATS + seat]:
            continue
        for end in range(board.port_count):
            steps = board.distance[start][end]
            space = board.port_space[end]
            colour = state.chips[space]
            if steps <= 0 or colour < 0 or hand[colour] + hand[WILD] < steps:
                continue
            if space == board.port_space[start] or room_for_ship(state, seat, space):
                out.add((start, end))
    return out


@pytest.mark.parametrize("seed", [11, 500])
def test_full_enumeration_is_the_filtered_ones_in_order(seed: int) -> None:
    checked = 0
    for state in card_action_states(12, seed):
        seat = state.current
        full = card_actions(state, seat)
        assert full == [a for kind in KIND_ORDER for a in card_actions(state, seat, kind)]
        assert card_actions(state, seat, Kind.BANK_PICK) == card_actions(
            state, seat, Kind.BANK_DRAW
        )
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("seed", [3, 900])
def test_moves_are_exactly_the_rulebook_moves(seed: int) -> None:
    moved = 0
    for state in card_action_states(12, seed):
        seat = state.current
        moves = card_actions(state, seat, Kind.MOVE)
        assert {(a[1], a[2]) for a in moves} == reference_moves(state, seat)
        for action in moves:  # every way to pay, each exactly the distance in cards
            steps = state.board.distance[action[1]][action[2]]
            assert sum(action[MOVE_PAY]) == steps
        assert len(moves) == len(set(moves))
        moved += bool(moves)
    assert moved > 200


def test_actions_hold_plain_ints() -> None:
    """Plain ints only (no Kind members): such tuples are untracked by the garbage
    collector, which matters with the enumeration's caches holding so many."""
    for state in card_action_states(4, 77):
        for action in legal_actions(state, state.current):
            assert all(type(x) is int for x in action), action


@pytest.mark.parametrize("seed", [21, 700])
def test_ship_builds_are_those_of_every_space_asked_one_by_one(seed: int) -> None:
    """The hot path finds the seat's cities by scanning; asking every space must agree."""
    with_cities = 0
    for state in card_action_states(24, seed):
        seat = state.current
        fast = card_actions(state, seat, Kind.SHIP)
        slow = [
            a
            for space in range(state.board.space_count)
            for a in _ship_actions_in(state, seat, space)
        ]
        assert sorted(fast) == sorted(slow)
        with_cities += seat in state.cities and bool(fast)
    assert with_cities > 5  # the seat could build in one of its cities


# The card actions remembered across a withdrawn proposal ----------------------------


def fresh_card_actions(state: GameState, seat: int) -> list[tuple[int, ...]]:
    """The enumeration without the memo: of a copy, which starts without one."""
    return legal_actions(state.copy(), seat)


@pytest.mark.parametrize("seed", [3, 11])
def test_after_a_withdrawal_the_remembered_actions_are_the_fresh_ones(seed: int) -> None:
    withdrawals = 0
    for game in range(6):
        rng = random.Random(seed + game)
        state = new_game(Options(players=3 + game % 2, seed=seed + game))
        while state.phase != Phase.OVER:
            seat = seats_to_act(state)[0]
            legal = legal_actions(state, seat)
            if state.phase == Phase.ACTIONS and state.trade_tried:
                withdrawals += 1
                assert state.card_memo is not None
                assert legal == fresh_card_actions(state, seat)
                assert not any(action[0] == Kind.PROPOSE for action in legal)
            push_unchecked(state, seat, rng.choice(legal))
    assert withdrawals > 50  # random players withdraw most of their proposals


def withdrawn_state(seed: int = 5) -> tuple[GameState, int]:
    """A random game just after a withdrawn proposal, and the proposer."""
    rng = random.Random(seed)
    state = new_game(Options(players=4, seed=seed))
    while not (state.phase == Phase.ACTIONS and state.trade_tried):
        seat = seats_to_act(state)[0]
        push_unchecked(state, seat, rng.choice(legal_actions(state, seat)))
    return state, state.current


def test_the_memo_holds_only_across_trade_talk() -> None:
    state, seat = withdrawn_state()
    memo = state.card_memo
    assert memo is not None and memo[0] == seat and memo[1] == state.hands[seat]
    assert state.copy().card_memo is None
    push_unchecked(state, seat, (Kind.PASS,))
    assert state.card_memo is None


def test_a_hand_changed_behind_the_engines_back_is_enumerated_afresh() -> None:
    state, seat = withdrawn_state()
    before = legal_actions(state, seat)
    state.hands[seat] = (0, 0, 0, 0, 0)  # as a test or a tool might, not through push
    after = legal_actions(state, seat)
    assert after == fresh_card_actions(state, seat) == [(Kind.PASS,)]
    assert after != before


def test_the_remembered_actions_are_the_callers_own_list() -> None:
    state, seat = withdrawn_state()
    first = legal_actions(state, seat)
    first.clear()  # a caller may mutate what it was given
    assert legal_actions(state, seat) == fresh_card_actions(state, seat) != []
