"""Bots: players that see only what their seat sees (see :mod:`.base`).

Importing this package registers every strategy in :data:`STRATEGIES`:
``random`` (:mod:`.random_bot`), ``greedy`` (:mod:`.greedy`) and ``ismcts``
(:mod:`.ismcts`).
"""

from .base import STRATEGIES, Bot, make_bot, register
from .greedy import GreedyBot
from .ismcts import ISMCTSBot
from .random_bot import RandomBot

__all__ = ["STRATEGIES", "Bot", "GreedyBot", "ISMCTSBot", "RandomBot", "make_bot", "register"]
