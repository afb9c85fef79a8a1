"""The sans-I/O session. Bad input: rate limits, binary frames, malformed and schema-failing
messages change nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from tyros_protocol.errors import ErrorCode
from tyros_server.session import Limits

from ..harness import (
    Harness,
    first,
    only_error,
    snapshot,
)


def test_rate_limiter(make_harness: Callable[..., Harness]) -> None:
    harness = make_harness(limits=Limits(burst=5, per_second=1))
    conn = harness.connect()
    listing = json.dumps({"type": "list_tables", "id": 1})
    for _ in range(5):
        assert first(harness.receive(conn, listing), conn, "tables")
    only_error(harness.receive(conn, listing), conn, ErrorCode.RATE_LIMITED, None)
    only_error(harness.receive(conn, listing), conn, ErrorCode.RATE_LIMITED, None)
    harness.clock.advance(1.0)
    assert first(harness.receive(conn, listing), conn, "tables")
    only_error(harness.receive(conn, listing), conn, ErrorCode.RATE_LIMITED, None)
    # Another connection has its own allowance.
    other = harness.connect()
    assert first(harness.receive(other, listing), other, "tables")
    # A long pause refills the burst, no more.
    harness.clock.advance(3600)
    for _ in range(5):
        assert first(harness.receive(conn, listing), conn, "tables")
    only_error(harness.receive(conn, listing), conn, ErrorCode.RATE_LIMITED, None)


def test_binary_frames(harness: Harness) -> None:
    conn = harness.connect()
    frame = json.dumps({"type": "list_tables", "id": 1}).encode()
    only_error(harness.receive(conn, frame), conn, ErrorCode.BINARY_FRAME, None)


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "",
        "not json",
        '{"type": "list_tables",}',
        "[1,",
        "[" * 100_000 + "]" * 100_000,
        "NaN-ish",
        "\x00",
    ],
    ids=lambda text: f"{text[:12]!r}-{len(text)}",
)
def test_malformed_json(harness: Harness, text: str) -> None:
    conn = harness.connect()
    only_error(harness.receive(conn, text), conn, ErrorCode.BAD_JSON, None)


def test_a_key_given_twice_is_a_bad_message_not_the_last_value(harness: Harness) -> None:
    conn = harness.connect()
    text = '{"type":"action","id":3,"type":"chat","text":"hi"}'  # json.loads reads a chat
    error = only_error(harness.receive(conn, text), conn, ErrorCode.BAD_MESSAGE, None)
    assert error["message"] == "the key 'type' is given twice"


@pytest.mark.parametrize(
    ("message", "re_"),
    [
        ({"type": "action", "id": 7, "version": 1}, 7),
        ({"type": "nope", "id": 8}, 8),
        ({"type": "hello", "id": 9, "protocol": 1, "name": "A", "table": "bad name"}, 9),
        ({"type": "list_tables", "id": 10, "extra": True}, 10),
        (
            {
                "type": "action",
                "id": 11,
                "version": 0,
                "action": {"kind": "move", "from": "TY", "to": "1", "pay": ["green"] * 61},
            },
            11,
        ),
        ({"type": "action", "id": 0, "version": 0, "action": {"kind": "fly"}}, 0),
        (
            {
                "type": "action",
                "id": 3,
                "version": 0,
                "action": {"kind": "move", "from_": "TY", "to": "1", "pay": []},
            },
            3,
        ),
        ({"type": "action", "id": 2**53, "version": 0, "action": {}}, 2**53),
        ({"type": "nope", "id": -1}, None),
        ({"type": "nope", "id": 2**53 + 1}, None),
        ({"type": "nope", "id": "7"}, None),
        ({"type": "nope", "id": 7.0}, None),
        ({"type": "nope", "id": True}, None),
        ({"type": "nope"}, None),
        ([{"type": "list_tables", "id": 1}], None),
        ("list_tables", None),
        (None, None),
        (12, None),
    ],
    ids=lambda v: json.dumps(v)[:50],
)
def test_schema_failures(harness: Harness, message: Any, re_: int | None) -> None:
    conn = harness.connect()
    only_error(harness.send(conn, message), conn, ErrorCode.BAD_MESSAGE, re_)


def test_bad_message_from_a_seated_connection_changes_nothing(harness: Harness) -> None:
    seated = harness.join("t", 3, seed=2)
    state = harness.state("t")
    before = snapshot(state)
    for s in seated:
        out = harness.send(
            s.conn,
            {
                "type": "action",
                "id": 5,
                "version": state.version,
                "action": {"kind": "pass", "x": 1},
            },
        )
        only_error(out, s.conn, ErrorCode.BAD_MESSAGE, 5)
        only_error(harness.receive(s.conn, b"\x00"), s.conn, ErrorCode.BINARY_FRAME, None)
        only_error(harness.receive(s.conn, "{"), s.conn, ErrorCode.BAD_JSON, None)
    assert snapshot(state) == before


def test_unknown_connections_are_ignored(harness: Harness) -> None:
    assert harness.receive(999, '{"type": "list_tables"}') == []
    assert harness.disconnect(999) == []
