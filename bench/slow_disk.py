"""``tyros-server`` on a slow disk: every commit of the store waits ``MS`` milliseconds
first, in the thread that commits, as a slow or busy disk's sync would (a sleep, like a
sync, holds no lock Python's other threads need). For the benchmarks only; the benches'
servers run under it when ``TYROS_BENCH_COMMIT_MS`` is set (see ``_common.py``):

    python bench/slow_disk.py MS [tyros-server's options]
"""

from __future__ import annotations

import sys
import time
from typing import Any

from tyros_server import cli
from tyros_server.storage import Store


def slow_commits(delay: float) -> None:
    """Every commit of every store (a batch's, and each write that commits at once) waits
    ``delay`` seconds first."""
    commit, write = Store.commit, Store._write

    def slow_commit(self: Store) -> None:
        if self._db.in_transaction:
            time.sleep(delay)
        commit(self)

    def slow_write(
        self: Store, sql: str, args: tuple[Any, ...], *, deferrable: bool = False
    ) -> None:
        if not (deferrable and self.deferring):  # (a deferred write waits for the commit)
            time.sleep(delay)
        write(self, sql, args, deferrable=deferrable)

    Store.commit = slow_commit  # type: ignore[method-assign]
    Store._write = slow_write  # type: ignore[method-assign]


if __name__ == "__main__":
    slow_commits(float(sys.argv[1]) / 1000)
    raise SystemExit(cli.main(sys.argv[2:]))
