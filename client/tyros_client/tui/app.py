"""``tyros-client HOST:PORT``: the full-screen terminal client.

Built as prompt-toolkit's full-screen examples are: the layout, the key
bindings, the style, then the :class:`~prompt_toolkit.application.Application`.
Every control reads the :class:`~.state.ClientState` through callables, so the
screen always shows what the network task last stored; dialogs are floats
that await a future. The client knows no rules: it acts on the prompt and the
legal actions the server sends (see :mod:`.commands`).

Screen (100 x 30)::

    map: 7 x 5 cells (number, name, empire, city, ships, move costs)
    hand line: your cards by colour, your tiles
    table panel (players, round, phase, empires, piles) | log / legal actions
    message line (errors, what is asked of you)
    > command line (Tab completes)
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import re
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition, has_completions, has_focus
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import (
    BufferControl,
    ConditionalContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    UIContent,
    UIControl,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension as D
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style
from prompt_toolkit.widgets import Frame

from ..botclient import parse_address
from . import commands
from .board import Marks, render_board
from .commands import Act, Choose, Context, Local
from .net import JoinOptions, NetClient, TokenStore
from .state import ClientState, Notice
from .text import CARDS, cards_text, describe_action, letter, score_sheet, who

Sender = Callable[[dict[str, Any]], Awaitable[bool]]

PHASES = {"expand": "expansion", "actions": "card actions", "trade": "trade",
          "give_card": "card for a city owner", "keep": "keep 3 cards", "over": "game over"}
DIALOG_KINDS = (("answer", "_offer"), ("keep", "keep"), ("give_card", "give"),
                ("return_tile", "return"), ("complete", "complete"))
"""Legal kinds that open a dialog by themselves, and the command that builds it."""


# Style ----------------------------------------------------------------------------

_COLOUR_STYLE: dict[str, str] = {
    "space": "bg:#303030 #d0d0d0",
    "empire.orange": "bg:#875f00 #ffffff",
    "empire.yellow": "bg:#7a7a00 #ffffff",
    "empire.green": "bg:#005f00 #ffffff",
    "empire.violet": "bg:#5f0087 #ffffff",
    "number": "bold",
    "tile": "bold reverse",
    "origin": "underline",
    "tag": "bold",
    "city": "bold",
    "coast": "bold",
    "cost": "bold bg:#000000 #ffff5f",
    "serpent": "bg:#00005f #5f87ff",
    "desert": "bg:#3a3a1c #af875f",
    "link": "bold #5fafff",
    "player.0": "bg:#d70000 #ffffff bold",
    "player.1": "bg:#005fff #ffffff bold",
    "player.2": "bg:#e4e4e4 #000000 bold",
    "player.3": "bg:#00afaf #000000 bold",
    "card.orange": "#ff8700 bold",
    "card.yellow": "#ffd700 bold",
    "card.green": "#5fd700 bold",
    "card.violet": "#af5fff bold",
    "card.wild": "#d0d0d0 bold",
    "log.round": "#87afff bold",
    "log.mine": "bold",
    "log.error": "#ff5f5f",
    "log.info": "#87d7af",
    "message.error": "#ff5f5f bold",
    "message.info": "#87d7af",
    "message.turn": "#ffd700 bold",
    "title": "reverse",
    "turn": "#ffd700 bold",
    "dim": "#8a8a8a",
    "choice.selected": "reverse bold",
    "sheet.head": "bold",
    "sheet.winner": "#ffd700 bold",
    "prompt": "bold",
    "frame.label": "bold",
}
_PLAIN_STYLE: dict[str, str] = {
    "number": "bold", "tile": "bold reverse", "origin": "underline", "tag": "bold",
    "city": "bold", "coast": "bold", "cost": "bold underline", "link": "bold",
    "player.0": "reverse", "player.1": "reverse", "player.2": "reverse", "player.3": "reverse",
    "log.round": "bold", "log.mine": "bold", "message.error": "bold", "message.turn": "bold",
    "title": "reverse", "turn": "bold", "choice.selected": "reverse", "sheet.head": "bold",
    "sheet.winner": "bold", "prompt": "bold", "frame.label": "bold",
}


def no_color() -> bool:
    """Whether the user asked for no colour (https://no-color.org)."""
    return bool(os.environ.get("NO_COLOR"))


def make_style(colour: bool) -> Style:
    return Style.from_dict(_COLOUR_STYLE if colour else _PLAIN_STYLE)


# Controls ------------------------------------------------------------------------


class BoardControl(UIControl):
    """The map, rendered for the size it is given."""

    def __init__(self, ui: TyrosApp) -> None:
        self.ui = ui

    def create_content(self, width: int, height: int) -> UIContent:
        lines = render_board(self.ui.state.view, width, height, self.ui.marks())
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines), show_cursor=False)

    def is_focusable(self) -> bool:
        return False


class PanelControl(UIControl):
    """The side panel: the log (newest at the bottom) or the legal actions."""

    def __init__(self, ui: TyrosApp) -> None:
        self.ui = ui

    def create_content(self, width: int, height: int) -> UIContent:
        ui = self.ui
        titles = {"log": "Log", "legal": "What you may do now"}
        title = f" {titles[ui.panel]} "
        keys = "F1 help F2 legal F3 log PgUp/PgDn"
        head: StyleAndTextTuples = [("class:title", title),
                                    ("class:dim", (" " + keys)[:max(0, width - len(title))])]
        room = max(0, height - 1)
        entries = ui.panel_lines()
        if ui.panel == "log":
            # Newest at the bottom; wrap only as far back as the screen shows.
            backwards: list[StyleAndTextTuples] = []
            for style, text in reversed(entries):
                backwards += [[(style, piece)] for piece in reversed(_wrap(text, width))]
                if len(backwards) >= ui.scroll + room:
                    break
            else:
                ui.scroll = max(0, min(ui.scroll, len(backwards) - room))
            body = backwards[::-1]
            end = len(body) - ui.scroll
            shown = body[max(0, end - room):end]
        else:
            body = [[(style, piece)] for style, text in entries for piece in _wrap(text, width)]
            ui.scroll = max(0, min(ui.scroll, len(body) - room))
            shown = body[ui.scroll:ui.scroll + room]
        lines = [head, *shown]
        return UIContent(get_line=lambda i: lines[i], line_count=len(lines), show_cursor=False)

    def is_focusable(self) -> bool:
        return False


class PagerControl(UIControl):
    """A scrollable text (the help) in a float; arrows and PageUp/PageDown scroll, Esc closes."""

    def __init__(self, ui: TyrosApp) -> None:
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

    def create_content(self, width: int, height: int) -> UIContent:
        body: list[StyleAndTextTuples] = []
        for line in commands.help_lines(self.ui.help_topic):
            style = "class:sheet.head" if line and not line.startswith(" ") else ""
            body += [[(style, piece)] for piece in _wrap(line, max(1, width))]
        self.height, self.count = max(1, height), len(body)
        self.top = max(0, min(self.top, self.count - self.height))
        shown = body[self.top:self.top + self.height]
        return UIContent(get_line=lambda i: shown[i], line_count=len(shown), show_cursor=False)

    def is_focusable(self) -> bool:
        return True

    def get_key_bindings(self) -> KeyBindings:
        return self.keys


def _wrap(text: str, width: int) -> list[str]:
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
    def __init__(self, ui: TyrosApp) -> None:
        self.ui = ui

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Any:
        if not document.text.strip() and not complete_event.completion_requested:
            return  # an empty line offers the commands on Tab only
        for text, start, meta in commands.completions(document.text_before_cursor,
                                                      self.ui.context()):
            yield Completion(text, start_position=start, display_meta=meta)


# Dialogs ---------------------------------------------------------------------------


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


# The application ------------------------------------------------------------------


class TyrosApp:
    """The screen of one client: layout, key bindings, style and the application."""

    def __init__(self, state: ClientState, sender: Sender | None = None, *,
                 colour: bool | None = None) -> None:
        self.state = state
        self.sender = sender
        self.colour = not no_color() if colour is None else colour
        self.panel = "log"
        self.help_topic = ""
        self.scroll = 0
        self.local: Notice | None = None
        self.cleared_at = -1.0
        self.dialog: ChoiceDialog | None = None
        self.score_open = False
        self.score_dismissed = False
        self.help_open = False
        self._last_dialog_command: str | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self.sent: list[dict[str, Any]] = []
        """Every action sent, oldest first (handy for tests and for the log)."""

        self.buffer = Buffer(completer=CommandCompleter(self), complete_while_typing=True,
                             history=InMemoryHistory(), multiline=False,
                             accept_handler=self._accept)
        self.layout = self._layout()
        self.application: Application[None] = Application(
            layout=self.layout, key_bindings=self._key_bindings(),
            style=make_style(self.colour), full_screen=True, mouse_support=False,
            color_depth=None if self.colour else ColorDepth.DEPTH_1_BIT,
            refresh_interval=1.0)
        self.application.ttimeoutlen = 0.05

    # Layout --------------------------------------------------------------------

    def _layout(self) -> Layout:
        self.command_window = Window(BufferControl(self.buffer), height=1)
        body = HSplit([
            Window(BoardControl(self), height=self._map_height),
            Window(FormattedTextControl(self._hand_text), height=1, style="class:bar"),
            VSplit([
                Window(FormattedTextControl(self._table_text),
                       width=lambda: D(min=24, preferred=39 if self.compact() else 47,
                                       max=39 if self.compact() else 47)),
                Window(width=1, char="|", style="class:dim"),
                Window(PanelControl(self)),
            ], height=D(min=3, preferred=8)),
            Window(FormattedTextControl(self._message_text), height=1),
            VSplit([Window(FormattedTextControl([("class:prompt", "> ")]), width=2),
                    self.command_window], height=1),
        ])
        self.score_window = Window(FormattedTextControl(self._score_text, focusable=True,
                                                        key_bindings=self._score_keys()),
                                   wrap_lines=False)
        score = ConditionalContainer(
            Frame(self.score_window, title="Final score (Esc closes; 'score' shows it again)",
                  width=D(min=30, preferred=96)),
            filter=Condition(lambda: self.score_open))
        self.help_pager = PagerControl(self)
        self.help_window = Window(self.help_pager)
        help_frame = ConditionalContainer(
            Frame(self.help_window, title="Help (arrows scroll, Esc closes)",
                  width=D(min=30, preferred=96)),
            filter=Condition(lambda: self.help_open))
        self.root = FloatContainer(body, floats=[
            Float(help_frame, top=0, bottom=2),
            Float(score, top=1),
            Float(xcursor=True, ycursor=True,
                  content=CompletionsMenu(max_height=8, scroll_offset=1)),
        ])
        return Layout(self.root, focused_element=self.command_window)

    def size(self) -> tuple[int, int]:
        """(rows, columns) of the terminal."""
        size = self.application.output.get_size()
        return size.rows, size.columns

    def compact(self) -> bool:
        return self.size()[1] < 96

    def _map_height(self) -> D:
        """The map's rows: cells of 3 lines with sea links between them when the terminal
        has room, else 2 lines with links, else 2 lines without, else 1 (the panel below
        keeps its 8 lines as long as it can)."""
        rows = self.size()[0]
        room = rows - 3 - 8
        for wanted in (24, 19, 14, 10):  # 5 rows of 4, 3, 2 lines with gaps; 2 without
            if room >= wanted:
                return D.exact(wanted)
        return D.exact(5)

    def _score_keys(self) -> KeyBindings:
        keys = KeyBindings()

        @keys.add("escape", eager=True)
        @keys.add("enter")
        @keys.add("q")
        def _close(event: KeyPressEvent) -> None:
            self.close_score()

        return keys

    def _key_bindings(self) -> KeyBindings:
        keys = KeyBindings()

        @keys.add("c-c")
        @keys.add("c-q")
        def _quit(event: KeyPressEvent) -> None:
            event.app.exit()

        @keys.add("c-d", filter=has_focus(self.buffer) & Condition(lambda: not self.buffer.text))
        def _quit_empty(event: KeyPressEvent) -> None:
            event.app.exit()

        @keys.add("escape", filter=has_focus(self.buffer) & has_completions, eager=True)
        def _no_menu(event: KeyPressEvent) -> None:
            self.buffer.cancel_completion()

        @keys.add("f1")
        def _help(event: KeyPressEvent) -> None:
            self.open_help("")

        @keys.add("f2")
        def _legal(event: KeyPressEvent) -> None:
            self.show_panel("legal")

        @keys.add("f3")
        def _log(event: KeyPressEvent) -> None:
            self.show_panel("log")

        @keys.add("f4")
        def _answer(event: KeyPressEvent) -> None:
            self.run_line("answer")

        @keys.add("pageup")
        def _page_up(event: KeyPressEvent) -> None:
            step = 5
            self.scroll += step if self.panel == "log" else -step
            self.scroll = max(0, self.scroll)

        @keys.add("pagedown")
        def _page_down(event: KeyPressEvent) -> None:
            step = 5
            self.scroll += -step if self.panel == "log" else step
            self.scroll = max(0, self.scroll)

        return keys

    # What the controls read ----------------------------------------------------

    def context(self) -> Context:
        state = self.state
        return Context.from_view(state.view, state.prompt, state.names, state.seat)

    def marks(self) -> Marks:
        view = self.state.view or {}
        origin, costs = commands.move_costs(self.buffer.text, self.context())
        return Marks(tiles=frozenset(view.get("tiles") or ()), costs=costs, origin=origin)

    def panel_lines(self) -> list[tuple[str, str]]:
        if self.panel == "legal":
            return [("", line) for line in commands.legal_lines(self.context())]
        return [(line.style, line.text) for line in self.state.log]

    def _hand_text(self) -> StyleAndTextTuples:
        state = self.state
        view = state.view
        out: StyleAndTextTuples = []
        if state.seat is not None:
            out += [(f"class:player.{state.seat}", f" {letter(state.seat)} "),
                    ("class:bar", f" {state.name} ")]
        elif state.spectate:
            out.append(("class:bar", f" watching table {state.table} "))
        if view is None:
            seated = sum(1 for s in (state.table_info or {}).get("seats", []) if s.get("name"))
            players = (state.table_info or {}).get("players", "?")
            out.append(("", f" table {state.table}: {seated} of {players} seats taken; "
                            "the game starts when every seat is taken"))
            return out
        hand = view.get("hand")
        if hand is not None:
            out.append(("", " Hand "))
            for card in CARDS:
                n = hand.count(card)
                out.append((f"class:card.{card}" if n else "class:dim", f"{card} {n}"))
                out.append(("", " "))
            out.append(("", f"({len(hand)})  Tiles "))
            tiles = view.get("tiles") or []
            out.append(("class:tile" if tiles else "class:dim", " ".join(tiles) or "none"))
        if not state.connected:
            out.append(("class:message.error", f"  [{state.connection}]"))
        return out

    def _table_text(self) -> StyleAndTextTuples:
        state = self.state
        view = state.view
        names = state.names
        out: StyleAndTextTuples = []
        if view is None:
            out.append(("class:title", f" Table {state.table} "))
            out.append(("", " waiting for players\n"))
            for seat in range(len(names)):
                status = state.seat_status(seat)
                name = status.get("name") or "(free seat)"
                out += [(f"class:player.{seat}", f" {letter(seat)} "), ("", f" {name}\n")]
            return out
        out.append(("class:title", f" Round {view.get('round')} "))
        out.append(("", f" {PHASES.get(view.get('phase', ''), view.get('phase'))}: "))
        out += self._whose_turn(view, names)
        out.append(("", "\n"))
        compact = self.compact()
        out.append(("class:dim", "     player   crd til shp cit\n" if compact
                    else "     player       cards tiles ships cities\n"))
        to_act = set(view.get("to_act") or [])
        for info in view.get("seats", []):
            seat = info["seat"]
            status = state.seat_status(seat)
            flags = []
            if seat == view.get("starting_seat"):
                flags.append("start")
            if seat == state.seat:
                flags.append("you")
            if status.get("bot"):
                flags.append("bot")
            elif not status.get("connected"):
                flags.append("off")
            out.append(("class:turn", " > " if seat in to_act else "   "))
            out.append((f"class:player.{seat}", letter(seat)))
            name = (names[seat] if seat < len(names) else None) or f"seat {seat}"
            tiles = str(info["tiles"])
            if info.get("revealed_tiles"):
                tiles += "!"
            if compact:
                out.append(("", f" {name[:8]:<8} {info['cards']:>3} {tiles:>3} "
                                f"{info['ships_in_supply']:>3} {info['cities_in_supply']:>3} "))
            else:
                out.append(("", f" {name[:11]:<11} {info['cards']:>5} {tiles:>5} "
                                f"{info['ships_in_supply']:>5} {info['cities_in_supply']:>6} "))
            out.append(("class:dim", " ".join(flags)))
            out.append(("", "\n"))
        out.append(("", " Empires "))
        for empire in view.get("empires", []):
            colour = empire["colour"]
            space = "" if compact else " "
            out.append((f"class:card.{colour}", f"{colour[0].upper()}{space}{empire['size']}"))
            out.append(("class:dim", f"{space}#{empire['rank']} {space}"))
        out.append(("", "\n Discard " if not compact else "\n Disc "))
        discard = view.get("discard") or {}
        for card in CARDS:
            out.append((f"class:card.{card}", f"{card[0]}{discard.get(card, 0)}"))
            out.append(("", " "))
        space = "" if compact else " "
        out.append(("", f"{space}draw{space}{view.get('draw_pile')} {space}tiles{space}"
                        f"{view.get('tile_pile')}"))
        return out

    def _whose_turn(self, view: dict[str, Any], names: list[str | None]) -> StyleAndTextTuples:
        phase = view.get("phase")
        if phase == "over":
            score = view.get("score") or {}
            winners = " and ".join(who(s, names) for s in score.get("winners", []))
            return [("class:turn", f"{winners} won")]
        if phase == "trade" and view.get("trade"):
            trade = view["trade"]
            return [("", f"{letter(trade['proposer'])} offers {cards_text(trade['give'])} "
                         f"for {cards_text(trade['get'])}")]
        to_act = view.get("to_act") or []
        if phase == "keep":
            return [("", "waiting for " + ", ".join(letter(s) for s in to_act))]
        current = view.get("current", 0)
        if current == self.state.seat:
            return [("class:turn", "your turn")]
        return [("", f"{who(current, names)} to act")]

    def _message_text(self) -> StyleAndTextTuples:
        state = self.state
        if state.fatal:
            return [("class:message.error", f" {state.fatal} (Ctrl-C quits)")]
        # Errors stay until the next command; other notices until the next update.
        notices = [n for n in (state.error, self.local) if n is not None
                   and n.at > self.cleared_at and (n.error or n.at >= state.prompt_at)]
        if notices:
            newest = max(notices, key=lambda n: n.at)
            style = "class:message.error" if newest.error else "class:message.info"
            return [(style, f" {newest.text}")]
        if not state.connected:
            return [("class:message.error", f" {state.connection}")]
        if state.prompt:
            return [("class:message.turn", " " + self._asked())]
        view = state.view
        if view is None:
            return [("class:dim", " waiting for the game to start (F1 help)")]
        if view.get("phase") == "over":
            return [("class:message.turn", " the game is over: 'score' shows the sheet, "
                                           "Ctrl-C quits")]
        return [("class:dim", " waiting for the others (F1 help, F2 legal, Tab completes)")]

    def _asked(self) -> str:
        kinds = [a.get("kind") for a in self.state.legal]
        if "answer" in kinds:
            left = self.state.seconds_left()
            time_left = f" ({left:.0f} s left)" if left is not None else ""
            return f"a trade is offered to you: accept or decline{time_left} (F4 opens it)"
        if "keep" in kinds:
            return "end of round: keep 3 cards (keep CARDS, or F4)"
        if "give_card" in kinds:
            return "give a card to the city owner (give CARD, or F4)"
        if "return_tile" in kinds:
            return "you cannot expand: put a tile back (return TILE, or F4)"
        if "expand" in kinds:
            return "expand an empire: expand TILE [COLOUR] (your tiles are marked *)"
        if "complete" in kinds:
            return "your offer was accepted: complete PLAYER or withdraw (F4)"
        if "withdraw" in kinds:
            return "waiting for answers to your offer (withdraw to take it back)"
        return "your turn: move, city, ship, bank, trade or pass (Tab completes, F2 lists)"

    def _score_text(self) -> StyleAndTextTuples:
        score = (self.state.view or {}).get("score")
        if not score:
            return [("", "no score yet")]
        return score_sheet(score, self.state.names)

    # Acting --------------------------------------------------------------------

    def _accept(self, buffer: Buffer) -> bool:
        keep_text = self.run_line(buffer.text)
        return keep_text

    def run_line(self, line: str) -> bool:
        """Act on one command line; True when the text should stay (it was refused)."""
        self.cleared_at = self.state.clock()
        self.local = None
        result = commands.parse(line, self.context())
        if isinstance(result, Act):
            self.send(result.action)
            return False
        if isinstance(result, Choose):
            self.open_dialog(line)
            return False
        if isinstance(result, Local):
            return self._local(result)
        self.local = Notice(result.message, self.state.clock())
        return True

    def _local(self, command: Local) -> bool:
        if command.command == "quit":
            self.application.exit()
        elif command.command == "help":
            self.open_help(command.argument)
        elif command.command in ("legal", "log"):
            self.show_panel(command.command)
        elif command.command == "score":
            if not (self.state.view or {}).get("score"):
                self.local = Notice("there is no score sheet before the game ends",
                                    self.state.clock())
                return True
            self.open_score()
        return False

    def open_help(self, topic: str) -> None:
        self.help_topic = topic
        self.help_open = True
        self.help_pager.top = 0
        self.layout.focus(self.help_window)
        self.application.invalidate()

    def close_help(self) -> None:
        self.help_open = False
        if self.dialog is not None:
            self.layout.focus(self.dialog.window)
        elif self.score_open:
            self.layout.focus(self.score_window)
        else:
            self.layout.focus(self.command_window)
        self.application.invalidate()

    def show_panel(self, name: str) -> None:
        self.panel = name
        self.scroll = 0
        self.application.invalidate()

    def send(self, action: dict[str, Any]) -> None:
        sender = self.sender
        self.sent.append(action)
        self.local = Notice(f"sent: {describe_action(action, self.state.names)}",
                            self.state.clock(), error=False)
        if sender is None:
            self.local = Notice("not connected", self.state.clock())
            return
        task = asyncio.ensure_future(sender(action))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # Dialogs -------------------------------------------------------------------

    def open_dialog(self, command: str) -> None:
        if self.dialog is not None:
            self.close_dialog()
        self.help_open = False
        dialog = ChoiceDialog(self, command)
        self.dialog = dialog
        self.root.floats.insert(0, dialog.float)
        self.layout.focus(dialog.window)
        task = asyncio.ensure_future(self._await_dialog(dialog))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self.application.invalidate()

    async def _await_dialog(self, dialog: ChoiceDialog) -> None:
        action = await dialog.future
        if self.dialog is dialog:
            self._remove_dialog(dialog)
        if action is not None:
            self.cleared_at = self.state.clock()
            self.send(action)

    def close_dialog(self) -> None:
        dialog = self.dialog
        if dialog is None:
            return
        if not dialog.future.done():
            dialog.future.set_result(None)
        self._remove_dialog(dialog)

    def _remove_dialog(self, dialog: ChoiceDialog) -> None:
        if dialog.float in self.root.floats:
            self.root.floats.remove(dialog.float)
        self.dialog = None
        if self.score_open:
            self.layout.focus(self.score_window)
        else:
            self.layout.focus(self.command_window)
        self.application.invalidate()

    def open_score(self) -> None:
        self.score_open = True
        self.layout.focus(self.score_window)
        self.application.invalidate()

    def close_score(self) -> None:
        self.score_open = False
        self.score_dismissed = True
        self.layout.focus(self.command_window)
        self.application.invalidate()

    def on_state_change(self) -> None:
        """Called by the network task after each message."""
        self._sync_dialogs()
        if self.state.over and not self.score_open and not self.score_dismissed \
                and self.dialog is None:
            self.open_score()
        self.application.invalidate()

    def _sync_dialogs(self) -> None:
        if self.dialog is not None and not self.dialog.relevant():
            self.close_dialog()
        kinds = {a.get("kind") for a in self.state.legal}
        wanted = next((command for kind, command in DIALOG_KINDS if kind in kinds), None)
        previous, self._last_dialog_command = self._last_dialog_command, wanted
        if wanted is None or wanted == previous or self.dialog is not None:
            return
        if self.buffer.text.strip():
            return  # the player is typing: the message line says what is asked (F4 opens it)
        self.open_dialog(wanted)


# Command line entry points ------------------------------------------------------

_NAME_OK = re.compile(r"^[^\x00-\x1f\x7f]{1,32}$")


def default_name() -> str:
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        name = "player"
    return name if _NAME_OK.match(name) else "player"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="tyros-client", description="Play Tyros in the terminal against a tyros-server.")
    parser.add_argument("address", type=parse_address, help="HOST:PORT of a tyros-server")
    parser.add_argument("--name", default=None, help="your name at the table (default: login)")
    parser.add_argument("--table", default="table", help="table to join or create")
    parser.add_argument("--players", type=int, choices=(3, 4), default=4,
                        help="players, if the table is created")
    parser.add_argument("--setup", choices=("first", "variable"), default="first",
                        help="empire setup, if the table is created")
    parser.add_argument("--spectate", action="store_true", help="watch the table")
    parser.add_argument("--seed", type=int, default=None,
                        help="game seed, if the table is created")
    parser.add_argument("--trade-seconds", type=int, default=None,
                        help="time to answer a trade offer, if the table is created")
    args = parser.parse_args(argv)
    if args.name is not None and not _NAME_OK.match(args.name):
        parser.error("a name has 1 to 32 printable characters")
    if not re.match(r"^[A-Za-z0-9_.-]{1,32}$", args.table):
        parser.error("a table name has 1 to 32 letters, digits, '_', '.' or '-'")
    return args


async def run_client(ui: TyrosApp, net: NetClient) -> None:
    """Run the screen and the network task together until the player quits."""
    ui.sender = net.send_action
    task = asyncio.create_task(net.run())
    try:
        await ui.application.run_async()
    finally:
        net.stop()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def build(url: str, table: str, name: str, *, spectate: bool = False,
          options: JoinOptions | None = None, tokens: TokenStore | None = None,
          colour: bool | None = None) -> tuple[TyrosApp, NetClient]:
    """A client's state, screen and network task, wired together (not yet running)."""
    state = ClientState(url, table, name, spectate=spectate)
    ui = TyrosApp(state, colour=colour)
    net = NetClient(state, url, options=options, tokens=tokens, on_change=ui.on_state_change)
    ui.sender = net.send_action
    return ui, net


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    options = JoinOptions(players=args.players, setup=args.setup, seed=args.seed,
                          trade_seconds=args.trade_seconds)
    ui, net = build(args.address, args.table, args.name or default_name(),
                    spectate=args.spectate, options=options, tokens=TokenStore())
    try:
        asyncio.run(run_client(ui, net))
    except KeyboardInterrupt:
        return 130
    if net.state.fatal:
        print(f"tyros-client: {net.state.fatal}", file=sys.stderr)
        return 1
    return 0


__all__ = ["TyrosApp", "build", "main", "run_client"]


if __name__ == "__main__":
    raise SystemExit(main())
