"""What the widgets see of the screen: the :class:`Screen` interface that the controls,
the renderers, the key bindings and the dialogs are given, so that none of them imports
the application that assembles them (:class:`~.app.TyrosApp` is the one implementation).

It holds the screen's own state (:class:`ScreenState`: which panel, how far the log is
scrolled, the message of the client's own) beside the client's state, and the callbacks
a widget may call.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from prompt_toolkit.buffer import Buffer
from prompt_toolkit.layout.dimension import Dimension as D

from .autopilot import Autopilot
from .board import Marks
from .commands import Context
from .drivers import Driver
from .state import ClientState, Note


@dataclass(slots=True)
class ScreenState:
    """What the screen shows of its own, apart from what the client knows."""

    panel: str = "log"
    """The panel under the map: ``log`` or ``legal``."""
    help_topic: str = ""
    help_open: bool = False
    score_open: bool = False
    score_dismissed: bool = False
    """The score sheet was closed (it opens by itself once, at the end)."""
    scroll: int = 0
    """Lines the log is scrolled back by (0: its newest lines)."""
    score_top: int = 0
    """Lines of the score sheet scrolled past (a short screen shows it in parts)."""
    log_lines_seen: int = 0
    """Log entries when the panel was last drawn: those since then, when the log is
    scrolled back, scroll it by their lines, so that the text being read holds still."""
    page: int = 5
    """Lines of the panel as last drawn: PageUp and PageDown move by as many."""
    local: Note | None = None
    """The message line's note of the client's own (a refused line, a dialog open)."""
    cleared_at: float = -1.0
    """When the player last entered a line (older refusals are no longer shown)."""


class Screen(Protocol):
    state: ClientState
    """What the client knows (from the session's notices, or a replay's position)."""
    driver: Driver
    """What feeds the screen: a live table, or a recorded game."""
    buffer: Buffer
    """The command line."""

    screen: ScreenState
    """The screen's own state."""
    autopilot: Autopilot
    """The answers the client gives for the player, and the player's standing orders."""

    # Measures ---------------------------------------------------------------------------

    def size(self) -> tuple[int, int]: ...
    def map_height(self) -> D: ...
    def compact(self) -> bool: ...
    def panel_rows(self) -> int: ...
    def dialog_width(self) -> int: ...
    def context(self) -> Context: ...
    def marks(self) -> Marks: ...
    def panel_lines(self) -> list[tuple[str, str]]: ...

    # Callbacks --------------------------------------------------------------------------

    def invalidate(self) -> None: ...
    def run_line(self, line: str) -> bool: ...
    def type_into_command_line(self, text: str) -> None: ...
    def click_space(self, label: str) -> None: ...
    def close_help(self) -> None: ...
    def type_command(self, name: str) -> None: ...
    def close_score(self) -> None: ...
