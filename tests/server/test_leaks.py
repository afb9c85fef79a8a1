"""No frame the server sends ever tells a seat another seat's secrets.

Every outbound frame of a live server is recorded (``TyrosServer.deliver`` is
wrapped: it sees each message, and whom it is for, as the session hands it to
the sockets) over fifty-odd whole games of random bots, some with spectators.
Each frame is checked as it goes out: the hand and tiles in a view are the
receiver's own (checked afterwards against the stored games, replayed), no
event carries another seat's cards or tiles, no shuffle order or seed is ever
sent, and no seat token appears anywhere but in the welcome of the connection
it was issued to.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import pytest
from tyros_protocol.board import BOARD
from tyros_protocol.cards import counts_from_names
from tyros_rules import GameState, Options, new_game, parse_action, push
from tyros_server import app
from tyros_server.app import TyrosServer
from tyros_server.session import Connection, Limits, Output, Send
from websockets.asyncio.server import ServerConnection, broadcast

from .conftest import (
    GAME_TIMEOUT,
    RawClient,
    ServerFactory,
    cancel_all,
    finish,
    light_bot,
    private_fields_for_others,
    url_of,
    wait_for,
)

FOUR_PLAYER_TABLES = 25
THREE_PLAYER_TABLES = 25
WATCHED_TABLES = 6
"""Tables that also have a spectator from (nearly) the start."""

TOKEN_LIKE = re.compile(r"[A-Za-z0-9_-]{43,}")
"""A run of URL-safe base64 as long as a token (``secrets.token_urlsafe(32)``)..."""
_TOKEN_CHARS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_MARK_TOKEN_CHARS = bytes(ord("a") if c in _TOKEN_CHARS else ord(" ") for c in range(256))
_TOKEN_RUN = b"a" * 43
"""...found cheaply: mark token characters, look for 43 in a row, only then use the regex."""
SECRET_KEYS = ('"order"', '"seed"', '"token_digest"', '"digest"', '"rng"')


@dataclass
class Recorder:
    """Checks every outbound frame: each message as the session hands it to the sockets
    (:meth:`TyrosServer.deliver`), and each text frame as it goes out on a socket.

    Only what needs the replay is kept.
    """

    server: TyrosServer | None = None
    messages: int = 0
    frames: int = 0
    updates: int = 0
    spectator_updates: int = 0
    problems: list[str] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)
    """Every token issued, and the connection it was issued to."""
    shown: dict[tuple[str, int], list[tuple[int, list[str], list[str]]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    """(table, seat) -> (version, hand, tiles) of every update sent to that seat."""
    conn_of: dict[ServerConnection, int] = field(default_factory=dict)

    def problem(self, text: str) -> None:
        if len(self.problems) < 50:
            self.problems.append(text)

    def record(self, server: TyrosServer, output: Output) -> None:
        self.server = server
        for item in output:
            if isinstance(item, Send):
                self.check_message(server, item.conn, item.message)

    def check_message(self, server: TyrosServer, conn: int, message: dict[str, Any]) -> None:
        self.messages += 1
        kind = message.get("type")
        info = server.session.conns.get(conn)
        seat = info.seat if info is not None and not info.spectator else None
        table = info.table if info is not None else None
        where = f"message {self.messages} ({kind}) to connection {conn} (seat {seat})"

        if kind == "welcome" and message.get("token") is not None:
            if message["token"] in self.tokens:
                self.problem(f"{where}: token issued twice")
            self.tokens[message["token"]] = conn
        if kind != "update":
            return
        if info is None or table is None:
            self.problem(f"{where}: an update for a connection that is not at a table")
            return
        self.updates += 1
        shown = message["view"]
        if shown.get("viewer") != seat:
            self.problem(f"{where}: the view is built for {shown.get('viewer')}")
        if seat is None:
            self.spectator_updates += 1
            if "hand" in shown or "tiles" in shown:
                self.problem(f"{where}: a spectator was shown a hand or tiles")
            if message.get("prompt") is not None:
                self.problem(f"{where}: a spectator was prompted")
        else:
            if not isinstance(shown.get("hand"), list) or not isinstance(shown.get("tiles"), list):
                self.problem(f"{where}: a seat's view lacks its hand or tiles")
            else:
                self.shown[(table, seat)].append(
                    (message["version"], list(shown["hand"]), list(shown["tiles"]))
                )
            if message.get("prompt") is not None and seat not in shown["to_act"]:
                self.problem(f"{where}: prompted while not to act")
        for event in message["events"]:
            for leaked in private_fields_for_others(event, seat):
                self.problem(f"{where}: event {event} shows {leaked}")

    def check_frame(self, ws: ServerConnection, frame: Any) -> None:
        """The text that actually goes out on a socket."""
        self.frames += 1
        conn = self.conn_of.get(ws)
        if conn is None and self.server is not None:
            self.conn_of.update({peer.ws: c for c, peer in self.server.peers.items()})
            conn = self.conn_of.get(ws)
        where = f"frame {self.frames} to connection {conn}"
        if not isinstance(frame, str):
            self.problem(f"{where} is not a text frame")
            return
        for key in SECRET_KEYS:
            if key in _without_revealed_seeds(frame):
                self.problem(f"{where} holds the key {key}")
        if _TOKEN_RUN not in frame.encode().translate(_MARK_TOKEN_CHARS):
            return
        welcome = frame.startswith('{"type":"welcome"')
        for run in TOKEN_LIKE.findall(frame):
            for token, owner in self.tokens.items():
                if token in run and not (welcome and owner == conn and run == token):
                    self.problem(f"{where} carries the token of connection {owner}")


def _without_revealed_seeds(frame: str) -> str:
    """The frame less the seeds of finished tables: revealed on purpose, once nothing is
    left to hide (the fair-deal commitment's proof); any other seed is a leak."""
    if '"seed"' not in frame:
        return frame
    message = json.loads(frame)
    infos = {"table": [message.get("table")], "tables": message.get("tables")}.get(
        message.get("type"), []
    )
    for info in infos or []:
        if isinstance(info, dict) and info.get("finished"):
            info.pop("seed", None)
    return json.dumps(message, separators=(",", ":"))


def holdings(state: GameState) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each seat's (card counts, sorted tile ids): the secrets a view may show its owner."""
    return [
        (tuple(state.hands[seat]), tuple(sorted(state.tiles[seat])))
        for seat in range(state.players)
    ]


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recording = Recorder()
    # The originals (app's broadcast is websockets' own, imported there).
    deliver, send = TyrosServer.deliver, ServerConnection.send

    def delivering(self: TyrosServer, output: Output) -> None:
        recording.record(self, output)
        deliver(self, output)

    async def sending(self: ServerConnection, message: Any, *args: Any, **kwargs: Any) -> None:
        recording.check_frame(self, message)
        await send(self, message, *args, **kwargs)

    def broadcasting(connections: Any, message: Any, *args: Any, **kwargs: Any) -> None:
        connections = list(connections)
        for ws in connections:
            recording.check_frame(ws, message)
        broadcast(connections, message, *args, **kwargs)

    monkeypatch.setattr(TyrosServer, "deliver", delivering)
    monkeypatch.setattr(ServerConnection, "send", sending)
    # The server writes its frames with websockets' broadcast (one socket at a time).
    monkeypatch.setattr(app, "broadcast", broadcasting)
    return recording


async def watch(
    open_client: Callable[..., Awaitable[RawClient]], server: TyrosServer, table: str
) -> dict[str, Any]:
    """Spectate ``table`` to its end; returns the final score sheet."""
    await wait_for(lambda: table in server.session.tables, what=f"table {table}")
    client = await open_client(url_of(server))
    welcome = await client.hello(table, "watcher", spectate=True)
    assert welcome["type"] == "welcome", welcome
    while True:
        message = await client.recv(GAME_TIMEOUT)
        if message["type"] == "update" and message["view"]["phase"] == "over":
            score: dict[str, Any] = message["view"]["score"]
            return score


async def test_no_frame_shows_a_seat_anything_of_another_seat(
    make_server: ServerFactory,
    recorder: Recorder,
    open_client: Callable[..., Awaitable[RawClient]],
) -> None:
    # Every table and bot is on one address here: more than a server allows one by default.
    server = await make_server(
        max_per_address=256,
        limits=Limits(tables_per_minute=1000, address_per_second=None, tables_per_address=1000),
    )
    url = url_of(server)
    rng = random.Random(1)
    tables = [(f"four-{t}", 4, "first", 1000 + t) for t in range(FOUR_PLAYER_TABLES)]
    tables += [
        (f"three-{t}", 3, "variable" if t % 2 else "first", 2000 + t)
        for t in range(THREE_PLAYER_TABLES)
    ]
    bots = [
        asyncio.create_task(
            light_bot(
                url,
                table,
                f"{table}-{i}",
                players,
                random.Random(rng.random()),
                setup=setup,
                seed=seed,
            )
        )
        for table, players, setup, seed in tables
        for i in range(players)
    ]
    watched = [tables[i][0] for i in range(0, len(tables), len(tables) // WATCHED_TABLES)]
    watchers = [asyncio.create_task(watch(open_client, server, table)) for table in watched]
    try:
        scores = await finish(bots, 4 * GAME_TIMEOUT)
        watched_scores = await asyncio.wait_for(asyncio.gather(*watchers), GAME_TIMEOUT)
    finally:
        await cancel_all(bots)
        for task in watchers:
            task.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)

    assert recorder.problems == []
    assert 0 < recorder.frames <= recorder.messages
    # Every game ended, and every seat (and spectator) saw the same score sheet.
    at = 0
    by_table: dict[str, dict[str, Any]] = {}
    for table, players, _, _ in tables:
        table_scores = scores[at : at + players]
        at += players
        assert all(s == table_scores[0] for s in table_scores)
        by_table[table] = table_scores[0]
    for table, score in zip(watched, watched_scores, strict=True):
        assert score == by_table[table]
    assert recorder.spectator_updates > 0

    # One token per seat, each sent to that seat alone (checked as the frames left).
    assert len(recorder.tokens) == sum(players for _, players, _, _ in tables)

    # The hand and tiles in each update are the receiver's own at that version.
    checked = 0
    for table in by_table:
        stored = server.store.load_table(table)
        assert stored is not None and stored.finished
        state = new_game(Options(**stored.options))
        wanted: dict[int, list[tuple[int, list[str], list[str]]]] = defaultdict(list)
        for seat in range(state.players):
            for version, hand, tiles in recorder.shown[(table, seat)]:
                wanted[version].append((seat, hand, tiles))
        for index in range(len(stored.actions) + 1):
            for seat, hand, tiles in wanted.get(state.version, []):
                holds = holdings(state)
                shown = (counts_from_names(hand), tuple(sorted(map(BOARD.parse_space, tiles))))
                assert shown == holds[seat], (
                    f"table {table}, version {state.version}: seat {seat} was shown {shown}; "
                    f"the seats hold {holds}"
                )
                checked += 1
            if index < len(stored.actions):
                acting, action = stored.actions[index]
                push(state, acting, parse_action(action, BOARD))
        assert state.score == by_table[table]
    assert checked == sum(len(v) for v in recorder.shown.values())
    assert checked > 1000


def test_the_recorder_notices_leaks() -> None:
    """The checks above are not vacuous: each kind of leak is reported."""
    conns = {
        1: Connection("127.0.0.1", table="t", seat=0),
        2: Connection("127.0.0.1", table="t", spectator=True),
    }
    server = cast(TyrosServer, SimpleNamespace(session=SimpleNamespace(conns=conns), peers={}))
    recording = Recorder()
    token = "A" * 43

    def update(viewer: int | None, **view: Any) -> dict[str, Any]:
        return {
            "type": "update",
            "version": 3,
            "events": view.pop("events", []),
            "view": {"viewer": viewer, "to_act": [1], **view},
            "prompt": None,
        }

    recording.record(
        server,
        [
            Send(1, {"type": "welcome", "token": token}),
            Send(
                1,
                update(
                    0,
                    hand=[],
                    tiles=[],
                    events=[{"type": "cards_drawn", "seat": 1, "count": 1, "cards": ["wild"]}],
                ),
            ),
            Send(
                1,
                update(
                    0,
                    hand=[],
                    tiles=[],
                    events=[
                        {"type": "action", "seat": 2, "action": {"kind": "keep", "cards": ["wild"]}}
                    ],
                ),
            ),
            Send(2, update(None, hand=["wild"])),
            Send(1, {**update(0, hand=[], tiles=[]), "prompt": {"version": 3, "legal": []}}),
        ],
    )
    recording.check_frame(
        cast(ServerConnection, object()), json.dumps({"type": "table", "name": token})
    )
    recording.check_frame(
        cast(ServerConnection, object()), json.dumps({"type": "update", "events": [{"order": []}]})
    )
    found = "\n".join(recording.problems)
    assert len(recording.problems) == 6, found
    for needle in (
        "cards_drawn.cards",
        "keep.cards",
        "spectator was shown",
        "prompted while not to act",
        "carries the token",
        '"order"',
    ):
        assert needle in found
    assert recording.shown[("t", 0)] == [(3, [], [])] * 3
