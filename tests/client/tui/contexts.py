"""What the command tests type into: a :class:`Context` of legal actions, and the actions
they expect."""

from __future__ import annotations

from typing import Any

from tyros_client.tui.commands import Context, Prefill
from tyros_protocol.views import TradeInfo

NAMES = ["Ann", "Bob", "Cyd", "Dee"]


def move(frm: str, to: str, *pay: str) -> dict[str, Any]:
    return {"kind": "move", "from": frm, "to": to, "pay": list(pay)}


def ctx(
    *legal: dict[str, Any],
    hand: tuple[str, ...] = (),
    seat: int = 0,
    trade: dict[str, Any] | None = None,
    tiles: tuple[str, ...] = (),
) -> Context:
    return Context(
        legal=list(legal),
        seat=seat,
        players=4,
        names=NAMES,
        hand=list(hand),
        tiles=list(tiles),
        trade=None if trade is None else TradeInfo.model_validate(trade),
    )


def action_of(option: dict[str, Any] | Prefill) -> dict[str, Any]:
    """A dialog option that sends an action (not one that types a command line)."""
    assert isinstance(option, dict), option
    return option


MOVES = (
    move("TY", "31", "violet", "violet"),
    move("TY", "31", "violet", "wild"),
    move("TY", "31", "wild", "wild"),
    move("TY", "27", "green"),
    move("TY", "27", "wild"),
    move("22", "27", "green", "green"),
    move("12", "16W", "orange"),
    move("12", "16E", "orange", "orange", "orange"),
)


PROPOSALS = [{"kind": "propose", "to": [1, 2, 3], "give": ["green"], "get": ["violet"]}]

OFFER = {
    "proposer": 1,
    "to": [0, 2],
    "give": ["green"],
    "get": ["violet", "violet"],
    "answers": [{"seat": 0, "answer": "pending"}, {"seat": 2, "answer": "accept"}],
}
