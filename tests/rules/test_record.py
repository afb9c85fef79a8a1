"""Game records: JSON documents listing every chance outcome and decision, and replay.

The completeness test does not trust the engine: its referee (``books.py``) rebuilds
every hand, pile and discard pile from the record's events alone (shuffles, deals, draws,
decisions) and compares the result with the final state. A chance outcome missing from the record,
or a decision whose effect the record cannot explain, makes the books disagree.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from tyros_protocol.board import BOARD
from tyros_protocol.cards import COLOUR_NAMES
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

from .books import audit
from .invariants import check_invariants, check_score

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


# Completeness: rebuild the game's books from the record alone (books.py) -------------


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
