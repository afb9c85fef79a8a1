"""Records of finished games made from the store: off the event loop, once, kept in a
bounded cache, and asked for at a bounded rate per address as well as per connection."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tyros_protocol.board import BOARD
from tyros_protocol.errors import ErrorCode
from tyros_rules import action_to_json, legal_actions, seats_to_act
from tyros_server.session import Limits, Send
from tyros_server.session.archive import BUILDS_AT_ONCE, RECORDS_KEPT, RecordJob
from tyros_server.storage import Store

from ..harness import Harness, only_error


def finished_and_forgotten(harness: Harness, table: str, seed: int = 4) -> None:
    """Play ``table`` to its end, everyone leaves, and it leaves memory (stays on disk)."""
    seated = harness.join(table, 3, seed=seed)
    state = harness.state(table)
    while state.score is None:
        [seat, *_] = seats_to_act(state)
        harness.act(seated[seat].conn, action_to_json(legal_actions(state, seat)[0], BOARD))
    for s in seated:
        harness.disconnect(s.conn)
    harness.tick()
    assert table not in harness.session.tables


def ask(harness: Harness, conn: int, table: str, id_: int, public: bool = True) -> list[Any]:
    message = {"type": "get_record", "id": id_, "table": table, "public": public}
    return harness.send(conn, message)


@pytest.fixture
def held(make_harness: Callable[..., Harness]) -> Harness:
    """A harness whose records wait for the test to make them (as the shell's thread)."""
    harness = make_harness(limits=Limits(finished_in_memory=0))
    harness.make_records = False
    return harness


def reads_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The session's own store may not be read for a record: that is the thread's work."""

    def refuse(self: Store, *args: Any) -> Any:
        raise AssertionError("a record was read from the store on the event loop")

    monkeypatch.setattr(Store, "load_table", refuse)
    monkeypatch.setattr(Store, "load_chat", refuse)


@pytest.mark.parametrize("public", [True, False])
def test_a_record_from_the_store_is_made_off_the_loop_once_then_kept(
    held: Harness, monkeypatch: pytest.MonkeyPatch, public: bool
) -> None:
    finished_and_forgotten(held, "t")
    first, second = held.connect("10.0.0.1"), held.connect("10.0.0.2")
    with monkeypatch.context() as patch:
        reads_nothing(patch)
        assert ask(held, first, "t", 1, public) == []  # nothing yet: it is being made
        assert ask(held, second, "t", 2, public) == []  # waits for the same one
        [job] = held.session.drain_record_jobs()
    out = held.records_made_by([job])
    [one, two] = [item for item in out if isinstance(item, Send)]
    assert (one.conn, one.message["re"], two.conn, two.message["re"]) == (first, 1, second, 2)
    assert one.message["record"] is two.message["record"]
    held.clock.advance(1.0)
    with monkeypatch.context() as patch:
        reads_nothing(patch)
        [again] = ask(held, first, "t", 3, public)  # kept: answered at once
        assert isinstance(again, Send) and again.message["record"] is one.message["record"]
    assert held.session.drain_record_jobs() == []


def test_one_address_cannot_multiply_its_records_with_connections(held: Harness) -> None:
    held.make_records = True
    finished_and_forgotten(held, "t")
    burst = Limits().record_burst
    conns = [held.connect("10.0.0.9") for _ in range(burst + 3)]
    answers = [ask(held, conn, "t", 1) for conn in conns]
    assert all(a[0].message["type"] == "record" for a in answers[:burst])
    for conn, answer in zip(conns[burst:], answers[burst:], strict=True):
        only_error(answer, conn, ErrorCode.RATE_LIMITED, 1)
    other = held.connect("10.0.0.10")  # another machine is not held back by it
    assert ask(held, other, "t", 2)[0].message["type"] == "record"
    held.clock.advance(1.0)  # one more a second
    assert ask(held, conns[-1], "t", 3)[0].message["type"] == "record"


def test_records_being_made_are_bounded_and_the_cache_too(held: Harness) -> None:
    conns = [held.connect(f"10.0.1.{n}") for n in range(BUILDS_AT_ONCE + 1)]
    for n, conn in enumerate(conns[:BUILDS_AT_ONCE]):
        assert ask(held, conn, f"nobody-{n}", 1) == []
    only_error(ask(held, conns[-1], "nobody-x", 1), conns[-1], ErrorCode.RATE_LIMITED, 1)
    out = held.records_made()
    assert [i.message["code"] for i in out if isinstance(i, Send)] == ["no_such_table"] * 4
    archive = held.session.archive
    assert archive.kept == {} and archive.waiting == {}
    for n in range(RECORDS_KEPT + 3):  # (records stand in for one another here)
        archive.built(RecordJob(f"t{n}", True, False), {"n": n})
    assert len(archive.kept) == RECORDS_KEPT


def test_talk_at_a_finished_table_makes_its_full_record_afresh(
    make_harness: Callable[..., Harness],
) -> None:
    harness = make_harness()
    seated = harness.join("t", 3, seed=4)
    state = harness.state("t")
    while state.score is None:
        [seat, *_] = seats_to_act(state)
        harness.act(seated[seat].conn, action_to_json(legal_actions(state, seat)[0], BOARD))
    asker = harness.connect()
    [before] = ask(harness, asker, "t", 1, public=False)
    harness.send(seated[0].conn, {"type": "chat", "id": 9, "text": "well played"})
    harness.clock.advance(1.0)
    [after] = ask(harness, asker, "t", 2, public=False)
    assert isinstance(before, Send) and isinstance(after, Send)
    assert [line["text"] for line in after.message["record"]["chat"]] == ["well played"]
    assert before.message["record"]["chat"] == []
