"""The ``random`` strategy: a uniform choice among the legal actions.

It plays every decision through the legal list, so it also answers trade
proposals (accepting, declining or countering them), completes or withdraws its
own, gives the city owner's card and keeps at most 3 cards at random. The legal
list holds trade offers and counter-offers of one card for one card; half the
time it widens the one it picked by a card of another kind it holds and a card
it asks for, so its trades have every shape the engine allows. It reads the view
only for a pending trade's terms (a counter-offer may not repeat them) and no
events.
"""

from __future__ import annotations

import random
from typing import Any

from tyros_protocol.cards import CardCounts, counts_from_names
from tyros_rules import (
    COUNTER_GET,
    COUNTER_GIVE,
    K_COUNTER,
    K_PROPOSE,
    ONE,
    PROPOSE_GET,
    PROPOSE_GIVE,
    PROPOSE_TO,
    Action,
    plus,
)

from .base import Bot

WIDEN = 0.5
"""The chance that a trade offer or counter-offer it picked is widened."""


def widened(action: Action, legal: list[Action], rng: random.Random) -> Action:
    """``action`` (an offer or a counter-offer from ``legal``) with one more card each way,
    if the seat holds a second kind to give: a card of a kind the listed actions show it
    holds, and a card of a kind it does not give.

    >>> ask = K_PROPOSE, 0b110  # seats 1 and 2 asked
    >>> offers = [(*ask, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0), (*ask, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0)]
    >>> widened(offers[0], offers, random.Random(2))  # orange and green for 2 yellow
    (8, 6, 1, 0, 1, 0, 0, 0, 2, 0, 0, 0)
    """
    if action[0] == K_PROPOSE:
        give_at, get_at = PROPOSE_GIVE, PROPOSE_GET
    else:
        give_at, get_at = COUNTER_GET, COUNTER_GIVE  # a counter: the seat gives its ``get``
    held = sorted({a[give_at].index(1) for a in legal if a[0] == action[0]})
    give: CardCounts = action[give_at]  # type: ignore[assignment]  # five counts
    get: CardCounts = action[get_at]  # type: ignore[assignment]
    more = [kind for kind in held if not give[kind] and not get[kind]]
    if not more:
        return action
    extra = rng.choice(more)
    give = plus(give, ONE[extra])
    get = plus(get, ONE[rng.choice([k for k in range(5) if not give[k]])])
    if action[0] == K_PROPOSE:
        return (K_PROPOSE, action[PROPOSE_TO], *give, *get)
    return (K_COUNTER, *get, *give)


class RandomBot(Bot):
    """Uniformly random among ``legal`` (trades sometimes widened, see :func:`widened`).

    >>> bot = RandomBot(0, random.Random(1))
    >>> bot.choose({}, [(0,), (6, 1, 0, 0, 0, 0)]) in [(0,), (6, 1, 0, 0, 0, 0)]
    True
    """

    name = "random"
    wants_events = False

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        action = self.rng.choice(legal)
        if action[0] not in (K_PROPOSE, K_COUNTER) or self.rng.random() >= WIDEN:
            return action
        wide = widened(action, legal, self.rng)
        trade = view.get("trade")
        if action[0] == K_COUNTER and trade is not None:
            own = (counts_from_names(trade["give"]), counts_from_names(trade["get"]))
            if (wide[COUNTER_GIVE], wide[COUNTER_GET]) == own:
                return action  # the offer's own terms: that is an accept, not a counter
        return wide


__all__ = ["RandomBot", "widened"]
