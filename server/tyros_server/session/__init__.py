"""The sans-I/O session: every table of one server and the connections attached to them
(see :mod:`.core`; the parts are named there)."""

from ..deputies import Decision, TakeoverPolicy
from ..tables import ConnId, SeatSlot
from .admission import Connection, Limits
from .core import Session
from .outbox import Close, Output, Send

__all__ = [
    "Close",
    "ConnId",
    "Connection",
    "Decision",
    "Limits",
    "Output",
    "SeatSlot",
    "Send",
    "Session",
    "TakeoverPolicy",
]
