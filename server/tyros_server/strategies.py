"""The strategies the server plays seats with, found by name: the server knows no bot
itself (the bots live with the client, which depends on the server)."""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from .deputies import PlayerFactory, RandomPlayer, SeatBots

STRATEGY_GROUP = "tyros.strategies"
"""Entry-point group where installed packages may name takeover strategies."""


def load_strategy(name: str) -> PlayerFactory:
    """The player factory called ``name``: ``random`` (built in), an entry point of the
    :data:`STRATEGY_GROUP` group, or ``MODULE:NAME``, an importable factory such as
    ``tyros_client.bots.greedy:GreedyBot``. The server knows no bot itself: the bots live
    with the client, and the client depends on the server, not the other way round.

    >>> load_strategy("random") is RandomPlayer
    True
    >>> load_strategy("nobody")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown takeover strategy 'nobody': give random, an entry point of ...
    """
    if name == "random":
        return RandomPlayer
    for entry in entry_points(group=STRATEGY_GROUP):
        if entry.name == name:
            loaded: PlayerFactory = entry.load()
            return loaded
    module_name, colon, attribute = name.partition(":")
    if not colon or not module_name or not attribute:
        raise ValueError(
            f"unknown takeover strategy {name!r}: give random, an entry point of "
            f"{STRATEGY_GROUP}, or MODULE:NAME (e.g. "
            "tyros_client.bots.greedy:GreedyBot)"
        )
    try:
        found: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load takeover strategy {name!r}: {exc}") from exc
    if not callable(found):
        raise ValueError(f"takeover strategy {name!r} is not callable")
    factory: PlayerFactory = found
    return factory


def bot_takeover(strategy: str | PlayerFactory) -> SeatBots:
    """A takeover policy that plays each absent seat with one player of ``strategy`` (a name
    for :func:`load_strategy`, or a factory), made when the seat is first taken over."""
    return SeatBots(load_strategy(strategy) if isinstance(strategy, str) else strategy)
