"""The flow of a round: card actions, passing, keeping 3 cards, the next deal, the end.

Rules: rulebook "Sequence of Play", "Ending the Round", "Ending the Game"; RULINGS.md
"A round"; RULES.md E1, E2.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from tyros_protocol.cards import DECK, DECK_SIZE
from tyros_rules import (
    GameState,
    IllegalActionError,
    Kind,
    Options,
    Phase,
    Reason,
    event_view,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)
from tyros_rules.actions import PASS

from tests.rules.builders import cards, make_state

FIRST_CHIPS = {"7": "o", "13": "y", "23": "g", "26": "v"}


def phase(state: GameState) -> Phase:
    """The phase, read afresh (keeps type checkers from narrowing it across pushes)."""
    return state.phase


def log_of(state: GameState, kind: str) -> list[dict[str, Any]]:
    assert state.log is not None
    return [e for e in state.log if e["type"] == kind]


def all_cards(state: GameState) -> Counter[int]:
    total: Counter[int] = Counter(state.draw_pile)
    for hand in [*state.hands, state.discard]:
        for kind, n in enumerate(hand):
            total[kind] += n
    return total


FULL_DECK = Counter({kind: n for kind, n in enumerate(DECK)})


def bank_draw_one(state: GameState, seat: int) -> None:
    """Take a real action: trade one card (the first kind held) with the draw pile."""
    hand = state.hands[seat]
    kind = next(k for k in range(5) if hand[k])
    pay = [0, 0, 0, 0, 0]
    pay[kind] = 1
    push(state, seat, (Kind.BANK_DRAW, *pay))


def play_expansions(state: GameState) -> None:
    while state.phase == Phase.EXPAND:
        (seat,) = seats_to_act(state)
        push(state, seat, min(legal_actions(state, seat)))


def sub_hands(hand: tuple[int, ...], size: int) -> set[tuple[int, ...]]:
    """Every choice of ``size`` cards from a hand, computed from the card list."""
    deck = [kind for kind, n in enumerate(hand) for _ in range(n)]
    out = set()
    for combo in itertools.combinations(deck, size):
        counts = [0, 0, 0, 0, 0]
        for kind in combo:
            counts[kind] += 1
        out.add(tuple(counts))
    return out


# The card-action phase ----------------------------------------------------------------


@pytest.mark.parametrize(("players", "starting"), [(4, 2), (3, 1), (4, 0)])
def test_card_actions_begin_with_the_starting_seat(players: int, starting: int) -> None:
    state = new_game(Options(players=players, seed=13, starting_seat=starting))
    play_expansions(state)
    assert phase(state) == Phase.ACTIONS
    assert seats_to_act(state) == [starting]
    assert log_of(state, "actions_start") == [{"type": "actions_start", "seat": starting}]
    for seat in range(players):
        if seat != starting:
            assert legal_actions(state, seat) == []


def test_turns_go_round_and_a_passed_seat_may_act_again() -> None:
    state = make_state(
        4, current=0, starting_seat=0, chips=FIRST_CHIPS, hands={0: "o y", 1: "g v", 2: "o", 3: "y"}
    )
    push(state, 0, PASS)
    assert state.current == 1 and state.passes == 1
    bank_draw_one(state, 1)
    assert state.current == 2 and state.passes == 0
    push(state, 2, PASS)
    push(state, 3, PASS)
    assert state.passes == 2
    # Seat 0 passed before; it may act now, and that breaks the run of passes.
    assert (Kind.BANK_DRAW, 1, 0, 0, 0, 0) in legal_actions(state, 0)
    bank_draw_one(state, 0)
    assert state.passes == 0
    for seat in (1, 2, 3):
        push(state, seat, PASS)
    # Three consecutive passes of four: the round goes on.
    assert phase(state) == Phase.ACTIONS
    assert state.round == 1
    assert state.current == 0
    push(state, 0, PASS)
    # All four passed in a row: the round is over (nobody holds more than 3 cards).
    assert log_of(state, "round_end") == [{"type": "round_end", "round": 1}]
    assert state.round == 2


def test_three_players_round_ends_after_three_passes() -> None:
    state = make_state(3, current=1, starting_seat=1, chips=FIRST_CHIPS)
    push(state, 1, PASS)
    push(state, 2, PASS)
    assert state.round == 1 and state.phase == Phase.ACTIONS
    push(state, 0, PASS)
    assert state.round == 2


def test_turn_order_wraps_from_the_last_seat() -> None:
    state = make_state(4, current=3, starting_seat=3, chips=FIRST_CHIPS, hands={3: "o"})
    bank_draw_one(state, 3)
    assert state.current == 0


# End of round: keeping 3 --------------------------------------------------------------


def test_keep_at_most_three_only_for_seats_over_three_cards() -> None:
    hands = {0: "o o y g w", 1: "o y g", 2: "", 3: "v v v v"}
    state = make_state(4, current=1, starting_seat=1, chips=FIRST_CHIPS, hands=hands)
    for seat in (1, 2, 3, 0):
        push(state, seat, PASS)
    assert phase(state) == Phase.KEEP
    assert seats_to_act(state) == [0, 3]
    assert legal_actions(state, 1) == []
    assert legal_actions(state, 2) == []
    # The choices are exactly the sub-hands of at most 3 cards, the fullest first.
    keeps = legal_actions(state, 0)
    assert set(keeps) == {
        (Kind.KEEP, *k) for size in range(4) for k in sub_hands(cards(hands[0]), size)
    }
    assert len(keeps) == len(set(keeps))
    assert [sum(a[1:]) for a in keeps] == sorted((sum(a[1:]) for a in keeps), reverse=True)
    assert keeps[-1] == (Kind.KEEP, 0, 0, 0, 0, 0)  # keep none
    assert legal_actions(state, 3) == [
        (Kind.KEEP, 0, 0, 0, 3, 0),
        (Kind.KEEP, 0, 0, 0, 2, 0),
        (Kind.KEEP, 0, 0, 0, 1, 0),
        (Kind.KEEP, 0, 0, 0, 0, 0),
    ]
    with pytest.raises(IllegalActionError) as err:
        push(state, 1, (Kind.KEEP, 1, 1, 1, 0, 0))
    assert err.value.reason == Reason.NOT_YOUR_TURN
    # Keeping more than 3, or cards not held, is refused.
    for bad in [(Kind.KEEP, 2, 1, 1, 0, 0), (Kind.KEEP, 0, 0, 0, 3, 0), (Kind.KEEP, 0, 0, 0, 0, 2)]:
        with pytest.raises(IllegalActionError):
            push(state, 0, bad)
    # Any order: seat 3 first.
    discard_before = state.discard
    push(state, 3, (Kind.KEEP, 0, 0, 0, 3, 0))
    assert phase(state) == Phase.KEEP
    assert seats_to_act(state) == [0]
    assert state.hands[3] == (0, 0, 0, 3, 0)
    assert state.discard[3] == discard_before[3] + 1
    push(state, 0, (Kind.KEEP, 1, 0, 0, 0, 1))  # two cards: fewer than 3 is allowed
    assert log_of(state, "cards_discarded")[-1]["cards"] == ["orange", "yellow", "green"]
    # Both kept: the next round is dealt.
    assert state.round == 2
    assert phase(state) == Phase.EXPAND
    assert sum(state.hands[0]) == 2 + 10
    assert sum(state.hands[1]) == 3 + 10
    assert sum(state.hands[2]) == 0 + 10
    assert sum(state.hands[3]) == 3 + 10


def test_discards_are_public_kept_cards_private() -> None:
    state = make_state(
        3,
        current=0,
        starting_seat=0,
        chips=FIRST_CHIPS,
        hands={0: "o o y g w", 1: "v v", 2: "y y y y"},
    )
    for seat in (0, 1, 2):
        push(state, seat, PASS)
    push(state, 0, (Kind.KEEP, 1, 0, 1, 0, 1))
    discarded = log_of(state, "cards_discarded")
    assert discarded == [{"type": "cards_discarded", "seat": 0, "cards": ["orange", "yellow"]}]
    for viewer in (None, 0, 1, 2):
        assert event_view(discarded[0], viewer) == discarded[0]
        assert view(state, viewer)["discard"]["yellow"] >= 1
    assert state.log is not None
    keep = next(e for e in state.log if e["type"] == "action" and e["action"]["kind"] == "keep")
    own = event_view(keep, 0)
    assert own is not None and own["action"]["cards"] == ["orange", "green", "wild"]
    for viewer in (None, 1, 2):
        shown = event_view(keep, viewer)
        assert shown is not None
        assert shown["action"] == {"kind": "keep"}


# The next round ------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "old", "new"), [(4, 0, 1), (4, 3, 0), (3, 1, 2), (3, 2, 0)])
def test_starting_seat_moves_on(players: int, old: int, new: int) -> None:
    state = make_state(players, current=old, starting_seat=old, chips=FIRST_CHIPS)
    for i in range(players):
        push(state, (old + i) % players, PASS)
    assert state.round == 2
    assert state.starting_seat == new
    assert log_of(state, "round_start")[-1] == {
        "type": "round_start",
        "round": 2,
        "starting_seat": new,
    }
    dealt = [e["seat"] for e in log_of(state, "cards_dealt")]
    assert dealt == [(new + i) % players for i in range(players)]
    assert seats_to_act(state) == [new]
    play_expansions(state)
    assert seats_to_act(state) == [new]


def test_next_deal_reshuffles_discards_into_the_draw_pile() -> None:
    # Every card not in a hand lies in the discard pile; the draw pile is empty.
    hands = {0: "o o o o o", 1: "w", 2: "y y", 3: ""}
    state = make_state(4, current=0, starting_seat=0, chips=FIRST_CHIPS, hands=hands, draw_pile="")
    assert state.draw_pile == []
    assert sum(state.discard) == DECK_SIZE - 8
    for seat in range(4):
        push(state, seat, PASS)
    push(state, 0, (Kind.KEEP, 3, 0, 0, 0, 0))
    assert state.round == 2
    # The new draw pile held every card but the 3 + 1 + 2 kept ones, before the deal.
    shuffles = [e for e in log_of(state, "shuffle") if e["pile"] == "cards"]
    assert len(shuffles) == 1
    assert len(shuffles[0]["order"]) == DECK_SIZE - 6
    assert state.discard == (0, 0, 0, 0, 0)
    assert len(state.draw_pile) == DECK_SIZE - 6 - 40
    assert [sum(h) for h in state.hands] == [13, 11, 12, 10]
    assert all_cards(state) == FULL_DECK


def test_reshuffle_over_several_rounds_of_a_real_game() -> None:
    state = new_game(Options(players=3, seed=17, starting_seat=0))
    for round_number in (1, 2, 3):
        assert state.round == round_number
        assert state.discard == (0, 0, 0, 0, 0)
        assert all_cards(state) == FULL_DECK
        play_expansions(state)
        # Some cards go to the discard pile during the round.
        bank_draw_one(state, state.current)
        while state.phase == Phase.ACTIONS:
            push(state, state.current, PASS)
        if state.phase == Phase.OVER:
            break
        assert phase(state) == Phase.KEEP
        while state.phase == Phase.KEEP:
            seat = seats_to_act(state)[0]
            push(state, seat, legal_actions(state, seat)[0])
    else:
        assert state.round == 4
        kept = 3 * 3
        assert len(state.draw_pile) == DECK_SIZE - kept - 3 * 12
        assert [sum(h) for h in state.hands] == [15, 15, 15]
        return
    pytest.fail("the game ended too early to test three deals")


# The end of the game -------------------------------------------------------------------


def test_game_ends_at_round_end_when_a_player_has_no_tiles_and_skips_keep() -> None:
    hands = {0: "o o o o o", 1: "y y y y", 2: "g", 3: "v v v v v v"}
    tiles = {0: ["1", "2"], 1: ["3"], 2: [], 3: ["4"]}
    state = make_state(4, current=2, starting_seat=2, chips=FIRST_CHIPS, hands=hands, tiles=tiles)
    before = list(state.hands)
    for seat in (2, 3, 0, 1):
        push(state, seat, PASS)
    assert phase(state) == Phase.OVER
    # RULES.md E2: nobody keeps 3 cards; the game is scored at once.
    assert state.hands == before
    assert log_of(state, "cards_discarded") == []
    assert seats_to_act(state) == []
    assert all(legal_actions(state, seat) == [] for seat in range(4))
    assert state.score is not None
    assert log_of(state, "game_end") == [{"type": "game_end", "score": state.score}]
    assert state.round == 1
    assert log_of(state, "round_start") == []
    with pytest.raises(IllegalActionError) as err:
        push(state, 0, PASS)
    assert err.value.reason == Reason.GAME_OVER


def test_no_tiles_does_not_end_the_game_mid_round() -> None:
    hands = {0: "o o", 1: "y", 2: "g g", 3: "v"}
    tiles = {0: [], 1: ["3"], 2: ["5"], 3: ["4"]}
    state = make_state(4, current=0, starting_seat=0, chips=FIRST_CHIPS, hands=hands, tiles=tiles)
    push(state, 0, PASS)
    push(state, 1, PASS)
    bank_draw_one(state, 2)
    assert phase(state) == Phase.ACTIONS
    bank_draw_one(state, 3)
    bank_draw_one(state, 0)  # the seat without tiles still plays
    for seat in (1, 2, 3):
        push(state, seat, PASS)
    assert phase(state) == Phase.ACTIONS
    push(state, 0, PASS)
    assert phase(state) == Phase.OVER


def test_running_out_during_expansion_lets_the_round_finish() -> None:
    # Round 3, four players (one pass), empty pile: seat 0 plays its last tile.
    state = make_state(
        4,
        current=3,
        starting_seat=3,
        round_number=2,
        chips=FIRST_CHIPS,
        tiles={0: ["8"], 1: ["12"], 2: ["18"], 3: ["22"]},
        tile_pile=[],
    )
    state.passes = 3
    push(state, 3, PASS)
    assert state.round == 3 and phase(state) == Phase.EXPAND and state.current == 0
    assert not view(state, None)["last_round"]
    push(state, 0, (Kind.EXPAND, 8, 0))
    assert state.tiles[0] == ()
    # Every seat is told that the game ends with this round (the view is public).
    assert all(view(state, seat)["last_round"] for seat in (None, 0, 1, 2, 3))
    play_expansions(state)
    assert phase(state) == Phase.ACTIONS
    assert state.current == 0
    assert legal_actions(state, 0)  # the seat without tiles takes its card actions
    for seat in range(3):
        push(state, seat, PASS)
    assert phase(state) == Phase.ACTIONS
    push(state, 3, PASS)
    assert phase(state) == Phase.OVER
    assert state.round == 3
    assert not view(state, None)["last_round"]  # the game has ended: no round is left


def test_new_game_played_out_by_passing_ends_with_a_score() -> None:
    state = new_game(Options(players=4, seed=31, starting_seat=0))
    starting_seats = []
    for _ in range(30):
        if state.phase == Phase.OVER:
            break
        starting_seats.append(state.starting_seat)
        play_expansions(state)
        while state.phase == Phase.ACTIONS:
            push(state, state.current, PASS)
        while state.phase == Phase.KEEP:
            seat = seats_to_act(state)[0]
            push(state, seat, legal_actions(state, seat)[0])
    assert phase(state) == Phase.OVER
    assert state.score is not None
    assert any(not tiles for tiles in state.tiles)
    assert starting_seats == [i % 4 for i in range(len(starting_seats))]
    assert state.round == len(starting_seats)
