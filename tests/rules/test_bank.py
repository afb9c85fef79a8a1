"""Action D, trading with the bank: discard 1-3 and draw as many (only while the draw pile
holds that many; it is never refilled during a round), or discard exactly 3 and take one
card that was in the discard pile before."""

from __future__ import annotations

import pytest
from tyros_protocol.cards import ORANGE, VIOLET, WILD, YELLOW
from tyros_rules import Kind, Reason, push
from tyros_rules.actions import DRAW_PAY, Action
from tyros_rules.state import GameState

from tests.rules.builders import assert_illegal, cards, legal, make_state
from tests.rules.invariants import check_invariants


def draw(payment: str) -> Action:
    return (Kind.BANK_DRAW, *cards(payment))


def pick(take: int, payment: str) -> Action:
    return (Kind.BANK_PICK, take, *cards(payment))


def of_kind(state: GameState, seat: int, kind: Kind) -> set[Action]:
    return {a for a in legal(state, seat) if a[0] == kind}


def plus(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(x + y for x, y in zip(a, b, strict=True))


# Discard 1-3, draw as many -----------------------------------------------------------


def test_every_draw_trade_is_listed() -> None:
    state = make_state(hands={0: "y w w"})
    # One, two or three of y, w, w: y | w | y w | w w | y w w.
    assert of_kind(state, 0, Kind.BANK_DRAW) == {
        draw("y"),
        draw("w"),
        draw("y w"),
        draw("w w"),
        draw("y w w"),
    }


def test_draw_trade_takes_the_top_cards_of_the_draw_pile() -> None:
    # Top of the pile is the end of the list: g, then v.
    state = make_state(hands={0: "y w w o"}, draw_pile="o o y v g")
    discard_before = state.discard
    push(state, 0, draw("y w"))
    assert state.hands[0] == cards("w o v g")
    assert state.draw_pile == [ORANGE, ORANGE, YELLOW]
    assert state.discard == plus(discard_before, cards("y w"))
    assert state.current == 1
    assert state.passes == 0
    check_invariants(state)


@pytest.mark.parametrize("count", [1, 2, 3])
def test_draw_trade_of_each_size(count: int) -> None:
    state = make_state(hands={0: "o o o o"}, draw_pile="v v v v v")
    push(state, 0, draw(" ".join(["o"] * count)))
    assert state.hands[0] == (4 - count, 0, 0, count, 0)
    assert len(state.draw_pile) == 5 - count
    check_invariants(state)


@pytest.mark.parametrize("payment", ["", "o o o o", "y"])
def test_draw_trade_of_no_card_four_cards_or_cards_not_held(payment: str) -> None:
    state = make_state(hands={0: "o o o o w"}, draw_pile="v v v v v")
    assert_illegal(state, 0, draw(payment))


@pytest.mark.parametrize(("pile", "largest"), [("v v", 2), ("v", 1), ("", 0)])
def test_draw_trade_needs_as_many_cards_in_the_draw_pile(pile: str, largest: int) -> None:
    state = make_state(hands={0: "o o o o"}, draw_pile=pile)
    assert sum(state.discard) > 50  # the rest of the deck lies in the discard pile
    sizes = {sum(a[DRAW_PAY]) for a in of_kind(state, 0, Kind.BANK_DRAW)}
    assert sizes == set(range(1, largest + 1))
    for size in range(largest + 1, 4):
        assert_illegal(state, 0, draw(" ".join(["o"] * size)))


def test_the_draw_pile_is_not_refilled_during_a_round() -> None:
    state = make_state(hands={0: "o o", 1: "y y"}, draw_pile="v")
    push(state, 0, draw("o"))
    assert state.draw_pile == []
    assert state.hands[0] == cards("o v")
    assert state.current == 1
    # The discard pile holds most of the deck, yet nobody can draw any more.
    assert sum(state.discard) == 56  # 60 - 4 in hands - 1 in the pile + the orange paid
    assert of_kind(state, 1, Kind.BANK_DRAW) == set()
    assert_illegal(state, 1, draw("y"))
    assert state.draw_pile == []
    check_invariants(state)


# Discard 3, take one from the discard pile -------------------------------------------


def test_every_pick_trade_is_listed() -> None:
    state = make_state(hands={0: "o o o y"}, discard="v v w")
    # Three of o, o, o, y: o o o | o o y; the pile offers violet and wild.
    assert of_kind(state, 0, Kind.BANK_PICK) == {
        pick(VIOLET, "o o o"),
        pick(VIOLET, "o o y"),
        pick(WILD, "o o o"),
        pick(WILD, "o o y"),
    }


def test_pick_trade_takes_the_chosen_card() -> None:
    state = make_state(hands={0: "o o o y"}, discard="v v w")
    pile_before = list(state.draw_pile)
    push(state, 0, pick(VIOLET, "o o y"))
    assert state.hands[0] == cards("o v")
    assert state.discard == cards("o o y v w")
    assert state.draw_pile == pile_before
    assert state.current == 1
    check_invariants(state)


def test_pick_trade_may_take_a_wild() -> None:
    state = make_state(hands={0: "g g g"}, discard="w")
    push(state, 0, pick(WILD, "g g g"))
    assert state.hands[0] == cards("w")
    assert state.discard == cards("g g g")


def test_pick_trade_cannot_take_a_card_just_discarded() -> None:
    state = make_state(hands={0: "o o o y"}, discard="v")
    assert {a[1] for a in of_kind(state, 0, Kind.BANK_PICK)} == {VIOLET}
    assert_illegal(state, 0, pick(ORANGE, "o o o"))
    assert_illegal(state, 0, pick(YELLOW, "o o y"))


def test_no_pick_trade_from_an_empty_discard_pile() -> None:
    state = make_state(hands={0: "o o o y"})
    assert state.discard == cards("")
    assert of_kind(state, 0, Kind.BANK_PICK) == set()
    # The three cards would reach the pile first, but the pile was empty before.
    assert_illegal(state, 0, pick(ORANGE, "o o o"))


@pytest.mark.parametrize("payment", ["o o", "o o o y", "", "o o g"])
def test_pick_trade_costs_exactly_three_held_cards(payment: str) -> None:
    state = make_state(hands={0: "o o o y"}, discard="v")
    assert_illegal(state, 0, pick(VIOLET, payment))


def test_no_pick_trade_with_fewer_than_three_cards() -> None:
    state = make_state(hands={0: "o w"}, discard="v g")
    assert of_kind(state, 0, Kind.BANK_PICK) == set()
    assert of_kind(state, 0, Kind.BANK_DRAW) == {draw("o"), draw("w"), draw("o w")}


def test_pick_trade_works_with_an_empty_draw_pile() -> None:
    state = make_state(hands={0: "o o o"}, draw_pile="")
    assert of_kind(state, 0, Kind.BANK_DRAW) == set()
    picks = of_kind(state, 0, Kind.BANK_PICK)
    kinds_in_pile = {k for k in range(5) if state.discard[k]}
    assert picks == {pick(k, "o o o") for k in kinds_in_pile}
    push(state, 0, pick(WILD, "o o o"))
    assert state.hands[0] == cards("w")
    check_invariants(state)


def test_bank_trade_is_not_taken_out_of_turn() -> None:
    state = make_state(hands={0: "o", 1: "o o o"}, discard="v")
    assert_illegal(state, 1, draw("o"), Reason.NOT_YOUR_TURN)
    assert_illegal(state, 1, pick(VIOLET, "o o o"), Reason.NOT_YOUR_TURN)
