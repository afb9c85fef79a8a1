"""The screen at 80 x 24, the smallest it is made for, typed at the real application (no
server): what a player reads there must be whole and say what happened."""

from __future__ import annotations

import copy
from typing import Any

from tyros_client.tui import render

from tests.client.tui.feeding import ACCEPT, DECLINE, PASS, TURN, running
from tests.client.tui.harness import F2, on_screen, screen, until

PAGE_UP, PAGE_DOWN = "\x1b[5~", "\x1b[6~"


def log_side(text: str) -> list[str]:
    """The lines right of the divider (the log, or the request over it)."""
    return [line.split("|", 1)[1] for line in text.splitlines() if "|" in line]


def action(seat: int, **what: Any) -> dict[str, Any]:
    return {"type": "action", "seat": seat, "action": what}


async def test_since_your_last_turn_says_each_player_on_a_line_of_their_own() -> None:
    async with running(24, 80) as (table, _keys):
        ui = table.ui
        table.push(None, current=1, phase="actions", events=[action(0, kind="pass")])
        bank = {"kind": "bank_draw", "pay": ["green", "green"]}
        table.push(None, current=2, phase="actions", events=[action(1, **bank)])
        move = {"kind": "move", "from": "TY", "to": "23", "pay": ["green", "wild"]}
        table.push(None, current=3, phase="actions", events=[action(2, **move)])
        table.push(TURN, current=0, phase="actions", to_act=[0], events=[action(3, kind="pass")])
        text = await on_screen(ui, "since your last turn:")
        side = [line.rstrip() for line in log_side(text)]
        at = side.index("since your last turn:")
        # A line each, short enough for the log's half of the screen (costs are in the log).
        assert side[at + 1 : at + 4] == [
            "  B Bob: discard green x2, draw 2",
            "  C Cyd: move TY -> 23",
            "  D Dee: pass",
        ]


async def test_the_status_line_says_a_trade_once_at_every_width() -> None:
    async with running(24, 80) as (table, _keys):
        table.offer([ACCEPT, DECLINE])
        await on_screen(table.ui, "Trade offer from B Bob")
        lines = {
            "".join(text for _, text, *_ in render.status_line(table.ui, width))
            for width in range(12, 101)
        }
    assert " Round 1  a trade: B's offer" in lines  # (the terms do not fit)
    assert all(line.count("trade") <= 1 for line in lines), lines


async def test_a_counter_offers_terms_show_whole_without_f4() -> None:
    async with running(24, 80) as (table, _keys):
        ui = table.ui
        mine = {
            "proposer": 0,
            "to": [1, 2, 3],
            "give": ["orange", "orange"],
            "get": ["green", "green"],
            "answers": [
                {"seat": 1, "answer": "decline"},
                {"seat": 2, "answer": "counter", "give": ["green", "green"], "get": ["wild"]},
                {"seat": 3, "answer": "pending"},
            ],
        }
        legal: list[dict[str, Any]] = [{"kind": "complete", "with": 2}, {"kind": "withdraw"}]
        table.push(legal, phase="trade", to_act=[0], current=0, trade=mine)
        text = await on_screen(ui, "Your offer: ")
        side = " ".join(line.strip() for line in log_side(text))
        assert "C Cyd counters, you give green x2 for wild" in side
        assert "complete PLAYER or withdraw (F4)" in side


async def test_an_acceptance_and_two_counters_all_show_at_80_by_24() -> None:
    async with running(24, 80) as (table, _keys):
        ui = table.ui
        mine = {
            "proposer": 0,
            "to": [1, 2, 3],
            "give": ["orange"],
            "get": ["green"],
            "answers": [
                {"seat": 1, "answer": "counter", "give": ["orange", "orange"], "get": ["green"]},
                {"seat": 2, "answer": "counter", "give": ["orange"], "get": ["violet"]},
                {"seat": 3, "answer": "accept"},
            ],
        }
        legal: list[dict[str, Any]] = [{"kind": "complete", "with": seat} for seat in (1, 2, 3)] + [
            {"kind": "withdraw"}
        ]
        table.push(legal, phase="trade", to_act=[0], current=0, trade=mine)
        text = await on_screen(ui, "Your offer: ")
        side = " ".join(line.strip() for line in log_side(text))
        assert "F4 shows all" not in side
        assert side.index("D Dee accepts") < side.index("B Bob counters")  # the best first
        assert "B Bob counters, you give orange x2 for green" in side
        assert "C Cyd counters, you give orange for violet" in side


async def test_a_decision_made_for_the_player_is_announced() -> None:
    async with running(24, 80) as (table, _keys):
        ui = table.ui
        only = {"kind": "expand", "tile": "24", "colour": "green"}
        table.push([only], phase="expand", to_act=[0], current=0)
        assert table.sent == [only]
        said = "your only possible move, made for you: expand green into 24"
        assert any(line.text == said for line in table.state.log)
        table.push(None, phase="expand", to_act=[1], current=1)  # the game goes on
        await on_screen(ui, said)  # (the message line: it was not the player's choice)


async def test_a_move_made_for_the_player_opens_the_summary_at_their_next_turn() -> None:
    """The only possible move, made at once, is said on the message line and in the log;
    the bots' moves soon push both out of sight, so the summary at the player's next turn
    says it first, as it says what the server did in their name."""
    async with running(24, 80) as (table, _keys):
        ui = table.ui
        table.push(None, phase="actions", to_act=[1], current=1, events=[action(0, kind="pass")])
        table.push([PASS], phase="actions", to_act=[0], current=0, events=[action(3, kind="pass")])
        assert table.sent == [PASS]  # (no cards: passing is all there is)
        table.push(None, phase="actions", to_act=[1], current=1, events=[action(0, kind="pass")])
        table.push(None, phase="actions", to_act=[2], current=2, events=[action(1, kind="pass")])
        table.push(TURN, phase="actions", to_act=[0], current=0, events=[action(2, kind="pass")])
        text = await on_screen(ui, "done for you: pass")
        side = [line.rstrip() for line in log_side(text)]
        at = len(side) - 1 - side[::-1].index("since your last turn:")
        assert side[at + 1 : at + 4] == ["  done for you: pass", "  B Bob: pass", "  C Cyd: pass"]
        message_line = text.splitlines()[-2]
        assert "your turn" in message_line  # (it asks for this turn's move)


async def test_the_round_and_its_phase_stay_over_a_cut_list_and_a_scrolled_log() -> None:
    """Four players at 80 x 24: the round's line heads the log. A trade offer above leaves
    the list of what one may do a line, and a scrolled log says so too: the notice that
    lines are hidden shares the round's line, which keeps the round, LAST ROUND and the
    phase."""
    async with running(24, 80) as (table, keys):
        ui = table.ui
        table.push(TURN, phase="actions", to_act=[0], current=0, last_round=True)
        keys.send_text(F2)  # the list, open when an offer comes
        await until(lambda: ui.screen.panel == "legal", "the legal list")
        offer = {
            "proposer": 1,
            "to": [0, 2],
            "give": ["green", "green", "orange"],
            "get": ["violet", "wild"],
            "answers": [{"seat": 0, "answer": "pending"}, {"seat": 2, "answer": "pending"}],
        }
        counter = {"kind": "counter", "give": ["violet"], "get": ["green"]}
        table.push(
            [ACCEPT, DECLINE, counter], phase="trade", to_act=[0, 2], trade=offer, last_round=True
        )
        text = await on_screen(ui, "Trade offer from B Bob")
        head = next((line for line in log_side(text) if " more" in line), "")
        assert head.startswith(" Round 1  LAST ROUND  a trade"), text
        table.push(TURN, phase="actions", to_act=[0], current=0, last_round=True, trade=None)
        for i in range(30):
            table.state.note(f"line {i}", error=False)
        await on_screen(ui, "line 29")
        keys.send_text(PAGE_UP)
        await until(lambda: ui.screen.scroll > 0, "a page up")
        ui.application.invalidate()
        head = await until(
            lambda: next((line for line in log_side(screen(ui))[:1] if " v " in line), None),
            "the round's line saying that newer lines are below",
        )
        assert head == f" Round 1  LAST ROUND  card actions v {ui.screen.scroll}", head


async def test_page_up_and_down_move_the_log_a_page() -> None:
    async with running(24, 80) as (table, keys):
        ui = table.ui
        for i in range(30):
            table.state.note(f"line {i}", error=False)
        await on_screen(ui, "line 29")
        page = ui.screen.page
        assert page == len([line for line in log_side(screen(ui))]) - 1  # (its title)
        keys.send_text(PAGE_UP)
        await until(lambda: ui.screen.scroll == page, "a page up")
        text = await on_screen(ui, f"line {29 - page}")
        assert f"line {30 - page}" not in text
        keys.send_text(PAGE_DOWN)
        await until(lambda: ui.screen.scroll == 0, "a page down")


async def test_the_log_comes_to_its_newest_lines_when_your_turn_begins() -> None:
    async with running(24, 80) as (table, keys):
        ui = table.ui
        table.push(None, phase="actions", to_act=[1], current=1)
        for i in range(30):
            table.state.note(f"line {i}", error=False)
        await on_screen(ui, "line 29")
        keys.send_text(PAGE_UP)  # reading back while the others play
        await until(lambda: ui.screen.scroll > 0, "a page up")
        table.push(TURN, phase="actions", to_act=[0], current=0)
        await until(lambda: ui.screen.scroll == 0, "the newest lines, at your turn")
        keys.send_text(F2)  # the legal list, open when the next turn comes
        await until(lambda: ui.screen.panel == "legal", "the legal list")
        table.push(None, phase="actions", to_act=[1], current=1)
        assert ui.screen.panel == "legal"  # (it stays while the others play)
        table.push(TURN, phase="actions", to_act=[0], current=0)
        await until(lambda: ui.screen.panel == "log", "the log, at your turn")


async def test_seats_back_within_the_grace_are_not_said_away() -> None:
    async with running(24, 80) as (table, _keys):
        ui = table.ui
        restarted = copy.deepcopy(table.info)
        for seat in restarted["table"]["seats"][1:]:
            seat["connected"] = False
        logged = len(table.state.log)
        table.state.feed(restarted)  # a server restart: the others reconnect one by one
        for n in range(1, 4):
            back = copy.deepcopy(restarted)
            for seat in back["table"]["seats"][1 : n + 1]:
                seat["connected"] = True
            table.state.feed(back)
        table.push([PASS], phase="actions", current=0, to_act=[0])
        await on_screen(ui, "your only possible move")
        assert table.state.log[logged:] and not [
            line.text
            for line in table.state.log[logged:]
            if " is away" in line.text or " is back" in line.text
        ]
