"""The shell's watch over its database while it runs: its files looked at every few
seconds (removed, replaced, cut short, a header overwritten, WAL frames lost: see
:mod:`.storage_files`) and, if they are sound, the WAL checkpointed; its pages read through
by SQLite's quick check every :data:`PAGES_SECONDS` (pages overwritten in the middle of the
file), all in worker threads, never on the event loop; and the rolling backups. Damage
found either way takes the same path: every write refused from then on, with a word to
whoever sends one, and what the server holds (every acknowledged action) copied to a safe
file."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3

from .backups import backup
from .storage import Store
from .storage_files import Checkpoints, PageCheck

log = logging.getLogger("tyros.server")

WATCH_SECONDS = 2.0
"""How often the database's files are looked at (cheap: a stat and a few small reads)."""
PAGES_SECONDS = 30.0
"""How often every page is read through: the whole file, in a thread (55-70 ms for a 36 MB
database of 400 finished games, docs/benchmarks.md "A damaged database file")."""


class DatabaseGuard:
    """Watches one store's files and pages, and backs it up."""

    def __init__(self, store: Store, *, backups: int = 3) -> None:
        self.store = store
        self.backups = backups
        self.pages = None if store.path == ":memory:" else PageCheck(store.path)
        self.checkpoints = None if store.path == ":memory:" else Checkpoints(store.path)
        if self.checkpoints is not None:
            store.checkpoint_elsewhere()  # (made in watch_forever, after a look at the files)
        self._checkpoint_failing = False
        """Whether the last checkpoint failed (its failure is logged once, not each time)."""

    async def watch_forever(self) -> None:
        while self.store.broken is None:
            await asyncio.sleep(WATCH_SECONDS)
            # The files are read in a worker thread: a slow disk never holds up the game.
            self.break_off(await asyncio.to_thread(self._look_then_checkpoint))

    def _look_then_checkpoint(self) -> str | None:
        """Look at the files; if they are sound, copy the WAL into the database (never a
        WAL with a hole in it: the hole would be copied too)."""
        problem = self.store.watch()
        if problem is None and self.checkpoints is not None:
            failed = self.checkpoints.run()
            if failed is not None and not self._checkpoint_failing:
                log.warning("checkpointing the database failed (tried again): %s", failed)
            self._checkpoint_failing = failed is not None
        return problem

    async def check_pages_forever(self) -> None:
        pages = self.pages
        while pages is not None and self.store.broken is None:
            await asyncio.sleep(PAGES_SECONDS)
            self.break_off(await asyncio.to_thread(pages.look))

    def look(self) -> None:
        """Look at the files now (see :meth:`Store.watch`) and act on what is seen; if
        they are sound, checkpoint the WAL."""
        self.break_off(self._look_then_checkpoint())

    def check_pages(self) -> None:
        """Read every page now (SQLite's quick check) and act on what is found."""
        if self.pages is not None:
            self.break_off(self.pages.look())

    def break_off(self, problem: str | None) -> None:
        """If the database's files were damaged or moved away while the server runs
        (SQLite writes on into them, and a crash or the next start finds them lost or
        damaged), refuse every action from now on and copy what the server holds, every
        acknowledged action included, to a safe file; one log line says so, and what to do."""
        store = self.store
        if store.broken is not None or problem is None:
            return
        why = f"the database's files were damaged or moved away ({problem})"
        try:
            rescued = store.break_off(why)
        except (OSError, sqlite3.Error) as exc:
            store.broken = why
            log.error(
                "%s: every action is refused from now on, and copying what the server holds "
                "failed (%s): do not stop the server before its files are back in place",
                problem,
                exc,
            )
            return
        db = store.path
        log.error(
            "%s: every action is refused from now on; what the server holds (every action it "
            "acknowledged) is in %s: stop the server, then run "
            "'tyros-server restore --db %s --from %s' and start it again",
            problem,
            rescued,
            db,
            rescued,
        )

    async def back_up_forever(self, every: float) -> None:
        """A rolling online backup at start and then every ``every`` seconds, in a worker
        thread with its own connection (the game goes on meanwhile)."""
        while self.store.broken is None:  # (a copy of moved-away files would mislead)
            copy = asyncio.ensure_future(asyncio.to_thread(backup, self.store.path, self.backups))
            try:
                # Shielded: a stop waits for a copy under way rather than leave it half done.
                written = await asyncio.shield(copy)
                log.info("database backed up to %s", written)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await copy
                raise
            except Exception as exc:  # a failed backup must not stop the games
                log.warning("backing up the database failed: %s", exc)
            await asyncio.sleep(every)
