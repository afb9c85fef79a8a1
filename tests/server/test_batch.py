"""Batches: frames handled together store their actions in one transaction.

Nothing of a batch is told before it commits; a failed commit takes every action of the
batch back, answers each sender ``internal_error`` and resyncs those tables.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tyros_protocol.errors import ErrorCode
from tyros_server.session import Output, Send
from tyros_server.storage import StorageError

from .harness import Harness, first, snapshot, to


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[Harness, Harness]]:
    one, other = Harness(tmp_path / "one.db"), Harness(tmp_path / "other.db")
    try:
        yield one, other
    finally:
        one.close()
        other.close()


def seat_two_tables(harness: Harness) -> list[list[int]]:
    """Two 3-player tables, each a few actions in; their connections."""
    tables = []
    for name, seed in (("north", 3), ("south", 4)):
        conns = [seated.conn for seated in harness.join(name, 3, seed=seed)]
        rng = random.Random(seed)
        for _ in range(3):
            harness.play_one(conns, rng)
        tables.append(conns)
    return tables


def next_action(harness: Harness, conns: list[int]) -> tuple[int, str]:
    """The first prompted connection and the frame of its first legal action."""
    [conn, *_] = harness.prompted(conns)
    prompt = harness.latest[conn]["prompt"]
    frame = {"type": "action", "id": 500 + conn, "version": prompt["version"]}
    return conn, json.dumps({**frame, "action": prompt["legal"][0]})


def batch(harness: Harness, frames: list[tuple[int, str]]) -> Output:
    harness.session.begin_batch()
    for conn, frame in frames:
        harness.session.receive(conn, frame)
        assert harness.session.data_to_send() == []  # held until the commit
    harness.session.end_batch()
    return harness.drained()


def messages(out: Output) -> list[tuple[int, Any]]:
    return [(item.conn, item.message) for item in out if isinstance(item, Send)]


def fail_commits(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk refuses the commit (as a full disk would): the store rolls back."""
    store = harness.store

    def refuse() -> None:
        store._rollback()
        raise StorageError("disk full")

    monkeypatch.setattr(store, "commit", refuse)


def test_a_batch_says_what_frame_by_frame_handling_says(pair: tuple[Harness, Harness]) -> None:
    one, batched = pair
    tables = seat_two_tables(one)
    assert seat_two_tables(batched) == tables
    for _ in range(6):
        frames = [next_action(one, conns) for conns in tables]
        assert [next_action(batched, conns) for conns in tables] == frames
        separately: Output = []
        for conn, frame in frames:
            separately += one.receive(conn, frame)
        commits = batched.store.commits
        together = batch(batched, frames)
        assert batched.store.commits == commits + 1  # one disk sync for both actions
        assert messages(together) == messages(separately)
        for conns in tables:
            assert one.latest[conns[0]] == batched.latest[conns[0]]


def test_a_failed_commit_takes_every_action_of_the_batch_back(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    north, south = seat_two_tables(harness)
    watcher = harness.connect()
    harness.hello(watcher, "north", "W", spectate=True)
    states = [harness.state(name) for name in ("north", "south")]
    before = [snapshot(state) for state in states]
    stored = [len(harness.store.load_table(name).actions) for name in ("north", "south")]  # type: ignore[union-attr]
    frames = [next_action(harness, north), next_action(harness, south)]
    actions = list(frames)
    lister = harness.connect()
    frames.insert(1, (lister, json.dumps({"type": "list_tables", "id": 9})))
    # A spectator arriving after north's action sees north as it would be after it...
    late = harness.connect()
    spectate = {"type": "hello", "id": 8, "protocol": 1, "name": "L", "table": "north"}
    frames.insert(2, (late, json.dumps({**spectate, "spectate": True})))

    fail_commits(harness, monkeypatch)
    out = batch(harness, frames)

    assert [snapshot(state) for state in states] == before
    assert [len(harness.store.load_table(n).actions) for n in ("north", "south")] == stored  # type: ignore[union-attr]
    for conn, frame in actions:
        errors = to(out, conn, "error")
        assert [e["code"] for e in errors] == [ErrorCode.INTERNAL.value]
        assert errors[0]["re"] == json.loads(frame)["id"]
        assert to(out, conn, "accepted") == []
    # What did not act is answered as ever; everyone at those tables hears the state as
    # stored (the version it was at), nothing of the actions taken back.
    assert first(out, lister, "tables")["re"] == 9
    for conn in [*north, *south, watcher, late]:  # ...so it is told north as stored instead
        [update] = to(out, conn, "update")
        state = harness.state_of_conn(conn)
        assert update["version"] == state.version == before[conn in south][0][2]
    monkeypatch.undo()
    # The disk works again: the same actions go through.
    again = batch(harness, actions)
    for conn, _ in actions:
        assert len(to(again, conn, "accepted")) == 1


def test_a_refused_write_in_a_batch_takes_the_earlier_actions_back_too(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    north, south = seat_two_tables(harness)
    before = [snapshot(harness.state(name)) for name in ("north", "south")]
    frames = [next_action(harness, north), next_action(harness, south)]
    append = harness.store.append_action
    calls = []

    def second_refused(*args: Any, **kwargs: Any) -> None:
        calls.append(args)
        if len(calls) == 2:
            harness.store._rollback()  # an I/O error ends the transaction
            raise StorageError("disk I/O error")
        append(*args, **kwargs)

    monkeypatch.setattr(harness.store, "append_action", second_refused)
    out = batch(harness, frames)
    assert [snapshot(harness.state(name)) for name in ("north", "south")] == before
    for conn, _ in frames:
        assert [e["code"] for e in to(out, conn, "error")] == [ErrorCode.INTERNAL.value]
        assert to(out, conn, "accepted") == []


def test_a_new_table_in_a_batch_commits_what_came_before_it(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    north, south = seat_two_tables(harness)
    first_frame, last_frame = next_action(harness, north), next_action(harness, south)
    newcomer = harness.connect()
    hello = {"type": "hello", "id": 3, "protocol": 1, "name": "N", "table": "east", "players": 3}
    commit = harness.store.commit
    commits = []

    def commit_once() -> None:  # the commit before the new table works, the last fails
        commits.append(1)
        if len(commits) > 1:
            harness.store._rollback()
            raise StorageError("disk full")
        commit()

    monkeypatch.setattr(harness.store, "commit", commit_once)
    out = batch(harness, [first_frame, (newcomer, json.dumps(hello)), last_frame])
    assert len(to(out, first_frame[0], "accepted")) == 1
    assert first(out, newcomer, "welcome")["table"] == "east"
    assert [e["code"] for e in to(out, last_frame[0], "error")] == [ErrorCode.INTERNAL.value]
    assert harness.store.load_table("east") is not None
    assert len(harness.store.load_table("north").actions) == harness.state("north").version  # type: ignore[union-attr]
    assert len(harness.store.load_table("south").actions) == harness.state("south").version  # type: ignore[union-attr]
