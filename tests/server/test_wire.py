"""The server's encoder: the text json would give, each shared piece encoded once."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from tyros_protocol.board import BOARD
from tyros_rules import (
    Options,
    action_to_json,
    legal_actions,
    new_game,
    push_unchecked,
    seats_to_act,
)
from tyros_rules.views import SeatView, view
from tyros_server import wire
from tyros_server.wire import Encoder


def compact(message: Any) -> str:
    return json.dumps(message, separators=(",", ":"))


def same_json(text: str, message: dict[str, Any]) -> bool:
    """Exactly the text json gives (keys in the same order)."""
    return text == compact(message)


def views_along_a_game(seed: int) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """(public view, every seat's view built from it) after each action of a random game."""
    return [(public, seats) for public, seats, _ in moments_of_a_game(seed)]


def moments_of_a_game(
    seed: int,
) -> list[tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any] | None]]]:
    """Also each seat's prompt, as the server builds it (the engine's cached action JSON)."""
    state = new_game(Options(players=4, seed=seed))
    rng = random.Random(seed)
    out = []
    while seats_to_act(state):
        public = view(state, None)
        prompts: list[dict[str, Any] | None] = [
            {
                "id": state.version,
                "version": state.version,
                "deadline": 1.5,
                "legal": [action_to_json(a, BOARD) for a in legal_actions(state, seat)],
            }
            if seat in seats_to_act(state)
            else None
            for seat in range(state.players)
        ]
        out.append((public, [view(state, seat, public) for seat in range(state.players)], prompts))
        seat = rng.choice(seats_to_act(state))
        push_unchecked(state, seat, rng.choice(legal_actions(state, seat)))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_spliced_updates_are_the_text_json_gives(seed: int) -> None:
    for public, seats, prompts in moments_of_a_game(seed):
        encoder = Encoder()
        events = [{"type": "round_start", "round": 1, "starting_seat": 0}]
        for shown, prompt in zip(seats, prompts, strict=True):
            assert isinstance(shown, SeatView) and shown.public is public
            update = {"type": "update", "version": 3, "events": events, "view": shown}
            update["prompt"] = prompt
            assert encoder.encode(update) == compact(update)
        # The spectators' update reuses the public view's text encoded for the seats.
        spectators = {"type": "update", "version": 3, "events": events, "view": public}
        spectators["prompt"] = None
        assert encoder.encode(spectators) == compact(spectators)


def test_the_public_view_is_encoded_once_per_delivery(monkeypatch: pytest.MonkeyPatch) -> None:
    public, seats = views_along_a_game(3)[40]
    encoded: list[Any] = []

    def counting(obj: Any) -> str:
        encoded.append(obj)
        return compact(obj)

    monkeypatch.setattr(wire, "dumps", counting)  # the module's name, looked up per call
    encoder = Encoder()
    for shown in seats:
        encoder.encode({"type": "update", "view": shown})
    assert sum(obj is public for obj in encoded) == 1
    assert not any(isinstance(obj, SeatView) for obj in encoded)


def test_a_seat_view_changed_after_it_was_built_is_encoded_whole() -> None:
    _, seats = views_along_a_game(4)[10]
    changed = seats[0]
    del changed["round"]  # no longer the public view plus its own fields
    update = {"type": "update", "view": changed}
    text = Encoder().encode(update)
    assert same_json(text, update) and list(json.loads(text)["view"]) == list(changed)


def test_messages_other_than_updates_are_plain_json() -> None:
    message = {"type": "error", "re": 7, "code": "too_late", "message": 'caf\u00e9 "x"'}
    assert Encoder().encode(message) == compact(message)


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"action","id":1,"type":"chat","text":"hi"}',  # the attack: an action or a chat?
        '{"type":"chat","id":1,"id":2,"text":"hi"}',
        '{"type":"action","id":1,"action":{"kind":"pass","kind":"trade"}}',  # nested
        '[{"a":1,"a":1}]',  # the same value twice is still two keys
    ],
)
def test_a_frame_that_names_a_key_twice_is_refused(text: str) -> None:
    with pytest.raises(wire.RepeatedKey, match="given twice"):
        wire.decode_frame(text)
    assert isinstance(wire.RepeatedKey("x"), ValueError)


def test_frames_without_repeated_keys_read_as_json_reads_them() -> None:
    for text in (
        '{"type":"chat","id":1,"text":"hi"}',
        '{"a":{"b":[{"c":1},{"c":2}]},"b":{"a":null}}',  # one key in many objects
        "[1, 2.5, true, null]",
    ):
        assert wire.decode_frame(text) == json.loads(text)
    with pytest.raises(ValueError):
        wire.decode_frame('{"type":')
