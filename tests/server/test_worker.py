"""The decision worker: people's lane first, tables in turn within a lane, errors carried
to whoever waits, and nothing run after shutdown."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest
from tyros_server.worker import DecisionWorker, Lane


@pytest.fixture
def worker() -> Iterator[DecisionWorker]:
    running = DecisionWorker()
    try:
        yield running
    finally:
        running.shutdown()


def held(worker: DecisionWorker) -> threading.Event:
    """Occupy the worker until the event returned is set (so that what is queued
    meanwhile waits, and its order shows)."""
    gate, busy = threading.Event(), threading.Event()

    def block() -> None:
        busy.set()
        gate.wait()

    worker.submit(block, "elsewhere", Lane.HOUSE)
    busy.wait()
    return gate


def test_people_go_first_and_tables_take_turns(worker: DecisionWorker) -> None:
    order: list[str] = []

    def job(name: str) -> Callable[[], None]:
        return lambda: order.append(name)

    gate = held(worker)
    queued = [
        worker.submit(job("t1 bot a"), "t1", Lane.HOUSE),
        worker.submit(job("t1 bot b"), "t1", Lane.HOUSE),
        worker.submit(job("t1 bot c"), "t1", Lane.HOUSE),
        worker.submit(job("t2 bot"), "t2", Lane.HOUSE),
        worker.submit(job("t3 hint"), "t3", Lane.PEOPLE),
        worker.submit(job("t1 takeover"), "t1", Lane.PEOPLE),
    ]
    gate.set()
    for future in queued:
        future.result()
    assert order == ["t3 hint", "t1 takeover", "t1 bot a", "t2 bot", "t1 bot b", "t1 bot c"]


def test_a_failing_job_reaches_its_future_and_the_worker_goes_on(worker: DecisionWorker) -> None:
    def fail() -> None:
        raise ValueError("a bot's bug")

    with pytest.raises(ValueError, match="a bot's bug"):
        worker.submit(fail, "t1", Lane.HOUSE).result()
    assert worker.submit(lambda: "still here", "t1", Lane.HOUSE).result() == "still here"


def test_shutdown_cancels_what_is_queued(worker: DecisionWorker) -> None:
    gate = held(worker)
    ran: list[int] = []
    queued = worker.submit(lambda: ran.append(1), "t1", Lane.PEOPLE)
    worker.shutdown()
    gate.set()
    assert queued.cancelled() and ran == []
    assert worker.submit(lambda: ran.append(2), "t1", Lane.PEOPLE).cancelled()
