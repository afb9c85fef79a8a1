"""Acting on the game: an action applied, stored (with the digest of the state it led
to), then told; and batches, which store the actions of several frames in one
transaction and hold what they caused until it commits. The only code that orders the
session's writes of actions.
"""

from __future__ import annotations

import contextlib
import logging

from tyros_protocol.board import BOARD
from tyros_rules import (
    Action,
    Phase,
    action_to_json,
    push_unchecked,
)

from ..storage import StorageError
from ..tables import Batch, ConnId, Table, Undo
from . import guards
from .outbox import Close, Output, Send
from .part import Part, Shared

log = logging.getLogger("tyros.session")


class Ledger(Part):
    """Commits actions, alone or in batches."""

    def __init__(self, shared: Shared) -> None:
        super().__init__(shared)
        self.batch: Batch | None = None
        self._deferral = contextlib.ExitStack()
        """The store's deferral of the open batch's actions."""

    def commit(
        self,
        table: Table,
        seat: int,
        action: Action,
        reply: tuple[ConnId, int | None] | None = None,
        by: str | None = None,
    ) -> Output | None:
        """Apply, store (with the digest of the state it led to), then tell: None if the
        store refused, and the state is as it was. In a batch the action waits for the
        batch's commit, and what it causes is told only then (see :meth:`begin_batch`)."""
        state = table.state
        assert state is not None
        undo = Undo.capture(table)
        undo.reply = reply
        clocks = table.clocks
        if clocks is not None:
            clocks.spend(seat, now=self.clock())
        # Made after a hint if the seat asked for one since this decision was put to it.
        asked, since = table.hint_asked.pop(seat, None), table.prompts.get(seat)
        hinted = by is None and asked is not None and since is not None and asked >= since
        push_unchecked(state, seat, action)
        table.renew_prompts(seat)
        if clocks is not None:
            self.shared.follow_clocks(table)
        if by is not None:
            table.decided_by[state.version] = by
        batch = self.batch
        try:
            self.store.append_action(
                table.name,
                state.version,
                seat,
                action_to_json(action, BOARD),
                state.digest(),
                decided_by=by,
                reserve=None if clocks is None else round(clocks.reserve[seat], 3),
                hinted=hinted,
            )
        except StorageError as exc:
            self.shared.faults.failed(f"storing an action of table {table.name}", exc)
            undo.restore()
            if batch is not None:  # the store gave up the whole transaction
                batch.fail(batch.pending())
            return None
        if batch is not None:
            batch.undos.append(undo)
        table.changed = self.clock()
        if state.phase == Phase.TRADE:
            if table.trade_deadline is None:
                table.trade_deadline = self.clock() + table.trade_seconds
        else:
            table.trade_deadline = None
        if state.phase == Phase.OVER:
            try:
                listing = self.outbox.left_info(table)
                self.store.mark_finished(table.name, listing, self.wall_clock())
            except StorageError as exc:
                self.shared.faults.failed(f"marking table {table.name} finished", exc)
                if batch is not None:  # the transaction, this action's too, is gone
                    batch.fail(batch.pending())
                    return None
            log.info("table %s finished", table.name)
            self.deputies.forget(table.name)
        out = self.outbox.broadcast(table)
        if state.phase == Phase.OVER:  # the table info now reveals the seed and salt
            out += self.outbox.table_update(table)
        return out

    def not_stored(self) -> str:
        """What the sender of an action the store refused is told (and why, if every write
        is refused)."""
        why = self.store.refusal
        return "the action was not stored" + ("" if why is None else f" ({why})")

    def begin_batch(self) -> None:
        """Frames received until :meth:`end_batch` store their actions in one transaction
        (one disk sync for all of them); what they cause is held until it commits. Any
        write that cannot wait (a seat, a table, talk) commits them first: the store
        asks (:meth:`Store.deferred`)."""
        assert self.batch is None, "a batch is open already"
        batch = self.batch = Batch()
        self._deferral.enter_context(self.store.deferred(lambda: self._settle(batch)))

    def end_batch(self) -> Output:
        """Commit the batch's actions and return everything its frames caused; if the
        commit fails, each action's sender gets ``internal_error`` instead of its answer
        and every connection at those tables a fresh update of the state as stored."""
        batch = self.batch
        assert batch is not None, "no batch is open"
        try:
            self._settle(batch)
        finally:
            self.batch = None
            self._deferral.close()
        return self._batch_output(batch)

    def settle(self) -> None:
        """Commit the open batch's actions now, if one is open: before a record is made of
        a game in memory (what a batch holds back could yet be taken back)."""
        if self.batch is not None:
            self._settle(self.batch)

    def _settle(self, batch: Batch) -> None:
        """Commit what the batch stored so far (at its end, or when the store asks: before
        a write that cannot wait)."""
        try:
            self.store.commit()
        except StorageError as exc:
            self.shared.faults.failed(f"committing {len(batch.pending())} actions", exc)
            batch.fail(batch.pending())
        batch.settled = len(batch.undos)

    def _batch_output(self, batch: Batch) -> Output:
        affected = {undo.table.name for undo in batch.undos if batch.failed_undo(undo)}
        out: Output = []
        for chunk, undos in batch.chunks:
            failed = [undo for undo in undos if batch.failed_undo(undo)]
            if failed:
                why = self.not_stored()
                out += [
                    self.outbox.refuse(conn, re, guards.NOT_STORED, why=why)
                    for conn, re in (undo.reply for undo in failed if undo.reply is not None)
                ]
                continue
            out += [item for item in chunk if not self._shows(item, affected)]
        for name in sorted(affected):
            table = self.tables.get(name)
            if table is None:
                continue
            for seat, slot in enumerate(table.seats):
                if slot.conn is not None:
                    out += self.outbox.sync(slot.conn, table, seat)
            for conn in sorted(table.spectators):
                out += self.outbox.spectator_sync(conn, table)
        return out

    def _shows(self, item: Send | Close, tables: set[str]) -> bool:
        """Whether ``item`` is an update from one of ``tables`` (taken back: resent)."""
        if not tables or not isinstance(item, Send) or item.message.get("type") != "update":
            return False
        info = self.conns.get(item.conn)
        return info is not None and info.table in tables
