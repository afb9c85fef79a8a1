"""A stored table as the store reads it back (:meth:`.storage.Store.load_table`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class StoredSeat:
    seat: int
    name: str
    token_digest: str
    program: bool = False


@dataclass(frozen=True, slots=True)
class StoredTable:
    name: str
    options: dict[str, Any]
    trade_seconds: int
    finished: bool
    seats: list[StoredSeat]
    salt: str
    """Mixed with the seed in the table's commitment (see :func:`seed_commitment`)."""
    actions: list[tuple[int, dict[str, Any]]]
    """(seat, action JSON) in the order they were accepted."""
    rules_version: int = 0
    """The engine's rules version the game is played under (0: from before versions)."""
    digests: list[str | None] | None = None
    """The digest of the state after each action (None where none was stored)."""
    clock: dict[str, int] | None = None
    """The table's clock (``decision`` and ``reserve`` seconds), if it has one."""
    decided_by: list[str | None] | None = None
    """For each action: ``clock`` or ``takeover`` if the server decided it, else None."""
    reserves: list[float | None] | None = None
    """For each action of a clocked table: the acting seat's reserve after it."""
    hints: bool = True
    """Whether the table's players may ask their client for hints."""
    hinted: list[bool] | None = None
    """For each action: whether its seat asked for a hint before making it."""
    bot_level: str | None = None
    """The level of the server's own bots at the table (None: none, or stored before
    levels were)."""
