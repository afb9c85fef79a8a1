"""Bots: players that see only what their seat sees (see :mod:`.base`).

The strategies are the entry points of the ``tyros.strategies`` group (:func:`strategies`):
``random`` (:mod:`.random_bot`), ``greedy`` and ``greedy-plain`` (:mod:`.greedy`) and
``ismcts`` (:mod:`.ismcts`), and the levels of :mod:`.levels`.
"""

from .base import Bot, BotOptions, make_bot, strategies
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .random_bot import RandomBot

__all__ = ["Bot", "BotOptions", "GreedyBot", "ISMCTSBot", "RandomBot", "make_bot", "strategies"]
