"""Logs never hold seat tokens or hidden cards, whatever the log level."""

from __future__ import annotations

import itertools
import json
import logging
import random
from pathlib import Path
from typing import Any

import pytest
from tyros_protocol.cards import names_from_counts
from tyros_rules import action_to_json, legal_actions, seats_to_act
from tyros_server.cli import configure_logging
from tyros_server.session import Send, Session
from tyros_server.storage import StorageError, Store

from .harness import Harness


def test_session_logs_hold_no_token_and_no_hand(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ticks = itertools.count()
    session = Session(
        Store(str(tmp_path / "t.db")), clock=lambda: next(ticks) * 0.1, allow_seed=True
    )
    tokens = []
    for conn in range(4):  # connection n takes seat n
        session.connect(conn, "127.0.0.1")
        session.receive(
            conn,
            json.dumps(
                {
                    "type": "hello",
                    "id": 1,
                    "protocol": 1,
                    "name": f"p{conn}",
                    "table": "t",
                    "seed": 3,
                }
            ),
        )
        tokens += [
            item.message["token"]
            for item in session.data_to_send()
            if isinstance(item, Send) and item.message["type"] == "welcome"
        ]
    state = session.tables["t"].state
    assert state is not None and len(tokens) == 4
    rng = random.Random(1)
    for _ in range(80):  # legal actions, and refused ones that log errors
        seat = seats_to_act(state)[0]
        session.receive(
            seat,
            json.dumps({"type": "action", "id": 2, "version": 999, "action": {"kind": "pass"}}),
        )
        action = rng.choice(legal_actions(state, seat))
        session.receive(
            seat,
            json.dumps(
                {
                    "type": "action",
                    "id": 3,
                    "version": state.version,
                    "action": action_to_json(action, state.board),
                }
            ),
        )
    assert state.version == 80
    session.disconnect(0)
    session.connect(9, "127.0.0.1")
    session.receive(9, json.dumps({"type": "resume", "id": 4, "protocol": 1, "token": tokens[0]}))
    assert caplog.records, "the session logs what happens"
    for token in tokens:
        assert token not in caplog.text
    for hand in state.hands:
        assert json.dumps(names_from_counts(hand)) not in caplog.text


def test_the_websockets_library_never_logs_frames() -> None:
    root = logging.getLogger()
    saved = root.level, list(root.handlers), logging.getLogger("websockets").level
    try:
        configure_logging("DEBUG")
        assert logging.getLogger("websockets").getEffectiveLevel() >= logging.INFO
    finally:
        root.setLevel(saved[0])
        root.handlers[:] = saved[1]
        logging.getLogger("websockets").setLevel(saved[2])


def test_a_repeated_storage_failure_is_logged_once_in_full_then_counted(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A full disk refuses every action: the first failure is logged with its traceback,
    the next ones as one line with their count per minute, not a traceback each."""
    seated = harness.join("t", 3, seed=14)
    state = harness.state("t")

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise StorageError("disk full")

    monkeypatch.setattr(harness.store, "append_action", refuse)
    caplog.set_level(logging.ERROR, logger="tyros.session")
    [acting] = seats_to_act(state)
    action = harness.latest[seated[acting].conn]["prompt"]["legal"][0]
    for _ in range(25):
        harness.clock.advance(1)
        harness.act(seated[acting].conn, action)
    errors = [r for r in caplog.records if r.name == "tyros.session"]
    assert len(errors) == 1 and errors[0].exc_info is not None
    assert "disk full" in errors[0].getMessage()
    harness.clock.advance(60)
    harness.act(seated[acting].conn, action)
    errors = [r for r in caplog.records if r.name == "tyros.session"]
    assert len(errors) == 2 and errors[1].exc_info is None
    assert errors[1].getMessage().startswith("25 more storage failures in the last 84 s")
