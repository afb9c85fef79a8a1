"""Who sees what: state views and event views per seat and for spectators.

Rules: RULINGS.md "Who sees what (hidden information)". Private to its owner: the cards and
tiles in a hand, cards drawn from the draw pile, the card given to a city owner (giver and
receiver). Known to nobody: the order of the draw pile and of the tile pile. Public:
everything else (board, counts, supplies, discard pile, cards spent, trades, revealed tiles,
end-of-round discards, score).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tyros_protocol.board import BOARD
from tyros_protocol.cards import CARD_NAMES, names_from_counts
from tyros_rules import (
    GameState,
    Kind,
    Options,
    Phase,
    event_view,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)
from tyros_rules.actions import PASS

from tests.rules.builders import make_state

# Event fields that are private to the event's seat (and its counterpart ``to``).
PRIVATE_EVENT_FIELDS = {
    "cards_dealt": "cards",
    "tiles_dealt": "tiles",
    "tile_drawn": "tile",
    "cards_drawn": "cards",
}
PRIVATE_ACTION_FIELDS = {"give_card": "card", "keep": "cards"}
HIDDEN_EVENTS = {"shuffle"}

FIRST_CHIPS = {"7": "o", "13": "y", "23": "g", "26": "v"}


def viewers(players: int) -> list[int | None]:
    return [None, *range(players)]


def concerned(event: dict[str, Any], viewer: int | None) -> bool:
    return viewer is not None and viewer in (event.get("seat"), event.get("to"))


def private_part(event: dict[str, Any]) -> tuple[str, ...]:
    """The path of the event's private field, or () if the event has none."""
    if event["type"] in PRIVATE_EVENT_FIELDS:
        return (PRIVATE_EVENT_FIELDS[event["type"]],)
    if event["type"] == "action" and event["action"]["kind"] in PRIVATE_ACTION_FIELDS:
        return ("action", PRIVATE_ACTION_FIELDS[event["action"]["kind"]])
    return ()


def get_path(data: dict[str, Any], path: tuple[str, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def without(data: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any]:
    out = dict(data)
    if len(path) == 1:
        out.pop(path[0], None)
    else:
        out[path[0]] = without(out[path[0]], path[1:])
    return out


def replaced(data: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    out = dict(data)
    if len(path) == 1:
        out[path[0]] = value
    else:
        out[path[0]] = replaced(out[path[0]], path[1:], value)
    return out


def other_value(value: Any) -> Any:
    """A value of the same shape that differs (for non-interference checks)."""
    if isinstance(value, list):
        return [other_value(value[0]), *value[1:]] if value else ["wild"]
    if value in CARD_NAMES:
        return "orange" if value != "orange" else "violet"
    return "1" if value != "1" else "2"


def contains(data: Any, target: Any) -> bool:
    """Whether ``target`` is ``data`` or sits anywhere inside it (dict keys included)."""
    if type(data) is type(target) and data == target:
        return True
    if isinstance(data, dict):
        return any(contains(k, target) or contains(v, target) for k, v in data.items())
    if isinstance(data, list | tuple):
        return any(contains(x, target) for x in data)
    return False


def strings_in(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        out: set[str] = set()
        for k, v in data.items():
            out |= strings_in(k) | strings_in(v)
        return out
    if isinstance(data, list | tuple):
        out = set()
        for x in data:
            out |= strings_in(x)
        return out
    return set()


def perturbed(state: GameState, seat: int) -> GameState:
    """A copy where ``seat``'s secret cards and unrevealed tiles differ, all else equal.

    Cards are swapped with the draw pile and tiles with the tile pile, so that only
    things nobody else may know change.
    """
    new = state.copy(keep_log=True)
    hand = list(new.hands[seat])
    for i, card in enumerate(new.draw_pile):
        held = [k for k in range(5) if hand[k] and k != card]
        if held:
            hand[held[0]] -= 1
            hand[card] += 1
            new.draw_pile[i] = held[0]
            break
    new.hands[seat] = tuple(hand)  # type: ignore[assignment]
    secret = [t for t in new.tiles[seat] if t not in new.revealed[seat]]
    if secret and new.tile_pile:
        mine, theirs = secret[0], new.tile_pile[0]
        new.tile_pile[0] = mine
        new.tiles[seat] = tuple(sorted([theirs, *(t for t in new.tiles[seat] if t != mine)]))
    return new


def check_state_views(state: GameState) -> None:
    """Every seat's view shows its own secrets and nothing of another's."""
    views = {v: view(state, v) for v in viewers(state.players)}
    spectator = views[None]
    assert "hand" not in spectator and "tiles" not in spectator
    for seat in range(state.players):
        own = views[seat]
        assert own["hand"] == names_from_counts(state.hands[seat])
        assert own["tiles"] == [BOARD.space_label(t) for t in state.tiles[seat]]
        # Apart from its own hand and tiles, a seat sees what a spectator sees.
        assert {k: v for k, v in own.items() if k not in ("hand", "tiles", "viewer")} == {
            k: v for k, v in spectator.items() if k != "viewer"
        }
        # Counts are public.
        info = spectator["seats"][seat]
        assert info["cards"] == sum(state.hands[seat])
        assert info["tiles"] == len(state.tiles[seat])
        # No trace of this seat's secret tiles in any other view.
        secret_tiles = {
            BOARD.space_label(t) for t in state.tiles[seat] if t not in state.revealed[seat]
        }
        hand_list = names_from_counts(state.hands[seat])
        for other in viewers(state.players):
            if other == seat:
                continue
            shown = dict(views[other])
            if other is not None:
                shown.pop("hand")
                shown.pop("tiles")
            assert not secret_tiles & strings_in(shown), (seat, other)
            if len(hand_list) >= 2:
                assert not contains(shown, hand_list), (seat, other)
        # Non-interference: changing this seat's secrets changes no other view.
        changed = perturbed(state, seat)
        for other in viewers(state.players):
            if other != seat:
                assert view(changed, other) == views[other], (seat, other)


def normalised(event: dict[str, Any]) -> dict[str, Any]:
    """The event with a give_card's recipient (``to``) inside its action, where views put it."""
    if event.get("type") != "action" or "to" not in event:
        return event
    out = {k: v for k, v in event.items() if k != "to"}
    out["action"] = {**event["action"], "to": event["to"]}
    return out


def check_event(event: dict[str, Any], players: int) -> None:
    """An event shows its private part to the seats it concerns only; the rest to all."""
    if event["type"] in HIDDEN_EVENTS:
        for v in viewers(players):
            assert event_view(event, v) is None
        return
    path = private_part(event)
    for v in viewers(players):
        shown = event_view(event, v)
        assert shown is not None
        if not path:
            assert normalised(shown) == normalised(event), (event, v)
            continue
        if concerned(event, v):
            assert normalised(shown) == normalised(event), (event, v)
            continue
        secret = get_path(event, path)
        assert normalised(shown) == normalised(without(event, path)), (event, v)
        if isinstance(secret, list) and len(secret) >= 2:
            assert not contains(shown, secret)
        # Non-interference: another secret value shows the same to this viewer.
        assert event_view(replaced(event, path, other_value(secret)), v) == shown


# Explicit scenarios ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_new_game_views(players: int) -> None:
    state = new_game(Options(players=players, setup="variable", seed=7))
    check_state_views(state)
    spectator = view(state, None)
    assert spectator["viewer"] is None
    assert spectator["draw_pile"] == len(state.draw_pile)
    assert spectator["tile_pile"] == len(state.tile_pile)
    assert all(s["revealed_tiles"] == [] for s in spectator["seats"])
    assert all(
        s["ships_in_supply"] == 8 and s["cities_in_supply"] == 10 for s in spectator["seats"]
    )
    assert state.log is not None
    for event in state.log:
        check_event(event, players)


def test_dealt_cards_and_tiles_are_seen_by_their_seat_only() -> None:
    state = new_game(Options(players=4, seed=3, starting_seat=0))
    assert state.log is not None
    dealt = [e for e in state.log if e["type"] == "cards_dealt"]
    tiles = [e for e in state.log if e["type"] == "tiles_dealt"]
    assert len(dealt) == len(tiles) == 4
    for e in dealt:
        seat = e["seat"]
        assert event_view(e, seat) == {
            "type": "cards_dealt",
            "seat": seat,
            "count": 10,
            "cards": names_from_counts(state.hands[seat]),
        }
        for other in (None, *(s for s in range(4) if s != seat)):
            assert event_view(e, other) == {"type": "cards_dealt", "seat": seat, "count": 10}
    for e in tiles:
        seat = e["seat"]
        assert event_view(e, seat) == {
            "type": "tiles_dealt",
            "seat": seat,
            "count": 4,
            "tiles": [BOARD.space_label(t) for t in state.tiles[seat]],
        }
        for other in (None, *(s for s in range(4) if s != seat)):
            assert event_view(e, other) == {"type": "tiles_dealt", "seat": seat, "count": 4}


def test_shuffle_events_are_invisible_to_everyone() -> None:
    state = new_game(Options(players=4, setup="variable", seed=12))
    assert state.log is not None
    shuffles = [e for e in state.log if e["type"] == "shuffle"]
    assert len(shuffles) == 3  # start tiles, the remaining tiles, the cards
    for e in shuffles:
        for v in viewers(4):
            assert event_view(e, v) is None


def test_pile_orders_never_appear() -> None:
    state = new_game(Options(players=4, seed=5))
    before = {v: view(state, v) for v in viewers(4)}
    other = state.copy(keep_log=True)
    random.Random(1).shuffle(other.draw_pile)
    other.draw_pile.reverse()
    random.Random(2).shuffle(other.tile_pile)
    other.tile_pile.reverse()
    assert other.draw_pile != state.draw_pile
    assert other.tile_pile != state.tile_pile
    for v in viewers(4):
        assert view(other, v) == before[v]
        assert before[v]["draw_pile"] == len(state.draw_pile)
        assert before[v]["tile_pile"] == len(state.tile_pile)


def test_bank_draw_shows_the_cards_to_the_drawer_only() -> None:
    state = make_state(4, chips=FIRST_CHIPS, hands={0: "o y"}, draw_pile="g v w")
    push(state, 0, (Kind.BANK_DRAW, 1, 1, 0, 0, 0))
    assert state.hands[0] == (0, 0, 0, 1, 1)
    assert state.log is not None
    action, drawn = state.log[-2], state.log[-1]
    assert drawn == {"type": "cards_drawn", "seat": 0, "count": 2, "cards": ["violet", "wild"]}
    # The payment is public, the cards drawn are not.
    for v in viewers(4):
        assert event_view(action, v) == action
        expected = drawn if v == 0 else {"type": "cards_drawn", "seat": 0, "count": 2}
        assert event_view(drawn, v) == expected


def test_card_given_to_a_city_owner_is_seen_by_giver_and_receiver_only() -> None:
    state = make_state(
        4, chips={"23": "g", "7": "o"}, cities={"23": 1}, hands={0: "g g g g o w", 1: "y"}
    )
    push(state, 0, (Kind.MOVE, 0, 23, 0, 0, 4, 0, 0))
    assert state.phase == Phase.GIVE_CARD
    assert seats_to_act(state) == [0]
    for v in viewers(4):
        assert view(state, v)["owed_to"] == 1
    assert sorted(legal_actions(state, 0)) == [(Kind.GIVE_CARD, 0), (Kind.GIVE_CARD, 4)]
    push(state, 0, (Kind.GIVE_CARD, 4))
    assert state.hands[0] == (1, 0, 0, 0, 0)
    assert state.hands[1] == (0, 1, 0, 0, 1)
    assert state.log is not None
    given = state.log[-1]
    assert given["action"] == {"kind": "give_card", "card": "wild"}
    assert given["to"] == 1
    for v in (0, 1):
        shown = event_view(given, v)
        assert shown is not None and shown["action"]["card"] == "wild"
    for v in (None, 2, 3):
        shown = event_view(given, v)
        assert shown is not None
        assert "card" not in shown["action"]
        assert shown["seat"] == 0
        assert normalised(shown)["action"]["to"] == 1
        assert not contains(shown, "wild")
    check_event(given, 4)
    check_state_views(state)


def test_kept_cards_private_discards_public() -> None:
    state = make_state(4, chips=FIRST_CHIPS, hands={2: "o o y g v w"}, current=0)
    for seat in range(4):
        push(state, seat, PASS)
    assert state.phase == Phase.KEEP
    check_state_views(state)
    push(state, 2, (Kind.KEEP, 1, 0, 1, 0, 1))
    assert state.log is not None
    keep = next(e for e in state.log if e["type"] == "action" and e["action"]["kind"] == "keep")
    discarded = next(e for e in state.log if e["type"] == "cards_discarded")
    assert discarded["cards"] == ["orange", "yellow", "violet"]
    for v in viewers(4):
        assert event_view(discarded, v) == discarded
        shown = event_view(keep, v)
        assert shown is not None
        if v == 2:
            assert shown["action"]["cards"] == ["orange", "green", "wild"]
        else:
            assert shown["action"] == {"kind": "keep"}
    check_event(keep, 4)


def test_revealed_tiles_are_public_other_tiles_secret() -> None:
    state = make_state(
        4,
        phase=Phase.EXPAND,
        current=1,
        chips={"1": "o"},
        tiles={0: ["2", "3"], 1: ["20", "29"], 2: ["12"], 3: ["14"]},
    )
    state.revealed[1] = (20,)
    for v in viewers(4):
        shown = view(state, v)
        assert shown["seats"][1]["revealed_tiles"] == ["20"]
        if v != 1:
            assert "29" not in strings_in(shown)
    check_state_views(state)


def test_trade_proposals_and_results_are_public() -> None:
    state = make_state(3, chips=FIRST_CHIPS, hands={0: "o o", 1: "y y", 2: "g"})
    push(state, 0, (Kind.PROPOSE, 0b110, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0))
    for v in viewers(3):
        trade = view(state, v)["trade"]
        assert trade == {
            "proposer": 0,
            "to": [1, 2],
            "give": ["orange"],
            "get": ["yellow"],
            "answers": [{"seat": 1, "answer": "pending"}, {"seat": 2, "answer": "pending"}],
        }
    push(state, 1, (Kind.ANSWER, 1))
    push(state, 0, (Kind.COMPLETE, 1))
    assert state.log is not None
    for event in state.log:
        check_event(event, 3)
    completed = state.log[-1]
    assert completed["type"] == "trade_completed"
    for v in viewers(3):
        assert event_view(completed, v) == completed


# Random games ----------------------------------------------------------------------------


def random_game(seed: int, players: int, setup: str) -> list[GameState]:
    """Play a seeded random game; return a snapshot after every action."""
    rng = random.Random(seed)
    state = new_game(Options(players=players, setup=setup, seed=seed))
    snapshots = [state.copy(keep_log=True)]
    for _ in range(2000):
        if state.phase == Phase.OVER:
            break
        seat = rng.choice(seats_to_act(state))
        if state.phase == Phase.ACTIONS and rng.random() < 0.3:
            action = PASS
        else:
            action = rng.choice(legal_actions(state, seat))
        push(state, seat, action)
        snapshots.append(state.copy(keep_log=True))
    assert state.phase == Phase.OVER
    return snapshots


@pytest.mark.parametrize(
    ("seed", "players", "setup"),
    [(1, 4, "first"), (2, 3, "variable"), (3, 4, "variable"), (4, 3, "first")],
)
def test_no_leaks_in_random_games(seed: int, players: int, setup: str) -> None:
    snapshots = random_game(seed, players, setup)
    for state in snapshots[::3]:
        check_state_views(state)
    check_state_views(snapshots[-1])
    log = snapshots[-1].log
    assert log is not None
    kinds = set()
    for event in log:
        check_event(event, players)
        kinds.add(event["type"])
    # The game went through the events that carry secrets.
    assert {"cards_dealt", "tiles_dealt", "tile_drawn", "cards_drawn", "shuffle"} <= kinds
