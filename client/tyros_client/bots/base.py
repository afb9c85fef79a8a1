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

A new strategy subclasses :class:`Bot` (its settings a :class:`BotOptions` of its own) and
is named as an entry point of the ``tyros.strategies`` group, the one registry of
strategies: ``make_bot``, ``tyros-arena``, ``tyros-bot --strategy`` and the server's
``--takeover-strategy`` all find it there (the levels of :mod:`.levels` are entry points
of the same group, factories of a strategy with its settings).

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

import dataclasses
import functools
import random
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any, ClassVar, Self

from tyros_rules import K_PROPOSE, PROPOSE_GET, PROPOSE_GIVE, PROPOSE_TO, Action, Seat

from .manners import Manners

STRATEGY_GROUP = "tyros.strategies"
"""The entry-point group naming every strategy (and level): the one registry."""


@dataclasses.dataclass(frozen=True)
class BotOptions:
    """A strategy's settings, each with its default (a subclass a strategy's own)."""

    @classmethod
    def parse(cls, options: Mapping[str, Any]) -> Self:
        """The settings ``options`` give, each converted to its field's type (the arena's
        ``--option`` gives text: ``"0.5"``, ``"false"``); a name that is not a setting of
        this strategy is ignored (one line-up's settings may go to every strategy in it).

        >>> @dataclasses.dataclass(frozen=True)
        ... class Example(BotOptions):
        ...     weight: float = 1.0
        ...     fair: bool = True
        >>> Example.parse({"weight": "0.5", "fair": "no", "iterations": 10})
        Example(weight=0.5, fair=False)
        """
        hints = typing.get_type_hints(cls)
        given = {
            field.name: _converted(options[field.name], hints[field.name])
            for field in dataclasses.fields(cls)
            if options.get(field.name) is not None
        }
        return cls(**given)


def _converted(value: Any, kind: Any) -> Any:
    if isinstance(kind, types.UnionType):  # ``int | None``: the value is not None here
        kind = next(k for k in typing.get_args(kind) if k is not type(None))
    if kind is bool:
        return value not in (False, "false", "0", "no", 0)
    return kind(value)


class Bot(ABC):
    """One seat's player. Subclasses implement :meth:`choose`; :meth:`observe` is optional.

    ``options`` are strategy settings given by the arena or the table (for instance
    ``move_time`` in seconds or ``iterations`` for a search bot), read by the strategy's
    :class:`BotOptions`; a strategy ignores the ones it does not use.
    """

    name: ClassVar[str] = ""
    """The strategy's name in the registry (its entry point's)."""
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


@functools.cache
def strategies() -> dict[str, type[Bot]]:
    """Strategy name -> bot class: the entry points of :data:`STRATEGY_GROUP` that are bot
    classes (the levels, factories of one of them with its settings, are not listed). Read
    once: every call gives the same dictionary."""
    found: dict[str, type[Bot]] = {}
    for entry in entry_points(group=STRATEGY_GROUP):
        made = entry.load()
        if isinstance(made, type) and issubclass(made, Bot):
            if made.name != entry.name:
                raise ValueError(f"strategy {entry.name!r} is a bot named {made.name!r}")
            found[entry.name] = made
    return dict(sorted(found.items()))


def make_bot(name: str, seat: Seat, rng: random.Random, **options: Any) -> Bot:
    """A new bot of strategy ``name`` for ``seat``; a ValueError names the known strategies."""
    cls = strategies().get(name)
    if cls is None:
        known = ", ".join(strategies()) or "none (tyros is not installed: pip install -e .)"
        raise ValueError(f"unknown strategy {name!r}; known strategies: {known}")
    return cls(seat, rng, **options)


__all__ = ["STRATEGY_GROUP", "Bot", "BotOptions", "make_bot", "strategies"]
