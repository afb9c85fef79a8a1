"""What feeds the screen: a live table (the network task folds the server's messages
into the client's state) or a recorded game (a position of a replay). The screen asks its
driver, never which one it has, what to do with a line, what the message line says, what
the help says and which keys it adds.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Protocol

from prompt_toolkit.key_binding import KeyBindings, KeyBindingsBase

from . import commands


class Handoff(Enum):
    """What a driver's ``command`` leaves to the screen instead of doing it."""

    REVIEW = "review"
    """``review``: the screen runs the review of the seat seen as, in a worker thread."""
    NOT_MINE = "not mine"
    """A line that is no replay command (help, quit, score...; or a play command)."""


class Driver(Protocol):
    plays: bool
    """Whether a line that acts is played (live) or refused (a replay shows, never plays)."""

    def command(self, line: str) -> str | Handoff | None:
        """The driver's own commands: None when done, a reason when refused, or a
        :class:`Handoff` for what the screen does (a line that is not the driver's)."""
        ...

    def status(self, width: int) -> str | None:
        """What the message line says when nothing else is to be said (None: the
        screen's own words: what is asked, whose turn)."""
        ...

    def panel_tail(self) -> list[str]:
        """Lines under the log's newest one (a replay's open hands)."""
        ...

    def help_lines(self, topic: str) -> list[str]:
        """The help (F1)."""
        ...

    def key_bindings(
        self, run_line: Callable[[str], bool], moved: Callable[[], None]
    ) -> KeyBindingsBase:
        """Keys of its own (a replay's Right, Left, F6, F7 ...): ``run_line`` runs a line as
        typed, ``moved`` shows what changed."""
        ...


class LiveDriver:
    """A table being played: lines are the player's commands, the server's messages the
    news (the network task feeds the client's state)."""

    plays = True

    def __init__(self) -> None:
        self._keys = KeyBindings()

    def command(self, line: str) -> str | Handoff | None:
        return Handoff.NOT_MINE

    def status(self, width: int) -> str | None:
        return None

    def panel_tail(self) -> list[str]:
        return []

    def help_lines(self, topic: str) -> list[str]:
        return commands.help_lines(topic)

    def key_bindings(
        self, run_line: Callable[[str], bool], moved: Callable[[], None]
    ) -> KeyBindingsBase:
        return self._keys
