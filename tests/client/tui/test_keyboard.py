"""The command line owns the keyboard: the real application on a pipe input, no server.

Requests from the table (an offer, keep 3 ...) show in a panel that never takes the
focus; a dialog opens only on purpose and confirms only what is highlighted in it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from tyros_client.tui import autopilot as autopilot_module

from tests.client.tui.feeding import (
    ACCEPT,
    DECLINE,
    PASS,
    TURN,
    WITHDRAW,
    Table,
    running,
)
from tests.client.tui.harness import (
    F4,
    F9,
    TIMEOUT,
    Terminal,
    on_screen,
    screen,
    typed,
    until,
)


async def test_an_offer_arriving_while_decline_is_typed_is_declined() -> None:
    async with running() as (table, keys):
        ui = table.ui
        await typed(ui, keys, "decl")
        table.offer([ACCEPT, DECLINE])
        text = await on_screen(ui, "Trade offer from B Bob")
        assert "accept/decline/counter (F4)" in text
        assert ui.dialog is None and ui.buffer.text == "decl"
        keys.send_text("ine\r")
        await until(lambda: table.sent, "an action sent")
        assert table.sent == [DECLINE]


async def test_a_request_arriving_mid_typing_leaves_the_text_intact() -> None:
    async with running() as (table, keys):
        ui = table.ui
        await typed(ui, keys, "move 31 ")
        table.push(
            [{"kind": "keep", "cards": ["green", "wild", "wild"]}],
            phase="keep",
            to_act=[0],
            keep_pending=[0],
        )
        await on_screen(ui, "End of round: keep up to 3 cards")
        assert ui.buffer.text == "move 31 " and ui.dialog is None
        assert ui.layout.has_focus(ui.command_window)


async def test_no_dialog_choice_is_made_by_keys_pressed_before_it_was_entered() -> None:
    async with running() as (table, keys):
        ui = table.ui
        table.offer([ACCEPT, DECLINE])
        await on_screen(ui, "Trade offer from B Bob")
        keys.send_text("\r")  # Enter on an empty command line: nothing is chosen
        await until(lambda: ui.lines_run == 1, "the empty line handled")
        assert table.sent == [] and ui.dialog is None
        keys.send_text(F4)  # entered on purpose ...
        await until(lambda: ui.dialog is not None and ui.dialog.drawn, "the offer dialog")
        keys.send_text("\x1b[B")  # ... Down to Decline ...
        await until(lambda: ui.dialog is not None and ui.dialog.index == 1, "Decline")
        keys.send_text("\r")  # ... and confirmed
        await until(lambda: table.sent, "the answer")
        assert table.sent == [DECLINE] and ui.dialog is None


async def test_typing_in_a_dialog_goes_to_the_command_line() -> None:
    """``move ty 23`` with two equal payments opens a choice; typing ``pass`` then is a
    command, not a payment (a space used to confirm the highlighted choice)."""
    legal = [
        PASS,
        {"kind": "move", "from": "TY", "to": "23", "pay": ["green", "green"]},
        {"kind": "move", "from": "TY", "to": "23", "pay": ["yellow", "yellow"]},
    ]
    async with running() as (table, keys):
        ui = table.ui
        table.push(legal, phase="actions", to_act=[0], current=0)
        keys.send_text("move ty 23\r")
        await until(lambda: ui.dialog is not None and ui.dialog.drawn, "the payment dialog")
        keys.send_text("pass ")
        await until(lambda: ui.buffer.text == "pass ", "the text on the command line")
        assert ui.dialog is None and table.sent == []
        keys.send_text("\r")
        await until(lambda: table.sent, "an action")
        assert table.sent == [PASS]


async def test_choices_that_changed_are_shown_before_enter_confirms(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with running() as (table, keys):
        ui = table.ui
        table.push(
            [{"kind": "give_card", "card": "green"}, {"kind": "give_card", "card": "wild"}],
            phase="give_card",
            to_act=[0],
            owed_to=1,
        )
        keys.send_text(F4)
        await until(lambda: ui.dialog is not None and ui.dialog.drawn, "the give dialog")
        dialog = ui.dialog
        assert dialog is not None
        # The choices change before the screen is drawn again: Enter shows them first.
        monkeypatch.setattr(dialog, "drawn", ((("give orange", {}),)))
        keys.send_text("\r")
        await until(lambda: dialog.drawn and len(dialog.drawn) == 2, "the choices redrawn")
        assert table.sent == []
        keys.send_text("\r")
        await until(lambda: table.sent, "the card given")
        assert table.sent == [{"kind": "give_card", "card": "green"}]


async def test_an_offer_that_cannot_be_accepted_is_declined_after_a_short_pause(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(autopilot_module, "COURTESY_SECONDS", (0.01, 0.02))
    async with running() as (table, _keys):
        ui = table.ui
        table.offer([DECLINE])
        text = await on_screen(ui, "Trade offer from B Bob")
        assert "you cannot accept" in text
        await until(lambda: table.sent, "the automatic decline")
        assert table.sent == [DECLINE]
        assert any("declined the offer" in line.text for line in table.state.log)
        # A withdrawn offer is not declined afterwards.
        table.offer([DECLINE])
        offered = table.state.prompt
        table.push(TURN, phase="actions", to_act=[0], current=0, trade=None)
        ui.autopilot._answer(offered)  # its pause ends after the withdrawal: nothing is sent
        assert table.sent == [DECLINE]


async def test_a_refused_line_is_kept_selected_and_typing_replaces_it() -> None:
    async with running() as (table, keys):
        ui = table.ui
        table.push(TURN, phase="actions", to_act=[0], current=0)
        keys.send_text("move 99\r")
        await until(lambda: ui.lines_run == 1, "the line refused")
        assert ui.buffer.text == "move 99" and ui.buffer.selection_state is not None
        await on_screen(ui, "'99' is not a space of the map")  # the reason, on the screen
        keys.send_text("pass")
        await until(lambda: ui.buffer.text == "pass", "the line replaced")
        keys.send_text("\r")
        await until(lambda: table.sent, "an action")
        assert table.sent == [PASS]
        # Up brings earlier lines back, as a shell does; a refused one stays editable.
        keys.send_text("\x1b[A")
        await until(lambda: ui.buffer.text == "pass", "the last line again")
        keys.send_text("\x1b[A")
        await until(lambda: ui.buffer.text == "move 99", "the refused line again")


async def test_a_notice_about_the_connection_goes_when_it_is_back() -> None:
    async with running() as (table, _keys):
        ui, state = table.ui, table.state
        state.connected = False
        state.note("not connected to the server: wait for the reconnection", connection=True)
        ui.invalidate()
        await on_screen(ui, "not connected to the server")
        state.connected, state.connected_at = True, state.clock()
        table.push(None)
        text = await on_screen(ui, "waiting for the others")
        message_line = text.splitlines()[-2]
        assert "waiting for the others" in message_line, message_line


async def test_the_last_round_is_announced_and_a_scrolled_log_says_so() -> None:
    async with running() as (table, keys):
        ui = table.ui
        seats = [
            dict(info, tiles=0 if info["seat"] == 2 else info["tiles"])
            for info in table.update["view"]["seats"]
        ]
        table.push(None, seats=seats, last_round=True)
        await on_screen(ui, "LAST ROUND")
        for i in range(40):
            table.state.note(f"line {i}", error=False)
        page = ui.screen.page  # the log's lines on the screen
        assert page > 5
        keys.send_text("\x1b[5~")  # PageUp: a page of older lines, the log stops following
        await until(lambda: ui.screen.scroll > 0, "the log scrolled")
        text = await on_screen(ui, f"{page} newer below: PgDn")

        def log_read(text: str) -> list[str]:
            return [line.split("|")[-1] for line in text.splitlines() if "|line " in line]

        read = log_read(text)
        assert read and "line 39" not in read
        for i in range(40, 43):  # the game goes on: what the player reads holds still
            table.state.note(f"line {i}", error=False)
        text = await on_screen(ui, f"{page + 3} newer below: PgDn")
        assert log_read(text) == read
        keys.send_text("\x1b[6~" * 10)
        await until(lambda: ui.screen.scroll == 0, "the log following again")
        text = await on_screen(ui, "line 42")
        assert "newer below" not in text
        keys.send_text("\x1b[5~\x1b[5~")
        await until(lambda: ui.screen.scroll == 2 * page, "scrolled back again")
        keys.send_text("\x1b[F")  # End, on the empty command line: the newest at once
        await until(lambda: ui.screen.scroll == 0, "the newest lines")


@pytest.mark.parametrize(("rows", "columns"), [(24, 80), (30, 100), (50, 160)])
async def test_the_screen_at_80x24_100x30_and_160x50_cuts_no_word(rows: int, columns: int) -> None:
    with (
        create_pipe_input() as keys,
        create_app_session(input=keys, output=Terminal(rows, columns)),
    ):
        table = Table()
        task = asyncio.create_task(table.ui.application.run_async())
        try:
            await until(lambda: screen(table.ui), "the first drawing")
            table.offer([ACCEPT, DECLINE])
            text = await on_screen(table.ui, "Trade offer from B Bob")
        finally:
            table.ui.application.exit()
            await asyncio.wait_for(task, TIMEOUT)
    lines = text.splitlines()
    assert len(lines) == rows and all(len(line) <= columns for line in lines)
    board = "\n".join(lines[: next(i for i, line in enumerate(lines) if "Hand" in line)])
    for label in [*(str(n) for n in range(1, 33)), "TY", "serpent", "W/E"]:
        assert label in board, label
    # Sea links between rows (north-south) and between cells (east-west) both show.
    gap_rows = [line for line in board.splitlines() if line.strip() and set(line) <= {" ", "~"}]
    assert len(gap_rows) >= 4
    # The panels wrap at word boundaries: every word on the right of the divider is a
    # whole word of what they show (the request and the log).
    words = set()
    for _, shown in table.ui.panel_lines():
        words.update(shown.split())
    from tyros_client.tui import render

    for _, shown in render.request_lines(table.ui):
        words.update(shown.split())
    for _, shown, *_ in render.status_line(table.ui, columns):  # (over the log at 80 x 24)
        words.update(shown.split())
    for line in lines[len(board.splitlines()) + 1 : -2]:
        right = line.split("|", 1)[1] if "|" in line else ""
        for word in right.split():
            assert word in words or word in (
                "Log",
                "F1",
                "help",
                "F2",
                "legal",
                "F3",
                "log",
                "PgUp/PgDn",
            ), (word, line)


def click(x: int, y: int) -> str:
    """An SGR mouse click (press and release) at screen column ``x``, line ``y`` (from 0)."""
    return f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m"


async def test_clicking_a_space_types_it_and_clicking_a_choice_selects_it() -> None:
    from tyros_client.tui.board import cell_origin

    legal = [
        PASS,
        {"kind": "move", "from": "TY", "to": "23", "pay": ["green", "green"]},
        {"kind": "move", "from": "TY", "to": "23", "pay": ["yellow", "yellow"]},
    ]
    async with running() as (table, keys):
        ui = table.ui
        table.push(legal, phase="actions", to_act=[0], current=0)
        await typed(ui, keys, "move ty")
        columns = ui.size()[1]
        map_height = ui.map_height().preferred
        top, left = cell_origin("23", columns, map_height)
        keys.send_text(click(left + 1, top))
        await until(lambda: ui.buffer.text == "move ty 23 ", "the clicked space typed")
        keys.send_text("\r")
        await until(lambda: ui.dialog is not None and ui.dialog.drawn, "the payment dialog")
        # Click the second choice: it is highlighted, not yet chosen; a second click is.
        drawn = screen(ui).splitlines()
        y = next(i for i, line in enumerate(drawn) if "  pay green x2" in line)
        x = drawn[y].index("pay green x2")
        keys.send_text(click(x, y))
        await until(lambda: ui.dialog is not None and ui.dialog.index == 1, "the choice lit")
        assert table.sent == []
        keys.send_text(click(x, y))
        await until(lambda: table.sent, "the move sent")
        assert table.sent == [legal[1]]


async def test_an_offer_everybody_declined_is_taken_back_without_a_stall(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(autopilot_module, "COURTESY_SECONDS", (0.01, 0.02))
    withdraw = {"kind": "withdraw"}
    async with running() as (table, _keys):
        ui = table.ui
        trade = {
            "proposer": 0,
            "to": [1, 2],
            "give": ["green"],
            "get": ["violet"],
            "answers": [{"seat": 1, "answer": "decline"}, {"seat": 2, "answer": "pending"}],
        }
        table.push([withdraw], phase="trade", to_act=[0], current=0, trade=trade)
        text = await on_screen(ui, "B Bob declines | C Cyd")
        assert "waiting for the answers" in text and "has not answered" in text
        await asyncio.sleep(0.05)
        assert table.sent == []  # an answer is still pending: the offer stands
        declined = {
            **trade,
            "answers": [{"seat": 1, "answer": "decline"}, {"seat": 2, "answer": "decline"}],
        }
        table.push([withdraw], phase="trade", to_act=[0], current=0, trade=declined)
        await until(lambda: table.sent, "the offer taken back")
        assert table.sent == [withdraw]
        assert any("everybody declined" in line.text for line in table.state.log)


async def test_a_refused_line_goes_when_the_game_moves_on_and_long_messages_wrap() -> None:
    async with running() as (table, keys):
        ui = table.ui
        keys.send_text("pass\r")  # not asked anything: refused, kept selected
        await until(lambda: ui.lines_run == 1 and ui.buffer.text == "pass", "the refusal")
        table.push(TURN, phase="actions", to_act=[0], current=0)  # now it would be legal
        await until(lambda: ui.buffer.text == "", "the stale line cleared")
        assert table.sent == []
        words = ("a long message about the connection, " * 4).split()
        table.state.note(" ".join(words), error=False)
        ui.invalidate()
        text = await on_screen(ui, "connection,")
        bottom = " ".join(text.splitlines()[-3:-1]).split()
        assert bottom == words  # on two lines, every word whole


async def test_the_message_line_says_when_the_clock_is_about_to_decide() -> None:
    async with running() as (table, _keys):
        ui = table.ui
        clocks: list[dict[str, Any]] = [
            {"seat": 0, "reserve": 0.0, "left": 40.0},
            {"seat": 1, "reserve": 60.0, "left": None},
        ]
        table.push(TURN, clocks=clocks)
        text = await on_screen(ui, "your turn: move, city")
        assert "the server decides" not in text
        clocks[0]["left"] = 12.0
        table.push(TURN, clocks=clocks)
        text = await on_screen(ui, "12 s left, then the server decides for you: your turn")
        assert text.splitlines()[-2].endswith("trade or pass")  # one line, hints left out


@pytest.mark.parametrize(
    ("rows", "columns", "flags"), [(24, 80, " 0 0:28 you"), (30, 100, " 0 0:28 you 1st")]
)
async def test_the_acting_seats_row_shows_its_clock_and_you(
    rows: int, columns: int, flags: str
) -> None:
    """The flags most telling first: at 80 columns "1st" gives way to the clock."""
    async with running(rows, columns) as (table, _keys):
        clocks = [
            {"seat": 0, "reserve": 0.0, "left": 28.4},
            {"seat": 1, "reserve": 240.0, "left": None},
        ]
        table.push(TURN, clocks=clocks, starting_seat=0, to_act=[0], current=0)
        text = await on_screen(table.ui, "+4m")  # the new update drawn
        mine = next(line for line in text.splitlines() if line.startswith(" > A"))
        assert mine.split("|")[0].rstrip().endswith(flags)  # whole words, not cut
        theirs = next(line for line in text.splitlines() if line.startswith("   B"))
        assert theirs.split("|")[0].rstrip().endswith(" +4m")


@pytest.mark.parametrize("opener", ["\x1bOS", "\x1bOP"])  # F4 (the offer), F1 (help)
async def test_typing_in_a_dialog_replaces_a_refused_line(opener: str) -> None:
    """Keys typed while a dialog or the help is open go to the command line, and there
    they replace a refused line (selected), as they would typed on the line itself."""
    async with running() as (table, keys):
        ui = table.ui
        table.offer([ACCEPT, DECLINE])
        keys.send_text("expand 21\r")
        await until(lambda: ui.lines_run == 1 and ui.buffer.selection_state, "the refusal")
        keys.send_text(opener)
        await until(lambda: ui.dialog is not None or ui.screen.help_open, "the dialog")
        keys.send_text("decline")
        await until(lambda: ui.buffer.text == "decline", "typed over the refused line")


async def test_a_line_typed_while_the_last_action_is_on_its_way_waits_for_the_answer() -> None:
    """Read against the decision already answered it would be refused as stale: it is read
    again when the server's update comes, and refused then in the game's own words."""
    async with running() as (table, keys):
        ui = table.ui
        table.push(TURN, phase="actions", to_act=[0], current=0)
        keys.send_text("pass\r")
        await until(lambda: len(table.sent) == 1, "the pass sent")
        keys.send_text("pass\r")  # at once: no update yet
        await on_screen(ui, "your last action is on its way")
        assert len(table.sent) == 1 and ui.buffer.text == ""
        table.push(None, phase="actions", to_act=[1], current=1)  # the pass went through
        text = await on_screen(ui, "wait for them")
        assert ui.buffer.text == "pass" and ui.buffer.selection_state is not None
        assert len(table.sent) == 1 and "moved on before your action" not in text
        keys.send_text("\x15")  # ctrl-u: a clean line
        table.push(TURN, phase="actions", to_act=[0], current=0)
        keys.send_text("pass\r")
        await until(lambda: len(table.sent) == 2, "the second pass sent")
        keys.send_text("pass\r")
        await on_screen(ui, "your last action is on its way")
        table.push(TURN, phase="actions", to_act=[0], current=0)  # still this seat's turn
        await until(lambda: len(table.sent) == 3, "the held line sent when it is legal")


async def test_a_refusal_goes_from_the_message_line_once_the_game_has_moved_on() -> None:
    """While others play, a refusal stays long enough to be read (10 s), then the next
    update clears it: it was about a position that has gone."""
    async with running() as (table, keys):
        ui = table.ui
        now = [1000.0]

        def clock() -> float:  # a fake clock that still moves on from call to call
            now[0] += 0.001
            return now[0]

        table.state.clock = clock
        table.push(None, phase="actions", to_act=[1], current=1)
        keys.send_text("pass\r")
        await on_screen(ui, "wait for them")
        now[0] += 3
        table.push(None, phase="actions", to_act=[2], current=2)  # C's turn: still shown
        await on_screen(ui, "wait for them")
        now[0] += 8
        table.push(None, phase="actions", to_act=[3], current=3)
        await on_screen(ui, "waiting for the others")


async def test_the_message_line_says_a_dialog_is_open() -> None:
    """A dialog opens at the top of the screen, away from the command line."""
    async with running(24, 80) as (table, keys):
        ui = table.ui
        table.offer([ACCEPT, DECLINE])
        keys.send_text("\x1bOS")  # F4
        await on_screen(ui, "choose in the dialog above: Up/Down, Enter; Esc closes it")
        keys.send_text("\x1b")
        await until(lambda: ui.dialog is None, "the dialog closed")
        text = await on_screen(ui, "accept, decline or counter")
        assert "choose in the dialog" not in text


async def test_a_pass_typed_with_a_withdrawal_follows_it() -> None:
    """Read against the trade still open, the pass would be refused (and then cleared when
    the game moved on): it waits for the withdrawal's answer and goes then."""
    async with running(24, 80) as (table, keys):
        ui = table.ui
        declined = [{"seat": 1, "answer": "decline"}]
        mine = {"proposer": 0, "to": [1], "give": ["orange"], "get": ["violet"]}
        table.push(
            [WITHDRAW], phase="trade", to_act=[0], current=0, trade={**mine, "answers": declined}
        )
        keys.send_text("withdraw\rpass\r")
        await on_screen(ui, "your last action is on its way")
        assert table.sent == [WITHDRAW]
        table.push(TURN, phase="actions", to_act=[0], current=0, trade=None)
        await until(lambda: table.sent == [WITHDRAW, PASS], "the pass sent after the withdrawal")


async def test_a_line_typed_with_its_enter_at_once_opens_no_menu_over_its_refusal() -> None:
    """The last key's completions (player names, after "to c") are looked up after the
    refusal when Enter comes in the same burst of keys: they must not cover its reason."""
    async with running(24, 80) as (table, keys):
        ui = table.ui
        table.push(TURN, phase="actions", to_act=[0], current=0)
        keys.send_text("trade o for 2y to c\r")
        await on_screen(ui, "you cannot offer a trade now")
        for _ in range(3):  # the background completer has had its turn
            await asyncio.sleep(0.1)
            state = ui.buffer.complete_state
            assert state is None or not state.completions
        assert ui.buffer.text == "trade o for 2y to c"


async def test_a_dialog_shows_a_long_trade_whole() -> None:
    """The terms of a trade are what the player agrees to: never cut off in the dialog."""
    async with running() as (table, keys):
        ui = table.ui
        give = ["orange", "orange", "yellow", "yellow", "green", "green"]
        get = ["green", "violet", "violet", "wild", "wild"]
        table.push(
            [DECLINE, ACCEPT],
            phase="trade",
            to_act=[0],
            hand=get,
            trade={
                "proposer": 1,
                "to": [0],
                "give": give,
                "get": get,
                "answers": [{"seat": 0, "answer": "pending"}],
            },
        )
        keys.send_text("\x1bOS")  # F4
        await until(lambda: ui.dialog is not None and ui.dialog.drawn, "the offer dialog")
        text = await on_screen(ui, "Accept: give green, violet x2, wild x2, get orange x2")
        assert "get orange x2, yellow x2, green x2" in text


async def test_the_score_at_any_time_is_what_each_player_would_score_now() -> None:
    """``score`` (F9) before the end: the table's pts, in full, as if the game ended now;
    closed, it does not keep the final sheet from opening by itself."""
    async with running() as (table, keys):
        ui = table.ui
        keys.send_text("score\r")
        text = await on_screen(ui, "If the game ended now")
        assert "Leading" in text and "Winner" not in text
        keys.send_text("\x1b")  # Esc closes it
        await until(lambda: not ui.screen.score_open, "the sheet closed")
        assert not ui.screen.score_dismissed
        keys.send_text(F9)
        await on_screen(ui, "If the game ended now")


async def test_a_legal_list_cut_by_a_request_says_how_much_is_below() -> None:
    """At 80 x 24 an offer above leaves the list of what one may do a line or two: it says
    that more is below (a player took 'decline' for the only answer). The round's line
    heads it there (four players: no room over the table), so the list's title gives way."""
    async with running(24, 80) as (table, keys):
        ui = table.ui
        table.offer(
            [DECLINE, ACCEPT, {"kind": "counter", "give": ["violet"], "get": ["green", "wild"]}]
        )
        await on_screen(ui, "Trade offer from B Bob")
        keys.send_text("legal\r")
        text = await on_screen(ui, " v 3 more")  # (the notice's form that leaves whose offer)
        assert "| Round 1  a trade: B's offer v 3 more" in text
        assert "decline   decline the offer" in text


async def test_a_dialog_whose_question_went_says_so() -> None:
    async with running() as (table, keys):
        ui = table.ui
        table.offer([ACCEPT, DECLINE])
        keys.send_text(F4)
        await until(lambda: ui.dialog is not None and ui.dialog.drawn, "the dialog")
        table.push(TURN, phase="actions", to_act=[0], current=0, trade=None)  # completed meanwhile
        await on_screen(ui, "the question went before you answered")
        assert ui.dialog is None and table.sent == []


async def test_the_score_sheet_scrolls_on_a_short_screen() -> None:
    async with running(24, 80) as (table, keys):
        ui = table.ui
        keys.send_text(F9)
        first = await on_screen(ui, "Score now")
        keys.send_text("\x1b[B")  # Down
        await until(lambda: ui.screen.score_top == 1, "the sheet scrolled")
        await until(lambda: screen(ui) != first, "the sheet redrawn")
        keys.send_text("\x1b[6~")  # PageDown: as far as the sheet goes, no further
        await until(lambda: ui.screen.score_top > 1, "a page further")
        keys.send_text("\x1b")
        await until(lambda: not ui.screen.score_open, "the sheet closed")
