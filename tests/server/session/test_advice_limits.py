"""Advice is bounded per address, not only in all: one machine's seats cannot take every
place the server's bot has for advice."""

from __future__ import annotations

from collections.abc import Callable

from tyros_protocol.errors import ErrorCode
from tyros_server.deputies import MAX_ADVICE, Advice, RandomPlayer, SeatBots
from tyros_server.session import Limits, Output

from ..harness import Harness, first, only_error


def asked_to_act(harness: Harness, table: str, address: str) -> int:
    """A table of Ann and the server's bots, played until Ann is asked."""
    conn = harness.connect(address)
    first(harness.hello(conn, table, "Ann", players=3, bots=2, seed=3), conn, "welcome")
    harness.tick()
    assert 0 in harness.session.tables[table].prompts
    return conn


def advice(harness: Harness, conn: int, id_: int) -> Output:
    version = harness.state_of_conn(conn).version
    return harness.send(conn, {"type": "hint", "id": id_, "version": version, "advice": True})


def test_one_address_has_one_advice_under_way_and_a_rate(
    make_harness: Callable[..., Harness],
) -> None:
    harness = make_harness(
        limits=Limits(house_tables_per_address=10, advice_burst=3, advice_rate=0.5),
        takeover=SeatBots(RandomPlayer),
    )
    mine = [asked_to_act(harness, f"a{n}", "10.0.0.1") for n in range(2)]
    others = [asked_to_act(harness, f"b{n}", f"10.0.1.{n}") for n in range(MAX_ADVICE)]
    assert advice(harness, mine[0], 1) == []  # under way
    only_error(advice(harness, mine[1], 2), mine[1], ErrorCode.RATE_LIMITED, 2)  # same address
    for n, conn in enumerate(others[: MAX_ADVICE - 1]):
        assert advice(harness, conn, 10 + n) == []  # other machines: served
    jobs = [job for job in harness.session.drain_jobs() if isinstance(job, Advice)]
    assert len(jobs) == MAX_ADVICE
    for job in jobs:
        harness.session.advised(job, None)
    harness.drained()
    assert advice(harness, mine[1], 3) == []  # the first came back: the address may again
    [again] = harness.session.drain_jobs()
    assert isinstance(again, Advice)
    harness.session.advised(again, None)
    harness.drained()
    only_error(advice(harness, mine[1], 4), mine[1], ErrorCode.RATE_LIMITED, 4)  # 3 a burst
    harness.clock.advance(2.0)  # then one every 2 s
    assert advice(harness, mine[1], 5) == []
