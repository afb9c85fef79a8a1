"""What every part of the session shares: the tables, the connections, the store, the
clock, the limits, and the parts that the others use."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import Session


class Part:
    """One responsibility of the :class:`~.core.Session`, with the state all parts share
    (the same objects as the session's: no part copies them)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.tables = session.tables
        self.conns = session.conns
        self.store = session.store
        self.clock = session.clock
        self.limits = session.limits
        self.outbox = session.outbox
        self.admission = session.admission
        self.deputies = session.deputies
