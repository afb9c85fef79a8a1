"""A client state fed raw server messages through a real :class:`ClientSession`, the one
fold of the protocol, as the network task feeds it: tests write the server's messages,
the session classifies them and passes each event and line of talk on once."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tyros_client.session import ClientSession, Join
from tyros_client.tui.state import ClientState


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
        """One message from the server, through the session, into the state."""
        for notice in self.session.receive(json.dumps(message)):
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
