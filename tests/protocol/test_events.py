"""The typed events: every event the engine shows validates as its model, each carries the
version it belongs to, and the fields the schema marks *seat only* are exactly those the
view gate keeps from the other seats."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError
from tyros_protocol.events import ActionTaken, Event, KeepSeen
from tyros_protocol.messages import protocol_schema
from tyros_rules import (
    GameState,
    Options,
    Phase,
    event_versions,
    event_view,
    legal_actions,
    new_game,
    push,
    seats_to_act,
    view,
)
from tyros_rules.actions import PASS

EVENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(Event)


def random_game(seed: int, players: int, setup: str) -> GameState:
    """A seeded random game; odd seeds pass half the time, so that hands grow past 3 and
    seats keep cards at the ends of rounds (random play spends its cards)."""
    state = new_game(Options(players=players, setup=setup, seed=seed))
    rng = random.Random(seed)
    for _ in range(20_000):
        if state.phase == Phase.OVER:
            return state
        seat = seats_to_act(state)[0]
        legal = legal_actions(state, seat)
        if seed % 2 and PASS in legal and rng.random() < 0.5:
            push(state, seat, PASS)
        else:
            push(state, seat, rng.choice(legal))
    raise AssertionError("the game did not end")


GAMES = [(1, 3, "first"), (2, 4, "variable"), (3, 4, "first"), (4, 3, "variable")]


@pytest.mark.parametrize(("seed", "players", "setup"), GAMES)
def test_every_shown_event_validates_as_its_model(seed: int, players: int, setup: str) -> None:
    state = random_game(seed, players, setup)
    log = state.log or []
    versions = event_versions(log, state.version)
    types: set[str] = set()
    for event, version in zip(log, versions, strict=True):
        for viewer in (*range(players), None):
            shown = event_view(event, viewer, version)
            if shown is None:
                continue
            model = EVENT_ADAPTER.validate_json(json.dumps(shown))
            assert model.version == version
            assert model.model_dump(by_alias=True, exclude_none=True) == shown
            types.add(shown["type"])
    assert {"action", "cards_dealt", "tiles_dealt", "round_end", "game_end"} <= types
    # Every event type has a model, and no model is for a type the engine never shows.
    assert types <= set(seat_only_fields())


@pytest.mark.parametrize(("seed", "players", "setup"), GAMES)
def test_versions_count_the_decisions(seed: int, players: int, setup: str) -> None:
    state = random_game(seed, players, setup)
    log = state.log or []
    versions = event_versions(log, state.version)
    assert versions[0] == 0 and versions[-1] == state.version
    assert versions == sorted(versions)
    decisions = [at for at, event in enumerate(log) if event["type"] == "action"]
    assert [versions[at] for at in decisions] == list(range(1, state.version + 1))
    # A suffix gets the same versions as the whole log: a resync's events agree.
    assert event_versions(log[-200:], state.version) == versions[-200:]


def seat_only_fields() -> dict[str, set[str]]:
    """Event type -> the fields the schema marks seat only (the action's, as action.*)."""
    defs = protocol_schema()["$defs"]
    out: dict[str, set[str]] = {}
    for model in defs.values():
        props = model.get("properties", {})
        kind = props.get("type", {}).get("const")
        if kind is None or "version" not in props:
            continue
        out[kind] = {name for name, prop in props.items() if prop.get("x-seat-only")}
    for name in ("GiveCardSeen", "KeepSeen"):
        props = defs[name]["properties"]
        out["action"] |= {f"action.{f}" for f, prop in props.items() if prop.get("x-seat-only")}
    return out


def flat_fields(event: dict[str, Any]) -> set[str]:
    fields = set(event)
    if isinstance(event.get("action"), dict):
        fields |= {f"action.{name}" for name in event["action"]}
    return fields


def test_seat_only_fields_are_what_the_gate_keeps_from_the_others() -> None:
    marked = seat_only_fields()
    hidden_seen: dict[str, set[str]] = {kind: set() for kind in marked}
    for seed, players, setup in GAMES:
        state = random_game(seed, players, setup)
        for event in state.log or []:
            public = event_view(event, None)
            if public is None:
                continue
            for viewer in range(players):
                shown = event_view(event, viewer)
                assert shown is not None
                hidden = flat_fields(shown) - flat_fields(public)
                assert hidden <= marked[shown["type"]], (shown, hidden)
                hidden_seen[shown["type"]] |= hidden
    # No field is marked that these games never hid (a card given to a city owner is rare
    # in random games: the engine's own view tests cover it).
    for kind, fields in marked.items():
        assert fields <= hidden_seen[kind] | {"action.card", "to"}, kind
    assert {"cards_dealt", "tiles_dealt", "tile_drawn", "cards_drawn", "action"} <= {
        kind for kind, fields in hidden_seen.items() if fields
    }


def test_another_seats_keep_validates_and_a_bare_action_does_not() -> None:
    seen = EVENT_ADAPTER.validate_python(
        {"type": "action", "version": 3, "seat": 1, "action": {"kind": "keep"}}
    )
    assert isinstance(seen, ActionTaken) and isinstance(seen.action, KeepSeen)
    with pytest.raises(ValidationError):  # every event says its version
        EVENT_ADAPTER.validate_python({"type": "round_end", "round": 1})
    with pytest.raises(ValidationError):  # a public field may not go missing
        EVENT_ADAPTER.validate_python(
            {"type": "action", "version": 3, "seat": 1, "action": {"kind": "move"}}
        )


def test_the_json_schema_accepts_every_event_and_refuses_a_missing_version() -> None:
    """The schema an outside client reads (not only the pydantic models) takes every
    event as the server sends it."""
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(protocol_schema())
    state = random_game(5, 4, "variable")
    log = state.log or []
    versions = event_versions(log, state.version)
    for viewer in (0, None):
        events = [
            shown
            for event, version in zip(log, versions, strict=True)
            if (shown := event_view(event, viewer, version)) is not None
        ]
        update = {
            "type": "update",
            "version": state.version,
            "events": events,
            "view": view(state, viewer),
            "prompt": None,
        }
        validator.validate(json.loads(json.dumps(update)))
        unversioned = {
            **update,
            "events": [{k: v for k, v in events[-1].items() if k != "version"}],
        }
        assert not validator.is_valid(unversioned)
