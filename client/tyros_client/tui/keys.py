"""The key bindings of the screen (prompt-toolkit's order: layout, key bindings, style,
application). The command line owns every key a person types; these add the function keys,
scrolling, and the editing of a refused line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition, has_completions, has_focus, has_selection
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from .commands import Command
from .commands.registry import KEYED

if TYPE_CHECKING:
    from .screen import Screen


def score_keys(ui: Screen) -> KeyBindings:
    """Keys of the score sheet: Esc, Enter or q close it; arrows and pages scroll it."""
    keys = KeyBindings()

    @keys.add("escape", eager=True)
    @keys.add("enter")
    @keys.add("q")
    def _close(event: KeyPressEvent) -> None:
        ui.close_score()

    for key, step in (("down", 1), ("up", -1), ("pagedown", 8), ("pageup", -8)):

        @keys.add(key)
        def _scroll(event: KeyPressEvent, step: int = step) -> None:
            """A sheet longer than a short screen: Down and PageDown show the rest."""
            ui.screen.score_top = max(0, ui.screen.score_top + step)

    return keys


def app_keys(ui: Screen) -> KeyBindings:
    """The application's keys: quit, help, panels, the dialog (F4), scrolling, and the
    command line's shell-like editing of a refused line."""
    keys = KeyBindings()

    @keys.add("c-c")
    @keys.add("c-q")
    def _quit(event: KeyPressEvent) -> None:
        event.app.exit()

    @keys.add("c-d", filter=has_focus(ui.buffer) & Condition(lambda: not ui.buffer.text))
    def _quit_empty(event: KeyPressEvent) -> None:
        event.app.exit()

    @keys.add("escape", filter=has_focus(ui.buffer) & has_completions, eager=True)
    def _no_menu(event: KeyPressEvent) -> None:
        ui.buffer.cancel_completion()

    selected = has_focus(ui.buffer) & has_selection

    @keys.add("<any>", filter=selected)
    def _replace(event: KeyPressEvent) -> None:
        """Typing over the selected (refused) line replaces it."""
        ui.buffer.cut_selection()
        if event.data.isprintable():
            ui.buffer.insert_text(event.data)

    @keys.add("c-u", filter=has_focus(ui.buffer))
    def _clear(event: KeyPressEvent) -> None:
        """Ctrl-U clears the line, selected (refused) or not."""
        ui.buffer.exit_selection()
        ui.buffer.delete_before_cursor(len(ui.buffer.text))
        ui.buffer.delete(len(ui.buffer.text))

    @keys.add("backspace", filter=selected)
    @keys.add("delete", filter=selected)
    def _delete(event: KeyPressEvent) -> None:
        ui.buffer.cut_selection()

    for key in ("left", "right", "home", "end"):

        @keys.add(key, filter=selected)
        def _edit(event: KeyPressEvent) -> None:
            """Arrows keep the refused line for editing."""
            ui.buffer.exit_selection()
            if event.key_sequence[0].key in ("right", "end"):
                ui.buffer.cursor_position = len(ui.buffer.text)
            else:
                ui.buffer.cursor_position = (
                    0 if event.key_sequence[0].key == "home" else len(ui.buffer.text)
                )

    for command in KEYED:  # F1, F2 ...: each command's own key (commands.registry)

        @keys.add(str(command.key))
        def _press(event: KeyPressEvent, command: Command = command) -> None:
            if command.key_types:
                ui.type_command(command.name)
            else:
                ui.run_line(command.name)

    @keys.add("pageup")
    def _page_up(event: KeyPressEvent) -> None:
        step = ui.screen.page  # a page of the panel, as drawn
        if ui.screen.scroll == 0:  # from now on, newer lines keep what is read in place
            ui.screen.log_lines_seen = len(ui.panel_lines())
        ui.screen.scroll += step if ui.screen.panel == "log" else -step
        ui.screen.scroll = max(0, ui.screen.scroll)

    @keys.add("pagedown")
    def _page_down(event: KeyPressEvent) -> None:
        step = ui.screen.page
        ui.screen.scroll += -step if ui.screen.panel == "log" else step
        ui.screen.scroll = max(0, ui.screen.scroll)

    # End on an empty command line (no cursor to move): back to the newest log lines.
    @keys.add("end", filter=Condition(lambda: not ui.buffer.text and ui.screen.scroll > 0))
    def _newest(event: KeyPressEvent) -> None:
        ui.screen.scroll = 0

    return keys
