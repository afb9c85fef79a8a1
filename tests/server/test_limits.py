"""The session's bounds: tables, pages, spectators, message rates, idle and abandoned
things; each limit is reached and refused with its typed error, and nothing else changes."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tyros_protocol.errors import ErrorCode
from tyros_server.session import Close, Limits, Output, Send

from .harness import Harness, first, only_error, to

MakeHarness = Callable[..., Harness]


@pytest.fixture
def make_harness(tmp_path: Path) -> Iterator[MakeHarness]:
    made: list[Harness] = []

    def build(**kwargs: Any) -> Harness:
        made.append(Harness(tmp_path / f"limits-{len(made)}.sqlite", **kwargs))
        return made[-1]

    yield build
    for built in made:
        built.close()


@pytest.fixture
def harness(make_harness: MakeHarness) -> Harness:
    return make_harness()


def hello(
    harness: Harness, table: str, name: str = "Ann", address: str = "10.0.0.1", **kw: Any
) -> tuple[int, Output]:
    conn = harness.connect(address)
    return conn, harness.hello(conn, table, name, **kw)


def refused_and_closed(out: Output, conn: int, code: ErrorCode) -> dict[str, Any]:
    """A limit's refusal: the typed error, then the connection closed (1013), so that it
    holds no place others wait for."""
    [refusal, close] = out
    assert close == Close(conn, 1013, "a limit was reached: try again later")
    assert isinstance(refusal, Send)
    return only_error([refusal], conn, code, refusal.message["re"])


def closes(out: Output) -> list[Close]:
    return [item for item in out if isinstance(item, Close)]


# Tables ---------------------------------------------------------------------------------


def test_unfinished_tables_are_bounded_server_wide(make_harness: MakeHarness) -> None:
    harness = make_harness(limits=Limits(max_open_tables=2))
    for index, address in enumerate(["10.0.0.1", "10.0.0.2"]):
        conn, out = hello(harness, f"t{index}", address=address)
        first(out, conn, "welcome")
    conn, out = hello(harness, "t2", address="10.0.0.3")
    error = refused_and_closed(out, conn, ErrorCode.TOO_MANY_TABLES)
    assert "2 unfinished tables" in error["message"]
    assert sorted(harness.session.tables) == ["t0", "t1"]
    assert not harness.store.has_table("t2")
    # Joining a table that exists is still fine.
    conn, out = hello(harness, "t0", "Bob", address="10.0.0.3")
    assert first(out, conn, "welcome")["seat"] == 1


def test_tables_per_address_per_minute(make_harness: MakeHarness) -> None:
    harness = make_harness(limits=Limits(tables_per_minute=2))
    for name in ("a", "b"):
        conn, out = hello(harness, name)
        first(out, conn, "welcome")
    conn, out = hello(harness, "c")
    error = refused_and_closed(out, conn, ErrorCode.TOO_MANY_TABLES)
    assert "in the last minute" in error["message"]
    other, out = hello(harness, "c", address="10.0.0.9")  # another machine may
    first(out, other, "welcome")
    harness.clock.advance(60.0)
    again, out = hello(harness, "d")
    first(out, again, "welcome")


def test_list_tables_pages_with_a_cursor(make_harness: MakeHarness) -> None:
    harness = make_harness(limits=Limits(list_page=2, tables_per_minute=100))
    names = ["e", "a", "d", "b", "c"]
    for name in names:
        hello(harness, name)
    conn = harness.connect()
    seen, after, pages = [], None, 0
    while True:
        request: dict[str, Any] = {"type": "list_tables", "id": 5, "limit": 100}
        if after is not None:
            request["after"] = after
        [reply] = to(harness.send(conn, request), conn)
        assert reply["type"] == "tables" and len(reply["tables"]) <= 2
        seen += [table["name"] for table in reply["tables"]]
        pages += 1
        after = reply["next"]
        if after is None:
            break
    assert seen == sorted(names) and pages == 3
    # A smaller limit than the server's page is kept; the first page has no cursor before it.
    [reply] = to(harness.send(conn, {"type": "list_tables", "id": 6, "limit": 1}), conn)
    assert [t["name"] for t in reply["tables"]] == ["a"] and reply["next"] == "a"


def test_an_abandoned_table_that_never_started_is_removed(make_harness: MakeHarness) -> None:
    harness = make_harness(limits=Limits(unstarted_table_seconds=100.0))
    gone, _ = hello(harness, "gone")
    hello(harness, "kept", address="10.0.0.2")
    harness.disconnect(gone)
    harness.clock.advance(99.0)
    assert harness.tick() == [] and "gone" in harness.session.tables
    assert harness.session.next_deadline() == harness.clock.now + 1.0
    harness.clock.advance(1.0)
    harness.tick()
    assert "gone" not in harness.session.tables and not harness.store.has_table("gone")
    assert "kept" in harness.session.tables  # somebody is still seated and connected
    # The name is free again, and the old seat's token is forgotten.
    again, out = hello(harness, "gone", "Cy", address="10.0.0.3")
    assert first(out, again, "welcome")["seat"] == 0


def test_a_finished_table_leaves_memory_and_comes_back_when_asked(
    make_harness: MakeHarness,
) -> None:
    harness = make_harness(limits=Limits(finished_memory_seconds=50.0))
    seated = harness.join("done", 3, seed=4)
    conns = [s.conn for s in seated]
    rng = random.Random(4)
    while not harness.session.tables["done"].finished:
        harness.play_one(conns, rng)
    final = harness.state("done").score
    for conn in conns:
        harness.disconnect(conn)
    harness.clock.advance(50.0)
    harness.tick()
    assert "done" not in harness.session.tables
    watcher = harness.connect()
    out = harness.hello(watcher, "done", "Eve", spectate=True)
    assert first(out, watcher, "update")["view"]["score"] == final


def finish_and_leave(harness: Harness, name: str) -> None:
    """A 3-player game at table ``name`` played to its end, then every player gone."""
    seated = harness.join(name, 3, seed=4)
    rng = random.Random(4)
    while not harness.session.tables[name].finished:
        harness.play_one([s.conn for s in seated], rng)
    for s in seated:
        harness.disconnect(s.conn)


def test_finished_tables_in_memory_are_bounded_the_oldest_going_first(
    make_harness: MakeHarness,
) -> None:
    """Each finished table holds its whole game: beyond ``finished_in_memory`` of them
    nobody is at, the oldest leave memory at once (they stay on disk)."""
    harness = make_harness(limits=Limits(finished_in_memory=2))
    for name in ("one", "two", "three"):
        finish_and_leave(harness, name)
        harness.clock.advance(1.0)
    assert harness.session.next_deadline() == harness.clock.now  # over the bound: at once
    harness.tick()
    assert sorted(harness.session.tables) == ["three", "two"]
    assert harness.store.has_table("one")  # still on disk
    assert harness.session.next_deadline() != harness.clock.now


def test_finished_tables_out_of_memory_stay_in_the_lobby_as_they_were(
    make_harness: MakeHarness,
) -> None:
    """A finished table leaving memory keeps its row in the list (its players, its winners:
    there to be found and replayed), the latest ``finished_listed`` of them; asked for, it
    comes back into memory with the same row."""
    harness = make_harness(limits=Limits(finished_in_memory=0, finished_listed=2))
    looker = harness.connect()
    rows = {}
    for name in ("one", "two", "three"):
        finish_and_leave(harness, name)
        (rows[name],) = [r for r in harness.list_tables(looker)["tables"] if r["name"] == name]
        assert rows[name]["finished"] and rows[name]["winners"]
        harness.clock.advance(1.0)
        harness.tick()
        assert name not in harness.session.tables  # out of memory at once (the bound is 0)
    listed = harness.list_tables(looker)["tables"]
    assert sorted(r["name"] for r in listed) == ["three", "two"]  # "one" went first
    assert [r for r in listed if r["name"] == "two"] == [rows["two"]]
    harness.hello(harness.connect(), "two", "Eve", spectate=True)
    assert "two" in harness.session.tables
    assert [r for r in harness.list_tables(looker)["tables"] if r["name"] == "two"] == [
        {**rows["two"], "spectators": 1}
    ]


def test_finished_tables_stay_listed_across_a_restart(tmp_path: Path) -> None:
    """Each game's row is stored as it ends: a restarted server lists the latest
    ``finished_listed`` finished tables as they were with nobody at them (those still in
    memory when it stopped too; a stored row that is not a table's row is left out), and
    brings each back when asked for."""
    limits = Limits(finished_in_memory=1, finished_listed=3)
    before = Harness(tmp_path / "restart.sqlite", limits=limits)
    for name in ("one", "two", "three"):
        finish_and_leave(before, name)
        before.clock.advance(1.0)
        before.tick()
    assert sorted(before.session.tables) == ["three"]  # the others left memory
    listed = before.list_tables(before.connect())["tables"]
    assert [row["name"] for row in listed] == ["one", "three", "two"]
    assert all(row["winners"] and "seed" in row for row in listed)
    before.close()
    with sqlite3.connect(tmp_path / "restart.sqlite") as db:  # a row not one: not listed
        db.execute("""UPDATE tables SET listing = '{"name": "one"}' WHERE name = 'one'""")
    db.close()
    after = Harness(tmp_path / "restart.sqlite", limits=limits)
    try:
        assert after.session.tables == {}
        looker = after.connect()
        assert after.list_tables(looker)["tables"] == listed[1:]
        after.hello(after.connect(), "two", "Eve", spectate=True)
        assert "two" in after.session.tables
        assert [r for r in after.list_tables(looker)["tables"] if r["name"] == "two"] == [
            {**listed[2], "spectators": 1}
        ]
    finally:
        after.close()


# Spectators -------------------------------------------------------------------------------


def test_spectators_are_capped_per_table_and_per_address(make_harness: MakeHarness) -> None:
    harness = make_harness(limits=Limits(spectators_per_table=3, spectators_per_address=2))
    harness.join("show", 3)
    for address in ("10.0.0.1", "10.0.0.1"):
        conn, out = hello(harness, "show", "w", address=address, spectate=True)
        first(out, conn, "welcome")
    conn, out = hello(harness, "show", "w", address="10.0.0.1", spectate=True)
    error = refused_and_closed(out, conn, ErrorCode.TOO_MANY_SPECTATORS)
    assert "your address" in error["message"]
    conn, out = hello(harness, "show", "w", address="10.0.0.2", spectate=True)
    first(out, conn, "welcome")
    conn, out = hello(harness, "show", "w", address="10.0.0.3", spectate=True)
    error = refused_and_closed(out, conn, ErrorCode.TOO_MANY_SPECTATORS)
    assert "3 spectators" in error["message"]
    assert len(harness.session.tables["show"].spectators) == 3
    # One leaving makes room.
    harness.disconnect(next(iter(harness.session.tables["show"].spectators)))
    conn, out = hello(harness, "show", "w", address="10.0.0.3", spectate=True)
    first(out, conn, "welcome")


def test_spectators_comings_and_goings_are_announced_together(harness: Harness) -> None:
    seated = harness.join("show", 3, seed=1)
    watchers = []
    for index in range(5):
        conn, out = hello(harness, "show", "w", address=f"10.0.1.{index}", spectate=True)
        watchers.append(conn)
        assert all(not to(out, s.conn) for s in seated)  # nobody else hears of it yet
    harness.disconnect(watchers.pop())
    harness.clock.advance(Limits().notice_seconds)
    notice = harness.tick()
    for conn in [s.conn for s in seated] + watchers:
        [message] = to(notice, conn)
        assert message["type"] == "table" and message["table"]["spectators"] == 4
    assert harness.tick() == []  # one notice, not one per arrival


def test_every_spectator_gets_the_same_public_update(harness: Harness) -> None:
    seated = harness.join("show", 3, seed=2)
    watchers = [
        hello(harness, "show", "w", address=f"10.0.2.{i}", spectate=True)[0] for i in (1, 2)
    ]
    out = harness.play_one([s.conn for s in seated], random.Random(2))
    updates = [item.message for item in out if isinstance(item, Send) and item.conn in watchers]
    assert len(updates) == 2 and updates[0] is updates[1]  # built once, encoded once
    assert updates[0]["view"]["viewer"] is None


def test_an_idle_spectator_is_closed_and_a_watched_game_keeps_its_spectators(
    make_harness: MakeHarness,
) -> None:
    harness = make_harness(limits=Limits(spectator_idle_seconds=100.0))
    harness.join("live", 3, seed=3)
    harness.connect()  # nothing but a table that waits for players
    waiting, _ = hello(harness, "waiting", "Ann", address="10.0.0.5")
    idle, _ = hello(harness, "waiting", "w", address="10.0.0.6", spectate=True)
    watching, _ = hello(harness, "live", "w", address="10.0.0.7", spectate=True)
    conns = [c for c, info in harness.session.conns.items() if info.table == "live"]
    rng = random.Random(3)
    for _ in range(4):
        harness.clock.advance(30.0)
        harness.play_one([c for c in conns if c != watching], rng)
        out = harness.tick()
    assert [item.conn for item in closes(out)] == [idle]
    assert closes(out)[0].code == 1000
    assert harness.session.conns[watching].closing is False
    assert waiting in harness.session.conns


# Message rates --------------------------------------------------------------------------


def test_connections_of_one_address_share_a_message_allowance(make_harness: MakeHarness) -> None:
    harness = make_harness(limits=Limits(address_burst=4, address_per_second=1.0))
    mine = [harness.connect("10.0.0.1") for _ in range(3)]
    other = harness.connect("10.0.0.2")
    answers = [
        to(harness.send(conn, {"type": "list_tables", "id": 1}), conn)[0] for conn in mine * 2
    ]
    assert [a["type"] for a in answers] == ["tables"] * 4 + ["error"] * 2
    assert answers[-1]["code"] == ErrorCode.RATE_LIMITED.value
    assert to(harness.send(other, {"type": "list_tables", "id": 1}), other)[0]["type"] == "tables"
    harness.clock.advance(1.0)
    assert (
        to(harness.send(mine[0], {"type": "list_tables", "id": 1}), mine[0])[0]["type"] == "tables"
    )


def test_a_connection_that_keeps_flooding_is_closed(make_harness: MakeHarness) -> None:
    harness = make_harness(limits=Limits(burst=2, per_second=0.01, flood_close=5))
    conn = harness.connect()
    outs = [harness.send(conn, {"type": "list_tables", "id": 1}) for _ in range(7)]
    kinds = [
        item.message["type"] if isinstance(item, Send) else "close" for out in outs for item in out
    ]
    assert kinds == ["tables", "tables", "error", "error", "error", "error", "close"]
    assert harness.send(conn, {"type": "list_tables", "id": 1}) == []  # closing: ignored
    # Another connection is not affected.
    fresh = harness.connect("10.0.0.2")
    assert to(harness.send(fresh, {"type": "list_tables", "id": 1}), fresh)[0]["type"] == "tables"
