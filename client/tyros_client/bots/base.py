"""The bot interface and the strategy registry.

A bot plays one seat and knows only what that seat may know: the engine's
:func:`~tyros_rules.view` of the state for its seat and the
:func:`~tyros_rules.event_view` of each event for its seat. It never
sees the :class:`~tyros_rules.GameState` itself.

The arena (and later the server) drives a bot like this::

    bot = make_bot("random", seat, random.Random(seed))
    for event in new_events:                      # only if bot.wants_events
        seen = event_view(event, seat)
        if seen is not None:
            bot.observe(seen)
    action = bot.choose(view(state, seat),        # {} if not bot.wants_view
                        legal_actions(state, seat))

A new strategy subclasses :class:`Bot`, decorates itself with
:func:`register` and is imported by ``tyros_client.bots`` so that the
registry knows it.

>>> import random
>>> bot = make_bot("random", 2, random.Random(7))
>>> bot.seat, bot.name
(2, 'random')
>>> make_bot("nobody", 0, random.Random(0))
Traceback (most recent call last):
...
ValueError: unknown strategy 'nobody'; known strategies: greedy, greedy-plain, ismcts, random
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

from tyros_rules import K_PROPOSE, PROPOSE_GET, PROPOSE_GIVE, PROPOSE_TO, Action, Seat

from .manners import Manners


class Bot(ABC):
    """One seat's player. Subclasses implement :meth:`choose`; :meth:`observe` is optional.

    ``options`` are strategy settings given by the arena or the table (for
    instance ``move_time`` in seconds or ``iterations`` for a search bot); a
    strategy ignores the ones it does not use.
    """

    name: ClassVar[str] = ""
    """The strategy's registry name (set by :func:`register`)."""
    wants_view: ClassVar[bool] = True
    """False if :meth:`choose` never reads ``view``: the caller then passes ``{}``
    and skips building the view."""
    wants_events: ClassVar[bool] = True
    """False if the bot does not need :meth:`observe`: the caller then skips the event views."""

    def __init__(self, seat: Seat, rng: random.Random, **options: Any) -> None:
        self.seat = seat
        self.rng = rng
        self.options = options
        self.manners = Manners()
        """Who the people at the table are, and the offers put to them (the driver tells
        the people: see :mod:`.manners`)."""

    def observe(self, event: dict[str, Any]) -> None:  # noqa: B027 - optional hook
        """One event of the game, as ``event_view(event, self.seat)`` shows it."""

    def forget(self) -> None:  # noqa: B027 - optional hook
        """Drop what :meth:`observe` taught: the events are about to be shown again from
        some earlier point (a server resends recent events after a reconnect), and seeing
        one twice must not count twice."""

    @abstractmethod
    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        """Pick one of ``legal`` (never empty) given ``view(state, self.seat)``."""

    def remember_offer(self, view: dict[str, Any], action: Action) -> None:
        """Note ``action`` in :attr:`manners` if it offers a trade (strategies that make
        offers call it with the action they chose)."""
        if action[0] == K_PROPOSE:
            self.manners.remember(
                action[PROPOSE_TO],
                action[PROPOSE_GIVE],
                action[PROPOSE_GET],
                round_=int(view.get("round", 0)),
            )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} seat {self.seat}>"


STRATEGIES: dict[str, type[Bot]] = {}
"""Strategy name -> bot class, filled by :func:`register`."""


def register(name: str) -> Callable[[type[Bot]], type[Bot]]:
    """Class decorator: add a bot class to :data:`STRATEGIES` under ``name``."""

    def add(cls: type[Bot]) -> type[Bot]:
        if name in STRATEGIES and STRATEGIES[name] is not cls:
            raise ValueError(f"strategy {name!r} is already registered")
        cls.name = name
        STRATEGIES[name] = cls
        return cls

    return add


def make_bot(name: str, seat: Seat, rng: random.Random, **options: Any) -> Bot:
    """A new bot of strategy ``name`` for ``seat``; a ValueError names the known strategies."""
    cls = STRATEGIES.get(name)
    if cls is None:
        known = ", ".join(sorted(STRATEGIES)) or "none"
        raise ValueError(f"unknown strategy {name!r}; known strategies: {known}")
    return cls(seat, rng, **options)


__all__ = ["STRATEGIES", "Bot", "make_bot", "register"]
