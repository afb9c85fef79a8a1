"""What every part of the session shares (:class:`Shared`): the tables, the connections,
the store, the clocks, the limits, the outbox, the allowances and the deputies, the same
objects for all; and what any part may do to a table in memory."""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tyros_rules import PENDING, Phase

from ..clocks import Clocks
from ..deputies import Deputies, LevelPolicies, TakeoverPolicy
from ..faults import FaultLog
from ..storage import Store
from ..tables import ConnId, Table
from .admission import Admission, Connection, Limits
from .outbox import Outbox


@dataclass(eq=False)
class Shared:
    """The state every part of the session works on."""

    store: Store
    limits: Limits
    clock: Callable[[], float]
    wall_clock: Callable[[], float]
    """The date stored with a new table (``clock`` need not be a date)."""
    takeover: TakeoverPolicy | None
    hello_seconds: float | None
    """A connection that has not joined a table after this long is closed (None: never)."""
    allow_seed: bool
    """Whether a ``hello`` may choose the seed (tests, benchmarks, a private local game):
    whoever knows the seed knows every hand, so a shared server deals its own."""
    levels: Callable[[str], TakeoverPolicy] | None = None
    """Makes the policy of the server's own bots of a level, by its name (None: the
    takeover policy plays them, whatever their table's level)."""
    tables: dict[str, Table] = field(default_factory=dict)
    conns: dict[ConnId, Connection] = field(default_factory=dict)
    by_digest: dict[str, tuple[str, int]] = field(default_factory=dict)
    """Each seat token's digest: the seat it opens."""
    paused: dict[str, str] = field(default_factory=dict)
    """The token digests of paused tables' people: the table each brings back (it waits on
    disk, out of every count, until then)."""
    listed: OrderedDict[str, dict[str, Any]] = field(default_factory=OrderedDict)
    """The lobby's rows of finished tables that left memory, the latest to leave last (at
    most ``limits.finished_listed``): still listed, and brought back when asked for. A
    restarted server starts with the rows stored as the latest games ended."""
    outbox: Outbox = field(init=False)
    admission: Admission = field(init=False)
    deputies: Deputies = field(init=False)
    """The decisions the server makes for seats (see :mod:`~tyros_server.deputies`)."""
    faults: FaultLog = field(init=False)
    """Storage failures, said once in full, then counted."""

    def __post_init__(self) -> None:
        takeover_wait = self.limits.takeover_seconds if self.takeover else None
        self.outbox = Outbox(self.clock, takeover_wait)
        self.admission = Admission(self.limits, self.clock)
        levels = LevelPolicies(self.levels) if self.levels is not None else None
        self.deputies = Deputies(self.takeover, self.limits.bot_pace_seconds, levels)
        self.faults = FaultLog(logging.getLogger("tyros.session"), clock=self.clock)

    # Tables in memory ------------------------------------------------------------------

    def forgettable(self, table: Table) -> bool:
        """A finished table with nobody at it: it may go from memory (it stays on disk, and
        comes back when asked for), so a long-running server does not grow without end."""
        return (
            table.finished
            and not table.spectators
            and all(slot.conn is None for slot in table.seats)
        )

    def drop_from_memory(self, table: Table) -> None:
        del self.tables[table.name]
        if table.finished:  # (its row no longer changes: nobody is at it)
            self.listed[table.name] = self.outbox.left_info(table)
            self.listed.move_to_end(table.name)
            while self.listed and len(self.listed) > self.limits.finished_listed:
                self.listed.popitem(last=False)
        for slot in table.seats:
            self.by_digest.pop(slot.digest, None)

    def start_clocks(self, table: Table) -> Clocks | None:
        """A clocked table's clocks as its game starts (or resumes: the caller restores
        the reserves); the first decisions' clocks run from now."""
        if table.clock is None:
            return None
        table.clocks = Clocks.start(
            table.clock["decision"], table.clock["reserve"], table.options.players
        )
        self.follow_clocks(table)
        return table.clocks

    def follow_clocks(self, table: Table) -> None:
        """After the prompts changed: start the clocks of new decisions (a proposer's waits
        while asked seats are still answering)."""
        state, clocks = table.state, table.clocks
        assert state is not None and clocks is not None
        waiting = (
            {state.current} if state.phase == Phase.TRADE and PENDING in state.answers else set()
        )
        clocks.follow(table.prompts, waiting=waiting, now=self.clock())


class Part:
    """One responsibility of the session, over the state all parts share: what it reads of
    :class:`Shared` is read there, through these names, never copied."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared

    @property
    def tables(self) -> dict[str, Table]:
        return self.shared.tables

    @property
    def conns(self) -> dict[ConnId, Connection]:
        return self.shared.conns

    @property
    def store(self) -> Store:
        return self.shared.store

    @property
    def clock(self) -> Callable[[], float]:
        return self.shared.clock

    @property
    def wall_clock(self) -> Callable[[], float]:
        return self.shared.wall_clock

    @property
    def takeover(self) -> TakeoverPolicy | None:
        return self.shared.takeover

    @property
    def limits(self) -> Limits:
        return self.shared.limits

    @property
    def outbox(self) -> Outbox:
        return self.shared.outbox

    @property
    def admission(self) -> Admission:
        return self.shared.admission

    @property
    def deputies(self) -> Deputies:
        return self.shared.deputies
