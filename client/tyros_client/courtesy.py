"""The answers a player's client gives by itself, so that nobody waits for a decision
that has only one sensible answer, and the player's standing orders (:class:`Orders`).

After a short pause (its timing says nothing):

- an offer the seat can neither accept (it lacks the cards) nor counter is declined;
- the seat's own offer that every asked seat declined is withdrawn (only ``withdraw`` is
  left, and the table would wait for it).

At once (:attr:`Courtesy.at_once`):

- a decision with one possible answer (``pass`` with no cards, the one card to give ...);
- with the order ``decline``, any offer the seat lacks the cards for;
- with the order ``autopass``, every card turn of the round (an offer to answer waits for
  the player, and auto-pass goes on once it closes); with ``autodecline`` too, every offer
  made to the seat meanwhile is declined.

>>> offer = {"proposer": 1, "answers": [{"seat": 0, "answer": "pending"}]}
>>> courtesy({"trade": offer}, [{"kind": "answer", "accept": False}], seat=0).action
{'kind': 'answer', 'accept': False}
>>> courtesy({"trade": offer}, [{"kind": "answer", "accept": False},
...                             {"kind": "counter", "give": ["green"], "get": ["wild"]}], 0)
>>> mine = {"proposer": 0, "answers": [{"seat": 1, "answer": "decline"}]}
>>> courtesy({"trade": mine}, [{"kind": "withdraw"}], seat=0).note
'everybody declined your offer: taken back'
>>> turn = {"phase": "actions", "current": 0, "round": 2}
>>> courtesy(turn, [{"kind": "pass"}], seat=0).at_once
True
>>> moves = [{"kind": "pass"}, {"kind": "bank_draw", "cards": ["green"]}]
>>> courtesy(turn, moves, seat=0) is None
True
>>> courtesy(turn, moves, seat=0, orders=Orders(pass_round=2)).action
{'kind': 'pass'}
>>> offered = {**turn, "phase": "trade", "trade": offer}
>>> either = [{"kind": "answer", "accept": True}, {"kind": "answer", "accept": False}]
>>> courtesy(offered, either, 0, Orders(pass_round=2)) is None
True
>>> courtesy(offered, either, 0, Orders(pass_round=2, autodecline=True)).action
{'kind': 'answer', 'accept': False}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .words import describe_action

COURTESY_SECONDS = (0.8, 2.5)
"""The pause before a courtesy answer, drawn in this range: as quick as a "no" at a real
table, and no quicker, so its timing says nothing more."""


ONE_ANSWER_KINDS = frozenset({"pass", "give_card", "return_tile", "keep", "expand"})
"""Decisions the client makes for the player when they have one possible answer (never an
answer to a trade: the table waits for it, but it is the player's to give)."""


@dataclass(slots=True)
class Orders:
    """What the player asked their client to answer for them."""

    pass_round: int | None = None
    """``autopass``: pass every card turn of this round (None: off)."""
    decline: bool = False
    """``set decline on``: decline at once every offer the seat lacks the cards for, even
    when it could counter (off: only those it could not counter either)."""
    autodecline: bool = False
    """``set autodecline on``: while auto-pass is on, decline at once every offer made to
    the seat (off: an offer waits for the player's answer)."""
    confirm: bool = False
    """``set confirm on``: a move, city or bank action that spends three cards or more, or
    a move that owes a city owner a card, asks the player once before it goes."""


@dataclass(frozen=True, slots=True)
class Courtesy:
    action: dict[str, Any]
    """What the client sends for the player."""
    note: str
    """What it tells the player it did."""
    at_once: bool = False
    """Sent at once (the player's order, or no choice at all), not after a pause."""
    only_move: bool = False
    """The seat's only possible move: made for the player, not chosen by them."""


def courtesy(
    view: Mapping[str, Any],
    legal: Sequence[dict[str, Any]],
    seat: int | None,
    orders: Orders | None = None,
) -> Courtesy | None:
    """The answer the seat's client gives by itself to the prompt ``legal``, if any."""
    orders = orders or Orders()
    kinds = [action.get("kind") for action in legal]
    if len(legal) == 1 and kinds[0] in ONE_ANSWER_KINDS:
        only = describe_action(legal[0])  # (said: the player did not choose it)
        return Courtesy(
            legal[0], f"your only possible move, made for you: {only}", at_once=True, only_move=True
        )
    passing = orders.pass_round is not None and view.get("round") == orders.pass_round
    my_turn = view.get("phase") == "actions" and view.get("current") == seat
    if passing and my_turn and "pass" in kinds:
        return Courtesy({"kind": "pass"}, "", at_once=True)
    answers = [action for action in legal if action.get("kind") == "answer"]
    if passing and orders.autodecline and answers:
        decline = next((a for a in answers if not a.get("accept")), None)
        if decline is not None:
            return Courtesy(
                decline, "auto-pass declined the offer ('set autodecline off')", at_once=True
            )
    trade = view.get("trade")
    if (
        kinds == ["withdraw"]
        and trade
        and trade.get("proposer") == seat
        and all(answer.get("answer") == "decline" for answer in trade.get("answers", []))
    ):
        return Courtesy(legal[0], "everybody declined your offer: taken back")
    if answers and not any(a.get("accept") for a in answers):
        decline = next(a for a in answers if not a.get("accept"))
        if "counter" not in kinds:
            return Courtesy(decline, "you do not hold the cards asked for: declined the offer")
        if orders.decline:  # the player's order: at once
            return Courtesy(
                decline,
                "you lack the cards asked for: declined the offer ('set decline off')",
                at_once=True,
            )
    return None
