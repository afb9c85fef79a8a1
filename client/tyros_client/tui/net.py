"""The network task: join (or rejoin) a table, feed every server message to the state.

The seat token is kept in a JSON file in the user's data directory
(``$XDG_DATA_HOME/tyros/tokens.json``, else ``~/.local/share/tyros/tokens.json``),
keyed by server address, table and player name, so that a restarted client takes
its seat back. When the connection drops (or the server restarts) the client
reconnects on its own, backing off up to a few seconds between tries.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tyros_protocol import PROTOCOL_VERSION
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from .state import ClientState

log = logging.getLogger("tyros.client")

MAX_FRAME = 8 * 1024 * 1024
RESEND_TRIES = 5
"""How often an action refused as stale is sent again for the newest prompt."""
SEAT_TAKEN = 4000
"""Close code: another connection resumed this seat."""


def data_dir() -> Path:
    """Where tyros keeps its files for this user."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tyros"


class TokenStore:
    """Seat tokens on disk, readable by the user only."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / "tokens.json"

    def _read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text("utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, data: dict[str, Any]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temp = self.path.with_suffix(".tmp")
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(data, handle, indent=1, sort_keys=True)
            os.replace(temp, self.path)
        except OSError as exc:
            log.warning("cannot store the seat token in %s: %s", self.path, exc)

    def load(self, key: str) -> str | None:
        entry = self._read().get(key)
        token = entry.get("token") if isinstance(entry, dict) else None
        return token if isinstance(token, str) else None

    def save(self, key: str, token: str, seat: int | None) -> None:
        data = self._read()
        data[key] = {"token": token, "seat": seat}
        self._write(data)

    def forget(self, key: str) -> None:
        data = self._read()
        if data.pop(key, None) is not None:
            self._write(data)


@dataclass(frozen=True, slots=True)
class JoinOptions:
    """How to create the table if it does not exist yet (see ``hello``)."""

    players: int = 4
    setup: str = "first"
    seed: int | None = None
    trade_seconds: int | None = None


class NetClient:
    """One connection to a server for one seat (or a spectator), kept alive."""

    def __init__(self, state: ClientState, url: str, *, options: JoinOptions | None = None,
                 tokens: TokenStore | None = None,
                 on_change: Callable[[], None] = lambda: None,
                 max_delay: float = 5.0) -> None:
        self.state = state
        self.url = url
        self.options = options or JoinOptions()
        self.tokens = tokens
        self.on_change = on_change
        self.max_delay = max_delay
        self.key = f"{url} {state.table} {state.name}"
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._join_id: int | None = None
        self._stopped = False
        self._tasks: set[asyncio.Future[None]] = set()
        self._sent: dict[int, tuple[dict[str, Any], int]] = {}
        """Actions sent by message id, with how often each was sent again."""
        if tokens is not None and not state.spectate and state.token is None:
            state.token = tokens.load(self.key)

    async def run(self) -> None:
        """Stay connected until :meth:`stop` or a refusal that retrying cannot fix."""
        delay = 0.25
        while not self._stopped and self.state.fatal is None:
            try:
                async with connect(self.url, max_size=MAX_FRAME, compression=None,
                                   open_timeout=10) as ws:
                    self._ws = ws
                    delay = 0.25
                    self.state.connected = True
                    self.state.connection = "connected"
                    self._changed()
                    await self._join()
                    with contextlib.suppress(ConnectionClosed):
                        async for frame in ws:
                            self._receive(frame)
                    self._closed(ws.close_code, ws.close_reason)
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed) as exc:
                if self.state.connected:
                    self.state.note(f"connection lost ({exc.__class__.__name__}); "
                                    "reconnecting", error=False)
                log.info("connection to %s failed: %s", self.url, exc)
            except InvalidURI as exc:
                self.state.fatal = f"bad address: {exc}"
                self.state.note(self.state.fatal)
            finally:
                self._ws = None
                self.state.connected = False
            if self._stopped or self.state.fatal is not None:
                break
            self.state.connection = f"offline: retrying in {delay:.0f} s" if delay >= 1 \
                else "offline: retrying"
            self._changed()
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.max_delay)
        self.state.connection = "closed" if self.state.fatal is None else "gave up"
        self._changed()

    def stop(self) -> None:
        self._stopped = True
        ws = self._ws
        if ws is not None:
            self._background(ws.close())

    async def send_action(self, action: dict[str, Any]) -> bool:
        """Send an action for the newest prompt; False (and a note) if it cannot go now."""
        ws = self._ws
        if ws is None:
            self.state.note("not connected to the server: wait for the reconnection")
            return False
        version = (self.state.prompt or {}).get("version", self.state.version)
        message = {"type": "action", "id": next(self._ids), "version": version,
                   "action": action}
        self._sent[message["id"]] = (action, 0)
        while len(self._sent) > 64:
            del self._sent[next(iter(self._sent))]
        try:
            await ws.send(json.dumps(message))
        except ConnectionClosed:
            self.state.note("the connection closed before the action went out")
            return False
        return True

    async def _join(self) -> None:
        assert self._ws is not None
        self._join_id = next(self._ids)
        if self.state.token is not None and not self.state.spectate:
            message: dict[str, Any] = {"type": "resume", "id": self._join_id,
                                       "protocol": PROTOCOL_VERSION,
                                       "token": self.state.token}
        else:
            message = {"type": "hello", "id": self._join_id, "protocol": PROTOCOL_VERSION,
                       "name": self.state.name, "table": self.state.table,
                       "players": self.options.players, "setup": self.options.setup}
            if self.state.spectate:
                message["spectate"] = True
            if self.options.seed is not None:
                message["seed"] = self.options.seed
            if self.options.trade_seconds is not None:
                message["trade_seconds"] = self.options.trade_seconds
        self.state.resync = True
        await self._ws.send(json.dumps(message))

    def _receive(self, frame: str | bytes) -> None:
        try:
            message = json.loads(frame)
        except ValueError:
            log.warning("the server sent something that is not JSON")
            return
        if not isinstance(message, dict):
            return
        joining = message.get("re") is not None and message.get("re") == self._join_id
        if message.get("type") == "error" and joining:
            self._join_refused(message)
            return
        if message.get("type") == "error" and self._resend(message):
            return
        self.state.handle(message)
        if message.get("type") == "welcome" and message.get("token") and self.tokens:
            self.tokens.save(self.key, str(message["token"]), message.get("seat"))
        self._changed()

    def _resend(self, error: dict[str, Any]) -> bool:
        """Another seat acted first (a keep, an answer): send our choice again for the
        newest prompt if it is still legal there. True if it went out again."""
        re = error.get("re")
        sent = self._sent.pop(re, None) if isinstance(re, int) else None
        if sent is None or error.get("code") != "stale_version":
            return False
        action, tries = sent
        legal = self.state.legal
        still = action in legal or (action.get("kind") == "propose"
                                    and any(a.get("kind") == "propose" for a in legal))
        if not still or tries >= RESEND_TRIES or self._ws is None:
            return False
        version = (self.state.prompt or {}).get("version", self.state.version)
        message = {"type": "action", "id": next(self._ids), "version": version,
                   "action": action}
        self._sent[message["id"]] = (action, tries + 1)
        self._background(self._ws.send(json.dumps(message)))
        return True

    def _join_refused(self, message: dict[str, Any]) -> None:
        code = str(message.get("code"))
        if code == "bad_token":
            # The server no longer knows the seat (a new database?): join afresh.
            self.state.token = None
            if self.tokens is not None:
                self.tokens.forget(self.key)
            self.state.note("the server did not know our seat any more; joining afresh",
                            error=False)
            if self._ws is not None:
                self._background(self._join())
            return
        # Joining again would be refused again: stop and say why.
        self.state.handle(message)
        hint = " (watch it with --spectate)" if code == "table_full" else ""
        self.state.fatal = f"the server refused to seat us: {code}: {message.get('message')}{hint}"
        self.state.note(self.state.fatal)
        if self._ws is not None:
            self._background(self._ws.close())
        self._changed()

    def _closed(self, code: int | None, reason: str | None) -> None:
        if code == SEAT_TAKEN:
            self.state.fatal = reason or "another client took this seat"
            self.state.note(f"disconnected: {self.state.fatal}")
        elif not self._stopped:
            why = f"{code} {reason}" if reason else str(code)
            self.state.note(f"the server closed the connection ({why}); reconnecting",
                            error=False)

    def _background(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _changed(self) -> None:
        with contextlib.suppress(Exception):
            self.on_change()
