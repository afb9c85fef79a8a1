"""The catalogue agrees with the protocol's models and the engine: one entry for every action
kind and event type and none besides, its fields the models' fields, its seat-only marks the
schema's, and every event the engine logs built with the entry's fields in its order."""

from __future__ import annotations

from typing import Any

import pytest
from tyros_protocol.catalogue import ACTIONS, EVENTS, event
from tyros_rules import Kind
from tyros_rules.actions import CARD as ONE_CARD
from tyros_rules.actions import CARDS, COLOUR, FLAG, PORT, SEAT, SEATS, SPACE

from tests.protocol.test_events import GAMES, random_game, seat_only_fields
from tests.protocol.test_words import ACTIONS as ACTION_MODELS
from tests.protocol.test_words import EVENTS as EVENT_MODELS
from tests.protocol.test_words import fields

ADDED_BY_THE_SERVER = {"type", "version", "by"}
"""Fields of an event model that no entry names: its tag, and what the server adds."""


def test_every_action_kind_and_event_type_has_one_entry_and_nothing_else_does() -> None:
    assert sorted(ACTIONS) == sorted(ACTION_MODELS) == sorted(k.name.lower() for k in Kind)
    assert sorted(EVENTS) == sorted(EVENT_MODELS)


@pytest.mark.parametrize("kind", sorted(ACTION_MODELS))
def test_an_actions_fields_are_its_models(kind: str) -> None:
    entry = ACTIONS[kind]
    assert set(entry.wire) == set(entry.layout) == fields(ACTION_MODELS[kind]) - {"kind"}
    assert len(entry.layout) == len(set(entry.layout))
    known = {SPACE, PORT, COLOUR, ONE_CARD, CARDS, SEATS, SEAT, FLAG}
    assert all(f.type in known for f in entry.fields), kind


@pytest.mark.parametrize("type_", sorted(EVENT_MODELS))
def test_an_events_fields_and_seat_only_marks_are_its_models(type_: str) -> None:
    entry = EVENTS[type_]
    assert set(entry.names) == fields(EVENT_MODELS[type_]) - ADDED_BY_THE_SERVER
    assert all(f.type == "" for f in entry.fields)
    assert set(entry.seat_only) == {
        name for name in seat_only_fields()[type_] if not name.startswith("action.")
    }


def test_an_actions_seat_only_marks_are_those_of_the_action_as_others_see_it() -> None:
    marked = {name.removeprefix("action.") for name in seat_only_fields()["action"]} - {"to"}
    assert {f.name for entry in ACTIONS.values() for f in entry.fields if f.seat_only} == marked


def test_an_event_is_built_with_exactly_its_entrys_fields() -> None:
    assert event("round_end", 3) == {"type": "round_end", "round": 3}
    with pytest.raises(ValueError):
        event("round_end", 3, 4)
    with pytest.raises(KeyError):
        event("a_new_event", 3)


def logged(games: list[tuple[int, int, str]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for seed, players, setup in games:
        out.extend(random_game(seed, players, setup).log or [])
    return out


def test_every_event_the_engine_logs_has_its_entrys_fields_in_order() -> None:
    seen: set[str] = set()
    for logged_event in logged(GAMES):
        type_ = logged_event["type"]
        if type_ == "shuffle":  # (the record's alone: nobody is shown it)
            continue
        names = EVENTS[type_].names
        if type_ == "action" and logged_event["action"]["kind"] != "give_card":
            names = names[:2]  # (the receiver is a card's alone)
        assert list(logged_event) == ["type", *names], logged_event
        seen.add(type_)
    assert len(seen) >= 14
