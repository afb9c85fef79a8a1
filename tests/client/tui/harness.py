"""What the terminal client's tests share: a terminal of a given size and its screen as
drawn, waits for a condition (never for time), a real server and the real application
on a pipe input, scripted seats, and a mid-game position to show."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from tyros_client.courtesy import ONE_ANSWER_KINDS
from tyros_client.tokens import TokenStore
from tyros_client.tui.app import TyrosApp
from tyros_client.tui.main import build, run_client
from tyros_client.tui.net import JoinOptions
from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.messages import Prompt
from tyros_server.app import ServerConfig, TyrosServer
from websockets.asyncio.client import connect

TIMEOUT = 20.0
"""Seconds any condition may take (a bound that only catches a stuck test)."""
F2 = "\x1bOQ"
"""The key F2, as a terminal sends it."""
F4 = "\x1bOS"
"""The key F4, as a terminal sends it."""
F6 = "\x1b[17~"
"""The key F6, as a terminal sends it."""
F9 = "\x1b[20~"
"""The key F9, as a terminal sends it."""


class Terminal(DummyOutput):
    """A dummy output of a given size (the renderer still draws its screen)."""

    def __init__(self, rows: int = 30, columns: int = 100) -> None:
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        return self.size


def screen(ui: TyrosApp) -> str:
    """The characters on the screen, as last drawn."""
    app = ui.application
    drawn = app.renderer._last_screen
    if drawn is None:
        return ""
    size = app.output.get_size()
    rows = []
    for y in range(size.rows):
        row = drawn.data_buffer[y]
        rows.append("".join(row[x].char for x in range(size.columns)).rstrip())
    return "\n".join(rows)


async def until(check: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)


async def typed(ui: TyrosApp, keys: PipeInput, text: str) -> None:
    """``text`` sent as keys, once the command line shows it."""
    before = ui.buffer.text
    keys.send_text(text)
    await until(lambda: ui.buffer.text == before + text, f"{text!r} typed")


async def on_screen(ui: TyrosApp, text: str, timeout: float = TIMEOUT) -> str:
    ui.application.invalidate()
    return str(
        await until(lambda: text in screen(ui) and screen(ui), f"{text!r} on screen", timeout)
    )


@contextlib.asynccontextmanager
async def server(tmp_path: Path, **config: Any) -> AsyncIterator[TyrosServer]:
    running = TyrosServer(
        ServerConfig(host="127.0.0.1", port=0, db=str(tmp_path / "t.db"), allow_seed=True, **config)
    )
    await running.start()
    try:
        yield running
    finally:
        await running.stop()


@contextlib.asynccontextmanager
async def client(
    url: str,
    table: str,
    *,
    rows: int = 30,
    columns: int = 100,
    options: JoinOptions | None = None,
    tokens: TokenStore | None = None,
    name: str = "Ann",
    colour: bool = True,
    spectate: bool = False,
) -> AsyncIterator[tuple[TyrosApp, PipeInput]]:
    """The real application on a pipe input, running against ``url``."""
    with (
        create_pipe_input() as keys,
        create_app_session(input=keys, output=Terminal(rows, columns)),
    ):
        ui, net = build(
            url, table, name, options=options, tokens=tokens, colour=colour, spectate=spectate
        )
        task = asyncio.create_task(run_client(ui, net))
        try:
            await until(lambda: ui.application.is_running, "the application to start")
            yield ui, keys
        finally:
            if ui.application.is_running:
                ui.application.exit()
            await asyncio.wait_for(task, TIMEOUT)


@contextlib.asynccontextmanager
async def seated(tasks: list[asyncio.Task[Any]]) -> AsyncIterator[None]:
    """Cancel ``tasks`` (the other seats) when the block ends."""
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def seat_in_order(seats: list[ScriptedSeat]) -> list[asyncio.Task[Any]]:
    """Start each seat once the one before it is seated: seats B, C, D in that order."""
    tasks = []
    for seat in seats:
        tasks.append(asyncio.create_task(seat.run()))
        await until(seat.seated.is_set, f"{seat.name} seated")
    return tasks


def prompt_kinds(ui: TyrosApp) -> set[str]:
    return {str(a.get("kind")) for a in ui.state.legal}


class ScriptedSeat:
    """A minimal protocol client for another seat: it expands, keeps and gives the first
    legal choice, passes, declines offers, and (if ``gift``) once offers the first seat one
    of its cards for nothing, waits for the answer and completes the trade.

    ``seated`` is set once the server has welcomed it (so that tests seat players in a
    known order by waiting for it, not for time); with ``hold`` it takes no action until
    ``go`` is set (so that a table stays in the state a test needs).
    """

    def __init__(
        self,
        url: str,
        table: str,
        name: str,
        *,
        gift: bool = False,
        players: int = 3,
        hold: bool = False,
    ) -> None:
        self.url, self.table, self.name, self.gift = url, table, name, gift
        self.players = players
        self.offered = False
        self.completed = False
        self.score: dict[str, Any] | None = None
        self.seated = asyncio.Event()
        self.go = asyncio.Event()
        if not hold:
            self.go.set()

    async def run(self) -> None:
        async with connect(self.url) as ws:
            await ws.send(
                json.dumps(
                    {
                        "type": "hello",
                        "protocol": PROTOCOL_VERSION,
                        "name": self.name,
                        "table": self.table,
                        "players": self.players,
                    }
                )
            )
            async for frame in ws:
                message = json.loads(frame)
                if message["type"] == "welcome":
                    self.seated.set()
                if message["type"] != "update":
                    continue
                if message["view"]["phase"] == "over":
                    self.score = message["view"]["score"]
                    return
                prompt = message.get("prompt")
                if not prompt:
                    continue
                await self.go.wait()
                action = self.choose(message["view"], prompt["legal"])
                if action is not None:
                    await ws.send(
                        json.dumps(
                            {"type": "action", "version": prompt["version"], "action": action}
                        )
                    )

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        kinds = [a["kind"] for a in legal]
        if "complete" in kinds:
            self.completed = True
            return next(a for a in legal if a["kind"] == "complete")
        if kinds == ["withdraw"]:
            return None  # wait for the answers
        if self.gift and not self.offered and "propose" in kinds and view.get("hand"):
            self.offered = True
            return {"kind": "propose", "to": [0], "give": [view["hand"][0]], "get": []}
        for kind in ("pass", "expand", "keep", "give_card", "return_tile"):
            if kind in kinds:
                return next(a for a in legal if a["kind"] == kind)
        return next(a for a in legal if a["kind"] == "answer" and not a["accept"])


def decision_changed(ui: TyrosApp, prompt: Prompt | None) -> bool:
    """Whether the decision asked of us is another one than ``prompt``'s (a new prompt id,
    or none): while others act, each update resends the same decision as a new object, and
    that is no sign that ours was taken (waiting on identity raced with the bots' keeps)."""
    now = ui.state.prompt
    return (None if now is None else now.id) != (None if prompt is None else prompt.id)


def accepted_since(ui: TyrosApp, count: int) -> bool:
    """Whether the server accepted an action of ours since ``count``, and its update came."""
    state = ui.state
    return state.accepted > count and state.version >= state.accepted_version


async def choose_in_dialog(ui: TyrosApp, keys: PipeInput) -> None:
    """Open the dialog on purpose (F4) and confirm its first choice once it is drawn."""
    keys.send_text(F4)
    await until(
        lambda: ui.dialog is not None and ui.dialog.drawn is not None,
        "the dialog, opened with F4 and drawn",
    )
    keys.send_text("\r")


async def play_my_turn(
    ui: TyrosApp, keys: PipeInput, moved: list[bool], *, strict: bool = True
) -> None:
    """Act on the prompt shown, by keystrokes only, as a player would (a decision with one
    possible answer the client makes by itself)."""
    kinds = prompt_kinds(ui)
    legal = ui.state.legal
    if len(legal) == 1 and legal[0]["kind"] in ONE_ANSWER_KINDS:
        return
    if "answer" in kinds:
        accept = any(a.get("accept") for a in ui.state.legal if a["kind"] == "answer")
        keys.send_text("accept\r" if accept else "decline\r")
    elif kinds & {"keep", "give_card", "return_tile", "complete"}:
        await choose_in_dialog(ui, keys)
    elif "expand" in kinds:
        keys.send_text("expand\r")
        await until(
            lambda: ui.dialog is not None and ui.dialog.drawn is not None, "the expansion dialog"
        )
        keys.send_text("\r")
    elif "move" in kinds and not moved:
        target = next(a for a in ui.state.legal if a["kind"] == "move")
        moved.append(True)
        keys.send_text(f"move {target['from']} {target['to']}\r")
    elif "pass" in kinds:
        keys.send_text("pass\r")
    elif strict:
        raise AssertionError(f"no plan for {kinds}")


def mid_game(players: int = 4, steps: int = 260) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A table message and an update of a seeded random game, as seat 0 sees it."""
    from tyros_rules import (
        Options,
        Phase,
        events_seen,
        legal_actions,
        new_game,
        push,
        seats_to_act,
        view,
    )

    state = new_game(Options(players=players, seed=8))
    rng = random.Random(8)
    for _ in range(steps):
        if state.phase == Phase.OVER:
            break
        seat = seats_to_act(state)[0]
        push(state, seat, rng.choice(legal_actions(state, seat)))
    names = ["Ann", "Bob", "Cyd", "Dee"][:players]
    table = {
        "type": "table",
        "table": {
            "name": "t",
            "players": players,
            "setup": "first",
            "started": True,
            "finished": False,
            "spectators": 0,
            "seats": [
                {"seat": i, "name": n, "connected": True, "bot": False} for i, n in enumerate(names)
            ],
        },
    }
    events = [seen for _, seen in events_seen(state.log or [], 0)]
    update = {
        "type": "update",
        "version": state.version,
        "events": events,
        "view": view(state, 0),
        "prompt": None,
    }
    return table, [update]
