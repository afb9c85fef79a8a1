"""What the widgets see of the screen: the :class:`Screen` interface that the controls,
the renderers, the key bindings and the dialogs are given, so that none of them imports
the application that assembles them (:class:`~.app.TyrosApp` is the one implementation).

It holds the screen's own state (which panel, how far the log is scrolled, the message
of the client's own) beside the client's state, and the callbacks a widget may call.
"""

from __future__ import annotations

from typing import Protocol

from prompt_toolkit.buffer import Buffer

from .board import Marks
from .commands import Context
from .replaying import ReplayDriver
from .state import ClientState, Note


class Screen(Protocol):
    state: ClientState
    """What the client knows (from the session's notices, or a replay's position)."""
    replay: ReplayDriver | None
    """A recorded game shown instead of a live one."""
    buffer: Buffer
    """The command line."""

    # The screen's own state -----------------------------------------------------------

    panel: str
    """The panel under the map: ``log`` or ``legal``."""
    help_topic: str
    scroll: int
    """Lines the log is scrolled back by (0: its newest lines)."""
    log_lines_seen: int
    """The log's lines when it was last drawn (new ones while scrolled back push it)."""
    local: Note | None
    """The message line's note of the client's own (a refused line, a dialog open)."""
    cleared_at: float
    """When the player last entered a line (older refusals are no longer shown)."""

    # Measures ---------------------------------------------------------------------------

    def size(self) -> tuple[int, int]: ...
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
    def show_panel(self, name: str) -> None: ...
    def open_help(self, topic: str) -> None: ...
    def close_help(self) -> None: ...
    def open_say(self) -> None: ...
    def ask_hint(self) -> bool: ...
    def close_score(self) -> None: ...
    def on_state_change(self) -> None: ...
