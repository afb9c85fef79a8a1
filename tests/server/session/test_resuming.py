"""The sans-I/O session. Resuming a seat with its token, and leaving before the game starts."""

from __future__ import annotations

import random

from tyros_protocol import PROTOCOL_VERSION
from tyros_protocol.errors import ErrorCode
from tyros_rules import (
    view,
)
from tyros_server.session import Close

from ..harness import (
    Harness,
    first,
    only_error,
    to,
)


def test_resume_with_the_token(harness: Harness) -> None:
    seated = harness.join("t", 4, seed=4)
    rng = random.Random(4)
    for _ in range(6):
        harness.play_one([s.conn for s in seated], rng)
    gone = seated[2]
    out = harness.disconnect(gone.conn)
    for s in seated:
        if s is not gone:
            seats = first(out, s.conn, "table")["table"]["seats"]
            assert seats[2]["connected"] is False and seats[2]["bot"] is False
            assert all(seat["connected"] for i, seat in enumerate(seats) if i != 2)
    assert to(out, gone.conn) == []
    back = harness.connect()
    out = harness.send(back, {"type": "resume", "id": 77, "protocol": 1, "token": gone.token})
    messages = to(out, back)
    assert [m["type"] for m in messages] == ["welcome", "table", "update"]
    assert messages[0] == {
        "type": "welcome",
        "re": 77,
        "protocol": PROTOCOL_VERSION,
        "table": "t",
        "seat": 2,
        "name": "P2",
        "token": None,
    }
    assert messages[1]["table"]["seats"][2]["connected"] is True
    update = messages[2]
    state = harness.state("t")
    assert update["view"] == view(state, 2)
    assert update["view"]["hand"] is not None
    assert update["version"] == state.version
    assert update["events"], "a resync replays the recent events"
    for s in seated:
        if s is not gone:
            assert first(out, s.conn, "table")["table"]["seats"][2]["connected"] is True
    # The resumed connection plays on.
    conns = [s.conn for s in seated if s is not gone] + [back]
    harness.play_one(sorted(conns), rng)


def test_resume_with_a_wrong_token(harness: Harness) -> None:
    seated = harness.join("t", 3)
    conn = harness.connect()
    for id_, token in enumerate(["x" * 43, seated[0].token[:-1] + "?", "a"]):
        out = harness.send(conn, {"type": "resume", "id": id_, "protocol": 1, "token": token})
        only_error(out, conn, ErrorCode.BAD_TOKEN, id_)
    assert harness.session.conns[conn].table is None


def test_resume_takes_the_seat_from_another_connection(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=6)
    holder = seated[1]
    thief = harness.connect()
    out = harness.resume(thief, holder.token)
    closes = [item for item in out if isinstance(item, Close)]
    assert len(closes) == 1
    assert closes[0].conn == holder.conn and closes[0].code == 4000
    assert first(out, thief, "welcome")["seat"] == 1
    assert first(out, thief, "update")["view"]["viewer"] == 1
    assert to(out, holder.conn) == []  # the old connection is only closed
    # The old connection no longer holds anything.
    only_error(
        harness.act(holder.conn, {"kind": "pass"}, harness.state("t").version, id_=3),
        holder.conn,
        ErrorCode.HELLO_FIRST,
        3,
    )
    # Its disconnection does not mark the seat as absent.
    assert harness.disconnect(holder.conn) == []
    [info] = harness.list_tables(thief)["tables"]
    assert info["seats"][1]["connected"] is True
    assert harness.session.tables["t"].seats[1].conn == thief


def test_disconnect_before_the_start_and_the_game_still_starts(harness: Harness) -> None:
    a, b = harness.connect(), harness.connect()
    harness.hello(a, "t", "A", players=3, seed=1)
    token_b = first(harness.hello(b, "t", "B", players=3), b, "welcome")["token"]
    out = harness.disconnect(b)
    assert first(out, a, "table")["table"]["seats"][1]["connected"] is False
    c = harness.connect()
    out = harness.hello(c, "t", "C")
    assert first(out, c, "welcome")["seat"] == 2
    assert first(out, a, "update") and first(out, c, "update")
    back = harness.connect()
    out = harness.resume(back, token_b)
    assert first(out, back, "update")["view"]["viewer"] == 1
