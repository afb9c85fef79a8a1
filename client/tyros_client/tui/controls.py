"""The screen's controls: the map, the side panel, the help pager and the completer.

Each reads what it shows from the application (and so from the client state) through
callables at every redraw; none holds a copy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import UIContent, UIControl
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from . import commands, render
from .board import render_board, space_at

if TYPE_CHECKING:
    from prompt_toolkit.key_binding.key_bindings import NotImplementedOrNone

    from .screen import Screen


class BoardControl(UIControl):
    """The map, rendered for the size it is given."""

    def __init__(self, ui: Screen) -> None:
        self.ui = ui
        self.size = (0, 0)

    def create_content(self, width: int, height: int) -> UIContent:
        self.size = (width, height)
        lines = render_board(self.ui.state.game, width, height, self.ui.marks())
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines), show_cursor=False)

    def is_focusable(self) -> bool:
        return False

    def mouse_handler(self, mouse_event: MouseEvent) -> NotImplementedOrNone:
        """A click on a space puts its label into the command being typed."""
        if mouse_event.event_type != MouseEventType.MOUSE_UP:
            return NotImplemented
        label = space_at(mouse_event.position.x, mouse_event.position.y, *self.size)
        if label is None:
            return NotImplemented
        self.ui.click_space(label)
        return None


class PanelControl(UIControl):
    """The side panel: the log (newest at the bottom) or the legal actions."""

    def __init__(self, ui: Screen) -> None:
        self.ui = ui

    def create_content(self, width: int, height: int) -> UIContent:
        ui = self.ui
        titles = {"log": "Log", "legal": "What you may do now"}
        title = f" {titles[ui.screen.panel]} "
        keys = fit_words(" F1 help F2 legal F3 log PgUp/PgDn", width - len(title))
        head: StyleAndTextTuples = [("class:title", title), ("class:dim", keys)]
        if self._round_heads():
            head = render.status_line(ui, width)  # (no room for it over the table)
        room = max(0, height - 1)
        ui.screen.page = max(1, room)
        entries = ui.panel_lines()
        if ui.screen.panel == "log":
            arrived = len(entries) - ui.screen.log_lines_seen
            if ui.screen.scroll > 0 and 0 < arrived <= len(entries):
                # Scrolled back: what the player reads stays put while the game goes on.
                ui.screen.scroll += sum(len(wrap(text, width)) for _, text in entries[-arrived:])
            ui.screen.log_lines_seen = len(entries)
            # Newest at the bottom; wrap only as far back as the screen shows.
            backwards: list[StyleAndTextTuples] = []
            for style, text in reversed(entries):
                backwards += [[(style, piece)] for piece in reversed(wrap(text, width))]
                if len(backwards) >= ui.screen.scroll + room:
                    break
            else:
                ui.screen.scroll = max(0, min(ui.screen.scroll, len(backwards) - room))
            body = backwards[::-1]
            end = len(body) - ui.screen.scroll
            shown = body[max(0, end - room) : end]
            if ui.screen.scroll > 0:  # not following the game: say so, and how to come back
                newer = ui.screen.scroll
                head = self._noticed(
                    width,
                    title,
                    f" v {newer} newer below: PgDn, End v ",
                    f" v {newer} newer: End ",
                    f" v {newer} ",
                )
        else:
            body = [[(style, piece)] for style, text in entries for piece in wrap(text, width)]
            ui.screen.scroll = max(0, min(ui.screen.scroll, len(body) - room))
            shown = body[ui.screen.scroll : ui.screen.scroll + room]
            hidden = len(body) - ui.screen.scroll - len(shown)
            if hidden > 0:  # (a request above may leave room for a line or two only)
                head = self._noticed(
                    width,
                    title,
                    f" v {hidden} more: PgDn v ",
                    f" v {hidden} more: PgDn",
                    f" v {hidden} more ",
                    f" v {hidden} ",
                )
        lines = [head, *shown]
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines), show_cursor=False)

    def _round_heads(self) -> bool:
        """Whether the round's line heads the panel (no room for it over the table)."""
        return self.ui.state.game is not None and render.round_over_log(self.ui)

    def _noticed(self, width: int, title: str, *notices: str) -> StyleAndTextTuples:
        """The head when lines are hidden (scrolled back, a long list): the title and the
        notice, or the round's line and the longest of ``notices`` it leaves room for (the
        round and the phase stay in sight, a trade offer's above them or not)."""
        if self._round_heads():
            return render.status_line(self.ui, width, notices)
        return [
            ("class:title", title),
            ("class:request.title", notices[0][: max(0, width - len(title))]),
        ]

    def is_focusable(self) -> bool:
        return False


class RequestControl(UIControl):
    """What the table asks of the player (an offer, keep 3 ...): shown, never focused, so
    that the command line keeps every key the player types."""

    def __init__(self, ui: Screen) -> None:
        self.ui = ui

    def lines(self, width: int) -> list[StyleAndTextTuples]:
        out: list[StyleAndTextTuples] = []
        for style, text in render.request_lines(self.ui):
            out += [[(style, piece)] for piece in wrap(text, width)]
        return out

    def preferred_height(
        self, width: int, max_available_height: int, wrap_lines: bool, get_line_prefix: Any
    ) -> int | None:
        return min(len(self.lines(width)), max(1, max_available_height))

    def create_content(self, width: int, height: int) -> UIContent:
        lines = self.lines(width)
        if len(lines) > height > 0:  # never a cut that reads as the whole offer
            rest = lines[height - 1 :]
            lines = lines[:height]
            style = lines[-1][0][0] if lines[-1] else ""
            # The last line takes as many of the words left as fit beside the "more".
            text = " ".join("".join(piece for _, piece, *_ in line).strip() for line in rest)
            indent = (
                " " * (len(lines[-1][0][1]) - len(lines[-1][0][1].lstrip())) if lines[-1] else ""
            )
            more = " ... (F4 shows all)"
            cut = fit_words(indent + text, max(0, width - len(more))).rstrip()
            lines[-1] = [(style, cut + more)]
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines), show_cursor=False)

    def is_focusable(self) -> bool:
        return False


class PagerControl(UIControl):
    """A scrollable text (the help) in a float; arrows and PageUp/PageDown scroll, Esc closes."""

    def __init__(self, ui: Screen) -> None:
        self.ui = ui
        self.top = 0
        self.height = 1
        self.count = 0
        self.keys = KeyBindings()

        def scroll(step: int) -> None:
            self.top = max(0, min(self.top + step, self.count - self.height))

        self.keys.add("up")(lambda event: scroll(-1))
        self.keys.add("down")(lambda event: scroll(1))
        self.keys.add("pageup")(lambda event: scroll(-self.height + 1))
        self.keys.add("pagedown")(lambda event: scroll(self.height - 1))
        self.keys.add(" ")(lambda event: scroll(self.height - 1))
        self.keys.add("home")(lambda event: scroll(-self.count))
        self.keys.add("end")(lambda event: scroll(self.count))
        for key in ("escape", "q", "enter", "f1"):
            self.keys.add(key, eager=key == "escape")(lambda event: self.ui.close_help())

        @self.keys.add("<any>")
        def _typing(event: KeyPressEvent) -> None:
            # A player who starts typing a command wants the command line, as in a dialog.
            if event.data and event.data.isprintable():
                self.ui.close_help()
                self.ui.type_into_command_line(event.data)

    def create_content(self, width: int, height: int) -> UIContent:
        body: list[StyleAndTextTuples] = []
        topic = self.ui.screen.help_topic
        lines = self.ui.driver.help_lines(topic)
        for line in lines:
            style = "class:sheet.head" if line and not line.startswith(" ") else ""
            body += [[(style, piece)] for piece in wrap(line, max(1, width))]
        self.height, self.count = max(1, height), len(body)
        self.top = max(0, min(self.top, self.count - self.height))
        shown = body[self.top : self.top + self.height]
        return UIContent(get_line=lambda i: shown[i], line_count=len(shown), show_cursor=False)

    def is_focusable(self) -> bool:
        return True

    def get_key_bindings(self) -> KeyBindings:
        return self.keys


def fit_words(text: str, width: int) -> str:
    """As many whole words of ``text`` as fit in ``width`` characters.

    >>> fit_words(" F1 help F2 legal F3 log", 14)
    ' F1 help F2'
    """
    if len(text) <= width:
        return text
    cut = text.rfind(" ", 0, width + 1)
    return text[:cut] if cut > 0 else ""


class MessageControl(UIControl):
    """The message line: what is asked, whose turn, why a command was refused; wrapped at
    words onto a second line when it is long (never cut)."""

    def __init__(self, ui: Screen) -> None:
        self.ui = ui

    def lines(self, width: int) -> list[StyleAndTextTuples]:
        fragments = render.message_text(self.ui)
        style = fragments[0][0] if fragments else ""
        text = "".join(piece for _, piece, *_ in fragments)
        lines = wrap(text, max(1, width))
        if len(lines) > 2:  # a cut must show: the last whole words, then "..."
            lines = [lines[0], fit_words(lines[1], max(0, width - 4)).rstrip() + " ..."]
        return [[(style, line)] for line in lines]

    def preferred_height(
        self, width: int, max_available_height: int, wrap_lines: bool, get_line_prefix: Any
    ) -> int | None:
        return len(self.lines(width)) or 1

    def create_content(self, width: int, height: int) -> UIContent:
        lines = self.lines(width)[: max(1, height)]
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines), show_cursor=False)


def wrap(text: str, width: int) -> list[str]:
    width = max(1, width)
    if len(text) <= width:
        return [text]
    out = []
    indent = " " * min(width // 3, len(text) - len(text.lstrip()) + 2)
    while len(text) > width:
        cut = text.rfind(" ", len(indent) + 1, width + 1)
        if cut <= width // 3:
            cut = width
        out.append(text[:cut].rstrip())
        text = indent + text[cut:].lstrip()
    out.append(text)
    return out


class CommandCompleter(Completer):
    def __init__(self, ui: Screen) -> None:
        self.ui = ui

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Any:
        if not document.text.strip() and not complete_event.completion_requested:
            return  # an empty line offers the commands on Tab only
        if self.ui.buffer.selection_state is not None:
            # A refused line (selected): a menu started by its last key, typed with Enter,
            # would open after the refusal and cover its reason.
            return
        for text, start, meta in commands.completions(
            document.text_before_cursor, self.ui.context()
        ):
            yield Completion(text, start_position=start, display_meta=meta)
