"""A stored game as a record, as ``tyros-server export`` writes it and ``get_record``
sends a finished game: the engine's record, the fairness proof, the decisions the server
made for a seat, the hints asked for, and the table talk."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from tyros_protocol.board import BOARD
from tyros_rules import EngineError, GameState, Options, export_record, new_game, parse_action, push

from .fairness import fairness
from .storage import Store, StoredTable


class StoreReader(Store):
    """A store's reads on a read-only connection of their own, for a thread that makes
    records beside the event loop's writes (WAL: it reads what was committed, while the
    writes go on). Every write is refused."""

    def __init__(self, path: str) -> None:  # (not Store's: it opens, checks, migrates)
        self.path = path
        uri = Path(path).absolute().as_uri() + "?mode=ro"
        self._db = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=2.0)
        self.broken = "a reader does not write"
        self._settle = None
        self.commits = 0


class RecordUnavailable(ValueError):
    """A stored table that gives no record: unknown, never started, or not replayable."""


def stored_game(store: Store, table: str) -> tuple[StoredTable, GameState]:
    """A stored table and its game replayed to where it stands. Raises
    :class:`RecordUnavailable`."""
    stored = store.load_table(table)
    if stored is None:
        raise RecordUnavailable(f"no table named {table!r}")
    if len(stored.seats) < stored.options["players"]:
        raise RecordUnavailable(f"table {table!r} never started")
    state = new_game(Options(**stored.options))
    try:
        for seat, action in stored.actions:
            push(state, seat, parse_action(action, BOARD))
    except EngineError as exc:
        raise RecordUnavailable(f"table {table!r} does not replay: {exc}") from exc
    return stored, state


def stored_record(store: Store, table: str) -> dict[str, Any]:
    """A stored game as a record (as ``tyros-server export`` writes it): the engine's
    record with the fairness proof, the decisions the server made for a seat and the
    table talk beside it. Raises :class:`RecordUnavailable`."""
    stored, state = stored_game(store, table)
    record = export_record(state, [seat.name for seat in stored.seats])
    if stored.salt:
        record["fairness"] = fairness(state.options.seed, stored.salt, stored.finished)
    # Beside the record: the decisions the server made for a seat (its time ran out, or
    # a bot played for its absent owner), by the game version each led to ...
    record["decided_by"] = [
        {"version": at + 1, "seat": stored.actions[at][0], "by": by}
        for at, by in enumerate(stored.decided_by or [])
        if by is not None
    ]
    # ... the decisions made after their seat asked for a hint ...
    record["hints"] = stored.hints
    record["hinted"] = [
        {"version": at + 1, "seat": stored.actions[at][0]}
        for at, hinted in enumerate(stored.hinted or [])
        if hinted
    ]
    # ... and the table talk, each line with the game version it was said at.
    record["chat"] = [
        {key: line[key] for key in ("seq", "version", "seat", "name", "audience", "text")}
        for line in store.load_chat(table)
    ]
    return record
