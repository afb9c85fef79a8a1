"""Action E, trading with other players: proposals, answers, completing, withdrawing, and
how a trade fits into the turn order (RULINGS.md "E", RULES.md A6)."""

from __future__ import annotations

import pytest
from tyros_rules import (
    IllegalActionError,
    Kind,
    Phase,
    Reason,
    event_view,
    push,
    seats_to_act,
    view,
)
from tyros_rules.actions import TRADE_GET, TRADE_GIVE, Action
from tyros_rules.state import (
    ACCEPTED,
    COUNTERED,
    DECLINED,
    NOT_ASKED,
    PENDING,
    GameState,
)

from tests.rules.builders import assert_illegal, cards, legal, make_state, port
from tests.rules.invariants import check_invariants

HANDS = {0: "o o y w", 1: "g g v", 2: "g y", 3: "v v"}
ACCEPT: Action = (Kind.ANSWER, 1)
DECLINE: Action = (Kind.ANSWER, 0)
WITHDRAW: Action = (Kind.WITHDRAW,)
PASS: Action = (Kind.PASS,)


def propose(to: list[int], give: str, get: str) -> Action:
    mask = 0
    for seat in to:
        mask |= 1 << seat
    return (Kind.PROPOSE, mask, *cards(give), *cards(get))


def complete(partner: int) -> Action:
    return (Kind.COMPLETE, partner)


def table(
    players: int = 4, *, chips: dict[str, str] | None = None, discard: str = "", current: int = 0
) -> GameState:
    """The usual hands (seat 0: o o y w; 1: g g v; 2: g y; 3: v v), two ships each in Tyros."""
    hands = {seat: text for seat, text in HANDS.items() if seat < players}
    return make_state(players=players, hands=hands, chips=chips, discard=discard, current=current)


# Proposals ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("to", "give", "get"),
    [
        ([1], "o", "g"),
        ([1, 2, 3], "o", "g"),
        ([2, 3], "o o", "v"),  # unequal counts
        ([1], "o o y w", "g g v"),  # everything held
        ([2], "", "y"),  # nothing given: asking for a gift
        ([3], "w", ""),  # nothing asked: a gift
        ([1, 3], "y", "o o o o o o o"),  # asking for cards nobody holds is still a proposal
    ],
)
def test_legal_proposals(to: list[int], give: str, get: str) -> None:
    state = table()
    push(state, 0, propose(to, give, get))
    assert state.phase == Phase.TRADE
    assert state.current == 0
    assert state.trade is not None
    assert state.trade[0] == 0
    assert state.trade[TRADE_GIVE] == cards(give)
    assert state.trade[TRADE_GET] == cards(get)
    assert state.answers == [PENDING if seat in to else NOT_ASKED for seat in range(4)]
    assert seats_to_act(state) == [*to, 0]
    # Nothing changes hands yet.
    assert state.hands == [cards(HANDS[seat]) for seat in range(4)]
    check_invariants(state)


@pytest.mark.parametrize(
    ("to", "give", "get", "reason"),
    [
        ([0, 1], "o", "g", Reason.ILLEGAL),  # asking oneself
        ([0], "o", "g", Reason.ILLEGAL),
        ([], "o", "g", Reason.ILLEGAL),  # asking nobody
        ([1], "", "", Reason.ILLEGAL),  # nothing at all
        ([1], "o o o", "g", Reason.CANNOT_AFFORD),  # giving cards not held
        ([1], "v", "g", Reason.CANNOT_AFFORD),
        ([1], "o", "g g g g g g g g g g g g g g g", Reason.ILLEGAL),  # 15 green: the game has 14
        ([1], "o", "o", Reason.ILLEGAL),  # a kind both ways: nothing moves
        ([1], "o y", "o g", Reason.ILLEGAL),  # say "y for g"
    ],
)
def test_illegal_proposals(to: list[int], give: str, get: str, reason: Reason) -> None:
    state = table()
    assert_illegal(state, 0, propose(to, give, get), reason)


def test_no_proposal_to_a_seat_that_does_not_play() -> None:
    state = table(players=3)
    assert_illegal(state, 0, propose([3], "o", "g"), Reason.ILLEGAL)
    assert_illegal(state, 0, propose([1, 3], "o", "g"), Reason.ILLEGAL)


def test_no_proposal_out_of_turn() -> None:
    state = table()
    assert_illegal(state, 1, propose([0], "g", "o"), Reason.NOT_YOUR_TURN)


def test_proposals_listed_are_one_card_for_another_kind_to_everyone() -> None:
    state = table()
    listed = {a for a in legal(state, 0) if a[0] == Kind.PROPOSE}
    held = ("o", "y", "w")
    kinds = ("o", "y", "g", "v", "w")
    assert listed == {
        propose([1, 2, 3], give, get) for give in held for get in kinds if get != give
    }


# Answers -------------------------------------------------------------------------------


def test_only_asked_seats_answer() -> None:
    state = table()
    push(state, 0, propose([1, 2], "o", "g"))
    assert legal(state, 3) == []
    assert_illegal(state, 3, ACCEPT, Reason.NOT_YOUR_TURN)
    assert_illegal(state, 3, DECLINE, Reason.NOT_YOUR_TURN)
    assert_illegal(state, 0, ACCEPT)  # the proposer does not answer its own proposal


def answers(state: GameState, seat: int) -> list[Action]:
    """The accept and decline among a seat's legal actions (counter-offers aside)."""
    return sorted(a for a in legal(state, seat) if a[0] == Kind.ANSWER)


def test_accept_only_when_holding_the_requested_cards() -> None:
    state = table()
    push(state, 0, propose([1, 2], "o", "g g"))
    assert answers(state, 1) == [DECLINE, ACCEPT]
    assert answers(state, 2) == [DECLINE]  # holds one green only
    assert_illegal(state, 2, ACCEPT)
    push(state, 2, DECLINE)
    push(state, 1, ACCEPT)
    assert state.answers == [NOT_ASKED, ACCEPTED, DECLINED, NOT_ASKED]


def test_anyone_asked_may_accept_a_gift() -> None:
    state = table()
    push(state, 0, propose([1, 2, 3], "w", ""))
    for seat in (1, 2, 3):
        assert answers(state, seat) == [DECLINE, ACCEPT]


def test_each_asked_seat_answers_once() -> None:
    state = table()
    push(state, 0, propose([1, 2], "o", "g"))
    push(state, 1, DECLINE)
    assert legal(state, 1) == []
    assert_illegal(state, 1, ACCEPT, Reason.NOT_YOUR_TURN)


def test_seats_to_act_during_a_trade() -> None:
    state = table()
    push(state, 0, propose([1, 2, 3], "o", "v"))
    assert seats_to_act(state) == [1, 2, 3, 0]
    push(state, 2, DECLINE)
    assert seats_to_act(state) == [1, 3, 0]
    push(state, 3, ACCEPT)
    assert seats_to_act(state) == [1, 0]
    push(state, 1, ACCEPT)
    assert seats_to_act(state) == [0]
    assert sorted(legal(state, 0)) == [complete(1), complete(3), WITHDRAW]


def test_proposer_may_only_complete_or_withdraw() -> None:
    state = table()
    push(state, 0, propose([1], "o", "g"))
    assert legal(state, 0) == [WITHDRAW]
    assert_illegal(state, 0, PASS)
    assert_illegal(state, 0, propose([2], "o", "g"))
    assert_illegal(state, 0, (Kind.BANK_DRAW, *cards("o")))


# Completing ---------------------------------------------------------------------------


def test_completing_moves_exactly_the_cards_between_the_two() -> None:
    state = table()
    push(state, 0, propose([1, 2, 3], "o y", "g"))
    push(state, 1, ACCEPT)
    push(state, 2, ACCEPT)
    push(state, 3, DECLINE)  # holds no green
    discard_before = state.discard
    pile_before = list(state.draw_pile)
    push(state, 0, complete(2))
    assert state.hands[0] == cards("o w g")
    assert state.hands[2] == cards("y o y")
    assert state.hands[1] == cards(HANDS[1])  # accepted, but not chosen
    assert state.hands[3] == cards(HANDS[3])
    assert state.discard == discard_before
    assert state.draw_pile == pile_before
    assert state.phase == Phase.ACTIONS
    assert state.trade is None
    assert state.answers == [NOT_ASKED] * 4
    assert state.current == 1
    check_invariants(state)


def test_completing_an_unequal_trade() -> None:
    state = table()
    push(state, 0, propose([1], "o o y w", "v"))
    push(state, 1, ACCEPT)
    push(state, 0, complete(1))
    assert state.hands[0] == cards("v")
    assert state.hands[1] == cards("g g o o y w")
    check_invariants(state)


def test_completing_a_gift_request() -> None:
    state = table()
    push(state, 0, propose([3], "", "v v"))
    push(state, 3, ACCEPT)
    push(state, 0, complete(3))
    assert state.hands[0] == cards("o o y w v v")
    assert state.hands[3] == cards("")


def test_completing_before_every_asked_seat_answered() -> None:
    state = table()
    push(state, 0, propose([1, 2, 3], "o", "v"))
    push(state, 3, ACCEPT)
    assert seats_to_act(state) == [1, 2, 0]
    push(state, 0, complete(3))
    assert state.hands[0] == cards("o y w v")
    assert state.hands[3] == cards("v o")
    assert state.phase == Phase.ACTIONS
    assert state.current == 1
    assert seats_to_act(state) == [1]
    # The seats that never answered have nothing left to answer.
    assert_illegal(state, 2, ACCEPT, Reason.NOT_YOUR_TURN)


@pytest.mark.parametrize("partner", [1, 2, 3, 0])
def test_completing_needs_an_accepter(partner: int) -> None:
    # Seat 1 declined, seat 2 has not answered, seat 3 was not asked, seat 0 is the proposer.
    state = table()
    push(state, 0, propose([1, 2], "o", "g"))
    push(state, 1, DECLINE)
    assert_illegal(state, 0, complete(partner))


def test_only_the_proposer_completes() -> None:
    state = table()
    push(state, 0, propose([1, 2], "o", "g"))
    push(state, 1, ACCEPT)
    assert_illegal(state, 1, complete(1))
    assert_illegal(state, 2, complete(1))


def test_completed_trade_ends_the_turn_and_resets_the_passes() -> None:
    state = table(current=2)
    state.passes = 2  # seats 0 and 1 passed
    push(state, 2, propose([3], "g", "v"))
    push(state, 3, ACCEPT)
    push(state, 2, complete(3))
    assert state.passes == 0
    assert state.current == 3
    assert state.phase == Phase.ACTIONS
    # Four more passes are needed to end the round, not two.
    push(state, 3, PASS)
    push(state, 0, PASS)
    push(state, 1, PASS)
    assert state.phase == Phase.ACTIONS
    assert state.round == 1
    assert state.passes == 3
    check_invariants(state)


# Withdrawing ---------------------------------------------------------------------------

BOARD_CHIPS = {"31": "o", "TY": "o"}


def test_withdrawal_leaves_the_turn_with_the_proposer() -> None:
    state = table(chips=BOARD_CHIPS)
    state.passes = 1
    push(state, 0, propose([1, 2], "o", "g"))
    push(state, 1, ACCEPT)
    push(state, 0, WITHDRAW)
    assert state.phase == Phase.ACTIONS
    assert state.trade is None
    assert state.current == 0
    assert state.passes == 1
    assert state.trade_tried
    assert state.hands == [cards(HANDS[seat]) for seat in range(4)]
    assert seats_to_act(state) == [0]
    check_invariants(state)


def test_no_second_proposal_after_a_withdrawal() -> None:
    state = table(chips=BOARD_CHIPS, discard="g")
    push(state, 0, propose([1], "o", "g"))
    push(state, 0, WITHDRAW)
    kinds = {a[0] for a in legal(state, 0)}
    assert Kind.PROPOSE not in kinds
    assert {Kind.PASS, Kind.MOVE, Kind.BANK_DRAW, Kind.BANK_PICK} <= kinds
    assert_illegal(state, 0, propose([1], "o", "g"), Reason.TRADE_ALREADY_TRIED)
    assert_illegal(state, 0, propose([2, 3], "w", "v"), Reason.TRADE_ALREADY_TRIED)


def test_after_a_withdrawal_the_proposer_may_move() -> None:
    state = table(chips=BOARD_CHIPS)
    push(state, 0, propose([1], "o", "g"))
    push(state, 0, WITHDRAW)
    push(state, 0, (Kind.MOVE, port("TY"), port("31"), *cards("o")))
    assert state.ships_of(port("31"), 0) == 1
    assert state.current == 1
    assert not state.trade_tried
    check_invariants(state)


def test_after_a_withdrawal_the_proposer_may_trade_with_the_bank() -> None:
    state = table()
    push(state, 0, propose([1], "o", "g"))
    push(state, 0, WITHDRAW)
    push(state, 0, (Kind.BANK_DRAW, *cards("o o y")))
    assert sum(state.hands[0]) == 4
    assert state.current == 1


def test_after_a_withdrawal_the_proposer_may_pass_and_the_next_seat_may_propose() -> None:
    state = table()
    push(state, 0, propose([1], "o", "g"))
    push(state, 0, WITHDRAW)
    push(state, 0, PASS)
    assert state.passes == 1
    assert state.current == 1
    assert not state.trade_tried
    push(state, 1, propose([0], "g", "o"))
    assert state.phase == Phase.TRADE
    assert seats_to_act(state) == [0, 1]


def test_the_proposer_may_propose_again_on_its_next_turn() -> None:
    state = table()
    push(state, 0, propose([1], "o", "g"))
    push(state, 0, WITHDRAW)
    push(state, 0, PASS)
    push(state, 1, PASS)
    push(state, 2, PASS)
    push(state, 3, (Kind.BANK_DRAW, *cards("v")))
    assert state.current == 0
    push(state, 0, propose([1], "o", "g"))
    assert state.phase == Phase.TRADE


# Counter-offers (RULES.md A8) ---------------------------------------------------------


def counter(give: str, get: str) -> Action:
    """A counter-offer, from the proposer's side: the proposer would give ``give``."""
    return (Kind.COUNTER, *cards(give), *cards(get))


def test_an_asked_seat_may_counter_and_the_proposer_complete_on_its_terms() -> None:
    state = table()  # 0: o o y w, 1: g g v, 2: g y, 3: v v
    push(state, 0, propose([1, 2], "o", "g g"))
    # Bob would rather give one green for the orange and the yellow.
    push(state, 1, counter("o y", "g"))
    assert state.answers[1] == COUNTERED and seats_to_act(state) == [2, 0]
    assert legal(state, 1) == []  # answered
    push(state, 2, DECLINE)
    assert sorted(legal(state, 0)) == [complete(1), WITHDRAW]
    push(state, 0, complete(1))
    assert state.hands[0] == cards("o w g") and state.hands[1] == cards("g v o y")
    assert state.phase == Phase.ACTIONS and state.current == 1
    assert state.counters == (None,) * 4
    done = [e for e in state.log or [] if e["type"] == "trade_completed"][-1]
    assert (done["give"], done["get"]) == (["orange", "yellow"], ["green"])
    check_invariants(state)


def test_counters_are_public_and_some_are_listed() -> None:
    state = table()
    push(state, 0, propose([1, 2, 3], "o", "v"))
    listed = [a for a in legal(state, 3) if a[0] == Kind.COUNTER]
    # One of its cards (violet) for one card of another kind, not the offer's own terms.
    assert sorted(listed) == sorted(counter(get, "v") for get in ("o", "y", "g", "w") if get != "o")
    push(state, 3, counter("w", "v v"))  # any counter is allowed, listed or not
    for viewer in (None, 0, 1, 2, 3):
        seen = view(state, viewer)["trade"]["answers"]
        assert {
            "seat": 3,
            "answer": "counter",
            "give": ["wild"],
            "get": ["violet", "violet"],
        } in seen
    assert any(
        e["type"] == "action"
        and e["action"] == {"kind": "counter", "give": ["wild"], "get": ["violet", "violet"]}
        for e in (event_view(e, 1) for e in state.log or [])
        if e
    )


def test_bad_counters_are_refused() -> None:
    state = table()
    push(state, 0, propose([1, 2], "o", "g"))
    assert_illegal(state, 1, counter("o", "g"))  # the offer's own terms: accept it
    assert_illegal(state, 1, counter("y", "o"), Reason.CANNOT_AFFORD)  # it holds no orange
    assert_illegal(state, 1, counter("", ""))
    assert_illegal(state, 3, counter("o", "v"), Reason.NOT_YOUR_TURN)  # not asked
    assert_illegal(state, 0, counter("o", "v"))  # the proposer
    push(state, 1, DECLINE)
    assert_illegal(state, 1, counter("o", "v"), Reason.NOT_YOUR_TURN)  # answered


def test_a_counter_the_proposer_cannot_pay_is_not_completed() -> None:
    state = table()
    push(state, 0, propose([1], "o", "g"))
    push(state, 1, counter("v", "g"))  # asks for a violet Ann does not hold
    assert legal(state, 0) == [WITHDRAW]
    assert_illegal(state, 0, complete(1))
    push(state, 0, WITHDRAW)
    assert state.counters == (None,) * 4 and state.phase == Phase.ACTIONS


def test_a_kind_on_both_sides_is_refused_with_the_reason() -> None:
    """An orange for an orange moves nothing, yet completing it would end the turn without
    a pass, and so hold the round open (RULES.md A6, A8)."""
    state = table()
    with pytest.raises(IllegalActionError, match="a kind on both sides"):
        push(state, 0, propose([1], "o", "o"))
    push(state, 0, propose([1, 2], "o", "g"))
    assert_illegal(state, 1, counter("g", "g"), Reason.ILLEGAL)  # Bob holds green: still no
    assert_illegal(state, 2, counter("y o", "y"), Reason.ILLEGAL)
    push(state, 2, counter("o", "y"))  # the difference is a fine counter
    assert state.answers[2] == COUNTERED
