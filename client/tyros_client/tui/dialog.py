"""A dialog of choices, entered on purpose (F4, or a command that needs a choice)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Float, FormattedTextControl, Window
from prompt_toolkit.layout.dimension import Dimension as D
from prompt_toolkit.widgets import Frame

from . import commands
from .commands import Choose

if TYPE_CHECKING:
    from .app import TyrosApp


class ChoiceDialog:
    """A list of choices built by a command, re-read at every redraw so it stays current.

    ``future`` gets the chosen action, or None when the dialog is closed.
    """

    def __init__(self, ui: TyrosApp, command: str) -> None:
        self.ui = ui
        self.command = command
        self.future: asyncio.Future[dict[str, Any] | None] = \
            asyncio.get_running_loop().create_future()
        self.index = 0
        self.last: Choose | None = None
        keys = KeyBindings()

        @keys.add("up")
        @keys.add("c-p")
        def _up(event: KeyPressEvent) -> None:
            self.index = max(0, self.index - 1)

        @keys.add("down")
        @keys.add("c-n")
        @keys.add("tab")
        def _down(event: KeyPressEvent) -> None:
            self.index = min(len(self.options()) - 1, self.index + 1)

        @keys.add("pageup")
        def _page_up(event: KeyPressEvent) -> None:
            self.index = max(0, self.index - 8)

        @keys.add("pagedown")
        def _page_down(event: KeyPressEvent) -> None:
            self.index = min(len(self.options()) - 1, self.index + 8)

        @keys.add("home")
        def _home(event: KeyPressEvent) -> None:
            self.index = 0

        @keys.add("end")
        def _end(event: KeyPressEvent) -> None:
            self.index = len(self.options()) - 1

        @keys.add("enter")
        @keys.add(" ")
        def _choose(event: KeyPressEvent) -> None:
            options = self.options()
            if options and not self.future.done():
                self.future.set_result(options[min(self.index, len(options) - 1)][1])

        @keys.add("escape", eager=True)
        @keys.add("c-g")
        def _close(event: KeyPressEvent) -> None:
            if not self.future.done():
                self.future.set_result(None)

        self.control = FormattedTextControl(self._text, focusable=True, key_bindings=keys,
                                            show_cursor=False)
        self.window = Window(self.control, wrap_lines=True)
        self.frame = Frame(self.window, title=lambda: self.current().title,
                           width=D(min=30, preferred=66, max=90))
        self.float = Float(self.frame, top=2)

    def current(self) -> Choose:
        result = commands.parse(self.command, self.ui.context())
        if isinstance(result, Choose):
            self.last = result
        return self.last or Choose("", "", ())

    def relevant(self) -> bool:
        return isinstance(commands.parse(self.command, self.ui.context()), Choose)

    def options(self) -> tuple[tuple[str, dict[str, Any]], ...]:
        return self.current().options

    def _text(self) -> StyleAndTextTuples:
        choice = self.current()
        out: StyleAndTextTuples = [("", choice.text + "\n")]
        left = self.ui.state.seconds_left()
        if self.command == "_offer" and left is not None:
            out.append(("class:message.turn", f"Time left: {left:.0f} s\n"))
        out.append(("", "\n"))
        self.index = max(0, min(self.index, len(choice.options) - 1))
        for i, (label, _) in enumerate(choice.options):
            if i == self.index:
                out.append(("[SetCursorPosition]", ""))
                out.append(("class:choice.selected", f"> {label}"))
            else:
                out.append(("", f"  {label}"))
            out.append(("", "\n"))
        out.append(("class:dim", "\nUp/Down choose, Enter confirms, Esc closes"))
        return out
