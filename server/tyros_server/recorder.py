"""The shell's record thread: finished games' records made from the store (tens of
milliseconds each) beside the event loop, never on it, with a read-only connection of
the thread's own (see :mod:`.session.archive`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from tyros_protocol.errors import ErrorCode

from .records import StoreReader
from .session.archive import Built, RecordJob, Refusal
from .storage import Store

log = logging.getLogger("tyros.server")


class Recorder:
    """Makes records one at a time, in the order asked, and hands each back on the loop."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tyros-records")
        self._reader: Store | None = None
        """The thread's connection, opened at its first record."""

    def make(self, job: RecordJob, done: Callable[[RecordJob, Built], None]) -> None:
        """Make ``job``'s record off the loop, then call ``done`` with it on the loop."""
        if self.store.path == ":memory:":  # (tests: no second connection would see it)
            done(job, job.run(self.store))
            return
        made = asyncio.get_running_loop().run_in_executor(self._thread, self._make, job)

        def back(future: asyncio.Future[Built]) -> None:
            if future.cancelled():
                return  # the server is stopping
            failed = future.exception()
            if failed is not None:
                log.error("making the record of table %s failed: %s", job.table, failed)
                done(job, Refusal(ErrorCode.INTERNAL, "the record could not be made"))
            else:
                done(job, future.result())

        made.add_done_callback(back)

    def _make(self, job: RecordJob) -> Built:
        if self._reader is None:
            self._reader = StoreReader(self.store.path)
        return job.run(self._reader)

    def cancel(self) -> None:
        """Make no more records (the server is stopping)."""
        self._thread.shutdown(wait=False, cancel_futures=True)

    async def stop(self) -> None:
        """Wait for a record under way, then close the thread's connection."""
        self._thread.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self._thread.shutdown, True)
        if self._reader is not None:
            self._reader.close()
