"""The terminal client's layout, as prompt-toolkit's full-screen examples build one: the
map, the hand line, the table beside the request and the log, the message line and the
command line; the help, the score sheet and the completions float over them. Every
control reads the screen (:class:`~.screen.Screen`, the application) through callables."""

from __future__ import annotations

from dataclasses import dataclass

from prompt_toolkit.filters import Condition
from prompt_toolkit.layout import (
    BufferControl,
    ConditionalContainer,
    Float,
    FloatContainer,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension as D
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.widgets import Frame

from . import keys, render
from .controls import BoardControl, MessageControl, PagerControl, PanelControl, RequestControl
from .screen import Screen


@dataclass(frozen=True, slots=True)
class Built:
    """The layout, and the parts of it the application focuses or measures."""

    layout: Layout
    root: FloatContainer
    command_window: Window
    score_window: Window
    help_window: Window
    help_pager: PagerControl


def build(app: Screen) -> Built:
    """The layout of ``app``'s screen."""
    command_window = Window(BufferControl(app.buffer), height=1)
    body = HSplit(
        [
            Window(BoardControl(app), height=app.map_height),
            Window(
                FormattedTextControl(lambda: render.hand_text(app)),
                height=1,
                style="class:bar",
            ),
            VSplit(
                [
                    Window(
                        FormattedTextControl(lambda: render.table_text(app)),
                        width=lambda: D(
                            min=24,
                            preferred=render.table_width(app.compact()),
                            max=render.table_width(app.compact()),
                        ),
                    ),
                    Window(width=1, char="|", style="class:dim"),
                    HSplit(
                        [
                            ConditionalContainer(
                                Window(RequestControl(app), height=lambda: _request_height(app)),
                                filter=Condition(lambda: render.request_command(app) is not None),
                            ),
                            Window(PanelControl(app)),
                        ]
                    ),
                ],
                height=D(min=3, preferred=8),
            ),
            Window(MessageControl(app), height=D(min=1, max=2)),
            VSplit(
                [
                    Window(FormattedTextControl([("class:prompt", "> ")]), width=2),
                    command_window,
                ],
                height=1,
            ),
        ]
    )
    score_window = Window(
        FormattedTextControl(
            lambda: render.score_text(app), focusable=True, key_bindings=keys.score_keys(app)
        ),
        wrap_lines=False,
    )
    score = ConditionalContainer(
        Frame(
            score_window,
            title=lambda: (
                "Final score (Esc closes, Down scrolls; 'score' shows it again)"
                if app.state.over
                else "Score now (Esc closes, Down scrolls; F9 shows it again)"
            ),
        ),
        filter=Condition(lambda: app.screen.score_open),
    )
    help_pager = PagerControl(app)
    help_window = Window(help_pager)
    help_frame = ConditionalContainer(
        Frame(
            help_window,
            title="Help (arrows scroll, Esc closes)",
        ),
        filter=Condition(lambda: app.screen.help_open),
    )
    root = FloatContainer(
        body,
        floats=[
            # (the whole width: a centred frame would let the board show beside it)
            Float(help_frame, top=0, bottom=2, left=0, right=0),
            Float(score, top=1, left=0, right=0),
            # Completions stand over the log's corner, never over the message line or
            # the table (what they would hide is what the player is reading).
            Float(
                right=0,
                bottom=2,
                content=CompletionsMenu(max_height=6, scroll_offset=1),
            ),
        ],
    )
    return Built(
        Layout(root, focused_element=command_window),
        root,
        command_window,
        score_window,
        help_window,
        help_pager,
    )


def _request_height(app: Screen) -> D:
    rows = app.size()[0]
    most = 5 if rows < 30 else 6  # what is asked first; the log keeps a line or two
    # No preferred height of its own: the request's lines (up to ``most``) decide, and
    # the rows it does not need stay with the log.
    return D(min=1, max=most)
