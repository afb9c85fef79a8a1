"""The network task: join (or rejoin) a table, feed every server message to the state.

The seat token is kept in a JSON file in the user's data directory
(``$XDG_DATA_HOME/tyros/tokens.json``, else ``~/.local/share/tyros/tokens.json``),
keyed by server address, table and player name, so that a restarted client takes
its seat back. When the connection drops (or the server restarts) the client
reconnects on its own, backing off up to a few seconds between tries.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tyros_protocol.errors import ErrorCode
from websockets.exceptions import InvalidURI

from ..connection import Connection, lost_words
from ..notices import ActionHandle, Handling, Joined, JoinRefused, Notice
from ..replay import fetch_record
from ..session import ClientSession, Join
from ..tls import ServerTrust
from ..tokens import TokenStore
from ..words import error_words, printable
from .state import ClientState

SERVER_EXPLAINS = frozenset(
    {ErrorCode.TOO_MANY_TABLES, ErrorCode.TOO_MANY_SPECTATORS, ErrorCode.TABLE_UNAVAILABLE}
)
"""Refusals whose own message says more than our words could (which limit, which table)."""

log = logging.getLogger("tyros.client")


@dataclass(frozen=True, slots=True)
class JoinOptions:
    """How to create the table if it does not exist yet (see ``hello``)."""

    players: int = 4
    setup: str = "first"
    seed: int | None = None
    trade_seconds: int | None = None
    clock: tuple[int, int] | None = None
    """(decision, reserve) seconds for the table's clock (None: the server's default)."""
    hints: bool | None = None
    """False: a table where nobody may ask for hints (None: the server's default, yes)."""
    bots: int | None = None
    """The seats the server's own bots take at once (None: none)."""


class NetClient:
    """One connection to a server for one seat (or a spectator), kept alive.

    The protocol is the :class:`ClientSession`'s; this class only keeps the token file
    and tells the screen's state what happened.
    """

    def __init__(
        self,
        state: ClientState,
        url: str,
        *,
        options: JoinOptions | None = None,
        tokens: TokenStore | None = None,
        on_change: Callable[[], None] = lambda: None,
        max_delay: float = 5.0,
        trust: ServerTrust | None = None,
    ) -> None:
        self.state = state
        self.url = url
        self.trust = trust
        self.options = options or JoinOptions()
        self.tokens = tokens
        self.on_change = on_change
        self.key = f"{url} {state.table} {state.name}"
        join = Join(
            table=state.table,
            name=state.name,
            players=self.options.players,
            setup=self.options.setup,
            seed=self.options.seed,
            trade_seconds=self.options.trade_seconds,
            clock=self.options.clock,
            hints=self.options.hints,
            bots=self.options.bots,
            spectate=state.spectate,
        )
        token = None if tokens is None or state.spectate else tokens.load(self.key)
        self.session = ClientSession(join, token=token, max_delay=max_delay, clock=state.clock)
        self.connection = Connection(
            self.session, url, self._handle, on_status=self._status, trust=trust
        )

    async def run(self) -> None:
        """Stay connected until :meth:`stop` or a refusal that retrying cannot fix."""
        try:
            await self.connection.run()
        except InvalidURI as exc:
            self.state.fatal = f"bad address: {exc}"
            self.state.note(self.state.fatal)
            self.state.connection = "gave up"
            self._changed()

    async def fetch_record(self) -> dict[str, Any]:
        """The table's record, on a connection of its own (a finished game's in full);
        a ValueError says why not."""
        return await fetch_record(self.url, self.state.table, self.trust)

    def stop(self) -> None:
        self.connection.stop()

    def send_action(self, action: dict[str, Any]) -> ActionHandle | None:
        """Send an action for the newest prompt: its handle (see :class:`ActionHandle`);
        None, and a note, if it cannot go now."""
        handle = self.session.send_action(action)
        if handle is None:
            self.state.note(
                "not connected to the server: wait for the reconnection", connection=True
            )
            return None
        self.connection.flush()
        return handle

    async def send_chat(self, text: str) -> bool:
        """Say ``text`` at the table; False (and a note) if it cannot go now."""
        if not self.session.send_chat(text):
            self.state.note(
                "not connected to the server: wait for the reconnection", connection=True
            )
            return False
        self.connection.flush()
        return True

    async def send_hint(self, version: int) -> bool:
        """Tell the server a hint is asked at ``version`` (the record marks the decision)."""
        if not self.session.send_hint(version):
            return False
        self.connection.flush()
        return True

    def _handle(self, notice: Notice) -> None:
        if isinstance(notice, JoinRefused):
            self._join_refused(notice)
        else:
            self.state.apply(notice)
            token = self.session.token
            if isinstance(notice, Joined) and token and self.tokens and not self.state.spectate:
                self.tokens.save(self.key, token, notice.seat)
        self._changed()

    def _join_refused(self, notice: JoinRefused) -> None:
        code, error = notice.code, notice.error
        if notice.handling is Handling.REJOIN:
            if self.tokens is not None:
                self.tokens.forget(self.key)
            self.state.note(
                "the server did not know our seat any more; joining afresh", error=False
            )
            return
        if self.session.fatal is None:
            self.state.refused(error)  # (a refusal the session gets over: said once)
        else:
            words = error_words(code.value)
            if code in SERVER_EXPLAINS:
                words = printable(error.message)[:300]
            self.state.fatal = f"the server refused to seat you: {words}"
            self.state.note(self.state.fatal)

    def _status(self, status: str, detail: str) -> None:
        state = self.state
        if status == "connected":
            state.connected, state.connection = True, "connected"
            state.connected_at = state.clock()
        elif status == "lost":
            if state.connected:
                state.note(
                    f"connection lost ({lost_words(detail)}); reconnecting",
                    error=False,
                    connection=True,
                )
            state.connected = False
        elif status == "notice":
            state.note(detail, error=False)
        elif status == "waiting":
            delay = float(detail)
            state.connection = (
                f"offline, retry {delay:.0f} s" if delay >= 1 else "offline, retrying"
            )
        else:
            state.connected = False
            if self.session.fatal is not None and state.fatal is None:
                state.fatal = self.session.fatal
                state.note(f"disconnected: {state.fatal}")
            state.connection = "gave up" if state.fatal is not None else "closed"
        self._changed()

    def _changed(self) -> None:
        with contextlib.suppress(Exception):
            self.on_change()
