"""What the client answers for the player: a decision with one possible answer, at once;
autopass through the card turns; offers declined by ``set decline`` (the real application on
a pipe input, no server)."""

from __future__ import annotations

import asyncio

import pytest
from tyros_client.tui import autopilot as autopilot_module

from tests.client.tui.feeding import (
    ACCEPT,
    DECLINE,
    PASS,
    TURN,
    WITHDRAW,
    running,
)
from tests.client.tui.harness import (
    F6,
    on_screen,
    typed,
    until,
)


async def test_a_decision_with_one_possible_answer_is_made_at_once() -> None:
    async with running() as (table, _keys):
        table.push([PASS], phase="actions", to_act=[0], current=0)
        assert table.sent == [PASS]  # (no pause: there is nothing to think about)
        table.push([{"kind": "give_card", "card": "green"}], phase="give_card", to_act=[0])
        assert table.sent == [PASS, {"kind": "give_card", "card": "green"}]
        table.push([WITHDRAW], phase="trade", to_act=[0], current=0)
        assert len(table.sent) == 2  # an offer of one's own stands until its answers


async def test_autopass_passes_every_card_turn_until_something_stops_it() -> None:
    async with running() as (table, keys):
        ui = table.ui
        assert table.state.view is not None  # the mid-game table's view
        round_now = table.state.view["round"]
        keys.send_text(F6)
        await on_screen(ui, f"auto-pass on: you pass every card turn left in round {round_now}")
        table.push(TURN, phase="actions", to_act=[0], current=0)
        assert table.sent == [PASS]
        table.push(TURN, phase="actions", to_act=[0], current=0)
        assert table.sent == [PASS, PASS]
        # Typing anything stops it: the player means to play.
        await typed(ui, keys, "m")
        await on_screen(ui, "auto-pass stopped: you are typing")
        table.push(TURN, phase="actions", to_act=[0], current=0)
        assert table.sent == [PASS, PASS]
        # So does the end of the round; the key again turns it off.
        keys.send_text("\x15")
        await until(lambda: not ui.buffer.text, "the line cleared")
        table.push(None)
        keys.send_text(F6)
        await on_screen(ui, "auto-pass on")
        table.push(None, phase="keep", round=round_now + 1)
        await on_screen(ui, "auto-pass ended with the round")
        table.push(TURN, phase="actions", to_act=[0], current=0)
        keys.send_text(F6)
        await on_screen(ui, "auto-pass on")
        keys.send_text(F6)
        await on_screen(ui, "auto-pass off")
        assert table.sent == [PASS, PASS, PASS]  # (on with a turn to pass: it passed)


async def test_autopass_ends_with_the_rounds_card_turns_so_typing_the_keep_is_no_stop() -> None:
    async with running() as (table, keys):
        ui = table.ui
        assert table.state.view is not None
        round_now = table.state.view["round"]
        keys.send_text(F6)
        await on_screen(ui, "auto-pass on")
        table.push(None, phase="keep", round=round_now)  # the same round, its keeping
        await on_screen(ui, "auto-pass ended with the round's card turns")
        assert ui.state.orders.pass_round is None
        await typed(ui, keys, "keep")
        assert "you are typing" not in await on_screen(ui, "card turns")
        # ...and asking for it then says why there is nothing to do.
        keys.send_text("\x15")
        await until(lambda: not ui.buffer.text, "the line cleared")
        keys.send_text(F6)
        await on_screen(ui, "auto-pass is for card turns: this round has none left")
        assert ui.state.orders.pass_round is None


async def test_set_decline_on_declines_offers_one_lacks_the_cards_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(autopilot_module, "COURTESY_SECONDS", (0.01, 0.02))
    counter = {"kind": "counter", "give": ["orange"], "get": ["green"]}
    async with running() as (table, keys):
        ui = table.ui
        table.offer([DECLINE, counter])  # lacks the cards, could counter: the player's call
        await on_screen(ui, "you cannot accept: decline, or counter")
        keys.send_text("set\r")
        await on_screen(ui, "set decline on|off (off); set autodecline on|off (off)")
        keys.send_text("set decline on\r")
        await on_screen(ui, "decline is on")
        await until(lambda: table.sent, "the offer declined")
        assert table.sent == [DECLINE]
        assert any("you lack the cards asked for: declined" in x.text for x in table.state.log)
        # An offer one could accept is still the player's.
        table.offer([ACCEPT, DECLINE, counter])
        await on_screen(ui, "accept, decline or counter")
        await asyncio.sleep(0.05)
        assert table.sent == [DECLINE]


async def test_autopass_goes_on_past_an_offer_the_client_declines_for_the_player() -> None:
    counter = {"kind": "counter", "give": ["orange"], "get": ["green"]}
    async with running() as (table, keys):
        ui = table.ui
        keys.send_text("set decline on\r")
        await on_screen(ui, "decline is on")
        table.push(None)
        keys.send_text(F6)
        await on_screen(ui, "auto-pass on")
        table.offer([DECLINE, counter])  # lacks the cards: declined at once, by order
        assert table.sent == [DECLINE]
        assert ui.state.orders.pass_round is not None
        table.push(TURN, phase="actions", to_act=[0], current=0, trade=None)
        assert table.sent == [DECLINE, PASS]
