"""SQLite storage: tables, seats and every accepted action, committed one by one.

A game is stored as its options (the seed included), the rules version it is
played under, and its ordered actions, each with a digest of the state it led
to; replaying them through the engine rebuilds the state exactly, and the
digests prove it did. Seat tokens are stored only as SHA-256 digests. The file
is created readable by its owner only (it holds every unfinished game's seed).

Opening checks that the file is a sound tyros database and says in one line
what is wrong when it is not (:mod:`.database`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .database import StorageError as StorageError
from .database import StoreDamagedError as StoreDamagedError
from .database import StoreOpenError as StoreOpenError
from .database import open_database
from .storage_files import WatchedFiles
from .stored import StoredSeat as StoredSeat
from .stored import StoredTable as StoredTable


def stamp() -> str:
    """Now, as the date and time in the names of the files kept beside a database."""
    return time.strftime("%Y%m%d-%H%M%S")


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Store:
    """One SQLite file (WAL); every write is its own committed transaction, except the
    actions written while :attr:`deferring`: they wait in one transaction for
    :meth:`commit` (one disk sync for all of them)."""

    _files: WatchedFiles | None = None
    """(A class default too: a subclass of its own opening watches nothing.)"""
    _lost: StorageError | None = None
    """Why a commit made aside (:meth:`commit_aside`) failed, for the next :meth:`commit`."""

    def __init__(self, path: str, *, create: bool = True) -> None:
        self.path = path
        if not create and path != ":memory:" and not Path(path).exists():
            raise StoreOpenError(f"there is no database {path}")
        self._db = open_database(path)
        self._files = None if path == ":memory:" else WatchedFiles(path)
        """The database file and its WAL as opened: SQLite writes on through its open files
        whatever happens to them underneath (:meth:`watch`)."""
        self.broken: str | None = None
        """Why every write is refused (the files were damaged or moved away), if they are."""
        self._settle: Callable[[], None] | None = None
        """While actions are deferred (:meth:`deferred`): what commits them (and deals with
        a failure) before any other write, or a read of a table, goes ahead."""
        self.commits = 0
        """Transactions committed so far (what the disk was asked to sync)."""

    def close(self) -> None:
        """Close (again: nothing); deferred writes not committed are dropped, as nobody
        was told of them."""
        self._rollback()
        self._db.close()
        if self._files is not None:
            self._files.close()

    def checkpoint_elsewhere(self) -> None:
        """Leave the WAL's checkpoints to another connection (see
        :class:`.storage_files.Checkpoints`), which must then run them: the commits no
        longer make them."""
        self._db.execute("PRAGMA wal_autocheckpoint=0")

    def watch(self) -> str | None:
        """What happened to the files this store writes to underneath SQLite (removed,
        replaced, cut short, a header overwritten, WAL frames lost: see
        :mod:`.storage_files`), in a few words: None if nothing. Writes would go on into
        files a crash or the next start finds damaged. Reads only the files: it may run in
        another thread than the store's."""
        return None if self._files is None else self._files.look()

    @property
    def refusal(self) -> str | None:
        """Why every write is refused, for whoever made one (the server's files unnamed);
        None while writes are not refused as a rule."""
        if self.broken is None:
            return None
        return (
            "the server stopped writing: its database files were damaged or moved away; "
            "everything acknowledged so far is kept"
        )

    def break_off(self, why: str) -> Path:
        """Refuse every write from now on (``why``), and copy what the open database holds,
        the actions acknowledged so far included, to ``PATH.rescued-DATE`` (returned)."""
        self.broken = why
        self._rollback()
        target = Path(f"{self.path}.rescued-{stamp()}")
        os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o600))
        copy = sqlite3.connect(target)
        try:
            self._db.backup(copy)
        finally:
            copy.close()
        return target

    @property
    def deferring(self) -> bool:
        """Whether :meth:`append_action` and :meth:`mark_finished` wait for :meth:`commit`."""
        return self._settle is not None

    @contextlib.contextmanager
    def deferred(self, settle: Callable[[], None]) -> Iterator[None]:
        """Actions written inside wait in one transaction for :meth:`commit` (one disk sync
        for all of them). Any other write, and a read of a table or its talk, first calls
        ``settle``, which must commit them (and deal with a failure): nothing written later
        may go to disk before them, and nothing read may show what could yet be taken back.
        Leaving the block does not commit: settle before it."""
        assert self._settle is None, "actions are deferred already"
        self._settle = settle
        try:
            yield
        finally:
            self._settle = None

    def _settle_first(self) -> None:
        if self._settle is not None and self._db.in_transaction:
            self._settle()

    def _write(self, sql: str, args: tuple[Any, ...], *, deferrable: bool = False) -> None:
        if self.broken is not None:
            raise StorageError(self.broken)
        if deferrable and self.deferring:
            try:
                if not self._db.in_transaction:
                    self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(sql, args)
            except sqlite3.Error as exc:
                self._rollback()  # the whole batch: an I/O error may have ended it already
                raise StorageError(str(exc)) from exc
            return
        self._settle_first()
        try:
            assert not self._db.in_transaction, "commit the deferred actions first"
            with self._db:  # BEGIN ... COMMIT, or ROLLBACK on error
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc
        self.commits += 1

    @property
    def uncommitted(self) -> bool:
        """Whether deferred writes wait for :meth:`commit`."""
        return self._db.in_transaction

    def commit_aside(self) -> None:
        """:meth:`commit` in a thread of the server's while nothing else uses the store (a
        slow disk then holds up no one): a failure is kept, and raised by the next
        :meth:`commit`, whose caller takes the actions back."""
        try:
            self.commit()
        except StorageError as exc:
            self._lost = exc

    def commit(self) -> None:
        """Make the deferred writes durable, all or none (StorageError: none)."""
        if self._lost is not None:
            lost, self._lost = self._lost, None
            raise lost
        if self.broken is not None:
            self._rollback()
            raise StorageError(self.broken)
        try:
            if not self._db.in_transaction:
                return
            self._db.commit()
        except sqlite3.Error as exc:
            self._rollback()
            raise StorageError(str(exc)) from exc
        self.commits += 1

    def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.Error):  # ProgrammingError: closed already
            if self._db.in_transaction:
                self._db.rollback()

    def create_table(
        self,
        name: str,
        options: dict[str, Any],
        trade_seconds: int,
        created: float,
        salt: str = "",
        rules_version: int = 0,
        clock: dict[str, int] | None = None,
        hints: bool = True,
        bot_level: str | None = None,
    ) -> None:
        self._write(
            "INSERT INTO tables (name, options, trade_seconds, created, salt, "
            "rules_version, clock, hints, bot_level) VALUES (?,?,?,?,?,?,?,?,?)",
            (
                name,
                json.dumps(options),
                trade_seconds,
                created,
                salt,
                rules_version,
                None if clock is None else json.dumps(clock),
                int(hints),
                bot_level,
            ),
        )

    def add_seat(
        self, table: str, seat: int, name: str, digest: str, program: bool = False
    ) -> None:
        self._write(
            "INSERT INTO seats (table_name, seat, name, token_digest, program) VALUES (?,?,?,?,?)",
            (table, seat, name, digest, int(program)),
        )

    def append_action(
        self,
        table: str,
        seq: int,
        seat: int,
        action: dict[str, Any],
        digest: str | None = None,
        *,
        decided_by: str | None = None,
        reserve: float | None = None,
        hinted: bool = False,
    ) -> None:
        self._write(
            "INSERT INTO actions "
            "(table_name, seq, seat, action, digest, decided_by, reserve, hinted) "
            "VALUES (?,?,?,?,?,?,?,?)",
            (table, seq, seat, json.dumps(action), digest, decided_by, reserve, int(hinted)),
            deferrable=True,
        )

    def append_chat(self, table: str, line: dict[str, Any], said: float) -> None:
        """Store a line of table talk (a ``chat`` message's fields)."""
        self._write(
            "INSERT INTO chat (table_name, seq, version, seat, name, audience, text, said) "
            "VALUES (?,?,?,?,?,?,?,?)",
            (
                table,
                line["seq"],
                line["version"],
                line["seat"],
                line["name"],
                line["audience"],
                line["text"],
                said,
            ),
        )

    def load_chat(self, table: str, last: int | None = None) -> list[dict[str, Any]]:
        """The table's talk in order (only the ``last`` lines if given), as ``chat``
        messages."""
        sql = (
            "SELECT seq, version, seat, name, audience, text FROM chat WHERE table_name = ? "
            "ORDER BY seq DESC"
        )
        args: tuple[Any, ...] = (table,)
        if last is not None:
            sql += " LIMIT ?"
            args = (table, last)
        self._settle_first()
        rows = self._db.execute(sql, args).fetchall()
        return [
            {
                "type": "chat",
                "seq": seq,
                "version": version,
                "seat": seat,
                "name": name,
                "audience": audience,
                "text": text,
            }
            for seq, version, seat, name, audience, text in reversed(rows)
        ]

    def mark_finished(
        self, table: str, listing: dict[str, Any] | None = None, when: float | None = None
    ) -> None:
        """The game at ``table`` is over; ``listing`` is its row in the table list from now
        on (a restarted server lists it by that row), ``when`` the date it ended."""
        self._write(
            "UPDATE tables SET finished = 1, listing = ?, finished_at = ? WHERE name = ?",
            (None if listing is None else json.dumps(listing), when, table),
            deferrable=True,
        )

    def finished_listings(self, latest: int) -> list[tuple[str, dict[str, Any]]]:
        """The rows of the ``latest`` finished tables to end (of those stored with a row
        that can be read), the latest last: what a restarted server lists of its games."""
        rows = self._db.execute(
            "SELECT name, CAST(listing AS BLOB) FROM tables "
            "WHERE finished = 1 AND listing IS NOT NULL ORDER BY finished_at DESC, rowid DESC"
        )
        listings: list[tuple[str, dict[str, Any]]] = []
        for name, data in rows:
            if len(listings) >= latest:
                break
            try:  # (a damaged row is left out: it must not keep the server from starting)
                listing = json.loads(bytes(data).decode("utf-8"))
            except (ValueError, RecursionError):  # (UnicodeDecodeError is a ValueError)
                continue
            if isinstance(listing, dict) and listing.get("name") == name:
                listings.append((name, listing))
        return listings[::-1]

    def delete_unstarted_table(self, name: str) -> None:
        """Remove a table at which nothing was played (its seats, then itself)."""
        if self.broken is not None:
            raise StorageError(self.broken)
        self._settle_first()
        try:
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                if self._db.execute(
                    "SELECT 1 FROM actions WHERE table_name = ? LIMIT 1", (name,)
                ).fetchone():
                    raise StorageError(f"table {name} has actions: it is not removed")
                self._db.execute("DELETE FROM chat WHERE table_name = ?", (name,))
                self._db.execute("DELETE FROM seats WHERE table_name = ?", (name,))
                self._db.execute("DELETE FROM tables WHERE name = ?", (name,))
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc

    def has_table(self, name: str) -> bool:
        found = self._db.execute("SELECT 1 FROM tables WHERE name = ?", (name,)).fetchone()
        return found is not None

    def table_size(self, name: str) -> tuple[int, str]:
        """(players, setup) as stored, read leniently (for a table that cannot be loaded)."""
        row = self._db.execute("SELECT options FROM tables WHERE name = ?", (name,)).fetchone()
        players, setup = 4, "first"
        with contextlib.suppress(ValueError, TypeError, AttributeError):
            options = json.loads(row[0])
            if options.get("players") in (3, 4):
                players = options["players"]
            if options.get("setup") in ("first", "variable"):
                setup = options["setup"]
        return players, setup

    def load_table(self, name: str) -> StoredTable | None:
        self._settle_first()
        row = self._db.execute(
            "SELECT name, options, trade_seconds, finished, salt, rules_version, clock, hints, "
            "bot_level FROM tables WHERE name = ?",
            (name,),
        ).fetchone()
        if row is None:
            return None
        seats = [
            StoredSeat(seat, seat_name, digest, bool(program))
            for seat, seat_name, digest, program in self._db.execute(
                "SELECT seat, name, token_digest, program FROM seats WHERE table_name = ? "
                "ORDER BY seat",
                (name,),
            )
        ]
        actions, digests, decided_by, reserves, hinted = [], [], [], [], []
        for seat, text, digest, by, reserve, hint in self._db.execute(
            "SELECT seat, action, digest, decided_by, reserve, hinted FROM actions "
            "WHERE table_name = ? ORDER BY seq",
            (name,),
        ):
            actions.append((seat, json.loads(text)))
            digests.append(digest)
            decided_by.append(by)
            reserves.append(reserve)
            hinted.append(bool(hint))
        return StoredTable(
            row[0],
            json.loads(row[1]),
            row[2],
            bool(row[3]),
            seats,
            row[4],
            actions,
            rules_version=row[5],
            digests=digests,
            clock=None if row[6] is None else json.loads(row[6]),
            decided_by=decided_by,
            reserves=reserves,
            hints=bool(row[7]),
            hinted=hinted,
            bot_level=row[8],
        )

    def counts(self) -> tuple[int, int]:
        """(tables, actions) held: what a restore says it brought back."""
        tables = self._db.execute("SELECT COUNT(*) FROM tables").fetchone()[0]
        actions = self._db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
        return int(tables), int(actions)

    def table_list(self) -> list[tuple[str, float, bool, int]]:
        """Every stored table as (name, when created, whether finished, actions played), in
        the order they were created."""
        rows = self._db.execute(
            "SELECT name, created, finished, "
            "(SELECT count(*) FROM actions WHERE actions.table_name = tables.name) "
            "FROM tables ORDER BY created, name"
        )
        return [(name, float(created), bool(done), int(n)) for name, created, done, n in rows]

    def quarantined(self) -> dict[str, str]:
        """Tables lost to damage on disk (named by a repair), and why."""
        return dict(self._db.execute("SELECT name, reason FROM quarantined ORDER BY name"))

    def table_names(self, *, unfinished_only: bool = False) -> list[str]:
        sql = "SELECT name FROM tables"
        if unfinished_only:
            sql += " WHERE finished = 0"
        return [name for (name,) in self._db.execute(sql + " ORDER BY created, name")]
