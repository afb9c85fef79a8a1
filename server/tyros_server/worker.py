"""The thread that makes the server's decisions, people's first and tables in turn.

Every decision the server makes for a seat runs here, off the event loop: the server's
own bots' (lane :attr:`Lane.HOUSE`), and those made in a person's place or for a person
(a takeover, a clock that ran out, a hint: lane :attr:`Lane.PEOPLE`). One thread, so
that a table's bots never run at once (they keep per-table memory), and two lanes, so
that a person never waits behind the server's bots: the worker takes the people's lane
first. Within a lane the tables take turns (one job of each table with work, in the
order they first had some), so that one table's many jobs delay another's by one at most.

>>> worker = DecisionWorker()
>>> worker.submit(lambda: 6 * 7, "friday", Lane.PEOPLE).result()
42
>>> worker.shutdown()
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future
from enum import IntEnum
from typing import Any


class Lane(IntEnum):
    """Which jobs go first: a lower lane is always taken before a higher one."""

    PEOPLE = 0
    HOUSE = 1


Work = tuple[Callable[[], Any], "Future[Any]"]


class DecisionWorker:
    """One worker thread with two lanes of per-table queues (see the module)."""

    def __init__(self, name: str = "tyros-deputy") -> None:
        self._ready = threading.Condition()
        self._lanes: list[OrderedDict[str, deque[Work]]] = [OrderedDict() for _ in Lane]
        self._stopped = False
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def submit(self, run: Callable[[], Any], table: str, lane: Lane) -> Future[Any]:
        """Queue ``run`` for ``table`` in ``lane``; its future holds what it returns (or
        raises). After :meth:`shutdown` the future comes back cancelled."""
        future: Future[Any] = Future()
        with self._ready:
            if self._stopped:
                future.cancel()
                return future
            self._lanes[lane].setdefault(table, deque()).append((run, future))
            self._ready.notify()
        return future

    def shutdown(self) -> None:
        """Stop after the job under way; the jobs still queued are cancelled."""
        with self._ready:
            self._stopped = True
            for lane in self._lanes:
                for queue in lane.values():
                    for _, future in queue:
                        future.cancel()
                lane.clear()
            self._ready.notify()

    def _next(self) -> Work | None:
        for lane in self._lanes:
            if lane:
                table, queue = next(iter(lane.items()))
                work = queue.popleft()
                if queue:
                    lane.move_to_end(table)  # (its next job after the other tables')
                else:
                    del lane[table]
                return work
        return None

    def _serve(self) -> None:
        while True:
            with self._ready:
                work = self._next()
                while work is None and not self._stopped:
                    self._ready.wait()
                    work = self._next()
                if work is None:
                    return
            run, future = work
            if not future.set_running_or_notify_cancel():
                continue
            try:
                result = run()
            except BaseException as exc:  # (the future carries it to whoever waits)
                future.set_exception(exc)
            else:
                future.set_result(result)
