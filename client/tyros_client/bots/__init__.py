"""Bots: players that see only what their seat sees (see :mod:`.base`).

Importing this package registers every strategy in :data:`STRATEGIES`.
"""

from .base import STRATEGIES, Bot, make_bot, register
from .random_bot import RandomBot

__all__ = ["STRATEGIES", "Bot", "RandomBot", "make_bot", "register"]
