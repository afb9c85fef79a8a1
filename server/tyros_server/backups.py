"""Backups of a live database, and repairs of a damaged one, without losing more than the
damage touched.

- :func:`backup`: SQLite's online backup to ``PATH.backup-1`` (older copies roll down);
- :func:`restore`: a new database made of the newest sound backup and then every row still
  readable in the damaged file (and in the server's rescued copies), put together game by
  game (:mod:`.salvage`); the tables it cannot give back whole are named (cut at a gap, or
  quarantined when their own row is lost) and the damaged file is kept beside, renamed;
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

from .database import OUR_TABLES, StoreDamagedError, StoreOpenError, quick_check, summary
from .salvage import KEYS, Found, Game, Rows, merge, read_file, read_only
from .storage import Store, stamp

log = logging.getLogger("tyros.server")


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


def check_file(path: Path) -> str | None:
    """What is wrong with a database file as a backup to restore (None: it is sound)."""
    try:
        db = read_only(path, immutable=True)
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


# Restoring ----------------------------------------------------------------------------


@dataclass
class Restored:
    """What :func:`restore` did, to say so."""

    path: str
    used: Path | None
    """The backup it started from (None: none was sound; only the damaged file's rows)."""
    moved: Path | None
    """Where the file it replaced went."""
    rescued: list[Path] = field(default_factory=list)
    """Copies the server made when it found its files damaged, read as well."""
    newer: list[str] = field(default_factory=list)
    """Tables holding more than the backup: rows of the replaced file (or a rescued copy)."""
    cut: dict[str, str] = field(default_factory=dict)
    """Tables whose actions stop at a gap no copy fills: what was lost."""
    quarantined: dict[str, str] = field(default_factory=dict)
    """Tables whose own row no copy holds readable: lost, named."""
    unreadable: str | None = None
    """Why the replaced file could not be read at all, if it could not."""
    tables: int = 0
    actions: int = 0

    def lines(self) -> list[str]:
        """The report, a line each: what came from where, and every table not whole."""
        source = f"from {self.used}" if self.used is not None else "with no sound backup"
        out = [f"restored {self.path} {source}: {self.tables} tables, {self.actions} actions"]
        if self.moved is not None:
            out.append(f"kept the file it replaces as {self.moved}")
        if self.unreadable is not None:
            out.append(f"nothing could be read from that file: {self.unreadable}")
        if self.rescued:
            out.append("read the server's rescued copies too: " + ", ".join(map(str, self.rescued)))
        if self.newer:
            out.append(
                f"{len(self.newer)} tables hold more than the backup, every row still readable "
                "taken: " + ", ".join(self.newer)
            )
        for name, why in self.cut.items():
            out.append(f"table {name}: {why}")
        for name, why in self.quarantined.items():
            out.append(f"table {name}: {why}: quarantined")
        return out


def restore(
    path: str, source: Path | None = None, keep: int = 3, *, backup_only: bool = False
) -> Restored:
    """Put a sound database in place of ``path``: the newest sound one of its rolling
    backups (or ``source``), and then, unless ``backup_only``, every row still readable in
    ``path`` and in the server's rescued copies newer than that backup, put together game
    by game (:mod:`.salvage`). Tables none of them can give back whole are named (cut at a
    gap, or quarantined when their own row is lost). The file it replaces is kept beside
    it, renamed (nothing is deleted); no other file is left behind.

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
    base = read_file(used, immutable=True) if used is not None else Found()
    damaged, rescued = Found(), []
    if not backup_only:
        damaged = read_file(Path(path))
        rescued = _rescued_since(path, used)
    copies = [damaged, *(read_file(copy, immutable=True) for copy in rescued), base]
    if used is None and not any(copy.games for copy in copies):
        raise StoreOpenError(
            "no sound backup to restore, and nothing readable in the database: "
            + "; ".join(problems)
        )
    games = merge(copies)
    fresh = Path(f"{path}.restoring")
    _build(fresh, used, games, base)
    restored = Restored(path, used, _move_aside(path), rescued)
    os.replace(fresh, path)
    if damaged.problem is not None and not backup_only:
        restored.unreadable = damaged.problem
    for name, game in games.items():
        if game.orphan:
            restored.quarantined[name] = _orphan_reason(game)
            continue
        if _differs(game.rows, base.games.get(name)):
            restored.newer.append(name)
        if game.gap is not None:
            restored.cut[name] = (
                f"action {game.gap} is unreadable in every copy: it resumes after action "
                f"{game.gap - 1} ({game.found_actions - game.gap + 1} actions found after the "
                "gap are left in the file it replaces)"
            )
    store = Store(path, create=False)
    try:
        restored.tables, restored.actions = store.counts()
    finally:
        store.close()
    return restored


def _rescued_since(path: str, used: Path | None) -> list[Path]:
    """The copies a running server made of what it held when it found its files damaged
    (``PATH.rescued-DATE``) since the backup ``used`` was made, newest first."""
    since = used.stat().st_mtime if used is not None else 0.0
    found = [p for p in Path(path).parent.glob(f"{Path(path).name}.rescued-*") if p.is_file()]
    fresh = [p for p in found if p.stat().st_mtime >= since and check_file(p) is None]
    return sorted(fresh, key=lambda p: p.stat().st_mtime, reverse=True)


def _orphan_reason(game: Game) -> str:
    return (
        f"damaged on disk (its own row is unreadable in every copy; {game.found_actions} of "
        "its actions are in the damaged file, kept beside the database)"
    )


def _differs(rows: Rows, base: Rows | None) -> bool:
    return base is None or any(len(rows[t]) != len(base[t]) for t in KEYS) or rows != base


def _build(fresh: Path, used: Path | None, games: dict[str, Game], base: Found) -> None:
    """Write the restored database to ``fresh``: the backup, then each game put together
    from every copy where it differs from the backup's."""
    fresh.unlink(missing_ok=True)
    if used is not None:
        os.close(os.open(fresh, os.O_CREAT | os.O_WRONLY, 0o600))
        source = sqlite3.connect(f"file:{used}?mode=ro&immutable=1", uri=True)
        target = sqlite3.connect(fresh)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
    Store(str(fresh)).close()  # the schema brought up to date, the journal checkpointed
    db = sqlite3.connect(fresh, isolation_level=None)
    try:
        columns = {t: {row[1] for row in db.execute(f"PRAGMA table_info({t})")} for t in KEYS}
        db.execute("BEGIN IMMEDIATE")
        for name, game in games.items():
            if game.orphan:
                db.execute(
                    "INSERT OR REPLACE INTO quarantined (name, reason) VALUES (?, ?)",
                    (name, _orphan_reason(game)),
                )
                continue
            if not _differs(game.rows, base.games.get(name)):
                continue  # the backup holds it as it is
            for sql_table, key in reversed(KEYS.items()):
                db.execute(f"DELETE FROM {sql_table} WHERE {key} = ?", (name,))
            for sql_table in KEYS:
                for row in game.rows[sql_table]:
                    known = [column for column in row if column in columns[sql_table]]
                    db.execute(
                        f"INSERT INTO {sql_table} ({', '.join(known)}) "
                        f"VALUES ({', '.join('?' * len(known))})",
                        [row[column] for column in known],
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
    say so in one line, and restore: the newest backup and every row still readable (the
    damaged file kept beside), so that the damage costs only what it touched."""
    try:
        return Store(path)
    except StoreDamagedError as exc:
        check = write_check(path, exc.problems)
        log.error(
            "the database %s is damaged (%s; the whole check is in %s): restoring it from "
            "its newest backup and every row it still holds readable",
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
