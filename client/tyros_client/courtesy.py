"""Trade courtesy: the answers a player's client gives by itself, after a short pause, so
that nobody waits for a decision that has only one sensible answer.

- An offer the seat can neither accept (it lacks the cards) nor counter is declined.
- The seat's own offer that every asked seat declined is withdrawn (only ``withdraw`` is
  left, and the table would wait for it).

>>> offer = {"proposer": 1, "answers": [{"seat": 0, "answer": "pending"}]}
>>> courtesy({"trade": offer}, [{"kind": "answer", "accept": False}], seat=0).action
{'kind': 'answer', 'accept': False}
>>> courtesy({"trade": offer}, [{"kind": "answer", "accept": False},
...                             {"kind": "counter", "give": ["green"], "get": ["wild"]}], 0)
>>> mine = {"proposer": 0, "answers": [{"seat": 1, "answer": "decline"}]}
>>> courtesy({"trade": mine}, [{"kind": "withdraw"}], seat=0).note
'everybody declined your offer: taken back'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

COURTESY_SECONDS = (0.8, 2.5)
"""The pause before a courtesy answer, drawn in this range: as quick as a "no" at a real
table, and no quicker, so its timing says nothing more."""


@dataclass(frozen=True, slots=True)
class Courtesy:
    action: dict[str, Any]
    """What the client sends for the player."""
    note: str
    """What it tells the player it did."""


def courtesy(
    view: Mapping[str, Any], legal: Sequence[dict[str, Any]], seat: int | None
) -> Courtesy | None:
    """The answer the seat's client gives by itself to the prompt ``legal``, if any."""
    kinds = [action.get("kind") for action in legal]
    trade = view.get("trade")
    if (
        kinds == ["withdraw"]
        and trade
        and trade.get("proposer") == seat
        and all(answer.get("answer") == "decline" for answer in trade.get("answers", []))
    ):
        return Courtesy(legal[0], "everybody declined your offer: taken back")
    answers = [action for action in legal if action.get("kind") == "answer"]
    if answers and not any(a.get("accept") for a in answers) and "counter" not in kinds:
        decline = next(a for a in answers if not a.get("accept"))
        return Courtesy(decline, "you do not hold the cards asked for: declined the offer")
    return None
