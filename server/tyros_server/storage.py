"""SQLite storage: tables, seats and every accepted action, committed one by one.

A game is stored as its options (the seed included) and its ordered actions;
replaying them through the engine rebuilds the state exactly. Seat tokens are
stored only as SHA-256 digests.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    options TEXT NOT NULL,
    trade_seconds INTEGER NOT NULL,
    created REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    salt TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS seats (
    table_name TEXT NOT NULL REFERENCES tables(name),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token_digest TEXT NOT NULL UNIQUE,
    PRIMARY KEY (table_name, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_name TEXT NOT NULL REFERENCES tables(name),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_name, seq)
);
"""


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class StorageError(RuntimeError):
    """The database refused a write: the action it carried was not accepted."""


@dataclass(frozen=True, slots=True)
class StoredSeat:
    seat: int
    name: str
    token_digest: str


@dataclass(frozen=True, slots=True)
class StoredTable:
    name: str
    options: dict[str, Any]
    trade_seconds: int
    finished: bool
    seats: list[StoredSeat]
    salt: str
    """Mixed with the seed in the table's commitment (see :func:`seed_commitment`)."""
    actions: list[tuple[int, dict[str, Any]]]
    """(seat, action JSON) in the order they were accepted."""


class Store:
    """One SQLite file (WAL); every write is its own committed transaction."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(tables)")}
        if "salt" not in columns:  # a database from before commitments
            self._db.execute("ALTER TABLE tables ADD COLUMN salt TEXT NOT NULL DEFAULT ''")

    def close(self) -> None:
        self._db.close()

    def _write(self, sql: str, args: tuple[Any, ...]) -> None:
        try:
            with self._db:  # BEGIN ... COMMIT, or ROLLBACK on error
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(sql, args)
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc

    def create_table(
        self,
        name: str,
        options: dict[str, Any],
        trade_seconds: int,
        created: float,
        salt: str = "",
    ) -> None:
        self._write(
            "INSERT INTO tables (name, options, trade_seconds, created, salt) VALUES (?,?,?,?,?)",
            (name, json.dumps(options), trade_seconds, created, salt),
        )

    def add_seat(self, table: str, seat: int, name: str, digest: str) -> None:
        self._write(
            "INSERT INTO seats (table_name, seat, name, token_digest) VALUES (?,?,?,?)",
            (table, seat, name, digest),
        )

    def append_action(self, table: str, seq: int, seat: int, action: dict[str, Any]) -> None:
        self._write(
            "INSERT INTO actions (table_name, seq, seat, action) VALUES (?,?,?,?)",
            (table, seq, seat, json.dumps(action)),
        )

    def mark_finished(self, table: str) -> None:
        self._write("UPDATE tables SET finished = 1 WHERE name = ?", (table,))

    def load_table(self, name: str) -> StoredTable | None:
        row = self._db.execute(
            "SELECT name, options, trade_seconds, finished, salt FROM tables WHERE name = ?",
            (name,),
        ).fetchone()
        if row is None:
            return None
        seats = [
            StoredSeat(seat, seat_name, digest)
            for seat, seat_name, digest in self._db.execute(
                "SELECT seat, name, token_digest FROM seats WHERE table_name = ? ORDER BY seat",
                (name,),
            )
        ]
        actions = [
            (seat, json.loads(text))
            for seat, text in self._db.execute(
                "SELECT seat, action FROM actions WHERE table_name = ? ORDER BY seq", (name,)
            )
        ]
        return StoredTable(row[0], json.loads(row[1]), row[2], bool(row[3]), seats, row[4], actions)

    def table_names(self, *, unfinished_only: bool = False) -> list[str]:
        sql = "SELECT name FROM tables"
        if unfinished_only:
            sql += " WHERE finished = 0"
        return [name for (name,) in self._db.execute(sql + " ORDER BY created, name")]


def seed_commitment(seed: int, salt: str) -> str:
    """What every player is shown when the game starts, before any card is dealt: the
    SHA-256 of the seed and a secret salt, so that neither can change unseen (the salt
    keeps the seed from being found by trying seeds). Both are revealed at the end.

    >>> seed_commitment(42, "00ff")[:16]
    '49e9c20f0344bc84'
    """
    return hashlib.sha256(f"tyros-seed:{seed}:{salt}".encode()).hexdigest()


def fairness(seed: int, salt: str, finished: bool) -> dict[str, Any]:
    """What a table shows of its deal: the commitment from the start, the seed and salt
    once the game is over (nothing for a table from before commitments, with no salt)."""
    if not salt:
        return {}
    out: dict[str, Any] = {"commitment": seed_commitment(seed, salt)}
    if finished:
        out.update(seed=seed, salt=salt)
    return out
