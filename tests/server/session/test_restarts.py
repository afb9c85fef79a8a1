"""The sans-I/O session. Restarts and storage failures: every unfinished game resumes; a failing
store changes nothing; the seed is committed and revealed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tyros_protocol.errors import ErrorCode
from tyros_rules import (
    Phase,
    view,
)
from tyros_server.session import Close, Send, Session
from tyros_server.storage import StorageError, Store

from ..harness import (
    FakeClock,
    Harness,
    chance_state,
    first,
    only_error,
    snapshot,
)
from .play import play_to_end, play_until_proposal


def test_a_restarted_session_resumes_every_unfinished_game(
    make_harness: Callable[..., Harness],
) -> None:
    first_run = make_harness()
    seated = first_run.join("crash", 4, seed=31, trade_seconds=20)
    waiting = first_run.connect()
    first_run.hello(waiting, "lobby", "Solo", players=3)
    conns = [s.conn for s in seated]
    rng = random.Random(31)
    for _ in range(60):
        first_run.play_one(conns, rng)
    old_state = first_run.state("crash")
    old_views = {seat: view(old_state, seat) for seat in (0, 1, 2, 3, None)}
    old_chance = chance_state(old_state)
    old_snapshot = snapshot(old_state)

    # A crash: a new session on the same file (the old one is simply abandoned).
    second_run = make_harness(clock=FakeClock(5.0))
    assert set(second_run.session.tables) == {"crash", "lobby"}
    state = second_run.state("crash")
    assert state.version == old_state.version == 60
    assert state.fingerprint() == old_state.fingerprint()
    assert chance_state(state) == old_chance
    assert snapshot(state) == old_snapshot
    for seat, seen in old_views.items():
        assert view(state, seat) == seen
    lobby = second_run.session.tables["lobby"]
    assert lobby.state is None and [slot.name for slot in lobby.seats] == ["Solo"]
    [info] = [
        t for t in second_run.list_tables(second_run.connect())["tables"] if t["name"] == "crash"
    ]
    assert info["started"] is True
    assert not any(seat["connected"] for seat in info["seats"])

    # Everyone resumes with the old tokens and sees the same game.
    new_conns = []
    for s in seated:
        conn = second_run.connect()
        out = second_run.resume(conn, s.token)
        assert first(out, conn, "welcome")["seat"] == s.seat
        update = first(out, conn, "update")
        assert update["view"] == old_views[s.seat]
        assert update["version"] == 60
        new_conns.append(conn)
    # The half-full table still fills and starts.
    for name in ("Two", "Three"):
        second_run.hello(second_run.connect(), "lobby", name)
    assert second_run.session.tables["lobby"].state is not None
    # And the game ends through the new session.
    play_to_end(second_run, new_conns, rng, "crash")
    stored = second_run.store.load_table("crash")
    assert stored is not None and stored.finished
    assert len(stored.actions) == state.version
    third = make_harness()
    assert "crash" not in third.session.tables


def test_a_restart_during_a_trade_restarts_its_deadline(
    make_harness: Callable[..., Harness],
) -> None:
    first_run = make_harness()
    seated = first_run.join("t", 3, seed=9, trade_seconds=30)
    _, proposal, _ = play_until_proposal(first_run, [s.conn for s in seated], random.Random(9))
    version = first_run.state("t").version
    clock = FakeClock(50.0)
    second_run = make_harness(clock=clock)
    state = second_run.state("t")
    assert state.phase == Phase.TRADE and state.version == version
    assert second_run.session.next_deadline() == pytest.approx(80.0)
    clock.advance(30)
    second_run.tick()
    assert state.version == version + len(proposal["to"])


def test_a_failing_store_leaves_the_state_unchanged(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    seated = harness.join("t", 3, seed=14)
    conns = [s.conn for s in seated]
    rng = random.Random(14)
    for _ in range(4):
        harness.play_one(conns, rng)
    state = harness.state("t")
    [conn, *_] = harness.prompted(conns)
    action = harness.latest[conn]["prompt"]["legal"][0]
    before = snapshot(state)
    stored_before = harness.store.load_table("t")

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise StorageError("disk full")

    monkeypatch.setattr(harness.store, "append_action", refuse)
    only_error(harness.act(conn, action, state.version, id_=66), conn, ErrorCode.INTERNAL, 66)
    assert snapshot(state) == before
    assert harness.store.load_table("t") == stored_before
    monkeypatch.undo()
    # The store works again: the same action goes through.
    out = harness.act(conn, action, state.version, id_=67)
    assert first(out, conn, "accepted") == {
        "type": "accepted",
        "re": 67,
        "version": before[0][2] + 1,
    }


def test_a_failing_store_refuses_a_seat(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    a = harness.connect()
    harness.hello(a, "t", "A", players=3)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise StorageError("disk full")

    monkeypatch.setattr(harness.store, "add_seat", refuse)
    b = harness.connect()
    out = harness.send(b, {"type": "hello", "id": 4, "protocol": 1, "name": "B", "table": "t"})
    only_error(out, b, ErrorCode.INTERNAL, 4)
    assert len(harness.session.tables["t"].seats) == 1
    assert harness.session.conns[b].table is None


def test_a_connection_that_never_says_hello_is_closed_on_time(tmp_path: Path) -> None:
    clock = FakeClock()
    store = Store(str(tmp_path / "h.db"))
    session = Session(store, clock=clock, hello_seconds=30, wall_clock=lambda: 1234.0)
    try:
        session.connect(1, "127.0.0.1")
        clock.advance(10)
        session.connect(2, "127.0.0.1")
        assert session.next_deadline() == pytest.approx(clock.now - 10 + 30)
        session.receive(
            2,
            json.dumps(
                {"type": "hello", "id": 1, "protocol": 1, "name": "A", "table": "t", "players": 3}
            ),
        )
        session.data_to_send()
        clock.advance(19.9)
        session.tick()
        assert session.data_to_send() == []
        clock.advance(0.2)
        session.tick()
        assert session.data_to_send() == [Close(1, 1008, "say hello sooner")]
        session.tick()
        assert session.data_to_send() == []  # asked once
        assert session.next_deadline() is None  # the seated connection has no deadline
        stored = store.load_table("t")
        assert stored is not None
    finally:
        store.close()


def test_a_seed_is_refused_unless_the_server_allows_seeds(tmp_path: Path) -> None:
    """Whoever chooses the seed knows every hand: a shared server deals its own games."""
    store = Store(str(tmp_path / "s.db"))
    session = Session(store)
    try:
        session.connect(1, "127.0.0.1")
        hello = {"type": "hello", "id": 5, "protocol": 1, "name": "A", "table": "t", "players": 3}
        session.receive(1, json.dumps({**hello, "seed": 424242}))
        out = session.data_to_send()
        assert [
            (o.message["type"], o.message["code"], o.message["re"])
            for o in out
            if isinstance(o, Send)
        ] == [("error", "seed_not_allowed", 5)]
        assert "t" not in session.tables and store.load_table("t") is None
        session.receive(1, json.dumps(hello))
        welcome = session.data_to_send()
        assert any(isinstance(o, Send) and o.message["type"] == "welcome" for o in welcome)
        seeds = {session.tables["t"].options.seed for _ in range(1)}
        assert seeds != {424242}
    finally:
        store.close()


def test_the_seed_is_committed_at_the_start_and_revealed_at_the_end(harness: Harness) -> None:
    from tyros_server.fairness import seed_commitment

    seated = harness.join("fair", 3, seed=5)
    table = harness.session.tables["fair"]
    info = harness.session.outbox.table_info(table)
    assert info["commitment"] == seed_commitment(table.options.seed, table.salt)
    assert "seed" not in info and "salt" not in info and len(table.salt) == 32
    play_to_end(harness, [s.conn for s in seated], random.Random(4), "fair")
    revealed = harness.session.outbox.table_info(table)
    assert (revealed["seed"], revealed["salt"]) == (5, table.salt)
    assert seed_commitment(revealed["seed"], revealed["salt"]) == info["commitment"]
