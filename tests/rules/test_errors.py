"""Refused actions: the reason given, and the state left untouched.

Every illegal action raises :class:`IllegalActionError` with a :class:`Reason` and changes
nothing (``state.fingerprint()`` and the log stay as they were). ``parse_action`` refuses
malformed wire objects with ``Reason.MALFORMED``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tyros_protocol.board import BOARD
from tyros_rules import (
    EngineError,
    GameState,
    IllegalActionError,
    Kind,
    Options,
    Phase,
    Reason,
    action_to_json,
    check_action,
    legal_actions,
    new_game,
    parse_action,
    push,
    seats_to_act,
)
from tyros_rules.actions import PASS, WITHDRAW

from tests.rules.builders import make_state

FIRST_CHIPS = {"7": "o", "13": "y", "23": "g", "26": "v"}


def refuse(state: GameState, seat: Any, action: Any) -> Reason:
    """Push an action that must be refused; check nothing changed; return the reason."""
    before = state.fingerprint()
    assert state.log is not None
    log_length = len(state.log)
    rng_state = (state.seed, state.chances)
    with pytest.raises(IllegalActionError) as err:
        push(state, seat, action)
    assert state.fingerprint() == before
    assert len(state.log) == log_length
    assert (state.seed, state.chances) == rng_state
    assert isinstance(err.value.reason, Reason)
    assert err.value.message
    return err.value.reason


def city_state() -> GameState:
    """Seat 1 to act with 5 green and 5 violet: a ship alone in 22 (green), one in Tyros."""
    return make_state(
        4,
        current=1,
        chips={**FIRST_CHIPS, "22": "g", "27": "v"},
        ships={"TY": {0: 2, 1: 1, 3: 2}, "22": {1: 1}, "23": {2: 1}, "27": {0: 1, 3: 1}},
        hands={1: "g g g g g v v v v v"},
    )


def actions_state() -> GameState:
    """Four players, card actions, seat 1 to act; seat 2 has a ship alone in 23."""
    return make_state(
        4,
        current=1,
        chips={**FIRST_CHIPS, "22": "g", "27": "v"},
        ships={"TY": {0: 2, 1: 2, 3: 2}, "23": {2: 1}, "27": {0: 1, 3: 1}},
        hands={0: "o o", 1: "g g y w", 2: "g g g g g", 3: "v"},
    )


# Not your turn ------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 2, 3, 4, 7, -1])
def test_not_your_turn_in_card_actions(seat: int) -> None:
    state = actions_state()
    assert refuse(state, seat, PASS) == Reason.NOT_YOUR_TURN


def test_not_your_turn_in_expansion() -> None:
    state = new_game(Options(players=4, seed=1, starting_seat=2))
    assert state.phase == Phase.EXPAND
    action = legal_actions(state, 2)[0]
    for seat in (0, 1, 3):
        assert refuse(state, seat, action) == Reason.NOT_YOUR_TURN


def test_not_your_turn_in_keep_for_a_seat_with_three_cards() -> None:
    state = make_state(3, chips=FIRST_CHIPS, hands={0: "o o o o", 1: "y y y"})
    for seat in range(3):
        push(state, seat, PASS)
    assert state.phase == Phase.KEEP
    assert refuse(state, 1, (Kind.KEEP, 0, 3, 0, 0, 0)) == Reason.NOT_YOUR_TURN
    assert refuse(state, 2, (Kind.KEEP, 0, 0, 0, 0, 0)) == Reason.NOT_YOUR_TURN
    push(state, 0, (Kind.KEEP, 3, 0, 0, 0, 0))
    assert state.round == 2


def test_not_your_turn_in_a_trade() -> None:
    state = make_state(4, chips=FIRST_CHIPS, hands={0: "o", 1: "y", 2: "g", 3: "v"})
    push(state, 0, (Kind.PROPOSE, 0b0010, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0))  # ask seat 1 only
    assert state.phase == Phase.TRADE
    assert refuse(state, 2, (Kind.ANSWER, 1)) == Reason.NOT_YOUR_TURN
    assert refuse(state, 3, (Kind.ANSWER, 0)) == Reason.NOT_YOUR_TURN
    push(state, 1, (Kind.ANSWER, 0))
    # Seat 1 has answered: it may not answer again.
    assert refuse(state, 1, (Kind.ANSWER, 1)) == Reason.NOT_YOUR_TURN


# Wrong phase --------------------------------------------------------------------------


def test_wrong_phase_in_card_actions() -> None:
    state = actions_state()
    for action in [
        (Kind.EXPAND, 12, 0),
        (Kind.RETURN_TILE, 12),
        (Kind.KEEP, 1, 1, 1, 0, 0),
        (Kind.GIVE_CARD, 2),
        (Kind.ANSWER, 1),
        (Kind.COMPLETE, 0),
        WITHDRAW,
    ]:
        assert refuse(state, 1, action) == Reason.WRONG_PHASE, action


def test_wrong_phase_in_expansion() -> None:
    state = new_game(Options(players=3, seed=9, starting_seat=0))
    hand = state.hands[0]
    card = next(k for k in range(5) if hand[k])
    pay = [0, 0, 0, 0, 0]
    pay[card] = 1
    for action in [
        PASS,
        (Kind.BANK_DRAW, *pay),
        (Kind.MOVE, 0, 32, *pay),
        (Kind.SHIP, 0, *pay),
        (Kind.KEEP, *pay),
        WITHDRAW,
        (Kind.PROPOSE, 0b110, *pay, 0, 0, 0, 0, 1),
    ]:
        assert refuse(state, 0, action) == Reason.WRONG_PHASE, action


def test_wrong_phase_in_keep() -> None:
    state = make_state(4, chips=FIRST_CHIPS, hands={0: "o o o o"})
    for seat in range(4):
        push(state, seat, PASS)
    assert state.phase == Phase.KEEP
    for action in [PASS, (Kind.BANK_DRAW, 1, 0, 0, 0, 0), (Kind.EXPAND, 12, 0)]:
        assert refuse(state, 0, action) == Reason.WRONG_PHASE, action


def test_wrong_phase_while_owing_a_card() -> None:
    state = make_state(4, chips={"23": "g"}, cities={"23": 1}, hands={0: "g g g g o"})
    push(state, 0, (Kind.MOVE, 0, 23, 0, 0, 4, 0, 0))
    assert state.phase == Phase.GIVE_CARD
    assert refuse(state, 0, PASS) == Reason.WRONG_PHASE
    assert refuse(state, 0, (Kind.BANK_DRAW, 1, 0, 0, 0, 0)) == Reason.WRONG_PHASE
    assert refuse(state, 1, (Kind.GIVE_CARD, 0)) == Reason.NOT_YOUR_TURN
    assert refuse(state, 0, (Kind.GIVE_CARD, 2)) == Reason.ILLEGAL  # holds no green now


def test_proposer_may_only_complete_or_withdraw() -> None:
    state = make_state(4, chips=FIRST_CHIPS, hands={0: "o o", 1: "y"})
    push(state, 0, (Kind.PROPOSE, 0b1110, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0))
    assert refuse(state, 0, PASS) == Reason.WRONG_PHASE
    assert refuse(state, 0, (Kind.BANK_DRAW, 1, 0, 0, 0, 0)) == Reason.WRONG_PHASE
    # Nobody has accepted: no one to complete with.
    refuse(state, 0, (Kind.COMPLETE, 1))
    push(state, 1, (Kind.ANSWER, 1))
    assert refuse(state, 0, (Kind.COMPLETE, 2)) == Reason.ILLEGAL  # seat 2 has not accepted
    # Seat 2 holds no yellow: it may only decline.
    assert refuse(state, 2, (Kind.ANSWER, 1)) == Reason.ILLEGAL
    assert refuse(state, 2, (Kind.ANSWER, 5)) == Reason.ILLEGAL


# Cannot afford -------------------------------------------------------------------------


def test_cannot_afford() -> None:
    state = actions_state()  # seat 1 holds g g y w
    for action in [
        (Kind.MOVE, 0, 22, 0, 0, 3, 0, 0),  # TY-31-27-22 costs 3 green: holds 2 (+1 wild)
        (Kind.MOVE, 0, 23, 0, 0, 4, 0, 0),
        (Kind.BANK_DRAW, 1, 0, 0, 0, 0),  # no orange
        (Kind.BANK_DRAW, 0, 0, 0, 0, 2),  # one wild only
        (Kind.PROPOSE, 0b0001, 0, 0, 0, 3, 0, 1, 0, 0, 0, 0),  # offers violet it lacks
    ]:
        assert refuse(state, 1, action) == Reason.CANNOT_AFFORD, action
    # what is short, said card by card
    with pytest.raises(IllegalActionError, match=r"you hold 1 wild, not 2$"):
        push(state, 1, (Kind.BANK_DRAW, 0, 0, 0, 0, 2))


def test_cannot_afford_a_ship() -> None:
    state = city_state()  # five ships in Tyros: a sixth costs 6 cards of any colours
    assert (Kind.SHIP, 0, 0, 0, 3, 3, 0) in legal_actions(state, 1)
    assert refuse(state, 1, (Kind.SHIP, 0, 0, 0, 0, 6, 0)) == Reason.CANNOT_AFFORD
    assert refuse(state, 1, (Kind.SHIP, 0, 2, 0, 2, 2, 0)) == Reason.CANNOT_AFFORD


def test_cannot_afford_a_city() -> None:
    state = actions_state()
    state.current = 2  # seat 2: a ship alone in 23 (green), five green cards
    assert (Kind.CITY, 23, 23, 0, 0, 5, 0, 0) in legal_actions(state, 2)
    assert refuse(state, 2, (Kind.CITY, 23, 23, 0, 0, 4, 0, 1)) == Reason.CANNOT_AFFORD
    assert refuse(state, 2, (Kind.CITY, 23, 23, 0, 0, 6, 0, 0)) == Reason.CANNOT_AFFORD


# Illegal ---------------------------------------------------------------------------------


def test_illegal_moves() -> None:
    state = actions_state()  # seat 1: g g y w; ships in Tyros
    for action in [
        (Kind.MOVE, 0, 31, 0, 0, 1, 0, 0),  # 31 has no chip
        (Kind.MOVE, 0, 27, 0, 0, 2, 0, 0),  # 27 is violet: green does not pay
        (Kind.MOVE, 0, 27, 0, 1, 0, 0, 1),  # 27 already holds two ships
        (Kind.MOVE, 0, 0, 0, 0, 0, 0, 0),  # not a move
        (Kind.MOVE, 0, 22, 0, 0, 2, 0, 0),  # costs 3, pays 2
        (Kind.MOVE, 0, 22, 0, 1, 2, 0, 1),  # pays 4 for 3 steps
        (Kind.MOVE, 23, 22, 0, 0, 1, 0, 0),  # the ship in 23 is seat 2's
        (Kind.MOVE, 0, 99, 0, 0, 1, 0, 0),  # no such port
    ]:
        assert refuse(state, 1, action) == Reason.ILLEGAL, action


def test_illegal_cities_and_ships() -> None:
    state = city_state()
    assert (Kind.CITY, 22, 22, 0, 0, 5, 0, 0) in legal_actions(state, 1)
    for action in [
        (Kind.CITY, 23, 23, 0, 0, 5, 0, 0),  # seat 2's ship, not seat 1's
        (Kind.CITY, 27, 27, 0, 0, 0, 5, 0),  # no ship of seat 1 there
        (Kind.CITY, 0, 0, 0, 0, 0, 5, 0),  # Tyros has no chip (and others' ships)
        (Kind.CITY, 22, 22, 0, 0, 0, 5, 0),  # 22 is green: violet does not pay
        (Kind.CITY, 22, 22, 0, 0, 4, 0, 0),  # one ship there: 5 cards
        (Kind.CITY, 22, 0, 0, 0, 5, 0, 0),  # the returning ship must stand in 22
        (Kind.SHIP, 22, 0, 0, 1, 0, 0),  # no city of seat 1 in 22
        (Kind.SHIP, 23, 0, 0, 1, 0, 0),  # nor in 23
        (Kind.SHIP, 0, 0, 0, 1, 0, 0),  # Tyros with 5 ships: 6 cards, not 1
    ]:
        assert refuse(state, 1, action) == Reason.ILLEGAL, action


def test_city_where_another_player_has_a_ship() -> None:
    state = city_state()
    state.ships[27 * 4 + 1] = 1  # seat 1 joins seats 0 and 3 in 27 (from its supply)
    state.ship_supply[1] -= 1
    assert refuse(state, 1, (Kind.CITY, 27, 27, 0, 0, 0, 5, 0)) == Reason.ILLEGAL


def test_illegal_expansion() -> None:
    state = make_state(
        4,
        phase=Phase.EXPAND,
        current=0,
        chips={"7": "o", "13": "y"},
        tiles={0: ["8", "30"], 1: ["12"]},
    )
    for action in [
        (Kind.EXPAND, 12, 0),  # seat 1's tile
        (Kind.EXPAND, 8, 1),  # 8 touches 7 (orange) and 3, 9, 12: no yellow
        (Kind.EXPAND, 30, 0),  # 30 touches no empire
        (Kind.EXPAND, 7, 0),  # not held, and already chipped
        (Kind.EXPAND, 8, 9),  # no such colour
        (Kind.EXPAND, 0, 0),  # Tyros is no tile
    ]:
        assert refuse(state, 0, action) == Reason.ILLEGAL, action


# An action of the current phase that happens to have no legal instance right now is
# illegal (or unaffordable), not "wrong phase": the phase is right.
ALWAYS_POSSIBLE_KINDS = [
    pytest.param(
        {"hands": {0: ""}, "chips": {**FIRST_CHIPS, "32": "o"}},
        (Kind.MOVE, 0, 32, 1, 0, 0, 0, 0),
        Reason.CANNOT_AFFORD,
        id="move-with-an-empty-hand",
    ),
    pytest.param(
        {"hands": {0: "o o o y"}, "chips": FIRST_CHIPS},
        (Kind.BANK_PICK, 2, 3, 0, 0, 0, 0),
        Reason.ILLEGAL,
        id="bank-pick-with-an-empty-discard-pile",
    ),
    pytest.param(
        {"hands": {0: "g g g g g"}, "chips": FIRST_CHIPS},
        (Kind.CITY, 23, 23, 0, 0, 5, 0, 0),
        Reason.ILLEGAL,
        id="city-where-no-city-is-possible",
    ),
    pytest.param(
        {"hands": {0: "g g g g g"}, "chips": FIRST_CHIPS},
        (Kind.SHIP, 0, 0, 0, 3, 0, 0),
        Reason.ILLEGAL,
        id="ship-in-tyros-with-two-own-ships-there",
    ),
    pytest.param(
        {"phase": Phase.EXPAND, "chips": {"7": "o"}, "tiles": {0: ["8", "30"], 1: ["12"]}},
        (Kind.RETURN_TILE, 30),
        Reason.ILLEGAL,
        id="return-tile-when-a-tile-can-be-played",
    ),
]


@pytest.mark.parametrize(("kwargs", "action", "reason"), ALWAYS_POSSIBLE_KINDS)
def test_action_of_the_current_phase_is_not_wrong_phase(
    kwargs: dict[str, Any], action: tuple[int, ...], reason: Reason
) -> None:
    state = make_state(4, **kwargs)
    assert state.current == 0
    assert refuse(state, 0, action) == reason


def test_illegal_proposals() -> None:
    state = make_state(4, chips=FIRST_CHIPS, hands={0: "o o", 1: "y"})
    for action in [
        (Kind.PROPOSE, 0b0001, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0),  # asks itself
        (Kind.PROPOSE, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0),  # asks nobody
        (Kind.PROPOSE, 0b10000, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0),  # no seat 4
        (Kind.PROPOSE, 0b0010, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),  # moves nothing
        (Kind.PROPOSE, 0b0010, 0, 0, 0, 0, 0, 0, 15, 0, 0, 0),  # more yellow than exists
        (Kind.PROPOSE, 0b0010, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0),  # negative count
    ]:
        assert refuse(state, 0, action) == Reason.ILLEGAL, action


def test_second_proposal_in_a_turn() -> None:
    state = make_state(4, chips=FIRST_CHIPS, hands={0: "o o", 1: "y"})
    proposal = (Kind.PROPOSE, 0b0010, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0)
    push(state, 0, proposal)
    push(state, 0, WITHDRAW)
    assert state.phase == Phase.ACTIONS and state.current == 0
    assert refuse(state, 0, proposal) == Reason.TRADE_ALREADY_TRIED
    push(state, 0, PASS)  # another action is fine
    assert state.current == 1


# Malformed --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        (),
        (99,),
        (-1,),
        (len(Kind),),
        (int(Kind.PASS), 0),  # too long
        (int(Kind.EXPAND), 12),  # too short
        (int(Kind.MOVE), 0, 23, 0, 0, 4, 0),
        ("pass",),
        (0.0,),
        (True,),
        (int(Kind.EXPAND), "12", 0),
        (int(Kind.EXPAND), 12, None),
        [0],
        None,
        "pass",
        0,
        {"kind": "pass"},
    ],
)
def test_malformed_tuples(action: Any) -> None:
    state = actions_state()
    assert refuse(state, 1, action) == Reason.MALFORMED


def test_negative_or_huge_counts_are_refused() -> None:
    state = actions_state()
    for action in [
        (Kind.BANK_DRAW, -1, 0, 2, 0, 0),
        (Kind.MOVE, 0, 22, 0, 0, 4, 0, -1),
        (Kind.KEEP, -1, 0, 4, 0, 0),
        (Kind.BANK_DRAW, 10**20, 0, 0, 0, 0),
        (Kind.GIVE_CARD, -3),
    ]:
        refuse(state, 1, action)


# Game over ----------------------------------------------------------------------------


def test_game_over_refuses_everything() -> None:
    state = make_state(4, chips=FIRST_CHIPS, hands={0: "o o"}, tiles={0: [], 1: ["1"]})
    for seat in range(4):
        push(state, seat, PASS)
    assert state.phase == Phase.OVER
    assert seats_to_act(state) == []
    for seat in (0, 1, 2, 3, 9):
        for action in [PASS, (Kind.BANK_DRAW, 1, 0, 0, 0, 0), (Kind.KEEP, 2, 0, 0, 0, 0), ()]:
            assert refuse(state, seat, action) == Reason.GAME_OVER


# Robustness: random garbage never crashes and never changes the state ------------------


def test_random_tuples_are_refused_cleanly() -> None:
    rng = random.Random(5)
    states = [
        actions_state(),
        new_game(Options(players=3, seed=2)),
        make_state(4, phase=Phase.EXPAND, chips={"7": "o"}, tiles={0: ["8", "30"], 1: ["12"]}),
    ]
    lengths = {
        0: 1,
        1: 3,
        2: 2,
        3: 8,
        4: 8,
        5: 7,
        6: 6,
        7: 7,
        8: 12,
        9: 2,
        10: 2,
        11: 1,
        12: 2,
        13: 6,
        14: 11,
    }
    refused = 0
    for state in states:
        for _ in range(400):
            kind = rng.randrange(len(Kind))
            action = (kind, *(rng.randrange(-2, 35) for _ in range(lengths[kind] - 1)))
            seat = rng.choice([*seats_to_act(state), rng.randrange(-1, 5)])
            snapshot = state.copy()
            try:
                check_action(state, seat, action)
            except IllegalActionError as err:
                assert isinstance(err.reason, Reason)
                assert state.fingerprint() == snapshot.fingerprint()
                refused += 1
                continue
            # Accepted: it must be a listed legal action (or a valid proposal).
            assert kind == Kind.PROPOSE or action in legal_actions(state, seat)
    assert refused > 1000


def test_every_legal_action_is_accepted() -> None:
    for state in (actions_state(), city_state()):
        for action in legal_actions(state, 1):
            copy = state.copy(keep_log=True)
            push(copy, 1, action)
            assert copy.version == state.version + 1


# parse_action ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "pass",
        ["kind", "pass"],
        42,
        {},
        {"kind": None},
        {"kind": "fly"},
        {"kind": "PASS "},
        {"kind": 0},
        {"kind": "pass", "extra": 1},
        {"kind": "expand", "tile": "12"},
        {"kind": "expand", "tile": 12, "colour": "orange"},
        {"kind": "expand", "tile": "12", "colour": "pink"},
        {"kind": "expand", "tile": "~~", "colour": "orange"},
        {"kind": "expand", "tile": "33", "colour": "orange"},
        {"kind": "return_tile", "tile": None},
        {"kind": "move", "from": "TY", "to": "16", "pay": ["green"]},  # which coast?
        {"kind": "move", "from": "TY", "to": "23", "pay": "green green"},
        {"kind": "move", "from": "TY", "to": "23", "pay": ["green", "gold"]},
        {"kind": "move", "from": "TY", "to": "23", "pay": [1, 2]},
        {"kind": "move", "from": "TY", "to": "23", "pay": ["green"] * 61},
        {"kind": "move", "from": "TY", "to": "23"},
        {"kind": "city", "space": "23", "pay": ["green"] * 5},
        {"kind": "ship", "space": "23", "pay": None},
        {"kind": "bank_draw", "pay": [None]},
        {"kind": "bank_pick", "pay": ["orange"] * 3, "take": "rainbow"},
        {"kind": "bank_pick", "pay": ["orange"] * 3, "take": ["green"]},
        {"kind": "propose", "to": [], "give": ["orange"], "get": ["green"]},
        {"kind": "propose", "to": 1, "give": ["orange"], "get": ["green"]},
        {"kind": "propose", "to": [4], "give": ["orange"], "get": ["green"]},
        {"kind": "propose", "to": [True], "give": ["orange"], "get": ["green"]},
        {"kind": "propose", "to": ["1"], "give": ["orange"], "get": ["green"]},
        {"kind": "propose", "to": [1], "give": ["orange"]},
        {"kind": "answer", "accept": 1},
        {"kind": "answer", "accept": "yes"},
        {"kind": "complete", "with": 1.0},
        {"kind": "complete", "with": -1},
        {"kind": "complete", "with": None},
        {"kind": "give_card", "card": 4},
        {"kind": "give_card", "card": "joker"},
        {"kind": "keep", "cards": {"orange": 3}},
        {"kind": "withdraw", "accept": True},
    ],
)
def test_parse_action_rejects_malformed_objects(data: Any) -> None:
    with pytest.raises(IllegalActionError) as err:
        parse_action(data, BOARD)
    assert err.value.reason == Reason.MALFORMED


@pytest.mark.parametrize("kind", [["pass"], {"name": "pass"}])
def test_parse_action_rejects_unhashable_kinds(kind: Any) -> None:
    """A JSON array or object as ``kind`` is malformed input, not a crash (TypeError)."""
    with pytest.raises(IllegalActionError) as err:
        parse_action({"kind": kind}, BOARD)
    assert err.value.reason == Reason.MALFORMED


def test_parse_action_round_trips_every_legal_action() -> None:
    states = [actions_state(), city_state(), new_game(Options(players=4, seed=3))]
    trade = make_state(4, chips=FIRST_CHIPS, hands={0: "o", 1: "y", 2: "g"})  # 2 may counter
    push(trade, 0, (Kind.PROPOSE, 0b0110, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0))
    push(trade, 1, (Kind.ANSWER, 1))
    states.append(trade)
    states.append(make_state(4, chips=FIRST_CHIPS, hands={0: "o o y"}, discard="g v"))
    states.append(
        make_state(4, phase=Phase.EXPAND, chips={"7": "o"}, tiles={0: ["30", "16"], 1: ["12"]})
    )
    owing = make_state(4, chips={"23": "g"}, cities={"23": 1}, hands={0: "g g g g o w"})
    push(owing, 0, (Kind.MOVE, 0, 23, 0, 0, 4, 0, 0))
    states.append(owing)
    keep = make_state(3, chips=FIRST_CHIPS, hands={0: "o o y g w"})
    for seat in range(3):
        push(keep, seat, PASS)
    states.append(keep)
    seen_kinds = set()
    for state in states:
        for seat in seats_to_act(state):
            for action in legal_actions(state, seat):
                assert parse_action(action_to_json(action, BOARD), BOARD) == action
                seen_kinds.add(action[0])
    assert seen_kinds == set(Kind)


def test_errors_are_engine_errors_and_value_errors() -> None:
    state = actions_state()
    with pytest.raises(EngineError):
        push(state, 0, PASS)
    with pytest.raises(ValueError):
        push(state, 0, PASS)
    err = IllegalActionError(Reason.ILLEGAL, "nope")
    assert err.reason is Reason.ILLEGAL
    assert "illegal_action" in repr(err)
