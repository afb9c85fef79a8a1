"""Samples of the protocol for its tests: every message type, an example of every action
kind as a client sends it, and how a message is wrapped or refused."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError
from tyros_protocol.messages import (
    AnswerAction,
    BankDrawAction,
    BankPickAction,
    CityAction,
    CompleteAction,
    CounterAction,
    ExpandAction,
    GiveCardAction,
    KeepAction,
    MoveAction,
    PassAction,
    ProposeAction,
    ReturnTileAction,
    ShipAction,
    WithdrawAction,
    parse_client_message,
)

CLIENT_TYPES = ("hello", "resume", "list_tables", "get_record", "hint", "action", "chat")
SERVER_TYPES = (
    "welcome",
    "tables",
    "record",
    "table",
    "update",
    "chat",
    "accepted",
    "advice",
    "error",
)

# One example of every action kind, as a client sends it.
ACTION_EXAMPLES: dict[str, tuple[dict[str, Any], type]] = {
    "pass": ({"kind": "pass"}, PassAction),
    "expand": ({"kind": "expand", "tile": "12", "colour": "green"}, ExpandAction),
    "return_tile": ({"kind": "return_tile", "tile": "5"}, ReturnTileAction),
    "move": ({"kind": "move", "from": "TY", "to": "16W", "pay": ["violet", "wild"]}, MoveAction),
    "city": ({"kind": "city", "space": "16", "ship": "16E", "pay": ["orange"] * 3}, CityAction),
    "ship": ({"kind": "ship", "space": "TY", "pay": ["yellow", "yellow"]}, ShipAction),
    "bank_draw": ({"kind": "bank_draw", "pay": ["green"]}, BankDrawAction),
    "bank_pick": (
        {"kind": "bank_pick", "pay": ["green", "orange", "wild"], "take": "violet"},
        BankPickAction,
    ),
    "propose": (
        {"kind": "propose", "to": [1, 3], "give": ["green"], "get": ["orange", "wild"]},
        ProposeAction,
    ),
    "answer": ({"kind": "answer", "accept": False}, AnswerAction),
    "complete": ({"kind": "complete", "with": 2}, CompleteAction),
    "withdraw": ({"kind": "withdraw"}, WithdrawAction),
    "give_card": ({"kind": "give_card", "card": "wild"}, GiveCardAction),
    "keep": ({"kind": "keep", "cards": ["orange", "yellow", "green"]}, KeepAction),
    "counter": ({"kind": "counter", "give": ["violet"], "get": ["green", "green"]}, CounterAction),
}


def act(action: dict[str, Any], *, version: int = 3, id_: int = 9) -> dict[str, Any]:
    return {"type": "action", "id": id_, "version": version, "action": action}


def refused(message: dict[str, Any] | str) -> None:
    """The message must fail client validation with a pydantic ValidationError."""
    text = message if isinstance(message, str) else json.dumps(message)
    with pytest.raises(ValidationError):
        parse_client_message(text)
