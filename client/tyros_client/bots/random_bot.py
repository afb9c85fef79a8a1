"""The ``random`` strategy: a uniform choice among the legal actions.

It plays every decision through the legal list, so it also answers trade
proposals (accepting, declining or countering them), completes or withdraws its
own, gives the city owner's card and keeps at most 3 cards at random. It reads
neither views nor events.
"""

from __future__ import annotations

from typing import Any

from tyros_server.engine import Action

from .base import Bot, register


@register("random")
class RandomBot(Bot):
    """Uniformly random among ``legal``.

    >>> import random
    >>> bot = RandomBot(0, random.Random(1))
    >>> bot.choose({}, [(0,), (6, 1, 0, 0, 0, 0)]) in [(0,), (6, 1, 0, 0, 0, 0)]
    True
    """

    wants_view = False
    wants_events = False

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return self.rng.choice(legal)


__all__ = ["RandomBot"]
