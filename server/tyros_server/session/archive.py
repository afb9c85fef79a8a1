"""Records of finished games made from the store: asked for here, built off the event loop
by the shell (:meth:`RecordJob.run`, with a store of its own), handed back, and kept in a
bounded cache.

Replaying a stored game and encoding its record takes tens of milliseconds; made on the
event loop at every ``get_record`` it held up every table. Each record is now made once,
by the shell's record process, whoever asks meanwhile waits for the same one, and the
last :data:`RECORDS_KEPT` stay: a finished game never changes (but for table talk, which
forgets the table's full record).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from tyros_protocol.errors import ErrorCode
from tyros_rules import public_record

from ..records import RecordUnavailable, stored_game, stored_record
from ..storage import Store
from ..tables import ConnId
from . import guards
from .outbox import Output
from .part import Part

log = logging.getLogger("tyros.session")

RECORDS_KEPT = 16
"""Records kept once made (about 130 KB of JSON each)."""
BUILDS_AT_ONCE = 4
"""Different records being made at once, at most: beyond, a request is refused as
``rate_limited`` rather than queued behind work nobody may be waiting for any more."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a record cannot be made."""

    code: ErrorCode
    message: str


Built = dict[str, Any] | Refusal
RecordKey = tuple[str, bool]
"""(table, public)."""


@dataclass(eq=False, slots=True)
class RecordJob:
    """Make the record of finished game ``table`` (the public one: as a spectator saw it)."""

    table: str
    public: bool
    known: bool
    """The table is in memory: giving no record, it is unavailable rather than unknown."""

    @property
    def key(self) -> RecordKey:
        return (self.table, self.public)

    def run(self, store: Store) -> Built:
        """The record, or why not. Runs in the shell's record process, reading ``store`` (a
        connection of that process's own): it touches nothing of the session's."""
        try:
            if self.public:
                stored, state = stored_game(store, self.table)
                if state.score is None:  # (a stored game not loaded: cannot be, never leak)
                    return Refusal(ErrorCode.NOT_FINISHED, "that game is not over yet")
                return public_record(state, [seat.name for seat in stored.seats])
            record = stored_record(store, self.table)
        except RecordUnavailable as exc:
            unknown = self.public or not self.known
            return Refusal(
                ErrorCode.NO_SUCH_TABLE if unknown else ErrorCode.TABLE_UNAVAILABLE, str(exc)
            )
        except Exception:  # a bug, or the store failing, costs one record, not the thread
            log.exception("making the record of table %s failed", self.table)
            return Refusal(ErrorCode.INTERNAL, "the record could not be made")
        if not record["finished"]:
            return Refusal(ErrorCode.NOT_FINISHED, "that game is not over yet")
        return record


class Archive(Part):
    """Finished games' records: those made lately, and those being made for someone."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: OrderedDict[RecordKey, dict[str, Any]] = OrderedDict()
        self.waiting: dict[RecordKey, list[tuple[ConnId, int | None]]] = {}
        """Records being made, and who asked for each (their connection, their id)."""
        self.jobs: list[RecordJob] = []
        """Asked for and not yet taken by the shell (:meth:`drain`)."""
        self.outdated: set[RecordKey] = set()
        """Records being made that changed meanwhile: sent, but not kept."""

    def fetch(
        self, conn: ConnId, re: int | None, table: str, *, public: bool, known: bool
    ) -> Output:
        """The record at once if it was made lately; else it is made off the loop and sent
        when it is ready (:meth:`built`)."""
        key = (table, public)
        record = self.kept.get(key)
        if record is not None:
            self.kept.move_to_end(key)
            return [self.outbox.record(conn, re, table, record)]
        waiting = self.waiting.get(key)
        if waiting is not None:
            waiting.append((conn, re))
            return []
        if len(self.waiting) >= BUILDS_AT_ONCE:
            return [self.outbox.refuse(conn, re, guards.RECORDS_BUSY)]
        self.waiting[key] = [(conn, re)]
        self.jobs.append(RecordJob(table, public, known))
        return []

    def drain(self) -> list[RecordJob]:
        jobs, self.jobs = self.jobs, []
        return jobs

    def built(self, job: RecordJob, result: Built) -> Output:
        """``job``'s record (or why not) for everyone still here who asked for it."""
        askers = self.waiting.pop(job.key, [])
        if job.key in self.outdated:
            self.outdated.discard(job.key)
        elif not isinstance(result, Refusal):
            self.kept[job.key] = result
            while len(self.kept) > RECORDS_KEPT:
                self.kept.popitem(last=False)
        out: Output = []
        for conn, re in askers:
            if conn not in self.conns:
                continue
            if isinstance(result, Refusal):
                out.append(self.outbox.error(conn, re, result.code, result.message))
            else:
                out.append(self.outbox.record(conn, re, job.table, result))
        return out

    def forget(self, table: str) -> None:
        """``table``'s full record changed (a line of talk): it is made afresh when asked."""
        self.kept.pop((table, False), None)
        if (table, False) in self.waiting:
            self.outdated.add((table, False))
