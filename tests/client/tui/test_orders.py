"""The player's standing orders and settings, typed at the real application (no server):
auto-pass past offers, ``set autodecline``, the game's end."""

from __future__ import annotations

from tyros_client.tui import render
from tyros_client.tui.app import TyrosApp

from tests.client.tui.feeding import ACCEPT, DECLINE, PASS, TURN, WITHDRAW, Table, running
from tests.client.tui.harness import F6, mid_game, on_screen, screen, until


def message(ui: TyrosApp) -> str:
    """The message line's text."""
    return "".join(text for _, text, *_ in render.message_text(ui))


async def test_an_offer_waits_for_the_player_and_autopass_goes_on_once_it_closes() -> None:
    async with running(24, 80) as (table, keys):
        ui = table.ui
        keys.send_text(F6)
        await on_screen(ui, "auto-pass on")
        # An offer settled before the player looked: the panel drops it, auto-pass stays.
        table.offer([ACCEPT, DECLINE])
        await on_screen(ui, "Trade offer from B Bob")
        assert "auto-pass goes on after it" in message(ui)
        table.push(None, phase="actions", current=1, to_act=[1], trade=None)
        text = await on_screen(ui, "auto-pass on: waiting for your turn")
        assert "Trade offer" not in text
        table.push(TURN, phase="actions", to_act=[0], current=0)
        assert table.sent == [PASS]
        # An offer the player answers by typing: auto-pass goes on after it too.
        table.offer([ACCEPT, DECLINE])
        keys.send_text("decline\r")
        await until(lambda: table.sent == [PASS, DECLINE], "the offer declined by hand")
        table.push(None, phase="actions", current=1, to_act=[1], trade=None)
        table.push(TURN, phase="actions", to_act=[0], current=0)
        assert table.sent == [PASS, DECLINE, PASS]
        assert ui.state.orders.pass_round is not None
        assert not any("auto-pass stopped" in line.text for line in table.state.log)


async def test_a_turn_autopass_plays_gets_no_catch_up_summary() -> None:
    def acted(seat: int) -> dict[str, object]:
        return {"type": "action", "seat": seat, "action": PASS}

    def summaries(table: Table) -> int:
        return sum(line.text == "since your last turn:" for line in table.state.log)

    async with running(24, 80) as (table, keys):
        ui = table.ui
        table.push(None, events=[acted(0)], phase="actions", current=1, to_act=[1])
        keys.send_text(F6)
        await on_screen(ui, "auto-pass on")
        table.push(TURN, events=[acted(1)], phase="actions", current=0, to_act=[0])
        assert table.sent == [PASS]
        assert summaries(table) == 0  # nobody is deciding: the log said it as it came
        table.push(None, events=[acted(0)], phase="actions", current=1, to_act=[1])
        keys.send_text(F6)
        await on_screen(ui, "auto-pass off")
        table.push(TURN, events=[acted(1)], phase="actions", current=0, to_act=[0])
        assert summaries(table) == 1  # the player's own turn again


async def test_autodecline_lets_autopass_decline_every_offer_at_once() -> None:
    async with running(24, 80) as (table, keys):
        ui = table.ui
        keys.send_text("set autodecline on\r")
        await on_screen(ui, "autodecline is on")
        table.offer([ACCEPT, DECLINE])  # without auto-pass: the player's to answer
        await on_screen(ui, "Trade offer from B Bob")
        assert table.sent == []
        table.push(None, phase="actions", current=1, to_act=[1], trade=None)
        keys.send_text(F6)
        await on_screen(ui, "auto-pass on")
        table.offer([ACCEPT, DECLINE])
        assert table.sent == [DECLINE]  # at once, by order
        assert any("auto-pass declined the offer" in line.text for line in table.state.log)
        table.push(TURN, phase="actions", to_act=[0], current=0, trade=None)
        assert table.sent == [DECLINE, PASS]


async def test_autopass_ends_without_a_word_with_the_game() -> None:
    _, updates = mid_game(steps=5000)
    over = updates[-1]["view"]
    assert over["phase"] == "over"
    async with running(24, 80) as (table, keys):
        ui = table.ui
        keys.send_text(F6)
        await on_screen(ui, "auto-pass on")
        table.push(None, **over)
        await until(lambda: ui.screen.score_open, "the final score sheet")
        assert ui.state.orders.pass_round is None
        assert "game over" in message(ui)
        assert not any("auto-pass ended" in line.text for line in table.state.log)
        ui.invalidate()
        await until(lambda: "auto-pass" not in screen(ui), "auto-pass gone from the screen")


async def test_the_message_line_says_when_every_answer_to_an_offer_is_in() -> None:
    mine = {"proposer": 0, "to": [1, 2], "give": ["green"], "get": ["violet"]}
    pending = {"seat": 2, "answer": "pending"}
    declined = {"seat": 1, "answer": "decline"}
    counter = {"seat": 2, "answer": "counter", "give": ["wild"], "get": ["violet"]}
    async with running(24, 80) as (table, _keys):
        ui = table.ui
        table.push(
            [WITHDRAW], phase="trade", to_act=[0], trade={**mine, "answers": [declined, pending]}
        )
        await until(lambda: "waiting for answers" in message(ui), "answers awaited")
        table.push(
            [WITHDRAW], phase="trade", to_act=[0], trade={**mine, "answers": [declined, counter]}
        )
        await until(lambda: "the counter-offers ask for cards you lack" in message(ui), "a counter")
        declined_too = {**pending, "answer": "decline"}
        table.push(
            [WITHDRAW],
            phase="trade",
            to_act=[0],
            trade={**mine, "answers": [declined, declined_too]},
        )
        await until(lambda: "every player asked declined" in message(ui), "all declined")


BIG_MOVE = {"kind": "move", "from": "TY", "to": "23", "pay": ["green", "green", "wild"]}
"""A move that spends three cards."""
SMALL_BANK = {"kind": "bank_draw", "pay": ["orange"]}


async def test_set_confirm_on_asks_once_before_a_costly_action_goes() -> None:
    async with running(24, 80) as (table, keys):
        ui = table.ui
        keys.send_text("set confirm on\r")
        await on_screen(ui, "confirm is on")
        table.push([PASS, BIG_MOVE, SMALL_BANK], phase="actions", to_act=[0], current=0)
        keys.send_text("move ty 23\r")
        text = await on_screen(ui, "it spends 3 cards")
        assert "Yes, send it" in text and table.sent == []
        keys.send_text("\x1b")  # Esc: not sent, the line comes back to edit
        await until(lambda: ui.dialog is None and ui.buffer.text == "move ty 23", "the line back")
        assert table.sent == []
        keys.send_text("\r")
        await until(lambda: ui.dialog is not None and ui.dialog.drawn, "asked again")
        keys.send_text("\r")  # Enter: yes
        await until(lambda: table.sent == [BIG_MOVE], "the move sent once confirmed")
        # One card to the bank goes at once.
        table.push([PASS, BIG_MOVE, SMALL_BANK], phase="actions", to_act=[0], current=0)
        keys.send_text("bank o\r")
        await until(lambda: table.sent == [BIG_MOVE, SMALL_BANK], "the bank action sent")
        assert ui.dialog is None


async def test_set_confirm_asks_before_a_move_that_owes_a_city_owner_a_card() -> None:
    into_city = {"kind": "move", "from": "TY", "to": "23", "pay": ["green"]}
    async with running(24, 80) as (table, keys):
        ui = table.ui
        ui.state.orders.confirm = True
        table.push([PASS, into_city], phase="actions", to_act=[0], current=0, cities={"23": 2})
        keys.send_text("move ty 23\r")
        await on_screen(ui, "C Cyd has a city in 23: you will give them a card")
        assert table.sent == []
        keys.send_text("\r")
        await until(lambda: table.sent == [into_city], "the move sent once confirmed")
        # Off again: nothing asks.
        table.push([PASS, BIG_MOVE], phase="actions", to_act=[0], current=0)
        keys.send_text("set confirm off\r")
        await on_screen(ui, "confirm is off")
        keys.send_text("move ty 23\r")
        await until(lambda: table.sent == [into_city, BIG_MOVE], "the move sent at once")
        assert ui.dialog is None
