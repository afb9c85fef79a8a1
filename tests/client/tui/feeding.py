"""A client state fed raw server messages through a real :class:`ClientSession`, the one
fold of the protocol, as the network task feeds it: tests write the server's messages,
the session classifies them and passes each event and line of talk on once; and a
:class:`Table` of such a state with the real application reading it, on a pipe input
(:func:`running`), no server."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import PipeInput, create_pipe_input
from tyros_client.notices import ActionHandle
from tyros_client.session import ClientSession, Join
from tyros_client.tui.app import TyrosApp
from tyros_client.tui.state import ClientState
from tyros_protocol.messages import parse_server_message

from tests.client.tui.harness import TIMEOUT, Terminal, mid_game, screen, until


class FedState(ClientState):
    """A :class:`ClientState` with its own session; :meth:`feed` plays the server."""

    def __init__(
        self,
        address: str,
        table: str,
        name: str,
        *,
        spectate: bool = False,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if clock is None:
            super().__init__(address, table, name, spectate=spectate)
        else:
            super().__init__(address, table, name, spectate=spectate, clock=clock)
        self.session = ClientSession(Join(table, name, spectate=spectate), clock=self.clock)
        self.session.connection_made()
        self.session.frames_to_send()  # the hello: nobody reads it here

    def feed(self, message: dict[str, Any]) -> None:
        """One message from the server, through the session, into the state (a message
        the protocol does not allow fails here, rather than pass unseen)."""
        frame = json.dumps(message)
        parse_server_message(frame)
        for notice in self.session.receive(frame):
            self.apply(notice)

    def welcomed(self, seat: int | None = 0, token: str | None = "x") -> None:
        """The server's welcome to this state's table and name: seated at ``seat``."""
        self.feed(
            {
                "type": "welcome",
                "re": 1,
                "protocol": 1,
                "table": self.table,
                "seat": seat,
                "name": self.name,
                "token": token,
            }
        )


ACCEPT: dict[str, Any] = {"kind": "answer", "accept": True}
DECLINE: dict[str, Any] = {"kind": "answer", "accept": False}
PASS: dict[str, Any] = {"kind": "pass"}
TURN: list[dict[str, Any]] = [PASS, {"kind": "bank_draw", "pay": ["green"]}]
"""A card turn with a choice (one with a single answer the client makes by itself)."""
WITHDRAW: dict[str, Any] = {"kind": "withdraw"}


class Table:
    """A client state fed by hand, as the network task would, and the app reading it."""

    def __init__(self) -> None:
        table, updates = mid_game()
        self.info = table
        """The table message fed first (every seat taken and connected)."""
        self.update = updates[-1]
        self.state = FedState("ws://nowhere:1", "t", "Ann")
        self.state.welcomed()
        self.state.feed(table)
        self.state.connected = True
        self.sent: list[dict[str, Any]] = []
        self.unanswered: list[int] = []
        """The message ids of the actions sent that the server has not answered."""

        def sender(action: dict[str, Any]) -> ActionHandle | None:
            self.sent.append(action)
            session = self.state.session
            handle = session.send_action(action)
            self.unanswered += [json.loads(frame)["id"] for frame in session.frames_to_send()]
            return handle

        self.ui = TyrosApp(self.state, sender, colour=True)
        self.version = int(self.update["version"])
        self.push(None)

    def push(
        self,
        legal: list[dict[str, Any]] | None,
        *,
        events: list[dict[str, Any]] | None = None,
        **view: Any,
    ) -> None:
        """A new update: ``legal`` for seat 0 (None: nothing asked), ``events`` (default:
        none), the view changed; the server accepts the actions sent before it, as it would
        (first)."""
        self.version += 1
        for msg_id in self.unanswered:  # the screen hears of each message, as from the net
            self.state.feed({"type": "accepted", "re": msg_id, "version": self.version})
            self.ui.on_state_change()
        self.unanswered = []
        message = copy.deepcopy(self.update)
        message["version"] = self.version
        message["events"] = [{**event, "version": self.version} for event in events or []]
        message["view"].update(view)
        message["prompt"] = (
            None if legal is None else {"version": self.version, "deadline": 30.0, "legal": legal}
        )
        if "clocks" in view:  # (not the view's: the update's own)
            message["clocks"] = message["view"].pop("clocks")
        self.state.feed(message)
        self.ui.on_state_change()

    def offer(self, legal: list[dict[str, Any]]) -> None:
        self.push(
            legal,
            phase="trade",
            to_act=[0],
            trade={
                "proposer": 1,
                "to": [0],
                "give": ["green"],
                "get": ["violet"],
                "answers": [{"seat": 0, "answer": "pending"}],
            },
        )


@contextlib.asynccontextmanager
async def running(rows: int = 30, columns: int = 100) -> AsyncIterator[tuple[Table, PipeInput]]:
    with (
        create_pipe_input() as keys,
        create_app_session(input=keys, output=Terminal(rows, columns)),
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
