"""One live server for the hostile-input tests: a :class:`TyrosServer` on its own event loop
thread hosting a 4-seat game, and how one input is sent to it and its answer checked."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import event
from pydantic import ValidationError
from tyros_protocol.board import BOARD
from tyros_protocol.errors import ErrorCode
from tyros_protocol.messages import parse_client_message
from tyros_rules import (
    IllegalActionError,
    Kind,
    Phase,
    action_to_json,
    check_action,
    legal_actions,
    parse_action,
    seats_to_act,
)
from tyros_server.app import MAX_MESSAGE_BYTES, ServerConfig, TyrosServer
from tyros_server.session import Limits
from tyros_server.wire import RepeatedKey, decode_frame
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

T = TypeVar("T")
TABLE = "fuzzed"
CODES = {code.value for code in ErrorCode}
TIMEOUT = 10.0


class LiveServer:
    """A :class:`TyrosServer` on its own event loop thread, and the game it hosts."""

    def __init__(self, db: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(
            target=self.loop.run_forever, name="tyros-fuzz-server", daemon=True
        )
        self.thread.start()
        self.server: TyrosServer = self.call(self._start(db))
        self.url = f"ws://127.0.0.1:{self.server.port}"
        self.seats: list[ClientConnection] = []
        self.tokens: list[str] = []
        self.clients = contextlib.ExitStack()

    async def _start(self, db: Path) -> TyrosServer:
        # No rate limit: every input must reach the parser.
        server = TyrosServer(
            ServerConfig(
                host="127.0.0.1",
                port=0,
                db=str(db),
                limits=Limits(burst=10**9, per_second=1e9),
                # Every example opens its own connection, and a closed one may still be
                # counted for a moment while the server finishes with it.
                connections_per_second=None,
                max_per_address=512,
                allow_seed=True,
            )
        )
        await server.start()
        return server

    def call(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(TIMEOUT)

    def run(self, function: Callable[[], T]) -> T:
        """Run ``function`` on the server's thread (where the session lives)."""

        async def inside() -> T:
            return function()

        return self.call(inside())

    def fingerprint(self) -> tuple[Any, ...]:
        def read() -> tuple[Any, ...]:
            state = self.server.session.tables[TABLE].state
            assert state is not None
            stored = self.server.store.load_table(TABLE)
            assert stored is not None
            return (state.fingerprint(), len(state.log or []), len(stored.actions))

        return self.run(read)

    def close(self) -> None:
        try:
            self.clients.close()
            self.call(self.server.stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(TIMEOUT)
            if not self.thread.is_alive():
                self.loop.close()


def open_ws(url: str) -> ClientConnection:
    return connect(url, compression=None, open_timeout=TIMEOUT, max_size=2**23)


def reply_to(ws: ClientConnection) -> dict[str, Any]:
    """The next message that is not a table announcement (spectators come and go)."""
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
        if message["type"] != "table":
            return message


def advance_to_card_actions(live: LiveServer) -> None:
    """Play the first legal non-trade action until the card-action phase, then stop there."""

    def to_act() -> tuple[int, int, dict[str, Any]] | None:
        state = live.server.session.tables[TABLE].state
        assert state is not None
        if state.phase == Phase.ACTIONS and state.version >= 4:
            return None
        seat = seats_to_act(state)[0]
        action = next(a for a in legal_actions(state, seat) if a[0] != Kind.PROPOSE)
        return seat, state.version, action_to_json(action, BOARD)

    while (step := live.run(to_act)) is not None:
        seat, version, action = step
        ws = live.seats[seat]
        ws.send(json.dumps({"type": "action", "id": 9, "version": version, "action": action}))
        while (message := json.loads(ws.recv(timeout=TIMEOUT)))["type"] != "accepted":
            assert message["type"] != "error", message
    # Let every seat read what the game sent so far (each is sent an update for every
    # version, the last one included): from now on only answers arrive.
    version, _ = current(live)
    for ws in live.seats:
        while True:
            message = json.loads(ws.recv(timeout=TIMEOUT))
            if message["type"] == "update" and message["version"] == version:
                break


def current(live: LiveServer) -> tuple[int, int]:
    """(version, the seat to act) of the fuzzed game."""

    def read() -> tuple[int, int]:
        state = live.server.session.tables[TABLE].state
        assert state is not None
        return state.version, seats_to_act(state)[0]

    return live.run(read)


# Sending one input and checking the answer -------------------------------------------------


def expected_re(raw: Any) -> int | None:
    """The ``re`` of an error: the message's id if it is a plain non-negative int."""
    if isinstance(raw, dict):
        re_ = raw.get("id")
        if type(re_) is int and 0 <= re_ <= 2**53:
            return re_
    return None


def classify(frame: str) -> tuple[str | None, Any]:
    """(the error code the schema layer must give, the decoded value) for a text frame.

    The code is None when the frame is a valid client message.
    """
    try:
        raw = decode_frame(frame)
    except RepeatedKey:
        return "bad_message", None
    except (ValueError, RecursionError):
        return "bad_json", None
    try:
        parse_client_message(frame)
    except (ValidationError, RecursionError):
        return "bad_message", raw
    return None, raw


def legal_for(live: LiveServer, seat: int, message: Any) -> bool:
    """Whether ``message`` is an action the seat may take now (it would change the game)."""
    if not isinstance(message, dict) or message.get("type") != "action":
        return False

    def check() -> bool:
        state = live.server.session.tables[TABLE].state
        assert state is not None
        if message.get("version") != state.version:
            return False
        try:
            check_action(state, seat, parse_action(message["action"], BOARD))
        except (IllegalActionError, KeyError, TypeError):
            return False
        return True

    return live.run(check)


def send_and_check(live: LiveServer, frame: str | bytes, sender: int | None) -> None:
    """Send one frame from a fresh connection (``sender`` None) or a seated player's own.

    The answer must be a typed error, a legitimate reply to a valid message, or (frames
    over 64 KiB) a close with code 1009. The game must not change.
    """
    before = live.fingerprint()
    size = len(frame.encode() if isinstance(frame, str) else frame)
    if size > MAX_MESSAGE_BYTES:
        sender = None  # the connection will be closed: not a seated player's
    with contextlib.ExitStack() as stack:
        ws = live.seats[sender] if sender is not None else stack.enter_context(open_ws(live.url))
        ws.send(frame)
        if size > MAX_MESSAGE_BYTES:
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=TIMEOUT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
            event("answer: closed with 1009")
        else:
            reply = reply_to(ws)
            event(f"answer: {reply.get('code', reply['type'])}")
            check_reply(frame, reply, seated=sender is not None)
    assert live.fingerprint() == before


def check_reply(frame: str | bytes, reply: dict[str, Any], *, seated: bool) -> None:
    if isinstance(frame, bytes):
        assert (reply["type"], reply["code"], reply["re"]) == ("error", "binary_frame", None)
        return
    code, raw = classify(frame)
    if code is not None:
        assert reply == {
            "type": "error",
            "re": expected_re(raw),
            "code": code,
            "message": reply["message"],
        }, (frame[:300], reply)
        assert isinstance(reply["message"], str) and len(reply["message"]) < 2000
        return
    # A valid message: a legitimate answer, or a typed refusal.
    kind = raw["type"]
    if reply["type"] == "error":
        assert reply["code"] in CODES and reply["re"] == raw.get("id"), reply
        if seated and kind in ("hello", "resume"):
            assert reply["code"] == "already_joined"
        if not seated and kind == "action":
            assert reply["code"] == "hello_first"
    else:
        assert (kind, reply["type"]) in {
            ("list_tables", "tables"),
            ("hello", "welcome"),
            ("resume", "welcome"),
        }, (raw, reply)
