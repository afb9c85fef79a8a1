"""Refusals say the real reason, typed at the real application (80 x 24, no server): an
offer waiting for the player's answer comes before any other action, and a space named by
its name is the space, never "not a space"."""

from __future__ import annotations

import asyncio
import contextlib
import copy
from collections.abc import AsyncIterator
from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import PipeInput, create_pipe_input
from tyros_client.notices import ActionHandle
from tyros_client.tui.app import TyrosApp
from tyros_client.tui.commands import Context, Problem, parse
from tyros_protocol.board import BOARD

from tests.client.tui.feeding import FedState
from tests.client.tui.harness import TIMEOUT, Terminal, mid_game, screen, until
from tests.client.views import game_view

DECLINE: dict[str, Any] = {"kind": "answer", "accept": False}
COUNTER: dict[str, Any] = {"kind": "counter", "give": ["violet"], "get": ["green"]}
PASS: dict[str, Any] = {"kind": "pass"}
NAMES = ["Ann", "Bob", "Cyd", "Dee"]
CHIPS = {
    "TY": "green",
    "18": "yellow",
    "23": "green",
    "24": "green",
    "25": "violet",
    "29": "violet",
}
"""Empires' spaces of the positions below (the rest of the map as the game left it)."""
SHIPS = [{"port": "TY", "seat": 0, "count": 1}, {"port": "29", "seat": 0, "count": 1}]
"""The issue's position: ships in Tyros and 29, ..."""
HAND = ["green", "green", "wild"]
"""... and 2 green and 1 wild held."""
MOVES = [
    {"kind": "move", "from": "TY", "to": "24", "pay": ["green", "green", "wild"]},
    {"kind": "move", "from": "29", "to": "25", "pay": ["wild"]},
]
"""What that position may move: 24 for 3, 25 for 1 (Creta, 23, is 4 steps away)."""


class Table:
    """A client state fed by hand, as the network task would, and the app reading it."""

    def __init__(self) -> None:
        table, updates = mid_game()
        self.update = updates[-1]
        self.state = FedState("ws://nowhere:1", "t", "Ann")
        self.state.welcomed()
        self.state.feed(table)
        self.state.connected = True
        self.sent: list[dict[str, Any]] = []

        def sender(action: dict[str, Any]) -> ActionHandle | None:
            self.sent.append(action)
            handle = self.state.session.send_action(action)
            self.state.session.frames_to_send()
            return handle

        self.ui = TyrosApp(self.state, sender, colour=True)
        self.version = int(self.update["version"])

    def push(self, legal: list[dict[str, Any]], **view: Any) -> None:
        """A new update asking seat 0 to choose among ``legal``, the view changed."""
        self.version += 1
        message = copy.deepcopy(self.update)
        message["version"] = self.version
        message["events"] = []
        message["view"].update(view)
        message["prompt"] = {"version": self.version, "deadline": 30.0, "legal": legal}
        self.state.feed(message)
        self.ui.on_state_change()


@contextlib.asynccontextmanager
async def running() -> AsyncIterator[tuple[Table, PipeInput]]:
    with (
        create_pipe_input() as keys,
        create_app_session(input=keys, output=Terminal(24, 80)),
    ):
        table = Table()
        task = asyncio.create_task(table.ui.application.run_async())
        try:
            await until(
                lambda: table.ui.application.is_running and screen(table.ui), "the first drawing"
            )
            yield table, keys
        finally:
            table.ui.application.exit()
            await asyncio.wait_for(task, TIMEOUT)


def issue_position(**fields: Any) -> dict[str, Any]:
    """The issue's position on the mid-game table: seat 0's card turn."""
    return {
        "phase": "actions",
        "current": 0,
        "to_act": [0],
        "chips": CHIPS,
        "cities": {},
        "ships": SHIPS,
        "hand": HAND,
        **fields,
    }


async def lines_run(ui: TyrosApp, count: int) -> None:
    """Once the command line has read ``count`` lines."""
    await until(lambda: ui.lines_run == count, f"{count} lines read")


async def said(ui: TyrosApp, words: str) -> str:
    """The screen, once it shows ``words`` (a message may wrap onto the next row)."""
    ui.application.invalidate()
    return str(
        await until(lambda: words in " ".join(screen(ui).split()) and screen(ui), repr(words))
    )


async def test_a_space_named_by_its_name_gets_the_true_reason() -> None:
    async with running() as (table, keys):
        ui = table.ui
        table.push([*MOVES, PASS], **issue_position())
        for lines, (line, reason) in enumerate(
            (
                ("move creta", "no ship of yours can reach 23 Creta now: 23 is 4 steps away"),
                ("move ty creta", "you cannot move from Tyros to 23 Creta: 23 is 4 steps away"),
                ("move 23", "no ship of yours can reach 23 Creta now: 23 is 4 steps away"),
            ),
            start=1,
        ):
            keys.send_text(f"\x15{line}\r")  # (Ctrl-U first: a refused line is kept)
            await lines_run(ui, lines)
            text = await said(ui, f"{reason}: it costs 4 green (wild cards count) and you hold")
            assert "not a space" not in text
        assert table.sent == []
        # Named origins and destinations go, as their numbers would.
        keys.send_text("\x15move tyros cyrene\r")
        await until(lambda: table.sent, "the move sent")
        assert table.sent == [MOVES[0]]


async def test_an_offer_waiting_for_an_answer_comes_first() -> None:
    async with running() as (table, keys):
        ui = table.ui
        table.push(
            [DECLINE, COUNTER],
            **issue_position(
                phase="trade",
                current=1,
                trade={
                    "proposer": 1,
                    "to": [0],
                    "give": ["violet"],
                    "get": ["green", "green"],
                    "answers": [{"seat": 0, "answer": "pending"}],
                },
            ),
        )
        # A move the card turn sends (the test above) waits for the answer, as all else does.
        for lines, (line, what) in enumerate(
            (("move ty cyrene", "move a ship"), ("pass", "pass"), ("city 24", "build a city")),
            start=1,
        ):
            keys.send_text(f"\x15{line}\r")
            await lines_run(ui, lines)
            text = await said(
                ui, f"you cannot {what} now: answer the trade offer first: decline or counter"
            )
            assert "now you can" not in text and "steps away" not in text
        assert table.sent == []
        keys.send_text("\x15decline\r")
        await until(lambda: table.sent, "the answer sent")
        assert table.sent == [DECLINE]


def context(legal: list[dict[str, Any]], **fields: Any) -> Context:
    view = game_view(issue_position(**fields))
    return Context(legal=legal, seat=0, names=NAMES, players=4, hand=HAND, view=view)


def refusal(line: str, legal: list[dict[str, Any]], **fields: Any) -> str:
    result = parse(line, context(legal, **fields))
    assert isinstance(result, Problem), (line, result)
    return result.message


def test_a_space_named_by_its_name_is_refused_as_by_its_number() -> None:
    compared = 0
    for space, name in zip(BOARD.space_labels, BOARD.names, strict=True):
        for command in ("move {}", "move 29 {}", "city {}", "ship {}"):
            for legal in ([*MOVES, PASS], [PASS]):
                by_number = parse(command.format(space), context(legal))
                if not isinstance(by_number, Problem):
                    continue  # (a legal move: it goes by its name too, see above)
                message = refusal(command.format(name.lower()), legal)
                assert message == by_number.message
                compared += 1
    assert compared > 200  # (every space, by four commands, nearly all refused)


def test_a_name_of_several_words_is_one_space() -> None:
    # Carthago Nova (2), not Carthago (13) and a stray word.
    assert "no ship of yours can reach 2 Carthago Nova now" in refusal(
        "move carthago nova", [*MOVES, PASS]
    )
    assert "2 belongs to no empire yet" in refusal("city Carthago Nova", [PASS])
    assert "'nova' is not a space" in refusal("move nova", [*MOVES, PASS])


def test_the_proposers_own_offer_comes_first_too() -> None:
    trading = {
        "phase": "trade",
        "trade": {"proposer": 0, "to": [1], "give": [], "get": [], "answers": []},
    }
    assert refusal("pass", [{"kind": "withdraw"}], **trading) == (
        "you cannot pass now: your trade offer waits for its answers: wait for them, or withdraw it"
    )
    assert refusal("move 25", [{"kind": "complete", "with": 1}, {"kind": "withdraw"}]) == (
        "you cannot move a ship now: your trade offer has its answers: complete it or "
        "withdraw it first"
    )


def test_italy_named_as_an_origin_is_its_coasts() -> None:
    # A ship on Italy's west coast, one yellow held: 21 is 3 steps away.
    on_the_west_coast = {"ships": [{"port": "16W", "seat": 0, "count": 1}], "hand": ["yellow"]}
    for line in ("move italia 21", "move 16 21", "move 16w 21"):
        message = refusal(line, [PASS], chips={"21": "yellow"}, **on_the_west_coast)
        assert "21 is 3 steps away: it costs 3 yellow" in message, message
    message = refusal("move 16e 21", [PASS], chips={"21": "yellow"}, **on_the_west_coast)
    assert "you have no ship in 16E" in message
