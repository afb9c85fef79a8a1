"""What time alone triggers: trade offers unanswered in time, seats whose clock ran out,
absent seats a bot plays (their decisions made off the event loop, see
:mod:`~tyros_server.deputies`), and the housekeeping that keeps a long-running server
bounded.
"""

from __future__ import annotations

import logging

from tyros_rules import (
    Action,
    IllegalActionError,
    Kind,
    Phase,
    check_action,
    legal_actions,
    seats_to_act,
    view,
)

from ..deputies import PACED, DecidedBy, Decision, negotiates, offers_made
from ..storage import StorageError
from ..tables import Table
from . import guards
from .admission import Connection
from .ledger import Ledger
from .outbox import Close, Output
from .part import Part, Shared

log = logging.getLogger("tyros.session")


class Timers(Part):
    """Deadlines, and what happens at them (``clock`` is the only time there is)."""

    def __init__(self, shared: Shared, ledger: Ledger) -> None:
        super().__init__(shared)
        self.ledger = ledger

    def next_deadline(self) -> float | None:
        """When :meth:`tick` next has something to do (None: nothing pending)."""
        times = [
            t.trade_deadline
            for t in self.tables.values()
            if t.trade_deadline is not None
            and t.state is not None
            and any(seat != t.state.current for seat in seats_to_act(t.state))
        ]
        times += [
            end for t in self.tables.values() if (end := self._proposer_deadline(t)) is not None
        ]
        if self.shared.hello_seconds is not None:
            waiting = [
                info.opened
                for info in self.conns.values()
                if info.table is None and not info.closing
            ]
            if waiting:
                times.append(min(waiting) + self.shared.hello_seconds)
        limits = self.limits
        times += [t.notice_due for t in self.tables.values() if t.notice_due is not None]
        if limits.spectator_idle_seconds is not None:
            times += [
                self._spectator_idle_at(info, limits.spectator_idle_seconds)
                for info in self.conns.values()
                if info.spectator and not info.closing
            ]
        if limits.unstarted_table_seconds is not None:
            times += [
                table.changed + limits.unstarted_table_seconds
                for table in self.tables.values()
                if self._abandoned(table)
            ]
        times += [
            table.changed + limits.finished_memory_seconds
            for table in self.tables.values()
            if self.shared.forgettable(table)
        ]
        if limits.unattended_table_seconds is not None:
            times += [
                table.attended + limits.unattended_table_seconds
                for table in self.tables.values()
                if _pausable(table)
            ]
        if self._finished_over_cap():
            times.append(self.clock())
        deputies = self.deputies
        times += [
            end
            for table in self.tables.values()
            if table.clocks is not None and not table.finished
            for seat in table.clocks.since
            if (end := table.clocks.deadline(seat)) is not None
            and not deputies.busy(table.name, seat)
        ]
        if self.takeover is not None:
            for table in self.tables.values():
                if table.state is None or table.finished or deputies.table_busy(table.name, PACED):
                    continue
                paced = deputies.ready_at.get(table.name, float("-inf"))
                for seat in seats_to_act(table.state):
                    due = self._due_at(table, seat)
                    if due is not None and not deputies.busy(table.name, seat):
                        times.append(max(due, paced))
        return min(times, default=None)

    def tick(self) -> Output:
        """Decline unanswered trade offers whose time is up; let takeover bots act; close
        connections that did not join a table in time."""
        now = self.clock()
        out: Output = []
        if self.shared.hello_seconds is not None:
            late = now - self.shared.hello_seconds
            out += [
                Close(conn, 1008, "say hello sooner")
                for conn, info in self.conns.items()
                if info.table is None and info.opened <= late and not info.closing
            ]
            for item in out:
                self.conns[item.conn].closing = True
        out += self._housekeeping(now)
        self.shared.faults.flush()
        for table in self.tables.values():
            state = table.state
            if state is None or table.finished:
                continue
            if table.trade_deadline is not None and now >= table.trade_deadline:
                for seat in seats_to_act(state):
                    if state.phase == Phase.TRADE and seat != state.current:
                        # Marked as time running out: the seat did not choose to decline.
                        out += self.ledger.commit(table, seat, (Kind.ANSWER, 0), by="clock") or []
            end = self._proposer_deadline(table)
            if end is not None and now >= end:
                # Nobody else may end the trade: its time is up for the proposer too.
                out += self.ledger.commit(table, state.current, (Kind.WITHDRAW,), by="clock") or []
            out += self._takeovers(table, now)
            out += self._time_up(table, now)
        return out

    def _proposer_deadline(self, table: Table) -> float | None:
        """When an open trade offer is withdrawn for its proposer, at a table without a
        clock (a clock bounds every decision already): the answers' time and then
        ``proposer_grace_seconds``, so that a proposer who never completes nor withdraws
        cannot hold the table for ever."""
        state = table.state
        if (
            state is None
            or table.clocks is not None
            or table.trade_deadline is None
            or state.phase != Phase.TRADE
            or seats_to_act(state) != [state.current]
        ):
            return None
        return table.trade_deadline + self.limits.proposer_grace_seconds

    def _deputize(self, table: Table, seat: int, by: DecidedBy) -> Output:
        """Have the seat's decision made for it: asked of the takeover policy (from the
        seat's view, off the loop), or with no policy the first legal action, now.

        Deciding for a person (slow, or away), it never negotiates in their name: no trade
        offer, no counter-offer, no acceptance of another's offer (that gives their cards
        away), whatever the policy would like; it passes or declines instead. It may
        complete or withdraw the person's own offer. The server's own bot (``seat``) plays
        for itself and trades like any player."""
        state = table.state
        assert state is not None
        legal = legal_actions(state, seat)
        if by != "seat":
            legal = [a for a in legal if not negotiates(a)]
        if self.takeover is None:
            return self.ledger.commit(table, seat, legal[0], by=None if by == "seat" else by) or []
        self.deputies.ask(
            table.name,
            seat,
            state.version,
            by,
            view(state, seat),
            legal,
            table.people(),
            table.bot_level,
            offers_made(state, seat),
        )
        return []

    def decided(self, decision: Decision, action: Action | None) -> Output:
        """Apply the choice made for ``decision`` (None: the policy failed) like a player's
        action: only if the seat still faces the question it was asked (else the next
        tick asks again, if it must), checked against the game as it is now, committed
        before anyone hears of it. A choice that is not legal, or would negotiate, becomes
        the cautious one (pass, or decline)."""
        if not self.deputies.answered(decision):
            return []
        table = self.tables.get(decision.table)
        seat = decision.seat
        if table is None or table.state is None or table.finished:
            return []
        since = table.prompts.get(seat)
        if since is None or since > decision.version:
            return []  # the seat acted, or was asked something else, meanwhile
        if decision.by == "takeover" and table.seats[seat].absent_since is None:
            return []  # its owner came back
        state = table.state
        own = decision.by == "seat"  # (the server's own bot trades for itself)
        choice = decision.legal[0] if action is None or (negotiates(action) and not own) else action
        try:
            check_action(state, seat, choice)
        except IllegalActionError as exc:
            log.warning(
                "the takeover policy chose an illegal action at table %s (%s): the first "
                "legal instead",
                table.name,
                exc.message,
            )
            choice = next(a for a in legal_actions(state, seat) if not negotiates(a))
        out = self.ledger.commit(table, seat, choice, by=None if own else decision.by)
        if decision.by in PACED:
            self.deputies.played(table.name, self.clock())
        return out or []

    def _time_up(self, table: Table, now: float) -> Output:
        """Decide for each seat whose time ran out (see :meth:`_deputize`), marked as the
        clock's decision."""
        clocks, state = table.clocks, table.state
        if clocks is None or state is None:
            return []
        out: Output = []
        for _ in range(1000):  # a bound: each decision moves the game on
            # (the server's own bots decide at the table's pace: their clocks do not count)
            due = [
                seat
                for seat in clocks.due(now)
                if not self.deputies.busy(table.name, seat) and not table.seats[seat].house
            ]
            if not due or state.phase == Phase.OVER:
                break
            version = state.version
            out += self._deputize(table, due[0], "clock")
            if state.version == version and not self.deputies.busy(table.name, due[0]):
                break  # not stored: the next tick tries again
        return out

    def _spectator_idle_at(self, info: Connection, idle: float) -> float:
        table = self.tables.get(info.table or "")
        changed = table.changed if table is not None else 0.0
        return max(info.last_active, changed) + idle

    def _abandoned(self, table: Table) -> bool:
        """A table nobody plays at: never started, nobody seated and connected."""
        return table.state is None and all(slot.conn is None for slot in table.seats)

    def _housekeeping(self, now: float) -> Output:
        """What keeps a long-running server bounded: notices of spectators' comings and
        goings, idle spectators closed, abandoned tables removed."""
        limits = self.limits
        out: Output = []
        for table in self.tables.values():
            if table.notice_due is not None and now >= table.notice_due:
                table.notice_due = None
                out += self.outbox.table_update(table)
        idle = limits.spectator_idle_seconds
        if idle is not None:
            for conn, info in self.conns.items():
                if (
                    info.spectator
                    and not info.closing
                    and now >= self._spectator_idle_at(info, idle)
                ):
                    info.closing = True
                    out.append(Close(conn, 1000, "nothing happened for a long while"))
        expiry = limits.unstarted_table_seconds
        for table in list(self.tables.values()):
            if expiry is not None and self._abandoned(table) and now >= table.changed + expiry:
                out += self._remove_abandoned(table)
            elif (
                self.shared.forgettable(table)
                and now >= table.changed + limits.finished_memory_seconds
            ):
                self.shared.drop_from_memory(table)
        for table in self._finished_over_cap():
            self.shared.drop_from_memory(table)
        bound = limits.unattended_table_seconds
        if bound is not None:
            for table in list(self.tables.values()):
                if _pausable(table) and now >= table.attended + bound:
                    out += self._pause(table)
        self.admission.forget_old(now)
        return out

    def _finished_over_cap(self) -> list[Table]:
        """The oldest finished tables nobody is at, beyond ``finished_in_memory`` of them:
        they leave memory at once (they stay on disk, and come back when asked for)."""
        idle = sorted(
            (t for t in self.tables.values() if self.shared.forgettable(t)),
            key=lambda t: t.changed,
        )
        return idle[: max(0, len(idle) - self.limits.finished_in_memory)]

    def _pause(self, table: Table) -> Output:
        """Pause a table of the server's bots nobody attends: it leaves memory (it is on
        disk, every action of it) and frees its place in every count; its people are told,
        and one of them resuming their seat brings it back."""
        log.info("table %s paused: nobody played at it for a long while", table.name)
        out: Output = []
        for slot in table.seats:
            if not slot.house:
                self.shared.paused[slot.digest] = table.name
        for conn in [slot.conn for slot in table.seats if slot.conn is not None]:
            out += [
                self.outbox.refuse(conn, None, guards.PAUSED, table=table.name),
                Close(conn, 1000, "the table was paused: resume your seat to go on"),
            ]
        for conn in table.spectators:
            out.append(Close(conn, 1000, "the table was paused"))
            self.admission.spectator_left(self.conns[conn].address)
        for conn in [*table.spectators, *(s.conn for s in table.seats if s.conn is not None)]:
            info = self.conns[conn]
            info.closing, info.table, info.seat, info.spectator = True, None, None, False
        self.deputies.forget(table.name)
        self.shared.drop_from_memory(table)
        return out

    def _remove_abandoned(self, table: Table) -> Output:
        try:
            self.store.delete_unstarted_table(table.name)
        except StorageError as exc:
            self.shared.faults.failed(f"removing abandoned table {table.name}", exc)
            table.changed = self.clock()  # try again later, not on every tick
            return []
        log.info("table %s removed: it never started and nobody came back", table.name)
        out: Output = [
            Close(conn, 1000, "the table was removed: it never started")
            for conn in table.spectators
        ]
        for conn in table.spectators:
            info = self.conns.get(conn)
            if info is not None:
                info.closing = True
        self.shared.drop_from_memory(table)
        return out

    def _takeover_due(self, table: Table, now: float) -> int | None:
        """The absent seat whose takeover decision is asked for next (None: none yet),
        one at a time per table, at the table's pace."""
        state = table.state
        if self.takeover is None or state is None or table.finished:
            return None
        deputies = self.deputies
        if deputies.table_busy(table.name, PACED):
            return None
        if now < deputies.ready_at.get(table.name, now):
            return None
        for seat in seats_to_act(state):
            due = self._due_at(table, seat)
            if due is not None and now >= due and not deputies.busy(table.name, seat):
                return seat
        return None

    def _due_at(self, table: Table, seat: int) -> float | None:
        """When a bot may decide for ``seat``: at once for the server's own bot (whatever
        ``--takeover`` says) but for its trade offer that waits for a person's answer (the
        answer, or the time to answer running out, comes first), ``takeover_seconds`` after
        an owner left (None: never)."""
        slot = table.seats[seat]
        if slot.house:
            state = table.state
            if state is not None and seat == state.current and table.awaits_a_person():
                return None
            return float("-inf")
        wait = self.limits.takeover_seconds
        if wait is None or slot.absent_since is None:
            return None
        return slot.absent_since + wait

    def _takeovers(self, table: Table, now: float) -> Output:
        seat = self._takeover_due(table, now)
        if seat is None:
            return []
        out: Output = []
        slot = table.seats[seat]
        if not slot.bot:
            slot.bot = True
            out += self.outbox.table_update(table)
        return out + self._deputize(table, seat, "seat" if slot.house else "takeover")


def _pausable(table: Table) -> bool:
    """A game of the server's bots under way without a clock (a clock bounds every wait)."""
    return (
        table.state is not None
        and not table.finished
        and table.clock is None
        and any(slot.house for slot in table.seats)
    )
