"""A dialog of choices, entered on purpose (F4, or a command that needs a choice); and the
question ``set confirm on`` asks before a costly action goes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import Float, FormattedTextControl, Window
from prompt_toolkit.layout.dimension import Dimension as D
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.widgets import Frame
from tyros_protocol.board import BOARD

from ..words import Names, describe_action, who
from . import commands
from .commands import Choose, Prefill
from .controls import wrap

if TYPE_CHECKING:
    from prompt_toolkit.key_binding.key_bindings import NotImplementedOrNone

    from .screen import Screen


DIALOG_WIDTH = 86
"""The widest a dialog grows (a trade's terms fit on a line at 100 columns)."""


class ChoiceDialog:
    """A list of choices built by a command, re-read at every redraw so it stays current.

    It is opened only on purpose (F4, or a command that needs a choice) and confirms only
    with Enter what is highlighted: a printable key closes it and goes to the command line
    (the player is typing a command), and if the choices changed since they were last
    drawn, Enter shows the new ones instead of confirming. ``future`` gets the chosen
    action (or :class:`.commands.Prefill` for the command line), or None when it is closed.
    """

    def __init__(self, ui: Screen, command: str) -> None:
        self.ui = ui
        self.command = command
        self.future: asyncio.Future[dict[str, Any] | Prefill | None] = (
            asyncio.get_running_loop().create_future()
        )
        self.index = 0
        self.last: Choose | None = None
        self.drawn: tuple[tuple[str, dict[str, Any] | Prefill], ...] | None = None
        """The choices as last drawn: what the player saw when pressing Enter."""
        keys = KeyBindings()

        def move(step: int) -> None:
            self.index = max(0, min(len(self.options()) - 1, self.index + step))

        keys.add("up")(lambda event: move(-1))
        keys.add("c-p")(lambda event: move(-1))
        keys.add("down")(lambda event: move(1))
        keys.add("c-n")(lambda event: move(1))
        keys.add("tab")(lambda event: move(1))
        keys.add("pageup")(lambda event: move(-8))
        keys.add("pagedown")(lambda event: move(8))
        keys.add("home")(lambda event: move(-(10**6)))
        keys.add("end")(lambda event: move(10**6))

        @keys.add("enter")
        def _choose(event: KeyPressEvent) -> None:
            options = self.options()
            if not options or self.future.done():
                return
            if options != self.drawn:
                self.ui.invalidate()  # they changed under the player's eyes: show them first
                return
            self.future.set_result(options[min(self.index, len(options) - 1)][1])

        @keys.add("escape", eager=True)
        @keys.add("c-g")
        def _close(event: KeyPressEvent) -> None:
            if not self.future.done():
                self.future.set_result(None)

        @keys.add("<any>")
        def _typing(event: KeyPressEvent) -> None:
            text = event.data
            if not text.isprintable() or not text:
                return
            if not self.future.done():
                self.future.set_result(None)
            self.ui.type_into_command_line(text)

        self.control = FormattedTextControl(
            self._text, focusable=True, key_bindings=keys, show_cursor=False
        )
        self.window = Window(self.control, wrap_lines=False)
        self.frame = Frame(
            self.window,
            title=lambda: self.current().title,
            width=lambda: D(min=30, preferred=ui.dialog_width(), max=DIALOG_WIDTH),
        )
        self.float = Float(self.frame, top=1)

    def current(self) -> Choose:
        result = commands.parse(self.command, self.ui.context())
        if isinstance(result, Choose):
            self.last = result
        return self.last or Choose("", "", ())

    def relevant(self) -> bool:
        return isinstance(commands.parse(self.command, self.ui.context()), Choose)

    def options(self) -> tuple[tuple[str, dict[str, Any] | Prefill], ...]:
        return self.current().options

    def _clicked(self, i: int) -> Callable[[MouseEvent], NotImplementedOrNone]:
        """A click on a choice highlights it (Enter, or a second click, confirms it)."""

        def handler(event: MouseEvent) -> NotImplementedOrNone:
            if event.event_type != MouseEventType.MOUSE_UP:
                return NotImplemented
            options = self.options()
            if i == self.index and options == self.drawn and not self.future.done():
                self.future.set_result(options[i][1])
            else:
                self.index = i
            return None

        return handler

    def _text(self) -> StyleAndTextTuples:
        choice = self.current()
        width = max(20, self.ui.dialog_width() - 4)
        out: StyleAndTextTuples = []
        for line in choice.text.split("\n"):
            out += [("", piece + "\n") for piece in wrap(line, width)]
        left = self.ui.state.seconds_left()
        if self.command == "_offer" and left is not None:
            out.append(("class:message.turn", f"Time left: {left:.0f} s\n"))
        options = choice.options
        self.drawn = options
        self.index = max(0, min(self.index, len(options) - 1))
        # Show as many choices as the screen has room for, around the highlighted one,
        # and always the footer.
        labels = [wrap(label, width - 2)[:2] for label, _ in options]  # a long one: 2 lines
        tall = max((len(lines) for lines in labels), default=1)
        room = max(1, (self.ui.size()[0] - 6 - len(out) - 2) // tall)
        first = max(0, min(self.index - room // 2, len(options) - room))
        shown = range(first, min(len(options), first + room))
        out.append(("class:dim", f"  ({first} more above)\n" if first else "\n"))
        for i in shown:
            click = self._clicked(i)
            for n, piece in enumerate(labels[i]):
                if i == self.index:
                    if n == 0:
                        out.append(("[SetCursorPosition]", ""))
                    out.append(("class:choice.selected", ("> " if n == 0 else "  ") + piece, click))
                else:
                    out.append(("", f"  {piece}", click))
                out.append(("", "\n"))
        below = len(options) - shown.stop
        out.append(("class:dim", f"  ({below} more below)\n" if below > 0 else "\n"))
        out.append(
            (
                "class:dim",
                "\n".join(
                    wrap(
                        "Up/Down choose, Enter confirms, Esc closes; typing goes back to the "
                        "command line",
                        width,
                    )
                ),
            )
        )
        return out


CONFIRMED_KINDS = frozenset({"move", "city", "bank_draw", "bank_pick"})
"""The actions ``set confirm on`` asks about: the costly ones typed in a hurry."""
CONFIRM_FROM_CARDS = 3
"""Cards spent from which such an action asks first."""


def confirm_reason(
    action: dict[str, Any], cities: Mapping[str, int], seat: int | None, names: Names
) -> str | None:
    """Why ``set confirm on`` asks before ``action`` goes (None: it goes at once);
    ``cities``: the view's, the owner of each space's city.

    >>> move = {"kind": "move", "from": "TY", "to": "23", "pay": ["green"]}
    >>> confirm_reason(move, {"23": 1}, 0, ["Ann", "Bob"])
    'B Bob has a city in 23: you will give them a card'
    >>> confirm_reason({**move, "pay": ["green"] * 3}, {}, 0, [])
    'it spends 3 cards'
    >>> confirm_reason(move, {"23": 0}, 0, []) is None
    True
    """
    if action.get("kind") not in CONFIRMED_KINDS:
        return None
    pay = list(action.get("pay") or [])
    if len(pay) >= CONFIRM_FROM_CARDS:
        return f"it spends {len(pay)} cards"  # (which ones: the line above says)
    if action.get("kind") == "move":
        try:
            space = BOARD.space_label(BOARD.port_space[BOARD.parse_port(str(action["to"]))])
        except (KeyError, ValueError):
            return None
        owner = cities.get(space)
        if owner is not None and owner != seat:
            return f"{who(owner, names)} has a city in {space}: you will give them a card"
    return None


class ConfirmDialog(ChoiceDialog):
    """``set confirm on``: one costly action, asked once before it goes (Enter sends it;
    Esc, or the second choice, puts its line back on the command line to edit)."""

    def __init__(self, ui: Screen, action: dict[str, Any], line: str, reason: str) -> None:
        self.action, self.line = action, line
        self.choice = Choose(
            "Send this?",
            f"{describe_action(action, ui.state.names)}:\n{reason}.\n"
            "('set confirm off': no more asking)",
            (("Yes, send it", action), ("No, back to the command line", Prefill(line))),
        )
        super().__init__(ui, "_confirm")

    def current(self) -> Choose:
        return self.choice

    def relevant(self) -> bool:
        """Whether the action is still one the player may take."""
        return self.action in self.ui.state.legal
