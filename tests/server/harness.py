"""The sans-I/O session's test harness: a :class:`Harness` drives a :class:`Session` on a
SQLite file with a fake clock, and validates every outbound message against the protocol's
``SERVER_ADAPTER`` (after a trip through JSON, as on the wire); each ``update``'s prompt
must be present exactly for the seats in ``view.to_act``. The fixtures ``harness`` and
``make_harness`` are in ``conftest.py``."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.basics import Model
from tyros_protocol.errors import ErrorCode
from tyros_protocol.messages import ACTION_ADAPTER, SERVER_ADAPTER, Act, Hello, Resume
from tyros_rules import (
    Action,
)
from tyros_rules.state import GameState
from tyros_server.deputies import Advice, Decision, TakeoverPolicy
from tyros_server.records import StoreReader
from tyros_server.session import Close, Limits, Output, Send, Session
from tyros_server.session.archive import RecordJob
from tyros_server.storage import Store
from tyros_server.wire import Encoder

TOKEN = re.compile(r"^[A-Za-z0-9_-]{43}$")
MAX_STEPS = 5000
"""Random games take well under a thousand actions; this only catches a game that never ends."""


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def check_output(out: Output) -> Output:
    """Every outbound message must be valid protocol, on the wire as in Python."""
    assert isinstance(out, list)
    encoder = Encoder()  # the server's encoding of a delivery: the same text as json's
    for item in out:
        if isinstance(item, Send):
            assert encoder.encode(item.message) == json.dumps(item.message, separators=(",", ":"))
    for item in out:
        if isinstance(item, Close):
            assert isinstance(item.code, int) and 1000 <= item.code < 5000
            assert len(item.reason.encode()) <= 123  # the websocket limit for a close reason
            continue
        assert isinstance(item, Send), item
        wire = json.dumps(item.message)
        parsed = SERVER_ADAPTER.validate_json(wire)
        assert parsed.type == item.message["type"]
        message = item.message
        if message["type"] == "update":
            seen = message["view"]
            assert message["version"] == seen["version"]
            viewer = seen["viewer"]
            must_act = viewer is not None and viewer in seen["to_act"]
            assert (message.get("prompt") is not None) == must_act, (viewer, seen["to_act"])
            if must_act:
                prompt = message["prompt"]
                assert prompt["version"] == message["version"]
                assert prompt["legal"], "a prompt with nothing to do"
            if viewer is None:
                assert "hand" not in seen and "tiles" not in seen
            else:
                assert seen.get("hand") is not None and seen.get("tiles") is not None
    return out


class Harness:
    """A session on a SQLite file, with a fake clock; every output goes through check_output."""

    def __init__(
        self,
        path: Path,
        *,
        clock: FakeClock | None = None,
        limits: Limits | None = None,
        takeover: TakeoverPolicy | None = None,
        levels: Callable[[str], TakeoverPolicy] | None = None,
    ) -> None:
        self.path = path
        self.clock = clock or FakeClock()
        self.store = Store(str(path))
        self.session = Session(
            self.store,
            limits=limits,
            clock=self.clock,
            takeover=takeover,
            allow_seed=True,
            levels=levels,
        )
        self._conns = itertools.count(1)
        self._ids = itertools.count(100)
        self.latest: dict[int, dict[str, Any]] = {}
        """The latest update each connection received."""
        self.latest_table: dict[int, dict[str, Any]] = {}
        """The latest table info each connection received."""
        self.make_records = True
        """Make the records asked for at once, as the shell's record process would (False:
        they wait in ``session.drain_record_jobs()`` for the test)."""

    def close(self) -> None:
        self.store.close()

    def drained(self) -> Output:
        """What the session has to send now, checked and remembered."""
        return self._record(self.session.data_to_send())

    def _record(self, out: Output) -> Output:
        check_output(out)
        for item in out:
            if isinstance(item, Send) and item.message["type"] == "update":
                self.latest[item.conn] = item.message
            if isinstance(item, Send) and item.message["type"] == "table":
                self.latest_table[item.conn] = item.message["table"]
        return out

    def connect(self, address: str = "127.0.0.1") -> int:
        conn = next(self._conns)
        self.session.connect(conn, address)
        assert self._record(self.session.data_to_send()) == []
        return conn

    def receive(self, conn: int, data: str | bytes) -> Output:
        self.session.receive(conn, data)
        out = self.drained()
        if self.make_records:
            out += self.records_made()
        return out

    def records_made(self) -> Output:
        """Make the records asked for, each read on a store connection of its own (as the
        shell's record process does), and hand them back."""
        return self.records_made_by(self.session.drain_record_jobs())

    def records_made_by(self, jobs: list[RecordJob]) -> Output:
        out: Output = []
        for job in jobs:
            reader = StoreReader(str(self.path))
            try:
                self.session.recorded(job, job.run(reader))
            finally:
                reader.close()
            out += self.drained()
        return out

    def send(self, conn: int, message: dict[str, Any]) -> Output:
        return self.receive(conn, json.dumps(message))

    def disconnect(self, conn: int) -> Output:
        self.latest.pop(conn, None)
        self.session.disconnect(conn)
        return self.drained()

    def decided(self, decision: Decision, action: Action | None) -> Output:
        """A decision made for a seat comes back (see ``Session.decided``)."""
        self.session.decided(decision, action)
        return self.drained()

    def tick(self) -> Output:
        """What time triggers now, with every decision it asks for made at once (the
        shell makes them off the event loop) and what those make due in turn."""
        self.session.tick()
        out = self.drained()
        for _ in range(MAX_STEPS):
            jobs = self.session.drain_jobs()
            if not jobs:
                break
            for job in jobs:
                if isinstance(job, Decision):
                    self.session.decided(job, job.run())
                    out += self.drained()
                elif isinstance(job, Advice):
                    self.session.advised(job, job.run())
                    out += self.drained()
                else:
                    job.run()
            self.session.tick()
            out += self.drained()
        return out

    def next_id(self) -> int:
        return next(self._ids)

    # Conveniences --------------------------------------------------------------------

    def hello(self, conn: int, table: str, name: str, **options: Any) -> Output:
        return self.send_model(
            conn,
            Hello(id=self.next_id(), protocol=PROTOCOL_VERSION, name=name, table=table, **options),
        )

    def resume(self, conn: int, token: str) -> Output:
        return self.send_model(
            conn, Resume(id=self.next_id(), protocol=PROTOCOL_VERSION, token=token)
        )

    def act(
        self, conn: int, action: dict[str, Any], version: int | None = None, id_: int | None = None
    ) -> Output:
        if version is None:
            version = self.state_of_conn(conn).version
        msg_id = self.next_id() if id_ is None else id_
        try:
            parsed = ACTION_ADAPTER.validate_python(action, by_alias=True, by_name=False)
        except ValidationError:  # a probe of what the protocol refuses goes as written
            message = {"type": "action", "id": msg_id, "version": version, "action": action}
            return self.send(conn, message)
        return self.send_model(conn, Act(id=msg_id, version=version, action=parsed))

    def send_model(self, conn: int, message: Model) -> Output:
        """A message built from the protocol's models (what it was given, as on the wire)."""
        given = message.model_fields_set | {"type"}
        dumped = message.model_dump(mode="json", by_alias=True)
        return self.send(conn, {key: value for key, value in dumped.items() if key in given})

    def list_tables(self, conn: int) -> dict[str, Any]:
        out = self.send(conn, {"type": "list_tables", "id": 7})
        [message] = to(out, conn)
        assert message["type"] == "tables" and message["re"] == 7
        return message

    def state(self, table: str) -> GameState:
        state = self.session.tables[table].state
        assert state is not None
        return state

    def state_of_conn(self, conn: int) -> GameState:
        table = self.session.conns[conn].table
        assert table is not None
        return self.state(table)

    def join(self, table: str, players: int, **options: Any) -> list[Seated]:
        """Fill every seat of a new table, one connection per seat (seeded: deterministic)."""
        options.setdefault("seed", 0)
        seated = []
        for seat in range(players):
            conn = self.connect()
            out = self.hello(conn, table, f"P{seat}", players=players, **options)
            welcome = first(out, conn, "welcome")
            assert welcome["seat"] == seat
            seated.append(Seated(conn, seat, welcome["token"]))
        return seated

    def prompted(self, conns: list[int]) -> list[int]:
        """The connections whose latest update carries a prompt, in the order given."""
        return [c for c in conns if (u := self.latest.get(c)) and u.get("prompt")]

    def play_one(
        self,
        conns: list[int],
        rng: random.Random,
        choose: Callable[[int, list[dict[str, Any]]], dict[str, Any] | None] | None = None,
    ) -> Output:
        """Let the first prompted connection act on its prompt; it must be accepted.

        The clock moves on a little with each action, as it would (the rate limiter).
        """
        self.clock.advance(0.05)
        waiting = self.prompted(conns)
        assert waiting, "nobody has a prompt"
        conn = waiting[0]
        prompt = self.latest[conn]["prompt"]
        action = choose(conn, prompt["legal"]) if choose is not None else None
        if action is None:
            action = rng.choice(prompt["legal"])
        id_ = self.next_id()
        out = self.act(conn, action, prompt["version"], id_=id_)
        accepted = first(out, conn, "accepted")
        assert accepted == {"type": "accepted", "re": id_, "version": prompt["version"] + 1}
        return out


class Seated:
    def __init__(self, conn: int, seat: int, token: str) -> None:
        self.conn, self.seat, self.token = conn, seat, token


def to(out: Output, conn: int, kind: str | None = None) -> list[dict[str, Any]]:
    """The messages sent to ``conn`` (of one type, if given)."""
    return [
        item.message
        for item in out
        if isinstance(item, Send)
        and item.conn == conn
        and (kind is None or item.message["type"] == kind)
    ]


def first(out: Output, conn: int, kind: str) -> dict[str, Any]:
    found = to(out, conn, kind)
    assert found, f"no {kind} for connection {conn} in {out}"
    return found[0]


def only_error(out: Output, conn: int, code: ErrorCode, re_: int | None) -> dict[str, Any]:
    """The output must be exactly one error to ``conn``."""
    assert len(out) == 1, out
    [item] = out
    assert isinstance(item, Send) and item.conn == conn
    assert item.message["type"] == "error"
    assert item.message["code"] == code.value, item.message
    assert item.message["re"] == re_
    assert isinstance(item.message["message"], str) and item.message["message"]
    return item.message


def chance_state(state: GameState) -> Any:
    """What drives the state's future chance outcomes (the engine's RNG or its seed/counter)."""
    rng = getattr(state, "rng", None)
    if rng is not None:
        return rng.getstate()
    return (getattr(state, "seed", None), getattr(state, "chances", None))


def snapshot(state: GameState) -> tuple[Any, ...]:
    return (state.fingerprint(), chance_state(state), len(state.log or []))


def first_legal(table: str, seat: int, seen: dict[str, Any], legal: list[Action]) -> Action:
    return legal[0]
