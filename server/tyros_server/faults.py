"""A fault said loudly once, then counted: a failing disk must not write a traceback for
every action it refuses (a full disk refused hundreds a second), nor go quiet.

>>> import logging
>>> now = [0.0]
>>> faults = FaultLog(logging.getLogger("doctest"), interval=60.0, clock=lambda: now[0])
>>> faults.failed("storing an action", OSError("disk full"))  # logged in full
>>> for _ in range(3):
...     faults.failed("storing an action", OSError("disk full"))  # counted
>>> faults.pending
3
>>> now[0] = 61.0
>>> faults.flush()  # one line: 3 more failures in the last 61 s
>>> faults.pending
0
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

FAULT_INTERVAL = 60.0
"""Seconds between two log lines about the same run of failures."""


class FaultLog:
    """The storage failures of a server: the first of a run in full (with its traceback),
    then one line per ``interval`` with how many more there were, and the latest."""

    def __init__(
        self,
        logger: logging.Logger,
        interval: float = FAULT_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.interval = interval
        self.clock = clock
        self.said_at: float | None = None
        """When a failure was last logged (None: none of this run yet)."""
        self.pending = 0
        """Failures since then, not yet logged."""
        self.latest = ""

    def failed(self, what: str, exc: BaseException) -> None:
        """``what`` failed with ``exc``."""
        now = self.clock()
        if self.said_at is None:
            self.logger.error("%s failed: %s", what, exc, exc_info=exc)
            self.said_at = now
            return
        self.pending += 1
        self.latest = f"{what}: {exc}"
        self.flush()

    def flush(self) -> None:
        """Say how many failures came since the last line, once ``interval`` has passed
        (the server calls it on every tick); a quiet interval ends the run."""
        if self.said_at is None:
            return
        now = self.clock()
        if now - self.said_at < self.interval:
            return
        if self.pending:
            self.logger.error(
                "%d more storage failures in the last %.0f s (the latest: %s)",
                self.pending,
                now - self.said_at,
                self.latest,
            )
            self.said_at, self.pending = now, 0
        else:
            self.said_at = None  # nothing failed for a whole interval: the next is news
