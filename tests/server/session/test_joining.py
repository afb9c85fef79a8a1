"""The sans-I/O session. Joining a table: seats in join order, spectators, tokens, names, and
what is refused before a game starts.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.errors import ErrorCode
from tyros_rules import (
    event_versions,
    event_view,
    seats_to_act,
    view,
)
from tyros_server.session import Limits, Send

from ..harness import (
    TOKEN,
    Harness,
    first,
    only_error,
    snapshot,
    to,
)


def test_list_tables_before_hello(harness: Harness) -> None:
    conn = harness.connect()
    assert harness.list_tables(conn)["tables"] == []
    other = harness.connect()
    harness.hello(other, "friday", "Ann", players=3)
    [info] = harness.list_tables(conn)["tables"]
    assert info["name"] == "friday" and info["players"] == 3 and info["setup"] == "first"
    assert info["started"] is False and info["finished"] is False and "winners" not in info
    assert info["seats"][0] == {"seat": 0, "name": "Ann", "connected": True, "bot": False}
    assert [s["name"] for s in info["seats"][1:]] == [None, None]
    # list_tables does not join: the connection may still say hello.
    assert first(harness.hello(conn, "friday", "Bo"), conn, "welcome")["seat"] == 1


@pytest.mark.parametrize("players", [3, 4])
def test_hello_creates_a_table_and_seats_fill_in_join_order(harness: Harness, players: int) -> None:
    conns: list[int] = []
    tokens: list[str] = []
    for seat in range(players):
        conn = harness.connect()
        conns.append(conn)
        id_ = 40 + seat
        out = harness.send(
            conn,
            {
                "type": "hello",
                "id": id_,
                "protocol": 1,
                "name": f"N{seat}",
                "table": "t1",
                "players": players,
                "seed": 11,
            },
        )
        welcome = first(out, conn, "welcome")
        assert welcome == {
            "type": "welcome",
            "re": id_,
            "protocol": PROTOCOL_VERSION,
            "table": "t1",
            "seat": seat,
            "name": f"N{seat}",
            "token": welcome["token"],
        }
        assert TOKEN.match(welcome["token"])
        tokens.append(welcome["token"])
        # Everyone seated so far hears who sits at the table.
        for earlier in conns:
            table = first(out, earlier, "table")["table"]
            assert [s["name"] for s in table["seats"]] == (
                [f"N{i}" for i in range(seat + 1)] + [None] * (players - seat - 1)
            )
            assert all(s["connected"] for s in table["seats"][: seat + 1])
            assert table["started"] is (seat == players - 1)
        if seat < players - 1:
            assert to(out, conn, "update") == []
            only_error(
                harness.act(conn, {"kind": "pass"}, 0, id_=5), conn, ErrorCode.NOT_STARTED, 5
            )
    assert len(set(tokens)) == players
    # The last seat started the game: every seat got an update, prompted iff it must act.
    state = harness.state("t1")
    assert state.players == players and state.options.seed == 11
    to_act = seats_to_act(state)
    assert to_act
    for seat, conn in enumerate(conns):
        [update] = to(out, conn, "update")
        assert update["view"]["viewer"] == seat
        assert update["view"]["to_act"] == to_act
        assert (update["prompt"] is not None) == (seat in to_act)
        assert update["events"], "the first update carries the setup events"
        assert update["view"]["hand"] is not None


def test_tokens_are_not_written_to_the_database(harness: Harness) -> None:
    seated = harness.join("t", 4)
    harness.close()
    raw = b"".join(
        path.read_bytes()
        for path in harness.path.parent.iterdir()
        if path.name.startswith(harness.path.name)
    )
    assert b"P3" in raw  # the names are there...
    for s in seated:
        assert TOKEN.match(s.token)
        assert s.token.encode() not in raw  # ...the tokens are not


def test_options_of_a_later_hello_are_ignored(harness: Harness) -> None:
    a, b = harness.connect(), harness.connect()
    harness.hello(a, "t", "A", players=3, setup="variable", trade_seconds=30)
    harness.hello(b, "t", "B", players=4, setup="first", trade_seconds=600)
    table = harness.session.tables["t"]
    assert table.options.players == 3 and table.options.setup == "variable"
    assert table.trade_seconds == 30


def test_table_full(harness: Harness) -> None:
    harness.join("full", 3)
    late = harness.connect()
    out = harness.send(
        late, {"type": "hello", "id": 9, "protocol": 1, "name": "Late", "table": "full"}
    )
    only_error(out, late, ErrorCode.TABLE_FULL, 9)
    # The refused connection has joined nothing: it can still watch.
    assert first(harness.hello(late, "full", "Late", spectate=True), late, "welcome")


def test_spectators_see_public_views_and_cannot_act(harness: Harness) -> None:
    seated = harness.join("show", 4, seed=3)
    watcher = harness.connect()
    out = harness.hello(watcher, "show", "Eve", spectate=True)
    welcome = first(out, watcher, "welcome")
    assert (welcome["seat"], welcome["name"], welcome["token"]) == (None, None, None)
    assert first(out, watcher, "table")["table"]["spectators"] == 1
    # The others hear of spectators in one notice a little later, not one by one.
    assert all(not to(out, s.conn) for s in seated)
    harness.clock.advance(Limits().notice_seconds)
    notice = harness.tick()
    for s in seated:
        assert first(notice, s.conn, "table")["table"]["spectators"] == 1
    update = first(out, watcher, "update")
    assert update["view"]["viewer"] is None and update["prompt"] is None
    assert "hand" not in update["view"] and "tiles" not in update["view"]
    assert update["view"] == view(harness.state("show"), None)
    # A spectator acting is refused, and nothing changes.
    before = snapshot(harness.state("show"))
    only_error(harness.act(watcher, {"kind": "pass"}, id_=31), watcher, ErrorCode.SPECTATOR, 31)
    assert snapshot(harness.state("show")) == before
    # Spectators get every later update too, always public.
    rng = random.Random(3)
    state = harness.state("show")
    assert state.log is not None
    for _ in range(8):
        start = len(state.log)
        out = harness.play_one([s.conn for s in seated], rng)
        seen = first(out, watcher, "update")
        assert seen["view"] == view(state, None)
        new = state.log[start:]
        versions = event_versions(new, state.version)
        assert versions[0] == state.version  # one decision: all it caused has its version
        public = [
            e
            for event, version in zip(new, versions, strict=True)
            if (e := event_view(event, None, version)) is not None
        ]
        assert seen["events"] == public
    # A spectator leaving is counted out, and the others are told in the next notice.
    assert harness.disconnect(watcher) == []
    harness.clock.advance(Limits().notice_seconds)
    left = harness.tick()
    notices = [item for item in left if isinstance(item, Send)]
    assert left and notices == left  # all sent, nothing closed
    assert all(item.message["type"] == "table" for item in notices)
    assert all(item.message["table"]["spectators"] == 0 for item in notices)
    assert {item.conn for item in left} == {s.conn for s in seated}
    assert harness.session.tables["show"].spectators == set()


def test_spectating_a_missing_table(harness: Harness) -> None:
    conn = harness.connect()
    out = harness.send(
        conn,
        {"type": "hello", "id": 3, "protocol": 1, "name": "E", "table": "nope", "spectate": True},
    )
    only_error(out, conn, ErrorCode.NO_SUCH_TABLE, 3)
    assert harness.session.tables == {}


def test_hello_twice(harness: Harness) -> None:
    [seated, *_] = harness.join("t", 3)
    out = harness.send(
        seated.conn, {"type": "hello", "id": 12, "protocol": 1, "name": "X", "table": "other"}
    )
    only_error(out, seated.conn, ErrorCode.ALREADY_JOINED, 12)
    out = harness.send(
        seated.conn, {"type": "resume", "id": 13, "protocol": 1, "token": seated.token}
    )
    only_error(out, seated.conn, ErrorCode.ALREADY_JOINED, 13)
    assert "other" not in harness.session.tables


def test_wrong_protocol_version(harness: Harness) -> None:
    conn = harness.connect()
    out = harness.send(
        conn,
        {"type": "hello", "id": 1, "protocol": PROTOCOL_VERSION + 1, "name": "A", "table": "t"},
    )
    only_error(out, conn, ErrorCode.UNSUPPORTED_PROTOCOL, 1)
    out = harness.send(conn, {"type": "resume", "id": 2, "protocol": 0, "token": "x"})
    only_error(out, conn, ErrorCode.UNSUPPORTED_PROTOCOL, 2)
    assert harness.session.tables == {}
    assert first(harness.hello(conn, "t", "A"), conn, "welcome")["seat"] == 0


def test_action_before_hello(harness: Harness) -> None:
    harness.join("t", 3)
    conn = harness.connect()
    out = harness.send(conn, {"type": "action", "id": 4, "version": 0, "action": {"kind": "pass"}})
    only_error(out, conn, ErrorCode.HELLO_FIRST, 4)


def test_a_program_says_so_and_its_seat_shows_it_for_good(tmp_path: Path) -> None:
    """``hello`` with ``program: true`` (tyros-bot's): the seat's status says so to
    everyone, and so it does after a restart (it is stored with the seat)."""
    path = tmp_path / "p.db"
    harness = Harness(path)
    ann, bot = harness.connect(), harness.connect()
    harness.hello(ann, "t", "Ann", players=3)
    harness.hello(bot, "t", "bot-1", players=3, program=True)
    seats = harness.list_tables(ann)["tables"][0]["seats"]
    assert [s.get("program", False) for s in seats] == [False, True, False]
    harness.close()
    again = Harness(path)
    seats = again.list_tables(again.connect())["tables"][0]["seats"]
    assert seats[1]["program"] is True and "program" not in seats[0]
    again.close()


def test_nobody_joins_with_a_name_that_looks_like_a_seated_players(harness: Harness) -> None:
    """Talk and the log would read as the seated player's: refused for a new seat and for a
    spectator alike, each saying whose name it looks like; spectators may share names."""
    ann = harness.connect()
    harness.hello(ann, "t", "Ann", players=3)
    for name, spectate in (("ANN", False), ("\uff21nn", False), ("Ann", True), ("aNN", True)):
        conn = harness.connect()
        out = harness.hello(conn, "t", name, spectate=spectate)
        assert isinstance(out[0], Send), out
        message = only_error(out, conn, ErrorCode.NAME_TAKEN, out[0].message["re"])
        assert "seat A" in message["message"], message
    watchers = [harness.connect() for _ in range(2)]
    for watcher in watchers:
        assert first(harness.hello(watcher, "t", "Eve", spectate=True), watcher, "welcome")
    bob = harness.connect()
    assert first(harness.hello(bob, "t", "Bob"), bob, "welcome")["seat"] == 1
