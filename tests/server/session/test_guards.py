"""The session's refusals, said once in a table (``session/guards.py``)."""

from __future__ import annotations

import string
from pathlib import Path

from tyros_protocol.errors import ErrorCode
from tyros_server.session import guards
from tyros_server.session.guards import Guard

from tests.server.harness import Harness, only_error


def every_guard() -> dict[str, Guard]:
    return {name: value for name, value in vars(guards).items() if isinstance(value, Guard)}


def test_every_guard_says_something_whole_once_filled_in() -> None:
    found = every_guard()
    assert len(found) >= 35
    for name, guard in found.items():
        fields = {f for _, f, _, _ in string.Formatter().parse(guard.words) if f}
        said = guard.said(**{field: "x" for field in fields})
        assert said and "{" not in said and "}" not in said, name
        assert isinstance(guard.code, ErrorCode)


def test_a_guard_refuses_with_its_code_and_words(tmp_path: Path) -> None:
    harness = Harness(tmp_path / "t.db")
    conn = harness.connect()
    out = harness.send(conn, {"type": "action", "id": 3, "version": 0, "action": {"kind": "pass"}})
    message = only_error(out, conn, ErrorCode.HELLO_FIRST, 3)
    assert message["message"] == guards.HELLO_FIRST.said() == "say hello first"
