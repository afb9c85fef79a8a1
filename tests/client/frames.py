"""Server messages for the client's tests: valid messages of the protocol (the client
session validates every frame and passes over any other), with the fields a test sets."""

from __future__ import annotations

import json
from typing import Any

from tyros_protocol.messages import Update
from tyros_rules import Options, new_game, view


def a_view(players: int = 3, seat: int | None = 0, **fields: Any) -> dict[str, Any]:
    """A seat's view of a new game (seed 1), with ``fields`` set over it."""
    seen: dict[str, Any] = dict(view(new_game(Options(players=players, seed=1)), seat))
    seen.update(fields)
    return seen


def a_trade(proposer: int, answers: list[dict[str, Any]]) -> dict[str, Any]:
    """A trade offer of one green for one violet to the seats in ``answers``."""
    to = [answer["seat"] for answer in answers]
    return {
        "proposer": proposer,
        "to": to,
        "give": ["green"],
        "get": ["violet"],
        "answers": answers,
    }


def an_update(
    version: int,
    *,
    events: list[dict[str, Any]] | None = None,
    view: dict[str, Any] | None = None,
    prompt: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An ``update`` message (a new game's view unless ``view`` is given)."""
    return {
        "type": "update",
        "version": version,
        "events": events or [],
        "view": a_view() if view is None else view,
        "prompt": prompt,
    }


def typed_update(message: dict[str, Any]) -> Update:
    """``message`` read as the client session reads a frame."""
    return Update.model_validate_json(json.dumps(message))
