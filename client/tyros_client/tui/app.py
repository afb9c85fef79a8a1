"""``tyros-client HOST:PORT``: the full-screen terminal client.

Built as prompt-toolkit's full-screen examples are: the layout (:mod:`.layout`), the key
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

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.key_binding import DynamicKeyBindings, merge_key_bindings
from prompt_toolkit.layout.dimension import Dimension as D
from prompt_toolkit.output import ColorDepth
from tyros_protocol.board import BOARD
from tyros_rules import Action, parse_action

from ..hints import hint, hint_headline, hint_line
from ..notices import ActionHandle, Fate
from ..review import DEFAULT_ITERATIONS
from ..words import command_line, describe_action
from . import commands, keys, layout, lookback
from .autopilot import Autopilot
from .board import Marks
from .commands import Act, Choose, Context, Local, Prefill, Say
from .controls import (
    CommandCompleter,
)
from .dialog import DIALOG_WIDTH, ChoiceDialog, ConfirmDialog, confirm_reason
from .drivers import Driver, Handoff, LiveDriver
from .replaying import USAGE as REPLAY_USAGE
from .replaying import ReplayDriver
from .screen import ScreenState
from .state import ClientState, LineKind, Note
from .style import LINE_STYLES, make_style, no_color

Sender = Callable[[dict[str, Any]], ActionHandle | None]
Talker = Callable[[str], Awaitable[bool]]

PANEL_ROWS = 7
"""Rows the table and the log keep under the map (a 4-player table fits in 7 lines)."""
DIALOG_OPEN = "choose in the dialog above: Up/Down, Enter; Esc closes it"


class TyrosApp:
    """The screen of one client: layout, key bindings, style and the application."""

    def __init__(
        self, state: ClientState, sender: Sender | None = None, *, colour: bool | None = None
    ) -> None:
        self.state = state
        self.sender = sender
        self.talker: Talker | None = None
        """Sends a line of table talk (the network task's)."""
        self.colour = not no_color() if colour is None else colour
        self.screen = ScreenState()
        """What the screen shows of its own (which panel, the help, the log's scroll)."""
        self.dialog: ChoiceDialog | None = None
        self.autopilot = Autopilot(state, self.send)
        """The answers the client gives for the player, and the player's standing orders."""
        self.lines_run = 0
        """Command lines entered so far (tests wait for it)."""
        self.sent: list[dict[str, Any]] = []
        """Every action sent, oldest first (handy for tests and for the log)."""
        self.driver: Driver = LiveDriver()
        """What feeds the screen: a live table, or a recorded game (``--replay``)."""
        self.hinter: Callable[[int], Awaitable[bool]] | None = None
        """Tells the server a hint is asked (the network task's)."""
        self.fetcher: Callable[[], Awaitable[dict[str, Any]]] | None = None
        """Fetches the table's record from the server (the network task's)."""
        self.hinting: asyncio.Future[Any] | None = None
        """The hint being thought about, off the interface thread."""
        self.review_iterations = DEFAULT_ITERATIONS
        """The budget of a review made in the replay screen (deals a decision)."""
        self._in_flight: ActionHandle | None = None
        """The last action sent: what became of it (a line typed meanwhile waits for its
        answer: :meth:`_on_its_way`)."""
        self._sent_line: str | None = None
        """The command line of the action last sent: it comes back if the server refuses it."""
        self._held_line: str | None = None
        """A line typed while the last action was on its way: run when the server answers."""
        self._turns_seen = 0
        """The seat's turns begun that the log was brought to its newest lines for."""

        self.buffer = Buffer(
            completer=CommandCompleter(self),
            complete_while_typing=True,
            history=InMemoryHistory(),
            multiline=False,
            accept_handler=self._accept,
            on_text_changed=self._typing,
        )
        self._refused: str | None = None
        self._refused_version = -1
        """The refused line kept on the command line (its reason shows until it changes)."""
        built = layout.build(self)
        self.layout, self.root = built.layout, built.root
        self.command_window, self.score_window = built.command_window, built.score_window
        self.help_window, self.help_pager = built.help_window, built.help_pager
        self.application: Application[None] = Application(
            layout=self.layout,
            key_bindings=merge_key_bindings(
                [
                    keys.app_keys(self),
                    DynamicKeyBindings(
                        lambda: self.driver.key_bindings(self.run_line, self.on_state_change)
                    ),
                ]
            ),
            style=make_style(self.colour),
            full_screen=True,
            mouse_support=True,
            color_depth=None if self.colour else ColorDepth.DEPTH_1_BIT,
            refresh_interval=1.0,
        )
        self.application.ttimeoutlen = 0.05
        # A seat gone for a while is said to be away even if no message comes meanwhile.
        self.application.before_render += lambda _: state.absences()

    def dialog_width(self) -> int:
        return max(20, min(DIALOG_WIDTH, self.size()[1] - 2))

    def invalidate(self) -> None:
        self.application.invalidate()

    def click_space(self, label: str) -> None:
        """A space clicked on the map: its label goes into the command being typed."""
        text = self.buffer.text
        if self.buffer.selection_state is not None:  # a refused line: start afresh
            self.buffer.cut_selection()
            text = self.buffer.text
        self.buffer.cursor_position = len(text)
        self.type_into_command_line(("" if not text or text.endswith(" ") else " ") + label + " ")

    def type_into_command_line(self, text: str) -> None:
        """Give the keyboard back to the command line, with ``text`` typed into it: over a
        refused line (selected), as typing on the command line itself would."""
        self.layout.focus(self.command_window)
        if self.buffer.selection_state is not None:
            self.buffer.cut_selection()
        self.buffer.insert_text(text)
        self.invalidate()

    def size(self) -> tuple[int, int]:
        """(rows, columns) of the terminal."""
        size = self.application.output.get_size()
        return size.rows, size.columns

    def compact(self) -> bool:
        return self.size()[1] < 96

    def map_height(self) -> D:
        """The map's rows: cells of 4, 3 or 2 lines, always with the sea-link rows between
        them while the panel below keeps 7 lines (80 x 24 included); then 2 lines without
        links, then 1."""
        rows = self.size()[0]
        room = rows - 3 - PANEL_ROWS
        for wanted in (24, 19, 14):  # 5 rows of 4, 3, 2 lines with the link rows
            if room >= wanted:
                return D.exact(wanted)
        return D.exact(10 if room >= 10 else 5)

    def panel_rows(self) -> int:
        """Rows left under the map for the table and the log."""
        rows = self.size()[0]
        return max(0, rows - 3 - self.map_height().preferred)

    # What the controls read ----------------------------------------------------

    def context(self) -> Context:
        state = self.state
        return Context.from_view(state.game, state.legal, state.names, state.seat)

    def marks(self) -> Marks:
        game = self.state.game
        tiles = () if game is None else game.tiles or ()
        origin, costs = commands.move_costs(self.buffer.text, self.context())
        return Marks(tiles=frozenset(tiles), costs=costs, origin=origin)

    @property
    def replay(self) -> ReplayDriver | None:
        """The recorded game shown, if the screen shows one."""
        return self.driver if isinstance(self.driver, ReplayDriver) else None

    def panel_lines(self) -> list[tuple[str, str]]:
        tail = self.driver.panel_tail()
        if tail:
            # Under the log's newest line, where the panel (a log's tail) always shows them.
            hands = [(LINE_STYLES[LineKind.SUMMARY], line) for line in tail]
            return [*self._log_lines(), *hands]
        if self.screen.panel == "legal":
            return [("", line) for line in commands.legal_lines(self.context())]
        return self._log_lines()

    def _log_lines(self) -> list[tuple[str, str]]:
        return [(LINE_STYLES[line.kind], line.text) for line in self.state.log]

    # Acting --------------------------------------------------------------------

    def _typing(self, buffer: Buffer) -> None:
        """A new line is being typed: the last refusal's reason has served, and the player
        means to play (auto-pass ends)."""
        if buffer.text:
            self.autopilot.typed()
        if self._refused is not None and buffer.text != self._refused:
            self._refused = None
            self.screen.cleared_at = self.state.clock()

    def _accept(self, buffer: Buffer) -> bool:
        keep_text = self.run_line(buffer.text)
        self._refused = None
        self._refused_version = self.state.version
        if keep_text:
            self._keep_refused(buffer.text)
        return keep_text

    def _keep_refused(self, line: str) -> None:
        """A refused line stays for editing, selected: typing replaces it. Its completions
        go, or their menu would cover the reason on the message line."""
        buffer = self.buffer
        self._refused, self._refused_version = line, self.state.version
        if not line:
            return
        buffer.text = line
        buffer.cancel_completion()
        buffer.cursor_position = 0
        buffer.start_selection()
        buffer.cursor_position = len(line)

    def run_line(self, line: str) -> bool:
        """Act on one command line; True when the text should stay (it was refused)."""
        self.lines_run += 1
        if not line.strip():
            return False  # Enter on an empty line, as in a shell: nothing to say
        self.screen.cleared_at = self.state.clock()
        self.screen.local = None
        done = self.driver.command(line)
        if done is None:
            self.on_state_change()
            return False
        if done is Handoff.REVIEW:
            return self.review_here()
        if isinstance(done, str):
            self.screen.local = Note(done, self.state.clock())
            return True
        result = commands.parse(line, self.context())
        plays = self.driver.plays
        if not isinstance(result, Local | Say) and plays and self._on_its_way():
            # Read against the decision already answered, it would be refused as stale, or
            # for a reason that no longer holds: it waits for the server's answer, and is
            # read again then.
            self._held_line = line
            self.screen.local = Note(
                "your last action is on its way: this line follows once the server answers",
                self.state.clock(),
                error=False,
            )
            return False
        if not plays and not isinstance(result, Local):
            self.screen.local = Note(
                "this is a replay: nothing is played or said (" + REPLAY_USAGE + ")",
                self.state.clock(),
            )
            return True
        if isinstance(result, Act):
            self.act(result.action, line)
            return False
        if isinstance(result, Choose):
            self.open_dialog(line)
            return False
        if isinstance(result, Local):
            return commands.run_local(self, result)
        if isinstance(result, Say):
            self.say(result.text)
            return False
        self.screen.local = Note(result.message, self.state.clock())
        return True

    def ask_hint(self) -> bool:
        """``hint`` / F8: the best three options for this decision, thought about by a bot
        in this program on this seat's view and events only; True if refused."""
        state = self.state
        refusal = None
        if not self.driver.plays:
            refusal = "no hints in a replay (a review's marks show instead: --review)"
        elif state.table_info is not None and not state.table_info.hints:
            refusal = "hints are off at this table (it was created without them)"
        elif state.seat is None or not state.legal or state.view is None:
            refusal = "a hint needs a decision of yours to think about"
        elif self.hinting is not None and not self.hinting.done():
            refusal = "still thinking about the last hint"
        elif self._on_its_way():
            refusal = "your move for this decision is on its way: ask at your next one"
        if refusal is not None:
            self.screen.local = Note(refusal, state.clock())
            return True
        assert state.seat is not None and state.view is not None
        legal = [parse_action(entry, BOARD) for entry in state.legal]
        version = state.version
        if self.hinter is not None:  # the record marks a decision made after a hint
            self.application.create_background_task(self._quietly(self.hinter(version)))
        self.screen.local = Note("thinking about a hint...", state.clock(), error=False)
        self.hinting = self.application.create_background_task(
            self._hint(dict(state.view), state.seat, legal, list(state.events), version)
        )
        return False

    async def _hint(
        self,
        seen: dict[str, Any],
        seat: int,
        legal: list[Action],
        events: list[dict[str, Any]],
        version: int,
    ) -> None:
        names = self.state.names
        try:
            options = await asyncio.to_thread(hint, seen, seat, legal, events, names)
        except Exception as exc:  # a bug of the hint's must not leave "thinking" on screen
            self.state.note(f"the hint failed: {exc!r}")
            self.invalidate()
            return
        if self.state.version != version:
            self.state.note("the hint came after the game moved on: ask again", error=False)
        else:
            self.state.note(hint_line(options), error=False, short=hint_headline(options))
        self.invalidate()

    def review_here(self) -> bool:
        """``review`` in a replay (see :func:`.lookback.review_here`); True if refused."""
        return lookback.review_here(self)

    def look_back(self, review: bool) -> bool:
        """``replay`` / ``review`` at a finished live table (see :mod:`.lookback`)."""
        return lookback.look_back(self, review)

    @staticmethod
    async def _quietly(sending: Awaitable[bool]) -> None:
        """Wait for a send of the network task's (it says itself when it cannot send)."""
        await sending

    def say(self, text: str) -> None:
        talker = self.talker
        if talker is None:
            self.screen.local = Note("not connected", self.state.clock(), connection=True)
            return
        self.application.create_background_task(self._quietly(talker(text)))

    def type_command(self, name: str) -> None:
        """A command that needs words (F5: ``say``), ready to type after its name."""
        self.layout.focus(self.buffer)
        if not self.buffer.text.startswith(f"{name} "):
            self.buffer.text = f"{name} "
        self.buffer.cursor_position = len(self.buffer.text)

    def quit(self) -> None:
        self.application.exit()

    def tell(self, text: str) -> None:
        self.screen.local = Note(text, self.state.clock(), error=False)

    def open_help(self, topic: str) -> None:
        self.screen.help_topic = topic
        self.screen.help_open = True
        self.help_pager.top = 0
        self.layout.focus(self.help_window)
        self.application.invalidate()

    def close_help(self) -> None:
        self.screen.help_open = False
        self._focus_top()

    def _focus_top(self) -> None:
        """Give the keyboard to what is on top: the help, a dialog, the score sheet, or else
        the command line (a float that closes gives it back to what it covered)."""
        if self.screen.help_open:
            self.layout.focus(self.help_window)
        elif self.dialog is not None:
            self.layout.focus(self.dialog.window)
        elif self.screen.score_open:
            self.layout.focus(self.score_window)
        else:
            self.layout.focus(self.command_window)
        self.application.invalidate()

    def show_panel(self, name: str) -> None:
        self.screen.panel = name
        self.screen.scroll = 0
        self.application.invalidate()

    def _on_its_way(self) -> bool:
        """Whether the last action sent is unanswered by the server, or accepted and its
        update not here yet (a line read now would be read against the decision it already
        answered); an action lost with the connection is never answered: the session says
        so."""
        sent = self._in_flight
        return sent is not None and sent.unseen(self.state.version)

    def act(self, action: dict[str, Any], line: str | None = None) -> None:
        """Send an action the player typed as ``line`` (or chose in a dialog), once they
        confirm it if ``set confirm on`` asks about it."""
        state = self.state
        reason = None
        if self.state.orders.confirm:
            cities = {} if state.game is None else state.game.cities
            reason = confirm_reason(action, cities, state.seat, state.names)
        if reason is None:
            self.send(action)
            self._sent_line = line
        else:
            self.open_dialog(ConfirmDialog(self, action, line or command_line(action), reason))

    def send(self, action: dict[str, Any]) -> None:
        sender = self.sender
        self._sent_line = None  # (a line's action: run_line says which line it was)
        self.sent.append(action)
        self.screen.local = Note(
            f"sent: {describe_action(action, self.state.names)}", self.state.clock(), error=False
        )
        self._in_flight = None if sender is None else sender(action)
        if sender is None:
            self.screen.local = Note("not connected", self.state.clock(), connection=True)

    # Dialogs -------------------------------------------------------------------

    def open_dialog(self, command: str | ChoiceDialog) -> None:
        if self.dialog is not None:
            self.close_dialog()
        self.screen.help_open = False
        dialog = ChoiceDialog(self, command) if isinstance(command, str) else command
        self.dialog = dialog
        self.root.floats.insert(0, dialog.float)
        self.layout.focus(dialog.window)
        # The dialog may open far from the command line (at the top, over the map).
        self.screen.local = Note(DIALOG_OPEN, self.state.clock(), error=False)
        self.application.create_background_task(self._await_dialog(dialog))
        self.application.invalidate()

    async def _await_dialog(self, dialog: ChoiceDialog) -> None:
        action = await dialog.future
        if self.dialog is dialog:
            self._remove_dialog(dialog)
        if isinstance(action, Prefill):
            self.buffer.reset()
            self.type_into_command_line(action.text)
        elif isinstance(dialog, ConfirmDialog):
            if action is None and not self.buffer.text:
                self.type_into_command_line(dialog.line)  # not sent: back for editing
            elif action is not None:
                self.screen.cleared_at = self.state.clock()
                self.send(action)
                self._sent_line = dialog.line
        elif action is not None:
            self.screen.cleared_at = self.state.clock()
            self.act(action)

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
        if self.screen.local is not None and self.screen.local.text == DIALOG_OPEN:
            self.screen.local = None
        self._focus_top()

    def open_score(self) -> bool:
        """The score sheet (``score``, F9); True when there is no game to score yet."""
        if self.state.game is None:
            self.screen.local = Note("there is no game to score yet", self.state.clock())
            return True
        self.screen.score_open = True
        self.screen.score_top = 0
        self.layout.focus(self.score_window)
        self.application.invalidate()
        return False

    def close_score(self) -> None:
        self.screen.score_open = False
        # (a sheet looked at during the game does not keep the final one from opening)
        self.screen.score_dismissed = self.state.over
        self._focus_top()

    def on_state_change(self) -> None:
        """Called by the network task after each message."""
        buffer = self.buffer
        line, sent = self._sent_line, self._in_flight
        if line is not None and sent is not None and sent.fate is Fate.REFUSED:
            self._sent_line = None
            if not buffer.text:  # the server said no: the line comes back, as ours do
                self._keep_refused(line)
        if (
            self._refused is not None
            and buffer.text == self._refused
            and buffer.selection_state is not None
            and self.state.version != self._refused_version
        ):
            # The game moved on: a refused line left as it was must not fire by a stray
            # Enter now that it might be legal (its reason has gone too).
            self._refused = None
            buffer.reset()
        held = self._held_line
        if held is not None and not self._on_its_way():
            self._held_line = None
            if buffer.text:  # another line is being typed: that one is meant now
                self.screen.local = Note(
                    f"not sent: {held} (you typed another line)", self.state.clock()
                )
            elif self.run_line(held):
                self._keep_refused(held)  # refused now: back on the line, with the reason
        self._sync_dialogs()
        if self.state.turns_begun != self._turns_seen:  # your turn: its summary in view
            self._turns_seen = self.state.turns_begun
            self.screen.scroll = 0
            self.screen.panel = "log"  # (F2's list of a turn gone would hide it)
        if (
            self.state.over
            and not self.screen.score_open
            and not self.screen.score_dismissed
            and self.dialog is None
        ):
            self.open_score()
        self.application.invalidate()

    def _sync_dialogs(self) -> None:
        """Close a dialog whose question is gone; never open one (the request panel shows
        what is asked, and the command line keeps the keyboard); answer what the client
        answers for the player (:mod:`.autopilot`)."""
        if self.dialog is not None and not self.dialog.relevant():
            self.close_dialog()
            self.screen.local = Note(
                "the question went before you answered: the table moved on", self.state.clock()
            )
        if self.driver.plays:
            self.autopilot.update()
