"""The database file itself: its schema, what can be wrong with it, and opening it.

Opening refuses what is not a usable tyros database, in one line that says why and what to
do (:class:`StoreOpenError`; :class:`StoreDamagedError` when SQLite's check finds damaged
pages, which :mod:`.backups` repairs), and brings a database of an older version up to
today's schema.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name TEXT PRIMARY KEY,
    options TEXT NOT NULL,
    trade_seconds INTEGER NOT NULL,
    created REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    salt TEXT NOT NULL DEFAULT '',
    rules_version INTEGER NOT NULL DEFAULT 0,
    clock TEXT,
    hints INTEGER NOT NULL DEFAULT 1,
    bot_level TEXT,
    listing TEXT,
    finished_at REAL
);
CREATE TABLE IF NOT EXISTS seats (
    table_name TEXT NOT NULL REFERENCES tables(name),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token_digest TEXT NOT NULL UNIQUE,
    program INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_name, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_name TEXT NOT NULL REFERENCES tables(name),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    digest TEXT,
    decided_by TEXT,
    reserve REAL,
    hinted INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_name, seq)
);
CREATE TABLE IF NOT EXISTS chat (
    table_name TEXT NOT NULL REFERENCES tables(name),
    seq INTEGER NOT NULL,
    version INTEGER NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    audience TEXT NOT NULL,
    text TEXT NOT NULL,
    said REAL NOT NULL,
    PRIMARY KEY (table_name, seq)
);
CREATE TABLE IF NOT EXISTS quarantined (
    name TEXT PRIMARY KEY,
    reason TEXT NOT NULL
);
"""

APPLICATION_ID = 0x54595253
"""SQLite's ``application_id`` of a tyros database ("TYRS"): another program's file is
refused instead of written into."""

OUR_TABLES = frozenset({"tables", "seats", "actions"})
"""The tables every tyros database has (``chat`` came later: an older backup lacks it)."""

ADDED_COLUMNS = (
    ("tables", "salt", "TEXT NOT NULL DEFAULT ''"),
    ("tables", "rules_version", "INTEGER NOT NULL DEFAULT 0"),
    ("actions", "digest", "TEXT"),
    ("tables", "clock", "TEXT"),
    ("actions", "decided_by", "TEXT"),
    ("actions", "reserve", "REAL"),
    ("tables", "hints", "INTEGER NOT NULL DEFAULT 1"),
    ("actions", "hinted", "INTEGER NOT NULL DEFAULT 0"),
    ("seats", "program", "INTEGER NOT NULL DEFAULT 0"),
    ("tables", "bot_level", "TEXT"),
    ("tables", "listing", "TEXT"),
    ("tables", "finished_at", "REAL"),
)
"""Columns added since the first schema: a database from before gets them on opening."""


class StorageError(RuntimeError):
    """The database refused a write: the action it carried was not accepted."""


class StoreOpenError(StorageError):
    """The database cannot be used at all; the message says why in one line, and what
    to do about it."""


class StoreDamagedError(StoreOpenError):
    """SQLite's check of the file found damaged pages (all it said: ``problems``)."""

    def __init__(self, message: str, problems: list[str]) -> None:
        super().__init__(message)
        self.problems = problems


def open_database(path: str) -> sqlite3.Connection:
    """Open (creating if missing, owner-only) a tyros database, migrate it, check it."""
    if path != ":memory:":
        _refuse_unusable_file(path)
    try:
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=2.0)
    except sqlite3.Error as exc:
        raise StoreOpenError(f"cannot open the database {path}: {exc}") from exc
    try:
        _prepare(db, path)
    except StoreOpenError:
        db.close()
        raise
    except sqlite3.DatabaseError as exc:
        db.close()
        if "malformed" in str(exc) or "corrupt" in str(exc):  # the check itself could not go on
            raise StoreDamagedError(_explain(path, exc), [str(exc)]) from exc
        raise StoreOpenError(_explain(path, exc)) from exc
    return db


def _refuse_unusable_file(path: str) -> None:
    file = Path(path)
    if not file.exists():
        if not file.parent.is_dir():
            raise StoreOpenError(f"cannot create the database {path}: no folder {file.parent}")
        try:  # created owner-only; SQLite gives its -wal and -shm files the same mode
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        except FileExistsError:
            pass
        except OSError as exc:
            raise StoreOpenError(
                f"cannot create the database {path}: {exc.strerror or exc}"
            ) from exc
        return
    if file.is_dir():
        raise StoreOpenError(f"the database {path} is a folder, not a file")
    if file.stat().st_size == 0 and not Path(path + "-wal").exists():
        raise StoreOpenError(
            f"the database {path} is empty (0 bytes): it was cut or never written. Restore it "
            f"with 'tyros-server restore --db {path}', or delete it to start with no tables"
        )
    if not os.access(path, os.R_OK | os.W_OK):
        raise StoreOpenError(
            f"the database {path} cannot be read and written by this user (mode "
            f"{file.stat().st_mode & 0o777:o})"
        )


def _prepare(db: sqlite3.Connection, path: str) -> None:
    application_id = db.execute("PRAGMA application_id").fetchone()[0]
    existing = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if application_id not in (0, APPLICATION_ID) or (existing and "tables" not in existing):
        raise StoreOpenError(
            f"{path} is not a tyros database (it is another program's SQLite file): give "
            "another --db"
        )
    mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if str(mode).lower() != "wal" and path != ":memory:":
        raise StoreOpenError(f"the database {path} cannot be written (journal mode {mode})")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    problems = quick_check(db)
    if problems:
        raise StoreDamagedError(
            f"the database {path} is damaged ({summary(problems)}): restore it with "
            f"'tyros-server restore --db {path}'",
            problems,
        )
    db.executescript(SCHEMA)
    for table, column, declaration in ADDED_COLUMNS:  # a database from an older version
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {declaration}")
    if application_id != APPLICATION_ID:
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")


def quick_check(db: sqlite3.Connection) -> list[str]:
    """What SQLite's quick check finds wrong with the file (nothing: it is sound)."""
    rows = [str(row[0]) for row in db.execute("PRAGMA quick_check(1000)")]
    return [] if rows == ["ok"] else rows


def summary(problems: list[str]) -> str:
    """The first of a check's problems, on one line, and how many more there are."""
    first = " ".join(problems[0].split())[:160]
    more = len(problems) - 1
    return first if more == 0 else f"{first}; {more} more"


def _explain(path: str, exc: sqlite3.DatabaseError) -> str:
    text = str(exc)
    if "not a database" in text:
        return f"{path} is not a SQLite database (or is damaged beyond reading): give another --db"
    if "locked" in text or "busy" in text:
        return f"the database {path} is locked by another program: stop it, or give another --db"
    if "readonly" in text or "read-only" in text:
        return f"the database {path} is read-only for this user: give a writable --db"
    if "malformed" in text or "corrupt" in text:
        return (
            f"the database {path} is damaged ({text}): restore it with "
            f"'tyros-server restore --db {path}'"
        )
    return f"cannot use the database {path}: {text}"
