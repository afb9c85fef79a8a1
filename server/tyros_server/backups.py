"""Backups of a live database, and repairs of a damaged one, without losing more than the
damage touched.

- :func:`backup`: SQLite's online backup to ``PATH.backup-1`` (older copies roll down);
- :func:`restore`: a new database made of the newest sound backup and then every table the
  damaged file still holds, readable and newer; the tables it cannot give back are named
  (quarantined when no backup holds them) and the damaged file is kept beside, renamed;
- :func:`write_check`: SQLite's whole verdict on a damaged file, to a file of its own;
- :class:`DatabaseLock`: one server per database.
"""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .storage import (
    OUR_TABLES,
    Store,
    StoreDamagedError,
    StoreOpenError,
    quick_check,
    stamp,
    summary,
)

log = logging.getLogger("tyros.server")

KEYS = {"tables": "name", "seats": "table_name", "actions": "table_name", "chat": "table_name"}
"""Each stored SQL table, and the column naming the game table a row belongs to."""

Rows = dict[str, list[tuple[Any, ...]]]
"""One game table's rows in each stored SQL table."""


def backup_paths(path: str, keep: int) -> list[Path]:
    """Where the rolling backups of ``path`` live, newest first."""
    return [Path(f"{path}.backup-{number}") for number in range(1, keep + 1)]


def backup(path: str, keep: int = 3) -> Path:
    """Copy the live database ``path`` (SQLite's online backup: a consistent snapshot while
    the server writes) to ``PATH.backup-1``, the older copies moving one place down.

    Uses its own connection, so it may run in a worker thread beside the server's.
    """
    paths = backup_paths(path, keep)
    fresh = Path(f"{path}.backup-new")
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5.0)
    try:
        fresh.unlink(missing_ok=True)
        os.close(os.open(fresh, os.O_CREAT | os.O_WRONLY, 0o600))
        target = sqlite3.connect(fresh)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()
    for older, newer in zip(reversed(paths[1:]), reversed(paths[:-1]), strict=True):
        if newer.exists():
            os.replace(newer, older)
    os.replace(fresh, paths[0])
    return paths[0]


def _read_only(path: Path, *, immutable: bool = False) -> sqlite3.Connection:
    """A connection that writes nothing; ``immutable`` also creates no ``-wal``/``-shm``
    beside the file (for a backup, which never has a journal of its own)."""
    flag = "&immutable=1" if immutable else ""
    return sqlite3.connect(f"file:{path}?mode=ro{flag}", uri=True)


def check_file(path: Path) -> str | None:
    """What is wrong with a database file as a backup to restore (None: it is sound)."""
    try:
        db = _read_only(path, immutable=True)
    except sqlite3.Error as exc:
        return str(exc)
    try:
        existing = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not existing >= OUR_TABLES:
            return "it is not a tyros database"
        problems = quick_check(db)
        return " ".join(problems[0].split()) if problems else None
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        db.close()


def write_check(path: str, problems: list[str]) -> Path:
    """Write a damaged database's whole check, a problem a line, to ``PATH.check-DATE.txt``."""
    target = Path(f"{path}.check-{stamp()}.txt")
    target.write_text("".join(f"{line}\n" for line in problems), encoding="utf-8")
    return target


# Reading what a damaged file still holds ----------------------------------------------


@dataclass
class Remains:
    """What a damaged database still gives back: each readable game table's rows, the
    columns they come in, and why the others cannot be read."""

    tables: dict[str, Rows] = field(default_factory=dict)
    columns: dict[str, list[str]] = field(default_factory=dict)
    unreadable: dict[str, str] = field(default_factory=dict)


def read_remains(path: Path, known: set[str], *, immutable: bool = False) -> Remains:
    """Read every game table of ``path`` that can be read whole (its options, seats,
    actions and talk), one by one, so that a damaged page costs only the tables on it.
    ``known`` are names to look for even when the list of tables itself is unreadable;
    ``immutable``: a file nothing writes (a backup), read without a journal beside it."""
    remains = Remains()
    if not path.exists():
        return remains
    try:
        db = _read_only(path, immutable=immutable)
        for sql_table in KEYS:
            remains.columns[sql_table] = [
                row[1] for row in db.execute(f"PRAGMA table_info({sql_table})")
            ]
    except sqlite3.Error as exc:
        remains.unreadable = dict.fromkeys(known, f"the file cannot be read ({exc})")
        return remains
    try:
        names = set(known)
        with contextlib.suppress(sqlite3.DatabaseError):  # then look up the names known
            names.update(name for (name,) in db.execute("SELECT name FROM tables"))
        for name in sorted(names):
            try:
                rows = _read_table(db, name, remains.columns)
            except (sqlite3.DatabaseError, ValueError) as exc:
                remains.unreadable[name] = str(exc)
                continue
            if rows["tables"]:
                remains.tables[name] = rows
    finally:
        db.close()
    return remains


def _read_table(db: sqlite3.Connection, name: str, columns: dict[str, list[str]]) -> Rows:
    rows: Rows = {}
    for sql_table, key in KEYS.items():
        if not columns[sql_table]:
            rows[sql_table] = []  # an older database, from before table talk
            continue
        listed = ", ".join(columns[sql_table])
        query = f"SELECT {listed} FROM {sql_table} {{}} WHERE {key} = ?"
        try:
            rows[sql_table] = db.execute(query.format(""), (name,)).fetchall()
        except sqlite3.DatabaseError:  # the index may be what is damaged: read the rows
            rows[sql_table] = db.execute(query.format("NOT INDEXED"), (name,)).fetchall()
    seqs = sorted(row[columns["actions"].index("seq")] for row in rows["actions"])
    if seqs and seqs != list(range(seqs[0], seqs[0] + len(seqs))):
        raise ValueError("some of its actions are missing")
    return rows


def _size(rows: Rows) -> tuple[int, int, int]:
    return len(rows["actions"]), len(rows["chat"]), len(rows["seats"])


# Restoring ----------------------------------------------------------------------------


@dataclass
class Restored:
    """What :func:`restore` did, to say so."""

    path: str
    used: Path | None
    """The backup it started from (None: none was sound; only the damaged file's tables)."""
    moved: Path | None
    """Where the file it replaced went."""
    newer: list[str] = field(default_factory=list)
    """Tables taken from the replaced file: readable there, and newer than the backup."""
    rolled_back: dict[str, str] = field(default_factory=dict)
    """Tables unreadable in the replaced file that the backup holds (as it holds them)."""
    quarantined: dict[str, str] = field(default_factory=dict)
    """Tables unreadable in the replaced file that no backup holds: lost, named."""
    tables: int = 0
    actions: int = 0

    def lines(self) -> list[str]:
        """The report, a line each: what came from where, and every table not whole."""
        source = f"from {self.used}" if self.used is not None else "with no sound backup"
        out = [f"restored {self.path} {source}: {self.tables} tables, {self.actions} actions"]
        if self.moved is not None:
            out.append(f"kept the file it replaces as {self.moved}")
        if self.newer:
            out.append(
                f"{len(self.newer)} tables taken from that file, newer than the backup: "
                + ", ".join(self.newer)
            )
        for name, why in self.rolled_back.items():
            out.append(f"table {name} is unreadable there ({why}): as the backup holds it")
        for name, why in self.quarantined.items():
            out.append(f"table {name} is unreadable there ({why}) and in no backup: quarantined")
        return out


def restore(
    path: str, source: Path | None = None, keep: int = 3, *, backup_only: bool = False
) -> Restored:
    """Put a sound database in place of ``path``: the newest sound one of its rolling
    backups (or ``source``), and then, unless ``backup_only``, every table that ``path``
    still holds readable and newer than the backup's. Tables ``path`` names but cannot
    give back are named (quarantined when no backup holds them). The file it replaces
    is kept beside it, renamed (nothing is deleted); no other file is left behind.

    The caller makes sure no server is using ``path`` (see :class:`DatabaseLock`).
    """
    candidates = [source] if source is not None else backup_paths(path, keep)
    problems: list[str] = []
    used: Path | None = None
    for candidate in candidates:
        if not candidate.exists():
            problems.append(f"{candidate}: missing")
            continue
        problem = check_file(candidate)
        if problem is None:
            used = candidate
            break
        problems.append(f"{candidate}: {problem}")
    base: dict[str, Rows] = {}
    if used is not None:
        base = read_remains(used, set(), immutable=True).tables
    remains = Remains() if backup_only else read_remains(Path(path), set(base))
    if used is None and not remains.tables:
        raise StoreOpenError(
            "no sound backup to restore, and nothing readable in the database: "
            + "; ".join(problems)
        )
    fresh = Path(f"{path}.restoring")
    _build(fresh, used, remains, base)
    restored = Restored(path, used, _move_aside(path))
    os.replace(fresh, path)
    restored.newer = [
        name
        for name, rows in remains.tables.items()
        if name not in base or _size(rows) > _size(base[name])
    ]
    for name, why in remains.unreadable.items():
        target = restored.rolled_back if name in base else restored.quarantined
        target[name] = why
    store = Store(path, create=False)
    try:
        restored.tables, restored.actions = store.counts()
    finally:
        store.close()
    return restored


def _build(fresh: Path, used: Path | None, remains: Remains, base: dict[str, Rows]) -> None:
    """Write the restored database to ``fresh``: the backup, then the newer tables."""
    fresh.unlink(missing_ok=True)
    if used is not None:
        os.close(os.open(fresh, os.O_CREAT | os.O_WRONLY, 0o600))
        source = _read_only(used, immutable=True)
        target = sqlite3.connect(fresh)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
    Store(str(fresh)).close()  # the schema brought up to date, the journal checkpointed
    db = sqlite3.connect(fresh, isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        for name, rows in remains.tables.items():
            if name in base and _size(rows) <= _size(base[name]):
                continue  # the backup holds as much: it is sound, the damaged file is not
            for sql_table, key in reversed(KEYS.items()):
                db.execute(f"DELETE FROM {sql_table} WHERE {key} = ?", (name,))
            for sql_table, columns in remains.columns.items():
                if rows.get(sql_table):
                    listed = ", ".join(columns)
                    marks = ", ".join("?" * len(columns))
                    db.executemany(
                        f"INSERT INTO {sql_table} ({listed}) VALUES ({marks})", rows[sql_table]
                    )
        for name, why in remains.unreadable.items():
            if name not in base:
                reason = f"damaged on disk ({why}); the damaged file is kept beside the database"
                db.execute(
                    "INSERT OR REPLACE INTO quarantined (name, reason) VALUES (?, ?)",
                    (name, reason),
                )
        db.execute("COMMIT")
    finally:
        db.close()
    for suffix in ("-wal", "-shm"):
        Path(f"{fresh}{suffix}").unlink(missing_ok=True)


def _move_aside(path: str) -> Path | None:
    if not Path(path).exists():
        return None
    moved = Path(f"{path}.damaged-{stamp()}")
    os.replace(path, moved)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.replace(path + suffix, f"{moved}{suffix}")
    return moved


def open_or_repair(path: str) -> Store:
    """Open the database; if SQLite finds damaged pages, put its whole verdict in a file,
    say so in one line, and restore: the newest backup and every table still readable and
    newer (the damaged file kept beside), so that the damage costs only what it touched."""
    try:
        return Store(path)
    except StoreDamagedError as exc:
        check = write_check(path, exc.problems)
        log.error(
            "the database %s is damaged (%s; the whole check is in %s): restoring it from "
            "its newest backup and every table it still holds readable",
            path,
            summary(exc.problems),
            check,
        )
    for line in restore(path).lines():
        log.warning("%s", line)
    return Store(path)


class DatabaseLock:
    """One server per database file: an exclusive lock on ``PATH.lock``, which also says
    who holds it, so a second server can name the first instead of starting beside it
    (two servers on one file would each refuse the other's actions)."""

    def __init__(self, path: str, holder: str) -> None:
        self.path = Path(f"{path}.lock")
        self._fd: int | None = None
        self.holder = holder

    def acquire(self) -> None:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise StoreOpenError(f"cannot create the lock file {self.path}: {exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            try:
                other = os.read(fd, 500).decode("utf-8", "replace").strip()
            finally:
                os.close(fd)
            raise StoreOpenError(
                f"the database {self.path.name[:-5]} is in use by another tyros-server "
                f"({other or 'unknown'}): stop it first, or give another --db"
            ) from None
        self._fd = fd
        self.describe(self.holder)

    def describe(self, holder: str) -> None:
        """Say who holds the lock (once the port is known)."""
        self.holder = holder
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, f"{holder}, pid {os.getpid()}".encode(), 0)

    def release(self) -> None:
        if self._fd is not None:
            self.path.unlink(missing_ok=True)  # while still held: no other server's file
            os.close(self._fd)  # closing drops the lock
            self._fd = None

    def __enter__(self) -> DatabaseLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
