"""The session's turns: everything that touches the session (a frame, a tick, a decision
or advice back from the worker, a record made, a connection gone) waits in one queue and is
handled in order by one task, a few at a time, in a batch whose actions are committed
together in a thread of their own. While a commit is under way (a disk sync: milliseconds,
or far longer on a slow disk) the event loop goes on reading and writing sockets, and what
arrives meanwhile waits for the next batch; nothing else touches the session or the store,
so nothing is read or sent that the commit could yet take back, and an action is
acknowledged only once its commit has completed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from .session import ConnId, Output, Send, Session
from .storage import Store

log = logging.getLogger("tyros.server")

BATCH_ITEMS = 8
"""Frames (and other work) handled, and their actions committed, together at most: a
small batch, so that the first frame's answer never waits long for the last's handling."""

INTERNAL_ERROR = {
    "type": "error",
    "re": None,
    "code": "internal_error",
    "message": "the server failed on that message",
}


@dataclass(slots=True)
class _Work:
    run: Callable[[], None]
    done: asyncio.Future[None]
    wake: bool


_Item = tuple[ConnId, str | bytes] | _Work


class Turns:
    """The one queue in front of a session (module docs). ``deliver`` sends what a batch
    caused; ``after(wake)`` is called after each batch (``wake``: something in it may have
    moved the session's deadlines)."""

    def __init__(
        self,
        session: Session,
        store: Store,
        deliver: Callable[[Output], None],
        after: Callable[[bool], None],
    ) -> None:
        self.session = session
        self.store = store
        self.deliver = deliver
        self.after = after
        self._queue: list[_Item] = []
        self._task: asyncio.Task[None] | None = None
        self._commits = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tyros-commits")
        self.closed = False

    def frame(self, conn: ConnId, data: str | bytes) -> None:
        """A frame received: handled in its turn."""
        self._queue.append((conn, data))
        self._start()

    def call(self, run: Callable[[], None], *, wake: bool = True) -> asyncio.Future[None]:
        """``run`` (which touches the session) in its turn; the future is done after the
        batch it ran in was committed and sent."""
        done = asyncio.get_running_loop().create_future()
        if self.closed:
            done.set_result(None)
            return done
        self._queue.append(_Work(run, done, wake))
        self._start()
        return done

    async def idle(self) -> None:
        """Wait until everything queued was handled, then take no more work (stopping)."""
        while self._task is not None:
            await asyncio.shield(self._task)
        self.closed = True
        self._commits.shutdown(wait=True)

    def _start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        try:
            while self._queue:
                items = self._queue[:BATCH_ITEMS]
                del self._queue[:BATCH_ITEMS]
                try:
                    await self._batch(items)
                except Exception:  # a bug must cost one batch, not every later turn
                    log.exception("a batch of the session's turns failed")
                finally:
                    for item in items:  # (whoever waits for its turn waits no more)
                        if isinstance(item, _Work) and not item.done.done():
                            item.done.set_result(None)
        finally:
            self._task = None

    async def _batch(self, items: list[_Item]) -> None:
        session, wake = self.session, False
        failures: Output = []
        session.begin_batch()
        try:
            for item in items:
                if isinstance(item, _Work):
                    wake = wake or item.wake
                    self._held(item.run)
                    continue
                wake = True
                conn, frame = item
                try:
                    session.receive(conn, frame)
                except Exception:  # a bug must cost one message, not the server
                    log.exception("handling a message failed")
                    failures.append(Send(conn, INTERNAL_ERROR))
        finally:
            if self.store.uncommitted:
                # The disk sync off the loop; a failure is raised by the session's own
                # commit in end_batch, which takes the batch's actions back.
                loop = asyncio.get_running_loop()
                commit = loop.run_in_executor(self._commits, self.store.commit_aside)
                try:
                    await asyncio.shield(commit)
                except asyncio.CancelledError:
                    await commit  # (never left half done: the batch ends first)
                    raise
                finally:
                    self._end(failures)
            else:
                self._end(failures)
            self.after(wake)

    def _end(self, failures: Output) -> None:
        self.session.end_batch()
        self.deliver(self.session.data_to_send() + failures)

    def _held(self, run: Callable[[], None]) -> None:
        """Run ``run`` in the open batch, its output held with the actions it applied, as a
        frame's is: sent if they are committed, not if they are taken back."""
        session = self.session
        batch = session.ledger.batch
        assert batch is not None
        first = len(batch.undos)
        try:
            run()
        except Exception:  # one table's failure must not stop the others' turns
            log.exception("work for the session failed")
        batch.chunks.append((session.data_to_send(), batch.undos[first:]))
