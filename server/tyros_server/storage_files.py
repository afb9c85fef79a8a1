"""The files under a live database, looked at from outside SQLite: SQLite trusts its open
files and its WAL index, so a file removed, replaced, cut short or overwritten underneath
it goes unnoticed (it acknowledges writes on top of a hole, and a later checkpoint copies
the hole into the database). :class:`WatchedFiles` notices what a look at the files shows:

- a file removed, or replaced by another (device and inode changed);
- a file shorter than it was (neither the database nor its WAL ever shrinks here: the
  database has no auto-vacuum, and SQLite reuses its WAL from the start without cutting it);
- a header whose fixed fields changed (the database's format, page size and encoding; the
  WAL's magic number, version and page size);
- WAL frames missing under later ones: the frames written since the WAL last restarted
  carry its header's salts and follow one another from the first; a frame without them
  before a frame with them is a hole (the WAL cut short, then written on past the cut).

It reads only the files (never through SQLite), so it may run in a worker thread while
the store writes; through descriptors it keeps open, since closing one would drop SQLite's
locks on the file.

Pages overwritten in the middle of the database keep its size and header: only reading
them shows it. :class:`PageCheck` runs SQLite's quick check of what is committed, on a
read-only connection of its own (in a thread, beside the store's writes).
"""

from __future__ import annotations

import os
import sqlite3
import struct
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

DATABASE_MAGIC = b"SQLite format 3\x00"
WAL_MAGICS = (0x377F0682, 0x377F0683)
WAL_VERSION = 3007000
WAL_HEADER_BYTES = 32
FRAME_HEADER_BYTES = 24


@dataclass
class WatchedFile:
    """One file as last seen: an open descriptor of it, its size and fixed header."""

    path: str
    fd: int | None = None
    """Opened once and kept until :meth:`WatchedFiles.close`: closing any descriptor of a
    file drops every POSIX lock the process holds on it, SQLite's locks included."""
    identity: tuple[int, int] | None = None
    size: int = 0
    header: bytes | None = None


def database_header(head: bytes) -> bytes | None:
    """The fields of a database's first 100 bytes that never change once set (None: too
    short to have them): its format, page size and text encoding (set by the first table
    made). The application id, set when a new database is marked as tyros's, is left out."""
    if len(head) < 60:
        return None
    return head[0:24] + head[56:60]


def wal_header(head: bytes) -> bytes | None:
    """A WAL's magic number, format version and page size (None: it has no header yet)."""
    return head[0:12] if len(head) >= WAL_HEADER_BYTES else None


def _same_or_set(before: bytes, now: bytes | None) -> bool:
    """Whether ``now`` is the header ``before``, but for fields zero then and set since."""
    if now is None or len(now) != len(before):
        return False
    return all(old in (new, 0) for old, new in zip(before, now, strict=True))


class WatchedFiles:
    """A database file and its WAL, watched for what SQLite cannot see (module docs)."""

    def __init__(self, path: str) -> None:
        self.database = WatchedFile(path)
        self.wal = WatchedFile(path + "-wal")
        for watched in (self.database, self.wal):
            self._note(watched)

    def look(self) -> str | None:
        """What is wrong with the files since they were last looked at, in a few words
        (None: nothing seen)."""
        for watched, header_of in ((self.database, database_header), (self.wal, wal_header)):
            problem = self._compare(watched, header_of)
            if problem is not None:
                return problem
        return self._wal_hole()

    def close(self) -> None:
        """Close the descriptors (after SQLite's connection: see :class:`WatchedFile`)."""
        for watched in (self.database, self.wal):
            if watched.fd is not None:
                os.close(watched.fd)
                watched.fd = None

    def _note(self, watched: WatchedFile) -> None:
        try:
            fd = os.open(watched.path, os.O_RDONLY)
        except OSError:
            return  # (a WAL not made yet: watched from when it is)
        found = os.fstat(fd)
        watched.fd, watched.identity, watched.size = fd, (found.st_dev, found.st_ino), found.st_size
        reader = database_header if watched is self.database else wal_header
        watched.header = reader(os.pread(fd, 100, 0))

    def _compare(
        self, watched: WatchedFile, header_of: Callable[[bytes], bytes | None]
    ) -> str | None:
        name = watched.path
        if watched.fd is None:
            self._note(watched)
            return None
        try:
            found = os.stat(name)
            head = os.pread(watched.fd, 100, 0)  # (the file opened: replaced is said first)
        except FileNotFoundError:
            return f"{name} was removed"
        except OSError as exc:
            return f"{name} cannot be looked at: {exc.strerror or exc}"
        if (found.st_dev, found.st_ino) != watched.identity:
            return f"{name} was replaced by another file"
        if found.st_size < watched.size:
            return f"{name} was cut short (from {watched.size} bytes to {found.st_size})"
        header = header_of(head)
        if watched.header is not None and not _same_or_set(watched.header, header):
            return f"{name} had its header overwritten"
        watched.size = found.st_size
        watched.header = header or watched.header
        return None

    def _wal_hole(self) -> str | None:
        """Frames without the WAL's salts under frames with them (module docs), seen twice
        with the same header: a frame being written, or the WAL restarting from the start
        while it is read, is not taken for a hole."""
        if self.wal.header is None or self.wal.fd is None:
            return None
        first = _wal_frames(self.wal.fd)
        if first is None or first.hole is None:
            return None
        again = _wal_frames(self.wal.fd)
        if again is None or again.salts != first.salts or again.hole != first.hole:
            return None
        missing, under = first.hole
        return (
            f"{self.wal.path} lost frames {missing} to {under - 1} under later ones (it was cut "
            "short or overwritten, then written on)"
        )


@dataclass(frozen=True)
class _Frames:
    salts: bytes
    hole: tuple[int, int] | None
    """(first frame without the salts, the next frame with them) if there is a hole."""


def _wal_frames(fd: int) -> _Frames | None:
    try:
        head = os.pread(fd, WAL_HEADER_BYTES, 0)
        if len(head) < WAL_HEADER_BYTES:
            return None
        magic, version, page_size = struct.unpack(">III", head[:12])
        if magic not in WAL_MAGICS or version != WAL_VERSION or page_size < 512:
            return None  # (a header changed is said by the header's check)
        salts = head[16:24]
        size = os.fstat(fd).st_size
        stride = FRAME_HEADER_BYTES + page_size
        missing: int | None = None
        for number, offset in enumerate(range(WAL_HEADER_BYTES, size, stride), start=1):
            frame = os.pread(fd, FRAME_HEADER_BYTES, offset)
            ours = len(frame) == FRAME_HEADER_BYTES and frame[8:16] == salts
            if not ours and missing is None:
                missing = number
            elif ours and missing is not None:
                return _Frames(salts, (missing, number))
    except OSError:
        return None
    return _Frames(salts, None)


PAGE_PROBLEMS = 20
"""What a page check keeps of SQLite's list of problems (the first says enough)."""


class PageCheck:
    """SQLite's quick check of a live database's committed pages (the WAL's newer copies
    of a page read instead of the file's), on a read-only connection of its own: it may
    run in a worker thread while the store writes (WAL readers do not block the writer)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def look(self) -> str | None:
        """What the check finds wrong with the pages, in a few words (None: nothing)."""
        # A fresh connection each time: one kept would read its cached pages again, not
        # the file (its cache stays valid while the WAL is unchanged).
        uri = Path(self.path).absolute().as_uri() + "?mode=ro"
        try:
            db = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=5.0)
            try:
                rows = [str(r[0]) for r in db.execute(f"PRAGMA quick_check({PAGE_PROBLEMS})")]
            finally:
                db.close()
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                return None  # (a checkpoint in the way: the next look reads it)
            return f"{self.path} cannot be checked: {exc}"
        except sqlite3.DatabaseError as exc:  # the check itself stopped at a damaged page
            return f"{self.path} has damaged pages ({' '.join(str(exc).split())[:160]})"
        if rows == ["ok"]:
            return None
        first = " ".join(rows[0].split())[:160]
        more = "" if len(rows) == 1 else f"; {len(rows) - 1} more"
        return f"{self.path} has damaged pages ({first}{more})"


class Checkpoints:
    """The WAL copied into the database file (SQLite's checkpoint) on a connection of its
    own, in a worker thread, when the caller has just seen the files sound.

    SQLite's own checkpoint runs inside the commit that takes the WAL past 1,000 pages:
    every action of that batch then waits for the copy and a sync of the database file
    (100-150 ms here, every few seconds of a busy server), and it copies whatever the WAL
    holds, a hole cut into it included. A passive checkpoint on another connection never
    holds up the writer; once it has copied every frame the next commit starts the WAL
    again from the beginning, so the WAL stays small."""

    def __init__(self, path: str) -> None:
        self.path = path

    def run(self) -> str | None:
        """Copy what the WAL holds that no reader still needs; why that failed, in a few
        words (None: done, or another checkpoint was under way). A failure damages
        nothing: the WAL grows until one succeeds."""
        try:
            db = sqlite3.connect(self.path, check_same_thread=False, timeout=0.0)
            try:
                db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            finally:
                db.close()
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                return None  # (the next one copies it)
            return " ".join(str(exc).split())[:160]
        except sqlite3.Error as exc:
            return " ".join(str(exc).split())[:160]
        return None
