"""Table talk through the session: who hears what, limits, storage, resync and export."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tyros_protocol.errors import ErrorCode
from tyros_server import tools
from tyros_server.chat import CHAT_BURST, SHOWN_LINES

from .harness import Harness, first, only_error, to


def say(harness: Harness, conn: int, text: str, id_: int = 9) -> list[Any]:
    return harness.send(conn, {"type": "chat", "id": id_, "text": text})


def chat_to(out: list[Any], conn: int) -> list[dict[str, Any]]:
    return to(out, conn, "chat")


def test_a_seats_line_is_heard_by_everyone_at_the_table_and_stored(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=4)
    watcher = harness.connect()
    harness.hello(watcher, "t", "Zed", spectate=True)
    harness.clock.advance(1)
    out = say(harness, seated[1].conn, "  two green for your violet?  ", id_=31)
    line = {
        "type": "chat",
        "seq": 1,
        "version": harness.state("t").version,
        "seat": seated[1].seat,
        "name": "P1",
        "audience": "table",
        "text": "two green for your violet?",
    }
    for conn in (*(s.conn for s in seated), watcher):
        assert chat_to(out, conn) == [line]
    accepted = first(out, seated[1].conn, "accepted")
    assert accepted["re"] == 31
    assert harness.store.load_chat("t") == [line]
    # The game did not move.
    assert all(m["type"] in ("chat", "accepted") for m in (i.message for i in out))


def test_a_spectators_line_is_heard_by_spectators_only(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=4)
    watchers = [harness.connect() for _ in range(2)]
    for i, conn in enumerate(watchers):
        harness.hello(conn, "t", f"Zed{i}", spectate=True)
    out = say(harness, watchers[0], "p1 should take the violet")
    for s in seated:
        assert chat_to(out, s.conn) == [], "a spectator coached a player"
    for conn in watchers:
        [line] = chat_to(out, conn)
        assert (line["seat"], line["name"], line["audience"]) == (None, "Zed0", "spectators")


@pytest.mark.parametrize(
    "text", ["", "   ", "x" * 301, "bidi \u202e here", "bell \x07", "zero\u200bwidth", 7, None]
)
def test_bad_lines_are_refused_and_nothing_is_said(harness: Harness, text: Any) -> None:
    seated = harness.join("t", 3, seed=4)
    out = harness.send(seated[0].conn, {"type": "chat", "id": 5, "text": text})
    only_error(out, seated[0].conn, ErrorCode.BAD_MESSAGE, 5)
    assert harness.store.load_chat("t") == []


def test_a_line_before_joining_is_refused(harness: Harness) -> None:
    conn = harness.connect()
    only_error(say(harness, conn, "hello?", id_=3), conn, ErrorCode.HELLO_FIRST, 3)


def test_talk_is_rate_limited_apart_from_actions(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=4)
    conn = seated[0].conn
    for i in range(CHAT_BURST):
        assert chat_to(say(harness, conn, f"line {i}", id_=i), conn)
    only_error(say(harness, conn, "one too many", id_=99), conn, ErrorCode.RATE_LIMITED, 99)
    harness.clock.advance(2.0)  # one line every two seconds
    assert chat_to(say(harness, conn, "again"), conn)
    assert [line["text"] for line in harness.store.load_chat("t")][-1] == "again"


def test_a_newcomer_and_a_returning_seat_hear_the_recent_talk(harness: Harness) -> None:
    ann, bob, cem = (harness.connect() for _ in range(3))
    harness.hello(ann, "t", "Ann", players=3, seed=4)
    say(harness, ann, "anyone?")  # before the table filled
    tokens = {}
    for conn, name in ((bob, "Bob"), (cem, "Cem")):
        out = harness.hello(conn, "t", name, players=3, seed=4)
        tokens[conn] = first(out, conn, "welcome")["token"]
        assert [line["text"] for line in chat_to(out, conn)] == ["anyone?"]
    # Many lines later a seat comes back: it hears the last lines a seat may hear.
    watcher = harness.connect()
    harness.hello(watcher, "t", "Zed", spectate=True)
    for i in range(SHOWN_LINES + 5):
        harness.clock.advance(2.0)
        say(harness, cem, f"line {i}")
        harness.clock.advance(2.0)
        say(harness, watcher, f"aside {i}")
    harness.disconnect(cem)
    again = harness.connect()
    heard = chat_to(harness.resume(again, tokens[cem]), again)
    assert [line["text"] for line in heard] == [f"line {i}" for i in range(5, SHOWN_LINES + 5)]
    # A spectator coming in hears the asides too.
    late = harness.connect()
    heard = chat_to(harness.hello(late, "t", "Una", spectate=True), late)
    assert len(heard) == SHOWN_LINES and heard[-1]["text"] == f"aside {SHOWN_LINES + 4}"
    assert {line["audience"] for line in heard} == {"table", "spectators"}


def test_talk_survives_a_restart_and_is_exported_beside_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.db"
    harness = Harness(path)
    seated = harness.join("t", 3, seed=4)
    say(harness, seated[0].conn, "good luck")
    harness.close()
    again = Harness(path)  # a new server on the same database
    conn = again.connect()
    out = again.resume(conn, seated[0].token)
    assert [line["text"] for line in chat_to(out, conn)] == ["good luck"]
    heard = say(again, conn, "I am back")
    assert chat_to(heard, conn)[0]["seq"] == 2
    again.close()
    assert tools.export_main(["--db", str(path), "t"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert [(line["seq"], line["text"], line["version"]) for line in record["chat"]] == [
        (1, "good luck", 0),
        (2, "I am back", 0),
    ]
    assert all(line["audience"] == "table" for line in record["chat"])
