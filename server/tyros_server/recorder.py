"""The shell's record process: finished games' records made from the store (tens of
milliseconds of replaying each) in a worker process of their own, with a read-only
connection of its own (see :mod:`.session.archive`), never on the event loop.

A process rather than a thread: a record made in a thread held the interpreter lock the
loop needs, and every batch of actions handled meanwhile took twice as long (a flood of
public records then made players' round trips miss 100 ms: docs/benchmarks.md, "The
public-record flood"). The process is started at the first record asked for.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from tyros_protocol.errors import ErrorCode

from .children import outlive_not
from .records import StoreReader
from .session.archive import Built, RecordJob, Refusal
from .storage import Store

log = logging.getLogger("tyros.server")

_READER: StoreReader | None = None
"""(In the record process: its connection, opened at its first record.)"""


def _make(path: str, job: RecordJob) -> Built:
    """(In the record process.)"""
    global _READER
    if _READER is None:
        _READER = StoreReader(path)
    return job.run(_READER)


class Recorder:
    """Makes records one at a time, in the order asked, and hands each back on the loop."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._process: ProcessPoolExecutor | None = None
        self._stopped = False

    def make(self, job: RecordJob, done: Callable[[RecordJob, Built], None]) -> None:
        """Make ``job``'s record off the loop, then call ``done`` with it on the loop."""
        if self.store.path == ":memory:":  # (tests: no other connection would see it)
            done(job, job.run(self.store))
            return
        if self._stopped:
            return  # (the server is stopping: nobody waits for it)
        made = asyncio.wrap_future(self._executor().submit(_make, self.store.path, job))

        def back(future: asyncio.Future[Built]) -> None:
            if future.cancelled():
                return  # the server is stopping
            failed = future.exception()
            if isinstance(failed, BrokenProcessPool):
                log.error("the record process died: starting another")
                self._process = None
            if failed is not None:
                log.error("making the record of table %s failed: %s", job.table, failed)
                done(job, Refusal(ErrorCode.INTERNAL, "the record could not be made"))
            else:
                done(job, future.result())

        made.add_done_callback(back)

    def _executor(self) -> ProcessPoolExecutor:
        if self._process is None:
            self._process = ProcessPoolExecutor(
                1,
                # Spawned: a fork of the server would copy its threads' locks mid-use.
                mp_context=multiprocessing.get_context("spawn"),
                initializer=outlive_not,
                initargs=(os.getpid(),),
            )
        return self._process

    def cancel(self) -> None:
        """Make no more records (the server is stopping)."""
        self._stopped = True
        if self._process is not None:
            self._process.shutdown(wait=False, cancel_futures=True)

    async def stop(self) -> None:
        """Wait for a record under way and the process's end."""
        self.cancel()
        if self._process is not None:
            await asyncio.to_thread(self._process.shutdown, True)
